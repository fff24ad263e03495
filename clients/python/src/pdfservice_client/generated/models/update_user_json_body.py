from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_user_json_body_rights_item import UpdateUserJsonBodyRightsItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateUserJsonBody")



@_attrs_define
class UpdateUserJsonBody:
    """ 
        Attributes:
            password (str | Unset): The password, 8 to 1024 characters, no control characters but tab, LF and CR; stored
                only as a scrypt hash
            rights (list[UpdateUserJsonBodyRightsItem] | Unset): HTTP methods the user may use (HEAD goes with GET), plus
                "admin" for user management. Duplicates are ignored.
     """

    password: str | Unset = UNSET
    rights: list[UpdateUserJsonBodyRightsItem] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        password = self.password

        rights: list[str] | Unset = UNSET
        if not isinstance(self.rights, Unset):
            rights = []
            for rights_item_data in self.rights:
                rights_item = rights_item_data.value
                rights.append(rights_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if password is not UNSET:
            field_dict["password"] = password
        if rights is not UNSET:
            field_dict["rights"] = rights

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        password = d.pop("password", UNSET)

        _rights = d.pop("rights", UNSET)
        rights: list[UpdateUserJsonBodyRightsItem] | Unset = UNSET
        if _rights is not UNSET:
            rights = []
            for rights_item_data in _rights:
                rights_item = UpdateUserJsonBodyRightsItem(rights_item_data)



                rights.append(rights_item)


        update_user_json_body = cls(
            password=password,
            rights=rights,
        )

        return update_user_json_body

