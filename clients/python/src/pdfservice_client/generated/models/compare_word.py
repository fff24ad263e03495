from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.rectangle import Rectangle





T = TypeVar("T", bound="CompareWord")



@_attrs_define
class CompareWord:
    """ 
        Attributes:
            text (str):
            rectangle (Rectangle): PDF user space, points, origin at the lower left of the page
     """

    text: str
    rectangle: Rectangle
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.rectangle import Rectangle # noqa: PLC0415
        text = self.text

        rectangle = self.rectangle.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "text": text,
            "rectangle": rectangle,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rectangle import Rectangle # noqa: PLC0415
        d = dict(src_dict)
        text = d.pop("text")

        rectangle = Rectangle.from_dict(d.pop("rectangle"))




        compare_word = cls(
            text=text,
            rectangle=rectangle,
        )


        compare_word.additional_properties = d
        return compare_word

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
