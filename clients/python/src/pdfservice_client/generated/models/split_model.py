from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.split_model_documents_item import SplitModelDocumentsItem





T = TypeVar("T", bound="SplitModel")



@_attrs_define
class SplitModel:
    """ What SplitDocumentAction wrote (XML: <Split>): every document, in part order.

        Attributes:
            source (str): The document split, unchanged
            page_count (int): Pages of the source
            documents (list[SplitModelDocumentsItem]):
            blank_pages (list[int] | Unset): blankPages: the pages found blank (1-based), left out
     """

    source: str
    page_count: int
    documents: list[SplitModelDocumentsItem]
    blank_pages: list[int] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.split_model_documents_item import SplitModelDocumentsItem # noqa: PLC0415
        source = self.source

        page_count = self.page_count

        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)



        blank_pages: list[int] | Unset = UNSET
        if not isinstance(self.blank_pages, Unset):
            blank_pages = self.blank_pages




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "source": source,
            "pageCount": page_count,
            "documents": documents,
        })
        if blank_pages is not UNSET:
            field_dict["blankPages"] = blank_pages

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.split_model_documents_item import SplitModelDocumentsItem # noqa: PLC0415
        d = dict(src_dict)
        source = d.pop("source")

        page_count = d.pop("pageCount")

        documents = []
        _documents = d.pop("documents")
        for documents_item_data in (_documents):
            documents_item = SplitModelDocumentsItem.from_dict(documents_item_data)



            documents.append(documents_item)


        blank_pages = cast(list[int], d.pop("blankPages", UNSET))


        split_model = cls(
            source=source,
            page_count=page_count,
            documents=documents,
            blank_pages=blank_pages,
        )


        split_model.additional_properties = d
        return split_model

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
