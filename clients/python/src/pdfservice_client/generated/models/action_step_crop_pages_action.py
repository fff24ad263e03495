from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.action_step_crop_pages_action_box import ActionStepCropPagesActionBox





T = TypeVar("T", bound="ActionStepCropPagesAction")



@_attrs_define
class ActionStepCropPagesAction:
    """ Sets the CropBox of the pages: to box, or (toContent: true) to the bounds of what each page draws, grown by margin,
    within the MediaBox. A page that draws nothing is left as it is.

        Attributes:
            box (ActionStepCropPagesActionBox | Unset): A rectangle in the page's user space (points, origin at the lower
                left of the unrotated page, as the MediaBox)
            to_content (bool | Unset): Crop to what the page draws (its content, annotations left out)
            margin (float | Unset): With toContent: points kept around the content (default 0)
            page_range (str | Unset): The pages to lay out (default: every page), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
     """

    box: ActionStepCropPagesActionBox | Unset = UNSET
    to_content: bool | Unset = UNSET
    margin: float | Unset = UNSET
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_step_crop_pages_action_box import ActionStepCropPagesActionBox # noqa: PLC0415
        box: dict[str, Any] | Unset = UNSET
        if not isinstance(self.box, Unset):
            box = self.box.to_dict()

        to_content = self.to_content

        margin = self.margin

        page_range = self.page_range


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if box is not UNSET:
            field_dict["box"] = box
        if to_content is not UNSET:
            field_dict["toContent"] = to_content
        if margin is not UNSET:
            field_dict["margin"] = margin
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_step_crop_pages_action_box import ActionStepCropPagesActionBox # noqa: PLC0415
        d = dict(src_dict)
        _box = d.pop("box", UNSET)
        box: ActionStepCropPagesActionBox | Unset
        if isinstance(_box,  Unset):
            box = UNSET
        else:
            box = ActionStepCropPagesActionBox.from_dict(_box)




        to_content = d.pop("toContent", UNSET)

        margin = d.pop("margin", UNSET)

        page_range = d.pop("pageRange", UNSET)

        action_step_crop_pages_action = cls(
            box=box,
            to_content=to_content,
            margin=margin,
            page_range=page_range,
        )

        return action_step_crop_pages_action

