from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="SplitModelDocumentsItem")



@_attrs_define
class SplitModelDocumentsItem:
    """ 
        Attributes:
            path (str):
            name (str):
            pages (str): Its pages in the source, 1-based, as a page range ("4-6")
            page_count (int):
            size (int): Bytes
            etag (str):
            created (bool): false: an existing document was overwritten (namingMode 1)
            title (str | Unset): The top-level bookmark the part starts at (bookmarks)
            oversized (bool | Unset): maxBytes: one page larger than maxBytes by itself
     """

    path: str
    name: str
    pages: str
    page_count: int
    size: int
    etag: str
    created: bool
    title: str | Unset = UNSET
    oversized: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        path = self.path

        name = self.name

        pages = self.pages

        page_count = self.page_count

        size = self.size

        etag = self.etag

        created = self.created

        title = self.title

        oversized = self.oversized


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "path": path,
            "name": name,
            "pages": pages,
            "pageCount": page_count,
            "size": size,
            "etag": etag,
            "created": created,
        })
        if title is not UNSET:
            field_dict["title"] = title
        if oversized is not UNSET:
            field_dict["oversized"] = oversized

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        path = d.pop("path")

        name = d.pop("name")

        pages = d.pop("pages")

        page_count = d.pop("pageCount")

        size = d.pop("size")

        etag = d.pop("etag")

        created = d.pop("created")

        title = d.pop("title", UNSET)

        oversized = d.pop("oversized", UNSET)

        split_model_documents_item = cls(
            path=path,
            name=name,
            pages=pages,
            page_count=page_count,
            size=size,
            etag=etag,
            created=created,
            title=title,
            oversized=oversized,
        )


        split_model_documents_item.additional_properties = d
        return split_model_documents_item

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
