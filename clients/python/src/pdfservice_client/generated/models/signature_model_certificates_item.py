from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="SignatureModelCertificatesItem")



@_attrs_define
class SignatureModelCertificatesItem:
    """ 
        Attributes:
            subject (str | Unset):
            issuer (str | Unset):
            serial_number (str | Unset): Hexadecimal
            valid_from (datetime.datetime | Unset):
            valid_to (datetime.datetime | Unset):
     """

    subject: str | Unset = UNSET
    issuer: str | Unset = UNSET
    serial_number: str | Unset = UNSET
    valid_from: datetime.datetime | Unset = UNSET
    valid_to: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        subject = self.subject

        issuer = self.issuer

        serial_number = self.serial_number

        valid_from: str | Unset = UNSET
        if not isinstance(self.valid_from, Unset):
            valid_from = self.valid_from.isoformat()

        valid_to: str | Unset = UNSET
        if not isinstance(self.valid_to, Unset):
            valid_to = self.valid_to.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if subject is not UNSET:
            field_dict["subject"] = subject
        if issuer is not UNSET:
            field_dict["issuer"] = issuer
        if serial_number is not UNSET:
            field_dict["serialNumber"] = serial_number
        if valid_from is not UNSET:
            field_dict["validFrom"] = valid_from
        if valid_to is not UNSET:
            field_dict["validTo"] = valid_to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        subject = d.pop("subject", UNSET)

        issuer = d.pop("issuer", UNSET)

        serial_number = d.pop("serialNumber", UNSET)

        _valid_from = d.pop("validFrom", UNSET)
        valid_from: datetime.datetime | Unset
        if isinstance(_valid_from,  Unset):
            valid_from = UNSET
        else:
            valid_from = datetime.datetime.fromisoformat(_valid_from)




        _valid_to = d.pop("validTo", UNSET)
        valid_to: datetime.datetime | Unset
        if isinstance(_valid_to,  Unset):
            valid_to = UNSET
        else:
            valid_to = datetime.datetime.fromisoformat(_valid_to)




        signature_model_certificates_item = cls(
            subject=subject,
            issuer=issuer,
            serial_number=serial_number,
            valid_from=valid_from,
            valid_to=valid_to,
        )


        signature_model_certificates_item.additional_properties = d
        return signature_model_certificates_item

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
