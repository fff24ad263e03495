from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_page_action_json_body_crop_pages_action_naming_mode import RunPageActionJsonBodyCropPagesActionNamingMode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.run_page_action_json_body_crop_pages_action_box import RunPageActionJsonBodyCropPagesActionBox





T = TypeVar("T", bound="RunPageActionJsonBodyCropPagesAction")



@_attrs_define
class RunPageActionJsonBodyCropPagesAction:
    """ Sets the CropBox of the pages: to box, or (toContent: true) to the bounds of what each page draws, grown by margin,
    within the MediaBox. A page that draws nothing is left as it is.

        Attributes:
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (RunPageActionJsonBodyCropPagesActionNamingMode | Unset): When savePath exists: 0 fail with 409
                (default), 1 overwrite, 2 append a random number to the name. Default:
                RunPageActionJsonBodyCropPagesActionNamingMode.VALUE_0.
            box (RunPageActionJsonBodyCropPagesActionBox | Unset): A rectangle in the page's user space (points, origin at
                the lower left of the unrotated page, as the MediaBox)
            to_content (bool | Unset): Crop to what the page draws (its content, annotations left out)
            margin (float | Unset): With toContent: points kept around the content (default 0)
            page_range (str | Unset): The pages to lay out (default: every page), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
     """

    save_path: str | Unset = UNSET
    naming_mode: RunPageActionJsonBodyCropPagesActionNamingMode | Unset = RunPageActionJsonBodyCropPagesActionNamingMode.VALUE_0
    box: RunPageActionJsonBodyCropPagesActionBox | Unset = UNSET
    to_content: bool | Unset = UNSET
    margin: float | Unset = UNSET
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.run_page_action_json_body_crop_pages_action_box import RunPageActionJsonBodyCropPagesActionBox # noqa: PLC0415
        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        box: dict[str, Any] | Unset = UNSET
        if not isinstance(self.box, Unset):
            box = self.box.to_dict()

        to_content = self.to_content

        margin = self.margin

        page_range = self.page_range


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
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
        from ..models.run_page_action_json_body_crop_pages_action_box import RunPageActionJsonBodyCropPagesActionBox # noqa: PLC0415
        d = dict(src_dict)
        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: RunPageActionJsonBodyCropPagesActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = RunPageActionJsonBodyCropPagesActionNamingMode(_naming_mode)




        _box = d.pop("box", UNSET)
        box: RunPageActionJsonBodyCropPagesActionBox | Unset
        if isinstance(_box,  Unset):
            box = UNSET
        else:
            box = RunPageActionJsonBodyCropPagesActionBox.from_dict(_box)




        to_content = d.pop("toContent", UNSET)

        margin = d.pop("margin", UNSET)

        page_range = d.pop("pageRange", UNSET)

        run_page_action_json_body_crop_pages_action = cls(
            save_path=save_path,
            naming_mode=naming_mode,
            box=box,
            to_content=to_content,
            margin=margin,
            page_range=page_range,
        )

        return run_page_action_json_body_crop_pages_action

