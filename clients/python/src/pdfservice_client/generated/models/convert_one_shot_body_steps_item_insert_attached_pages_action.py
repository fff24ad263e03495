from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.convert_one_shot_body_steps_item_insert_attached_pages_action_naming_mode import ConvertOneShotBodyStepsItemInsertAttachedPagesActionNamingMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConvertOneShotBodyStepsItemInsertAttachedPagesAction")



@_attrs_define
class ConvertOneShotBodyStepsItemInsertAttachedPagesAction:
    """ Inserts pages of the PDF sent in another part of the multipart request at pageIndex (default: at the end), as
    InsertUploadedPagesAction does.

        Attributes:
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (ConvertOneShotBodyStepsItemInsertAttachedPagesActionNamingMode | Unset): When savePath exists: 0
                fail with 409 (default), 1 overwrite, 2 append a random number to the name. Default:
                ConvertOneShotBodyStepsItemInsertAttachedPagesActionNamingMode.VALUE_0.
            append_password (str | Unset): Password of the document whose pages are inserted, when it is encrypted
            page_range (str | Unset): The pages of the attached PDF to insert (default: all), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
            page_index (int | Unset): Zero-based position the new pages take (0: before the first page); absent: at the end
     """

    save_path: str | Unset = UNSET
    naming_mode: ConvertOneShotBodyStepsItemInsertAttachedPagesActionNamingMode | Unset = ConvertOneShotBodyStepsItemInsertAttachedPagesActionNamingMode.VALUE_0
    append_password: str | Unset = UNSET
    page_range: str | Unset = UNSET
    page_index: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        append_password = self.append_password

        page_range = self.page_range

        page_index = self.page_index


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
        if append_password is not UNSET:
            field_dict["appendPassword"] = append_password
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: ConvertOneShotBodyStepsItemInsertAttachedPagesActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = ConvertOneShotBodyStepsItemInsertAttachedPagesActionNamingMode(_naming_mode)




        append_password = d.pop("appendPassword", UNSET)

        page_range = d.pop("pageRange", UNSET)

        page_index = d.pop("pageIndex", UNSET)

        convert_one_shot_body_steps_item_insert_attached_pages_action = cls(
            save_path=save_path,
            naming_mode=naming_mode,
            append_password=append_password,
            page_range=page_range,
            page_index=page_index,
        )

        return convert_one_shot_body_steps_item_insert_attached_pages_action

