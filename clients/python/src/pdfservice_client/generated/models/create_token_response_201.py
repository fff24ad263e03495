from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_token_response_201_rights_type_0_item import CreateTokenResponse201RightsType0Item
from typing import cast
import datetime






T = TypeVar("T", bound="CreateTokenResponse201")



@_attrs_define
class CreateTokenResponse201:
    """ The TokenModel and, once only, the secret token to send as Authorization: Bearer <token>.

        Attributes:
            token (str): The API token (pdfs_…). It is shown only in this answer; the service keeps only a hash of it
            id (str): The token's id: the 16 hex digits after "pdfs_" in the token itself; not a secret
            name (str): What the token is for, as given at creation
            rights (list[CreateTokenResponse201RightsType0Item] | None): The rights the token is limited to; null: all of
                its user's rights. Either way only rights the user still has apply
            created_at (datetime.datetime): When the token was created
            expires_at (datetime.datetime | None): When the token stops working (401 TOKEN_EXPIRED); null: never
            last_used_at (datetime.datetime | None): When the token was last used (recorded within a minute); null: never
                used
     """

    token: str
    id: str
    name: str
    rights: list[CreateTokenResponse201RightsType0Item] | None
    created_at: datetime.datetime
    expires_at: datetime.datetime | None
    last_used_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        id = self.id

        name = self.name

        rights: list[str] | None
        if isinstance(self.rights, list):
            rights = []
            for rights_type_0_item_data in self.rights:
                rights_type_0_item = rights_type_0_item_data.value
                rights.append(rights_type_0_item)


        else:
            rights = self.rights

        created_at = self.created_at.isoformat()

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        last_used_at: None | str
        if isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
            "id": id,
            "name": name,
            "rights": rights,
            "createdAt": created_at,
            "expiresAt": expires_at,
            "lastUsedAt": last_used_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        id = d.pop("id")

        name = d.pop("name")

        def _parse_rights(data: object) -> list[CreateTokenResponse201RightsType0Item] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                rights_type_0 = []
                _rights_type_0 = data
                for rights_type_0_item_data in (_rights_type_0):
                    rights_type_0_item = CreateTokenResponse201RightsType0Item(rights_type_0_item_data)



                    rights_type_0.append(rights_type_0_item)

                return rights_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[CreateTokenResponse201RightsType0Item] | None, data)

        rights = _parse_rights(d.pop("rights"))


        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expiresAt"))


        def _parse_last_used_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_used_at = _parse_last_used_at(d.pop("lastUsedAt"))


        create_token_response_201 = cls(
            token=token,
            id=id,
            name=name,
            rights=rights,
            created_at=created_at,
            expires_at=expires_at,
            last_used_at=last_used_at,
        )


        create_token_response_201.additional_properties = d
        return create_token_response_201

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
