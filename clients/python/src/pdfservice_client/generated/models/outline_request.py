from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.outline_item_request import OutlineItemRequest





T = TypeVar("T", bound="OutlineRequest")



@_attrs_define
class OutlineRequest:
    """ The whole outline to write (XML: <Outline>). An empty items list removes the outline. At most 10000 items in all and
    64 levels (400 OUTLINE_TOO_LARGE).

        Attributes:
            items (list[OutlineItemRequest]):
            item_count (int | Unset): Read only: ignored (a model read may be sent back as it is)
            warnings (list[str] | Unset): Read only: ignored
     """

    items: list[OutlineItemRequest]
    item_count: int | Unset = UNSET
    warnings: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.outline_item_request import OutlineItemRequest # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        item_count = self.item_count

        warnings: list[str] | Unset = UNSET
        if not isinstance(self.warnings, Unset):
            warnings = self.warnings




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "items": items,
        })
        if item_count is not UNSET:
            field_dict["itemCount"] = item_count
        if warnings is not UNSET:
            field_dict["warnings"] = warnings

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.outline_item_request import OutlineItemRequest # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = OutlineItemRequest.from_dict(items_item_data)



            items.append(items_item)


        item_count = d.pop("itemCount", UNSET)

        warnings = cast(list[str], d.pop("warnings", UNSET))


        outline_request = cls(
            items=items,
            item_count=item_count,
            warnings=warnings,
        )

        return outline_request

