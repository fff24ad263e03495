from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepInsertUploadedPagesAction")



@_attrs_define
class ActionStepInsertUploadedPagesAction:
    """ Inserts pages of another document stored on the server (appendFilePath) at pageIndex (default: at the end), with
    their annotations, links between them and form fields (clashing field names get "_2", "_3", ...).

        Attributes:
            append_file_path (str): Path of a document on the server ("folder/name.pdf")
            append_password (str | Unset): Password of the document whose pages are inserted, when it is encrypted
            page_range (str | Unset): The pages of that document to insert (default: all), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
            page_index (int | Unset): Zero-based position the new pages take (0: before the first page); absent: at the end
     """

    append_file_path: str
    append_password: str | Unset = UNSET
    page_range: str | Unset = UNSET
    page_index: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        append_file_path = self.append_file_path

        append_password = self.append_password

        page_range = self.page_range

        page_index = self.page_index


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "appendFilePath": append_file_path,
        })
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

        append_password = d.pop("appendPassword", UNSET)

        page_range = d.pop("pageRange", UNSET)

        page_index = d.pop("pageIndex", UNSET)

        action_step_insert_uploaded_pages_action = cls(
            append_file_path=append_file_path,
            append_password=append_password,
            page_range=page_range,
            page_index=page_index,
        )

        return action_step_insert_uploaded_pages_action

