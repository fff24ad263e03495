from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.action_step_set_page_boxes_action_art_box import ActionStepSetPageBoxesActionArtBox
  from ..models.action_step_set_page_boxes_action_bleed_box import ActionStepSetPageBoxesActionBleedBox
  from ..models.action_step_set_page_boxes_action_crop_box import ActionStepSetPageBoxesActionCropBox
  from ..models.action_step_set_page_boxes_action_media_box import ActionStepSetPageBoxesActionMediaBox
  from ..models.action_step_set_page_boxes_action_trim_box import ActionStepSetPageBoxesActionTrimBox





T = TypeVar("T", bound="ActionStepSetPageBoxesAction")



@_attrs_define
class ActionStepSetPageBoxesAction:
    """ Sets the page boxes given (MediaBox, CropBox, BleedBox, TrimBox, ArtBox) on the pages; every box but the MediaBox
    must lie inside the MediaBox.

        Attributes:
            media_box (ActionStepSetPageBoxesActionMediaBox | Unset): A rectangle in the page's user space (points, origin
                at the lower left of the unrotated page, as the MediaBox)
            crop_box (ActionStepSetPageBoxesActionCropBox | Unset): A rectangle in the page's user space (points, origin at
                the lower left of the unrotated page, as the MediaBox)
            bleed_box (ActionStepSetPageBoxesActionBleedBox | Unset): A rectangle in the page's user space (points, origin
                at the lower left of the unrotated page, as the MediaBox)
            trim_box (ActionStepSetPageBoxesActionTrimBox | Unset): A rectangle in the page's user space (points, origin at
                the lower left of the unrotated page, as the MediaBox)
            art_box (ActionStepSetPageBoxesActionArtBox | Unset): A rectangle in the page's user space (points, origin at
                the lower left of the unrotated page, as the MediaBox)
            page_range (str | Unset): The pages to lay out (default: every page), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
     """

    media_box: ActionStepSetPageBoxesActionMediaBox | Unset = UNSET
    crop_box: ActionStepSetPageBoxesActionCropBox | Unset = UNSET
    bleed_box: ActionStepSetPageBoxesActionBleedBox | Unset = UNSET
    trim_box: ActionStepSetPageBoxesActionTrimBox | Unset = UNSET
    art_box: ActionStepSetPageBoxesActionArtBox | Unset = UNSET
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_step_set_page_boxes_action_art_box import ActionStepSetPageBoxesActionArtBox # noqa: PLC0415
        from ..models.action_step_set_page_boxes_action_bleed_box import ActionStepSetPageBoxesActionBleedBox # noqa: PLC0415
        from ..models.action_step_set_page_boxes_action_crop_box import ActionStepSetPageBoxesActionCropBox # noqa: PLC0415
        from ..models.action_step_set_page_boxes_action_media_box import ActionStepSetPageBoxesActionMediaBox # noqa: PLC0415
        from ..models.action_step_set_page_boxes_action_trim_box import ActionStepSetPageBoxesActionTrimBox # noqa: PLC0415
        media_box: dict[str, Any] | Unset = UNSET
        if not isinstance(self.media_box, Unset):
            media_box = self.media_box.to_dict()

        crop_box: dict[str, Any] | Unset = UNSET
        if not isinstance(self.crop_box, Unset):
            crop_box = self.crop_box.to_dict()

        bleed_box: dict[str, Any] | Unset = UNSET
        if not isinstance(self.bleed_box, Unset):
            bleed_box = self.bleed_box.to_dict()

        trim_box: dict[str, Any] | Unset = UNSET
        if not isinstance(self.trim_box, Unset):
            trim_box = self.trim_box.to_dict()

        art_box: dict[str, Any] | Unset = UNSET
        if not isinstance(self.art_box, Unset):
            art_box = self.art_box.to_dict()

        page_range = self.page_range


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if media_box is not UNSET:
            field_dict["MediaBox"] = media_box
        if crop_box is not UNSET:
            field_dict["CropBox"] = crop_box
        if bleed_box is not UNSET:
            field_dict["BleedBox"] = bleed_box
        if trim_box is not UNSET:
            field_dict["TrimBox"] = trim_box
        if art_box is not UNSET:
            field_dict["ArtBox"] = art_box
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_step_set_page_boxes_action_art_box import ActionStepSetPageBoxesActionArtBox # noqa: PLC0415
        from ..models.action_step_set_page_boxes_action_bleed_box import ActionStepSetPageBoxesActionBleedBox # noqa: PLC0415
        from ..models.action_step_set_page_boxes_action_crop_box import ActionStepSetPageBoxesActionCropBox # noqa: PLC0415
        from ..models.action_step_set_page_boxes_action_media_box import ActionStepSetPageBoxesActionMediaBox # noqa: PLC0415
        from ..models.action_step_set_page_boxes_action_trim_box import ActionStepSetPageBoxesActionTrimBox # noqa: PLC0415
        d = dict(src_dict)
        _media_box = d.pop("MediaBox", UNSET)
        media_box: ActionStepSetPageBoxesActionMediaBox | Unset
        if isinstance(_media_box,  Unset):
            media_box = UNSET
        else:
            media_box = ActionStepSetPageBoxesActionMediaBox.from_dict(_media_box)




        _crop_box = d.pop("CropBox", UNSET)
        crop_box: ActionStepSetPageBoxesActionCropBox | Unset
        if isinstance(_crop_box,  Unset):
            crop_box = UNSET
        else:
            crop_box = ActionStepSetPageBoxesActionCropBox.from_dict(_crop_box)




        _bleed_box = d.pop("BleedBox", UNSET)
        bleed_box: ActionStepSetPageBoxesActionBleedBox | Unset
        if isinstance(_bleed_box,  Unset):
            bleed_box = UNSET
        else:
            bleed_box = ActionStepSetPageBoxesActionBleedBox.from_dict(_bleed_box)




        _trim_box = d.pop("TrimBox", UNSET)
        trim_box: ActionStepSetPageBoxesActionTrimBox | Unset
        if isinstance(_trim_box,  Unset):
            trim_box = UNSET
        else:
            trim_box = ActionStepSetPageBoxesActionTrimBox.from_dict(_trim_box)




        _art_box = d.pop("ArtBox", UNSET)
        art_box: ActionStepSetPageBoxesActionArtBox | Unset
        if isinstance(_art_box,  Unset):
            art_box = UNSET
        else:
            art_box = ActionStepSetPageBoxesActionArtBox.from_dict(_art_box)




        page_range = d.pop("pageRange", UNSET)

        action_step_set_page_boxes_action = cls(
            media_box=media_box,
            crop_box=crop_box,
            bleed_box=bleed_box,
            trim_box=trim_box,
            art_box=art_box,
            page_range=page_range,
        )

        return action_step_set_page_boxes_action

