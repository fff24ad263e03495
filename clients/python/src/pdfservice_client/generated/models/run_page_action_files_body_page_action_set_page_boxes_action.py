from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_page_action_files_body_page_action_set_page_boxes_action_naming_mode import RunPageActionFilesBodyPageActionSetPageBoxesActionNamingMode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.run_page_action_files_body_page_action_set_page_boxes_action_art_box import RunPageActionFilesBodyPageActionSetPageBoxesActionArtBox
  from ..models.run_page_action_files_body_page_action_set_page_boxes_action_bleed_box import RunPageActionFilesBodyPageActionSetPageBoxesActionBleedBox
  from ..models.run_page_action_files_body_page_action_set_page_boxes_action_crop_box import RunPageActionFilesBodyPageActionSetPageBoxesActionCropBox
  from ..models.run_page_action_files_body_page_action_set_page_boxes_action_media_box import RunPageActionFilesBodyPageActionSetPageBoxesActionMediaBox
  from ..models.run_page_action_files_body_page_action_set_page_boxes_action_trim_box import RunPageActionFilesBodyPageActionSetPageBoxesActionTrimBox





T = TypeVar("T", bound="RunPageActionFilesBodyPageActionSetPageBoxesAction")



@_attrs_define
class RunPageActionFilesBodyPageActionSetPageBoxesAction:
    """ Sets the page boxes given (MediaBox, CropBox, BleedBox, TrimBox, ArtBox) on the pages; every box but the MediaBox
    must lie inside the MediaBox.

        Attributes:
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (RunPageActionFilesBodyPageActionSetPageBoxesActionNamingMode | Unset): When savePath exists: 0 fail
                with 409 (default), 1 overwrite, 2 append a random number to the name. Default:
                RunPageActionFilesBodyPageActionSetPageBoxesActionNamingMode.VALUE_0.
            media_box (RunPageActionFilesBodyPageActionSetPageBoxesActionMediaBox | Unset): A rectangle in the page's user
                space (points, origin at the lower left of the unrotated page, as the MediaBox)
            crop_box (RunPageActionFilesBodyPageActionSetPageBoxesActionCropBox | Unset): A rectangle in the page's user
                space (points, origin at the lower left of the unrotated page, as the MediaBox)
            bleed_box (RunPageActionFilesBodyPageActionSetPageBoxesActionBleedBox | Unset): A rectangle in the page's user
                space (points, origin at the lower left of the unrotated page, as the MediaBox)
            trim_box (RunPageActionFilesBodyPageActionSetPageBoxesActionTrimBox | Unset): A rectangle in the page's user
                space (points, origin at the lower left of the unrotated page, as the MediaBox)
            art_box (RunPageActionFilesBodyPageActionSetPageBoxesActionArtBox | Unset): A rectangle in the page's user space
                (points, origin at the lower left of the unrotated page, as the MediaBox)
            page_range (str | Unset): The pages to lay out (default: every page), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
     """

    save_path: str | Unset = UNSET
    naming_mode: RunPageActionFilesBodyPageActionSetPageBoxesActionNamingMode | Unset = RunPageActionFilesBodyPageActionSetPageBoxesActionNamingMode.VALUE_0
    media_box: RunPageActionFilesBodyPageActionSetPageBoxesActionMediaBox | Unset = UNSET
    crop_box: RunPageActionFilesBodyPageActionSetPageBoxesActionCropBox | Unset = UNSET
    bleed_box: RunPageActionFilesBodyPageActionSetPageBoxesActionBleedBox | Unset = UNSET
    trim_box: RunPageActionFilesBodyPageActionSetPageBoxesActionTrimBox | Unset = UNSET
    art_box: RunPageActionFilesBodyPageActionSetPageBoxesActionArtBox | Unset = UNSET
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action_art_box import RunPageActionFilesBodyPageActionSetPageBoxesActionArtBox # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action_bleed_box import RunPageActionFilesBodyPageActionSetPageBoxesActionBleedBox # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action_crop_box import RunPageActionFilesBodyPageActionSetPageBoxesActionCropBox # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action_media_box import RunPageActionFilesBodyPageActionSetPageBoxesActionMediaBox # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action_trim_box import RunPageActionFilesBodyPageActionSetPageBoxesActionTrimBox # noqa: PLC0415
        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


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
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
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
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action_art_box import RunPageActionFilesBodyPageActionSetPageBoxesActionArtBox # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action_bleed_box import RunPageActionFilesBodyPageActionSetPageBoxesActionBleedBox # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action_crop_box import RunPageActionFilesBodyPageActionSetPageBoxesActionCropBox # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action_media_box import RunPageActionFilesBodyPageActionSetPageBoxesActionMediaBox # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action_trim_box import RunPageActionFilesBodyPageActionSetPageBoxesActionTrimBox # noqa: PLC0415
        d = dict(src_dict)
        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: RunPageActionFilesBodyPageActionSetPageBoxesActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = RunPageActionFilesBodyPageActionSetPageBoxesActionNamingMode(_naming_mode)




        _media_box = d.pop("MediaBox", UNSET)
        media_box: RunPageActionFilesBodyPageActionSetPageBoxesActionMediaBox | Unset
        if isinstance(_media_box,  Unset):
            media_box = UNSET
        else:
            media_box = RunPageActionFilesBodyPageActionSetPageBoxesActionMediaBox.from_dict(_media_box)




        _crop_box = d.pop("CropBox", UNSET)
        crop_box: RunPageActionFilesBodyPageActionSetPageBoxesActionCropBox | Unset
        if isinstance(_crop_box,  Unset):
            crop_box = UNSET
        else:
            crop_box = RunPageActionFilesBodyPageActionSetPageBoxesActionCropBox.from_dict(_crop_box)




        _bleed_box = d.pop("BleedBox", UNSET)
        bleed_box: RunPageActionFilesBodyPageActionSetPageBoxesActionBleedBox | Unset
        if isinstance(_bleed_box,  Unset):
            bleed_box = UNSET
        else:
            bleed_box = RunPageActionFilesBodyPageActionSetPageBoxesActionBleedBox.from_dict(_bleed_box)




        _trim_box = d.pop("TrimBox", UNSET)
        trim_box: RunPageActionFilesBodyPageActionSetPageBoxesActionTrimBox | Unset
        if isinstance(_trim_box,  Unset):
            trim_box = UNSET
        else:
            trim_box = RunPageActionFilesBodyPageActionSetPageBoxesActionTrimBox.from_dict(_trim_box)




        _art_box = d.pop("ArtBox", UNSET)
        art_box: RunPageActionFilesBodyPageActionSetPageBoxesActionArtBox | Unset
        if isinstance(_art_box,  Unset):
            art_box = UNSET
        else:
            art_box = RunPageActionFilesBodyPageActionSetPageBoxesActionArtBox.from_dict(_art_box)




        page_range = d.pop("pageRange", UNSET)

        run_page_action_files_body_page_action_set_page_boxes_action = cls(
            save_path=save_path,
            naming_mode=naming_mode,
            media_box=media_box,
            crop_box=crop_box,
            bleed_box=bleed_box,
            trim_box=trim_box,
            art_box=art_box,
            page_range=page_range,
        )

        return run_page_action_files_body_page_action_set_page_boxes_action

