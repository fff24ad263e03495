from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_model_rights_item import SessionModelRightsItem
from ..models.session_model_via import SessionModelVia
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="SessionModel")



@_attrs_define
class SessionModel:
    """ SessionModel (XML: <Session>, rights as <rights><right>…</right></rights>): who is logged in, and until when.

        Attributes:
            username (str): The logged-in user
            rights (list[SessionModelRightsItem]): The user's rights as of now
            via (SessionModelVia): "session" for the SESSIONID cookie, "basic" for Authorization: Basic, "token" for
                Authorization: Bearer with an API token (rights: those the token has now), "oidc" for Authorization: Bearer with
                an OpenID Connect access token (rights: those PDFSERVICE_OIDC_RIGHTS maps its claim to)
            created_at (datetime.datetime | Unset): Login time (sessions only)
            expires_at (datetime.datetime | Unset): When the session ends if unused: the earlier of the idle and the
                absolute limit (sessions only)
            absolute_expires_at (datetime.datetime | Unset): When the session ends however it is used (sessions only)
     """

    username: str
    rights: list[SessionModelRightsItem]
    via: SessionModelVia
    created_at: datetime.datetime | Unset = UNSET
    expires_at: datetime.datetime | Unset = UNSET
    absolute_expires_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        username = self.username

        rights = []
        for rights_item_data in self.rights:
            rights_item = rights_item_data.value
            rights.append(rights_item)



        via = self.via.value

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        absolute_expires_at: str | Unset = UNSET
        if not isinstance(self.absolute_expires_at, Unset):
            absolute_expires_at = self.absolute_expires_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "username": username,
            "rights": rights,
            "via": via,
        })
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if absolute_expires_at is not UNSET:
            field_dict["absoluteExpiresAt"] = absolute_expires_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        username = d.pop("username")

        rights = []
        _rights = d.pop("rights")
        for rights_item_data in (_rights):
            rights_item = SessionModelRightsItem(rights_item_data)



            rights.append(rights_item)


        via = SessionModelVia(d.pop("via"))




        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at,  Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)




        _expires_at = d.pop("expiresAt", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at,  Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)




        _absolute_expires_at = d.pop("absoluteExpiresAt", UNSET)
        absolute_expires_at: datetime.datetime | Unset
        if isinstance(_absolute_expires_at,  Unset):
            absolute_expires_at = UNSET
        else:
            absolute_expires_at = datetime.datetime.fromisoformat(_absolute_expires_at)




        session_model = cls(
            username=username,
            rights=rights,
            via=via,
            created_at=created_at,
            expires_at=expires_at,
            absolute_expires_at=absolute_expires_at,
        )


        session_model.additional_properties = d
        return session_model

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
