from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="RunPageActionJsonBodyPageNumbersActionDocumentsItem")



@_attrs_define
class RunPageActionJsonBodyPageNumbersActionDocumentsItem:
    """ 
        Attributes:
            file_path (str): Path of a document on the server ("folder/name.pdf")
            page_range (str | Unset): Its pages numbered, 1-based (default: all); not empty
            password (str | Unset): Its password, when it is encrypted
     """

    file_path: str
    page_range: str | Unset = UNSET
    password: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        file_path = self.file_path

        page_range = self.page_range

        password = self.password


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "filePath": file_path,
        })
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file_path = d.pop("filePath")

        page_range = d.pop("pageRange", UNSET)

        password = d.pop("password", UNSET)

        run_page_action_json_body_page_numbers_action_documents_item = cls(
            file_path=file_path,
            page_range=page_range,
            password=password,
        )

        return run_page_action_json_body_page_numbers_action_documents_item

