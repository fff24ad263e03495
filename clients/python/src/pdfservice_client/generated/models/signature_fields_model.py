from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.signature_field_model import SignatureFieldModel





T = TypeVar("T", bound="SignatureFieldsModel")



@_attrs_define
class SignatureFieldsModel:
    """ SignatureFieldsModel (XML: <SignatureFields> with <signatureField> items)

        Attributes:
            signature_fields (list[SignatureFieldModel]):
     """

    signature_fields: list[SignatureFieldModel]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.signature_field_model import SignatureFieldModel # noqa: PLC0415
        signature_fields = []
        for signature_fields_item_data in self.signature_fields:
            signature_fields_item = signature_fields_item_data.to_dict()
            signature_fields.append(signature_fields_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "signatureFields": signature_fields,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.signature_field_model import SignatureFieldModel # noqa: PLC0415
        d = dict(src_dict)
        signature_fields = []
        _signature_fields = d.pop("signatureFields")
        for signature_fields_item_data in (_signature_fields):
            signature_fields_item = SignatureFieldModel.from_dict(signature_fields_item_data)



            signature_fields.append(signature_fields_item)


        signature_fields_model = cls(
            signature_fields=signature_fields,
        )


        signature_fields_model.additional_properties = d
        return signature_fields_model

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
