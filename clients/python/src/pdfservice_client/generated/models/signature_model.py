from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.signature_model_certification_level import SignatureModelCertificationLevel
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.signature_model_certificates_item import SignatureModelCertificatesItem





T = TypeVar("T", bound="SignatureModel")



@_attrs_define
class SignatureModel:
    """ The signature in a signed field, verified by the service

        Attributes:
            certification (bool): A certifying (DocMDP) signature
            byte_range (list[int]):
            covers_whole_file (bool): The signed ranges reach the end of the file (false once something was appended after
                this signature, which is normal for all but the last)
            integrity (bool): Computed by the service: the digest over the byte range matches the signed digest, and the
                signature verifies with the signer certificate it carries
            certificates (list[SignatureModelCertificatesItem]): The certificates the signature carries, the signer's first
            filter_ (str | Unset): /Filter, e.g. Adobe.PPKLite
            sub_filter (str | Unset): /SubFilter: adbe.pkcs7.detached, ETSI.CAdES.detached, ...
            signer (str | Unset): Subject of the signer certificate ("CN=…, O=…")
            signer_common_name (str | Unset):
            name (str | Unset): /Name of the signature dictionary
            signing_time (str | Unset): ISO 8601: /M, or the CMS signing-time attribute when /M is absent
            reason (str | Unset):
            location (str | Unset):
            contact_info (str | Unset):
            certification_level (SignatureModelCertificationLevel | Unset): 1 no changes, 2 form fill-in and signing, 3 as 2
                plus annotations
            integrity_reason (str | Unset): Why integrity is false
            digest_algorithm (str | Unset):
            signing_certificate_attribute (bool | Unset): A signing-certificate(-v2) attribute names the signer certificate
                (PAdES)
     """

    certification: bool
    byte_range: list[int]
    covers_whole_file: bool
    integrity: bool
    certificates: list[SignatureModelCertificatesItem]
    filter_: str | Unset = UNSET
    sub_filter: str | Unset = UNSET
    signer: str | Unset = UNSET
    signer_common_name: str | Unset = UNSET
    name: str | Unset = UNSET
    signing_time: str | Unset = UNSET
    reason: str | Unset = UNSET
    location: str | Unset = UNSET
    contact_info: str | Unset = UNSET
    certification_level: SignatureModelCertificationLevel | Unset = UNSET
    integrity_reason: str | Unset = UNSET
    digest_algorithm: str | Unset = UNSET
    signing_certificate_attribute: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.signature_model_certificates_item import SignatureModelCertificatesItem # noqa: PLC0415
        certification = self.certification

        byte_range = self.byte_range



        covers_whole_file = self.covers_whole_file

        integrity = self.integrity

        certificates = []
        for certificates_item_data in self.certificates:
            certificates_item = certificates_item_data.to_dict()
            certificates.append(certificates_item)



        filter_ = self.filter_

        sub_filter = self.sub_filter

        signer = self.signer

        signer_common_name = self.signer_common_name

        name = self.name

        signing_time = self.signing_time

        reason = self.reason

        location = self.location

        contact_info = self.contact_info

        certification_level: int | Unset = UNSET
        if not isinstance(self.certification_level, Unset):
            certification_level = self.certification_level.value


        integrity_reason = self.integrity_reason

        digest_algorithm = self.digest_algorithm

        signing_certificate_attribute = self.signing_certificate_attribute


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "certification": certification,
            "byteRange": byte_range,
            "coversWholeFile": covers_whole_file,
            "integrity": integrity,
            "certificates": certificates,
        })
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if sub_filter is not UNSET:
            field_dict["subFilter"] = sub_filter
        if signer is not UNSET:
            field_dict["signer"] = signer
        if signer_common_name is not UNSET:
            field_dict["signerCommonName"] = signer_common_name
        if name is not UNSET:
            field_dict["name"] = name
        if signing_time is not UNSET:
            field_dict["signingTime"] = signing_time
        if reason is not UNSET:
            field_dict["reason"] = reason
        if location is not UNSET:
            field_dict["location"] = location
        if contact_info is not UNSET:
            field_dict["contactInfo"] = contact_info
        if certification_level is not UNSET:
            field_dict["certificationLevel"] = certification_level
        if integrity_reason is not UNSET:
            field_dict["integrityReason"] = integrity_reason
        if digest_algorithm is not UNSET:
            field_dict["digestAlgorithm"] = digest_algorithm
        if signing_certificate_attribute is not UNSET:
            field_dict["signingCertificateAttribute"] = signing_certificate_attribute

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.signature_model_certificates_item import SignatureModelCertificatesItem # noqa: PLC0415
        d = dict(src_dict)
        certification = d.pop("certification")

        byte_range = cast(list[int], d.pop("byteRange"))


        covers_whole_file = d.pop("coversWholeFile")

        integrity = d.pop("integrity")

        certificates = []
        _certificates = d.pop("certificates")
        for certificates_item_data in (_certificates):
            certificates_item = SignatureModelCertificatesItem.from_dict(certificates_item_data)



            certificates.append(certificates_item)


        filter_ = d.pop("filter", UNSET)

        sub_filter = d.pop("subFilter", UNSET)

        signer = d.pop("signer", UNSET)

        signer_common_name = d.pop("signerCommonName", UNSET)

        name = d.pop("name", UNSET)

        signing_time = d.pop("signingTime", UNSET)

        reason = d.pop("reason", UNSET)

        location = d.pop("location", UNSET)

        contact_info = d.pop("contactInfo", UNSET)

        _certification_level = d.pop("certificationLevel", UNSET)
        certification_level: SignatureModelCertificationLevel | Unset
        if isinstance(_certification_level,  Unset):
            certification_level = UNSET
        else:
            certification_level = SignatureModelCertificationLevel(_certification_level)




        integrity_reason = d.pop("integrityReason", UNSET)

        digest_algorithm = d.pop("digestAlgorithm", UNSET)

        signing_certificate_attribute = d.pop("signingCertificateAttribute", UNSET)

        signature_model = cls(
            certification=certification,
            byte_range=byte_range,
            covers_whole_file=covers_whole_file,
            integrity=integrity,
            certificates=certificates,
            filter_=filter_,
            sub_filter=sub_filter,
            signer=signer,
            signer_common_name=signer_common_name,
            name=name,
            signing_time=signing_time,
            reason=reason,
            location=location,
            contact_info=contact_info,
            certification_level=certification_level,
            integrity_reason=integrity_reason,
            digest_algorithm=digest_algorithm,
            signing_certificate_attribute=signing_certificate_attribute,
        )


        signature_model.additional_properties = d
        return signature_model

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
