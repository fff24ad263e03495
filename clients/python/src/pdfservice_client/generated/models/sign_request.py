from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.sign_request_certifying_permissions import SignRequestCertifyingPermissions
from ..models.sign_request_sub_filter import SignRequestSubFilter
from ..types import UNSET, Unset






T = TypeVar("T", bound="SignRequest")



@_attrs_define
class SignRequest:
    """ The `signature` part of a signing request

        Attributes:
            keystore_password (str | Unset): Password of the PKCS#12 key store
            key_alias (str | Unset): Which key (its friendly name); needed when the store holds several
            key_password (str | Unset): Password of the private key, when it differs from the store's
            certifying_signature (bool | Unset): A certification (DocMDP) signature; only as the first signature Default:
                False.
            certifying_permissions (SignRequestCertifyingPermissions | Unset): 1 no changes, 2 form fill-in and signing, 3
                as 2 plus annotations Default: SignRequestCertifyingPermissions.VALUE_2.
            sign_reason (str | Unset):
            sign_location (str | Unset):
            sign_contact_information (str | Unset):
            sub_filter (SignRequestSubFilter | Unset): ETSI.CAdES.detached: PAdES baseline B (signing-certificate-v2
                attribute, no signing-time attribute) Default: SignRequestSubFilter.ADBE_PKCS7_DETACHED.
            create_field (bool | Unset): Create an invisible signature field when none has that name (404 otherwise)
                Default: False.
     """

    keystore_password: str | Unset = UNSET
    key_alias: str | Unset = UNSET
    key_password: str | Unset = UNSET
    certifying_signature: bool | Unset = False
    certifying_permissions: SignRequestCertifyingPermissions | Unset = SignRequestCertifyingPermissions.VALUE_2
    sign_reason: str | Unset = UNSET
    sign_location: str | Unset = UNSET
    sign_contact_information: str | Unset = UNSET
    sub_filter: SignRequestSubFilter | Unset = SignRequestSubFilter.ADBE_PKCS7_DETACHED
    create_field: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        keystore_password = self.keystore_password

        key_alias = self.key_alias

        key_password = self.key_password

        certifying_signature = self.certifying_signature

        certifying_permissions: int | Unset = UNSET
        if not isinstance(self.certifying_permissions, Unset):
            certifying_permissions = self.certifying_permissions.value


        sign_reason = self.sign_reason

        sign_location = self.sign_location

        sign_contact_information = self.sign_contact_information

        sub_filter: str | Unset = UNSET
        if not isinstance(self.sub_filter, Unset):
            sub_filter = self.sub_filter.value


        create_field = self.create_field


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if keystore_password is not UNSET:
            field_dict["keystorePassword"] = keystore_password
        if key_alias is not UNSET:
            field_dict["keyAlias"] = key_alias
        if key_password is not UNSET:
            field_dict["keyPassword"] = key_password
        if certifying_signature is not UNSET:
            field_dict["certifyingSignature"] = certifying_signature
        if certifying_permissions is not UNSET:
            field_dict["certifyingPermissions"] = certifying_permissions
        if sign_reason is not UNSET:
            field_dict["signReason"] = sign_reason
        if sign_location is not UNSET:
            field_dict["signLocation"] = sign_location
        if sign_contact_information is not UNSET:
            field_dict["signContactInformation"] = sign_contact_information
        if sub_filter is not UNSET:
            field_dict["subFilter"] = sub_filter
        if create_field is not UNSET:
            field_dict["createField"] = create_field

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        keystore_password = d.pop("keystorePassword", UNSET)

        key_alias = d.pop("keyAlias", UNSET)

        key_password = d.pop("keyPassword", UNSET)

        certifying_signature = d.pop("certifyingSignature", UNSET)

        _certifying_permissions = d.pop("certifyingPermissions", UNSET)
        certifying_permissions: SignRequestCertifyingPermissions | Unset
        if isinstance(_certifying_permissions,  Unset):
            certifying_permissions = UNSET
        else:
            certifying_permissions = SignRequestCertifyingPermissions(_certifying_permissions)




        sign_reason = d.pop("signReason", UNSET)

        sign_location = d.pop("signLocation", UNSET)

        sign_contact_information = d.pop("signContactInformation", UNSET)

        _sub_filter = d.pop("subFilter", UNSET)
        sub_filter: SignRequestSubFilter | Unset
        if isinstance(_sub_filter,  Unset):
            sub_filter = UNSET
        else:
            sub_filter = SignRequestSubFilter(_sub_filter)




        create_field = d.pop("createField", UNSET)

        sign_request = cls(
            keystore_password=keystore_password,
            key_alias=key_alias,
            key_password=key_password,
            certifying_signature=certifying_signature,
            certifying_permissions=certifying_permissions,
            sign_reason=sign_reason,
            sign_location=sign_location,
            sign_contact_information=sign_contact_information,
            sub_filter=sub_filter,
            create_field=create_field,
        )

        return sign_request

