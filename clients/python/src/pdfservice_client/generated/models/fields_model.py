from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.field_model import FieldModel





T = TypeVar("T", bound="FieldsModel")



@_attrs_define
class FieldsModel:
    """ FieldsModel (XML: <Fields> with <field> items): every terminal field in field-tree order

        Attributes:
            fields (list[FieldModel]):
            has_xfa (bool): The document also has an XFA form; only its AcroForm part is read and written
            warnings (list[str] | Unset): After a reset: defaults a field could not take
     """

    fields: list[FieldModel]
    has_xfa: bool
    warnings: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.field_model import FieldModel # noqa: PLC0415
        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)



        has_xfa = self.has_xfa

        warnings: list[str] | Unset = UNSET
        if not isinstance(self.warnings, Unset):
            warnings = self.warnings




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "fields": fields,
            "hasXfa": has_xfa,
        })
        if warnings is not UNSET:
            field_dict["warnings"] = warnings

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field_model import FieldModel # noqa: PLC0415
        d = dict(src_dict)
        fields = []
        _fields = d.pop("fields")
        for fields_item_data in (_fields):
            fields_item = FieldModel.from_dict(fields_item_data)



            fields.append(fields_item)


        has_xfa = d.pop("hasXfa")

        warnings = cast(list[str], d.pop("warnings", UNSET))


        fields_model = cls(
            fields=fields,
            has_xfa=has_xfa,
            warnings=warnings,
        )


        fields_model.additional_properties = d
        return fields_model

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
