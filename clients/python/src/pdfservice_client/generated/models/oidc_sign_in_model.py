from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="OidcSignInModel")



@_attrs_define
class OidcSignInModel:
    """ Whether the console can sign in through the OpenID Connect issuer, and how.

        Attributes:
            enabled (bool): true when PDFSERVICE_OIDC_CLIENT_ID (with the issuer) is set
            name (str | Unset): The issuer's name for the button "Sign in with <name>" (PDFSERVICE_OIDC_DISPLAY_NAME)
            start (str | Unset): Where the browser goes to begin the sign-in (a navigation, not a fetch)
     """

    enabled: bool
    name: str | Unset = UNSET
    start: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        name = self.name

        start = self.start


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "enabled": enabled,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if start is not UNSET:
            field_dict["start"] = start

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        name = d.pop("name", UNSET)

        start = d.pop("start", UNSET)

        oidc_sign_in_model = cls(
            enabled=enabled,
            name=name,
            start=start,
        )


        oidc_sign_in_model.additional_properties = d
        return oidc_sign_in_model

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
