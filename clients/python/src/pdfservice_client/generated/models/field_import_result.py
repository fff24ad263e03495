from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="FieldImportResult")



@_attrs_define
class FieldImportResult:
    """ FieldsImport (XML: <FieldsImport> with <set><name>…</name></set> and so on): what the import did

        Attributes:
            set_ (list[str]): Fully qualified names of the fields that were set
            unknown (list[str]): Names in the body that no field of the document has; nothing was done with them
            warnings (list[str]): What was dropped or simplified (JavaScript in an FDF, rich text, annotations)
     """

    set_: list[str]
    unknown: list[str]
    warnings: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        set_ = self.set_



        unknown = self.unknown



        warnings = self.warnings




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "set": set_,
            "unknown": unknown,
            "warnings": warnings,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        set_ = cast(list[str], d.pop("set"))


        unknown = cast(list[str], d.pop("unknown"))


        warnings = cast(list[str], d.pop("warnings"))


        field_import_result = cls(
            set_=set_,
            unknown=unknown,
            warnings=warnings,
        )


        field_import_result.additional_properties = d
        return field_import_result

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
