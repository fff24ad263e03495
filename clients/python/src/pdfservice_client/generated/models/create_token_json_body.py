from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_token_json_body_rights_item import CreateTokenJsonBodyRightsItem
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="CreateTokenJsonBody")



@_attrs_define
class CreateTokenJsonBody:
    """ 
        Attributes:
            name (str): What the token is for (e.g. "nightly backup"; no control characters but tab, LF and CR)
            expires_at (datetime.datetime | Unset): When the token stops working; leave out (and expiresInSeconds) for a
                token that does not expire
            expires_in_seconds (int | Unset): Lifetime from now, instead of expiresAt
            rights (list[CreateTokenJsonBodyRightsItem] | Unset): Limit the token to these of your rights; leave out for all
                of your rights, whatever they are at each request
     """

    name: str
    expires_at: datetime.datetime | Unset = UNSET
    expires_in_seconds: int | Unset = UNSET
    rights: list[CreateTokenJsonBodyRightsItem] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        expires_in_seconds = self.expires_in_seconds

        rights: list[str] | Unset = UNSET
        if not isinstance(self.rights, Unset):
            rights = []
            for rights_item_data in self.rights:
                rights_item = rights_item_data.value
                rights.append(rights_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if expires_in_seconds is not UNSET:
            field_dict["expiresInSeconds"] = expires_in_seconds
        if rights is not UNSET:
            field_dict["rights"] = rights

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        _expires_at = d.pop("expiresAt", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at,  Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)




        expires_in_seconds = d.pop("expiresInSeconds", UNSET)

        _rights = d.pop("rights", UNSET)
        rights: list[CreateTokenJsonBodyRightsItem] | Unset = UNSET
        if _rights is not UNSET:
            rights = []
            for rights_item_data in _rights:
                rights_item = CreateTokenJsonBodyRightsItem(rights_item_data)



                rights.append(rights_item)


        create_token_json_body = cls(
            name=name,
            expires_at=expires_at,
            expires_in_seconds=expires_in_seconds,
            rights=rights,
        )

        return create_token_json_body

