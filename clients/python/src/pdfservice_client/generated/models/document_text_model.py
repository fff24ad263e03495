from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.document_text_model_pages_item import DocumentTextModelPagesItem





T = TypeVar("T", bound="DocumentTextModel")



@_attrs_define
class DocumentTextModel:
    """ DocumentTextModel (XML: <DocumentText> with one <page> per page): every page's text, as in PageTextModel

        Attributes:
            pages (list[DocumentTextModelPagesItem]):
     """

    pages: list[DocumentTextModelPagesItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.document_text_model_pages_item import DocumentTextModelPagesItem # noqa: PLC0415
        pages = []
        for pages_item_data in self.pages:
            pages_item = pages_item_data.to_dict()
            pages.append(pages_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "pages": pages,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_text_model_pages_item import DocumentTextModelPagesItem # noqa: PLC0415
        d = dict(src_dict)
        pages = []
        _pages = d.pop("pages")
        for pages_item_data in (_pages):
            pages_item = DocumentTextModelPagesItem.from_dict(pages_item_data)



            pages.append(pages_item)


        document_text_model = cls(
            pages=pages,
        )


        document_text_model.additional_properties = d
        return document_text_model

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
