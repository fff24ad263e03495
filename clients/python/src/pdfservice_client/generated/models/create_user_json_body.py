from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_user_json_body_rights_item import CreateUserJsonBodyRightsItem
from typing import cast






T = TypeVar("T", bound="CreateUserJsonBody")



@_attrs_define
class CreateUserJsonBody:
    """ 
        Attributes:
            username (str): 1 to 64 characters among A-Z a-z 0-9 . _ @ -, not starting with "."; case-sensitive
            password (str): The password, 8 to 1024 characters, no control characters but tab, LF and CR; stored only as a
                scrypt hash
            rights (list[CreateUserJsonBodyRightsItem]): HTTP methods the user may use (HEAD goes with GET), plus "admin"
                for user management. Duplicates are ignored.
     """

    username: str
    password: str
    rights: list[CreateUserJsonBodyRightsItem]





    def to_dict(self) -> dict[str, Any]:
        username = self.username

        password = self.password

        rights = []
        for rights_item_data in self.rights:
            rights_item = rights_item_data.value
            rights.append(rights_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "username": username,
            "password": password,
            "rights": rights,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        username = d.pop("username")

        password = d.pop("password")

        rights = []
        _rights = d.pop("rights")
        for rights_item_data in (_rights):
            rights_item = CreateUserJsonBodyRightsItem(rights_item_data)



            rights.append(rights_item)


        create_user_json_body = cls(
            username=username,
            password=password,
            rights=rights,
        )

        return create_user_json_body

