from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.outline_item import OutlineItem





T = TypeVar("T", bound="OutlineModel")



@_attrs_define
class OutlineModel:
    """ OutlineModel (XML: <Outline>): the bookmarks as a tree.

        Attributes:
            items (list[OutlineItem]): The first level (XML: <items><item>..</item></items>)
            item_count (int): Items in the whole tree
            warnings (list[str]): What was left out of a damaged outline (a cycle, a destination naming no page, too deep),
                and why
     """

    items: list[OutlineItem]
    item_count: int
    warnings: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.outline_item import OutlineItem # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        item_count = self.item_count

        warnings = self.warnings




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "items": items,
            "itemCount": item_count,
            "warnings": warnings,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.outline_item import OutlineItem # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = OutlineItem.from_dict(items_item_data)



            items.append(items_item)


        item_count = d.pop("itemCount")

        warnings = cast(list[str], d.pop("warnings"))


        outline_model = cls(
            items=items,
            item_count=item_count,
            warnings=warnings,
        )


        outline_model.additional_properties = d
        return outline_model

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
