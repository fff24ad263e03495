from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="OutlineColor")



@_attrs_define
class OutlineColor:
    """ The title's colour (/C), RGB components from 0 to 1; absent: black

        Attributes:
            red (float):
            green (float):
            blue (float):
     """

    red: float
    green: float
    blue: float





    def to_dict(self) -> dict[str, Any]:
        red = self.red

        green = self.green

        blue = self.blue


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "red": red,
            "green": green,
            "blue": blue,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        red = d.pop("red")

        green = d.pop("green")

        blue = d.pop("blue")

        outline_color = cls(
            red=red,
            green=green,
            blue=blue,
        )

        return outline_color

