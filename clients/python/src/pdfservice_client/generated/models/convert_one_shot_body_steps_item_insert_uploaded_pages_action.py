from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.convert_one_shot_body_steps_item_insert_uploaded_pages_action_naming_mode import ConvertOneShotBodyStepsItemInsertUploadedPagesActionNamingMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConvertOneShotBodyStepsItemInsertUploadedPagesAction")



@_attrs_define
class ConvertOneShotBodyStepsItemInsertUploadedPagesAction:
    """ Inserts pages of another document stored on the server (appendFilePath) at pageIndex (default: at the end), with
    their annotations, links between them and form fields (clashing field names get "_2", "_3", ...).

        Attributes:
            append_file_path (str): Path of a document on the server ("folder/name.pdf")
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (ConvertOneShotBodyStepsItemInsertUploadedPagesActionNamingMode | Unset): When savePath exists: 0
                fail with 409 (default), 1 overwrite, 2 append a random number to the name. Default:
                ConvertOneShotBodyStepsItemInsertUploadedPagesActionNamingMode.VALUE_0.
            append_password (str | Unset): Password of the document whose pages are inserted, when it is encrypted
            page_range (str | Unset): The pages of that document to insert (default: all), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
            page_index (int | Unset): Zero-based position the new pages take (0: before the first page); absent: at the end
     """

    append_file_path: str
    save_path: str | Unset = UNSET
    naming_mode: ConvertOneShotBodyStepsItemInsertUploadedPagesActionNamingMode | Unset = ConvertOneShotBodyStepsItemInsertUploadedPagesActionNamingMode.VALUE_0
    append_password: str | Unset = UNSET
    page_range: str | Unset = UNSET
    page_index: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        append_file_path = self.append_file_path

        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        append_password = self.append_password

        page_range = self.page_range

        page_index = self.page_index


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "appendFilePath": append_file_path,
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
        append_file_path = d.pop("appendFilePath")

        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: ConvertOneShotBodyStepsItemInsertUploadedPagesActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = ConvertOneShotBodyStepsItemInsertUploadedPagesActionNamingMode(_naming_mode)




        append_password = d.pop("appendPassword", UNSET)

        page_range = d.pop("pageRange", UNSET)

        page_index = d.pop("pageIndex", UNSET)

        convert_one_shot_body_steps_item_insert_uploaded_pages_action = cls(
            append_file_path=append_file_path,
            save_path=save_path,
            naming_mode=naming_mode,
            append_password=append_password,
            page_range=page_range,
            page_index=page_index,
        )

        return convert_one_shot_body_steps_item_insert_uploaded_pages_action

