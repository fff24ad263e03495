from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.user_model_rights_item import UserModelRightsItem
from typing import cast
import datetime






T = TypeVar("T", bound="UserModel")



@_attrs_define
class UserModel:
    """ UserModel (XML: <User>, rights as <rights><right>…</right></rights>). Passwords are never returned.

        Attributes:
            username (str): User name
            rights (list[UserModelRightsItem]): The user's rights
            created_at (datetime.datetime): When the user was created
            updated_at (datetime.datetime): When the password or rights last changed
     """

    username: str
    rights: list[UserModelRightsItem]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        username = self.username

        rights = []
        for rights_item_data in self.rights:
            rights_item = rights_item_data.value
            rights.append(rights_item)



        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "username": username,
            "rights": rights,
            "createdAt": created_at,
            "updatedAt": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        username = d.pop("username")

        rights = []
        _rights = d.pop("rights")
        for rights_item_data in (_rights):
            rights_item = UserModelRightsItem(rights_item_data)



            rights.append(rights_item)


        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        user_model = cls(
            username=username,
            rights=rights,
            created_at=created_at,
            updated_at=updated_at,
        )


        user_model.additional_properties = d
        return user_model

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
