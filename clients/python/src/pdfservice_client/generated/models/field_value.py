from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="FieldValue")



@_attrs_define
class FieldValue:
    """ The value to set (XML: <Field><value>…</value></Field>; repeat <value> for a multi-select list)

        Attributes:
            value (list[str] | str): Text; a checkbox or radio state name, its export value or "Off"; a choice's export
                value; a list's export values
     """

    value: list[str] | str





    def to_dict(self) -> dict[str, Any]:
        value: list[str] | str
        if isinstance(self.value, list):
            value = self.value


        else:
            value = self.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "value": value,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_value(data: object) -> list[str] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                value_type_1 = cast(list[str], data)

                return value_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | str, data)

        value = _parse_value(d.pop("value"))


        field_value = cls(
            value=value,
        )

        return field_value

