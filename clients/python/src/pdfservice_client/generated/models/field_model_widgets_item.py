from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.rectangle import Rectangle





T = TypeVar("T", bound="FieldModelWidgetsItem")



@_attrs_define
class FieldModelWidgetsItem:
    """ 
        Attributes:
            page_index (int | Unset): -1 when the widget is on no page
            rectangle (Rectangle | Unset): PDF user space, points, origin at the lower left of the page
     """

    page_index: int | Unset = UNSET
    rectangle: Rectangle | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.rectangle import Rectangle # noqa: PLC0415
        page_index = self.page_index

        rectangle: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rectangle, Unset):
            rectangle = self.rectangle.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if rectangle is not UNSET:
            field_dict["rectangle"] = rectangle

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rectangle import Rectangle # noqa: PLC0415
        d = dict(src_dict)
        page_index = d.pop("pageIndex", UNSET)

        _rectangle = d.pop("rectangle", UNSET)
        rectangle: Rectangle | Unset
        if isinstance(_rectangle,  Unset):
            rectangle = UNSET
        else:
            rectangle = Rectangle.from_dict(_rectangle)




        field_model_widgets_item = cls(
            page_index=page_index,
            rectangle=rectangle,
        )


        field_model_widgets_item.additional_properties = d
        return field_model_widgets_item

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
