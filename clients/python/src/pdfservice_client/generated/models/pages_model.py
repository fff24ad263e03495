from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.page_model import PageModel





T = TypeVar("T", bound="PagesModel")



@_attrs_define
class PagesModel:
    """ PagesModel (XML: <Pages> with one <page> per page listed, then <total>, <offset>, <limit> and <next>/<prev>): at
    most limit pages from offset (default 1000, at most 10000); the Link header has the same next and prev

        Attributes:
            pages (list[PageModel]):
            total (int): Pages in the document
            offset (int):
            limit (int):
            next_ (str | Unset): URL of the next slice; absent on the last
            prev (str | Unset): URL of the previous slice; absent on the first
     """

    pages: list[PageModel]
    total: int
    offset: int
    limit: int
    next_: str | Unset = UNSET
    prev: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.page_model import PageModel # noqa: PLC0415
        pages = []
        for pages_item_data in self.pages:
            pages_item = pages_item_data.to_dict()
            pages.append(pages_item)



        total = self.total

        offset = self.offset

        limit = self.limit

        next_ = self.next_

        prev = self.prev


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "pages": pages,
            "total": total,
            "offset": offset,
            "limit": limit,
        })
        if next_ is not UNSET:
            field_dict["next"] = next_
        if prev is not UNSET:
            field_dict["prev"] = prev

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.page_model import PageModel # noqa: PLC0415
        d = dict(src_dict)
        pages = []
        _pages = d.pop("pages")
        for pages_item_data in (_pages):
            pages_item = PageModel.from_dict(pages_item_data)



            pages.append(pages_item)


        total = d.pop("total")

        offset = d.pop("offset")

        limit = d.pop("limit")

        next_ = d.pop("next", UNSET)

        prev = d.pop("prev", UNSET)

        pages_model = cls(
            pages=pages,
            total=total,
            offset=offset,
            limit=limit,
            next_=next_,
            prev=prev,
        )


        pages_model.additional_properties = d
        return pages_model

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
