from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.folder_model_entries_item_type import FolderModelEntriesItemType
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="FolderModelEntriesItem")



@_attrs_define
class FolderModelEntriesItem:
    """ 
        Attributes:
            name (str):
            path (str):
            type_ (FolderModelEntriesItemType):
            modified (datetime.datetime):
            size (int | Unset):
            page_count (int | Unset): With ?details=true, when the document opens without a password
            encrypted (bool | Unset): With ?details=true
     """

    name: str
    path: str
    type_: FolderModelEntriesItemType
    modified: datetime.datetime
    size: int | Unset = UNSET
    page_count: int | Unset = UNSET
    encrypted: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        path = self.path

        type_ = self.type_.value

        modified = self.modified.isoformat()

        size = self.size

        page_count = self.page_count

        encrypted = self.encrypted


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "path": path,
            "type": type_,
            "modified": modified,
        })
        if size is not UNSET:
            field_dict["size"] = size
        if page_count is not UNSET:
            field_dict["pageCount"] = page_count
        if encrypted is not UNSET:
            field_dict["encrypted"] = encrypted

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        path = d.pop("path")

        type_ = FolderModelEntriesItemType(d.pop("type"))




        modified = datetime.datetime.fromisoformat(d.pop("modified"))




        size = d.pop("size", UNSET)

        page_count = d.pop("pageCount", UNSET)

        encrypted = d.pop("encrypted", UNSET)

        folder_model_entries_item = cls(
            name=name,
            path=path,
            type_=type_,
            modified=modified,
            size=size,
            page_count=page_count,
            encrypted=encrypted,
        )


        folder_model_entries_item.additional_properties = d
        return folder_model_entries_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
