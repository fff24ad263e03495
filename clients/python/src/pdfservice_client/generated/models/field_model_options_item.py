from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="FieldModelOptionsItem")



@_attrs_define
class FieldModelOptionsItem:
    """ 
        Attributes:
            export_value (str | Unset):
            display_text (str | Unset):
     """

    export_value: str | Unset = UNSET
    display_text: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        export_value = self.export_value

        display_text = self.display_text


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if export_value is not UNSET:
            field_dict["exportValue"] = export_value
        if display_text is not UNSET:
            field_dict["displayText"] = display_text

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        export_value = d.pop("exportValue", UNSET)

        display_text = d.pop("displayText", UNSET)

        field_model_options_item = cls(
            export_value=export_value,
            display_text=display_text,
        )


        field_model_options_item.additional_properties = d
        return field_model_options_item

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
