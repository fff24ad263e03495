from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CompareRequestWith")



@_attrs_define
class CompareRequestWith:
    """ The base the document is compared with: another stored document (path), a kept version (versionId; of path, else of
    this document), or both

        Attributes:
            path (str | Unset): Path of a stored document ("folder/name.pdf"); absent: this document
            version_id (str | Unset): A kept version (GET .../versions); absent: the current version
            password (str | Unset): The base's password when it is encrypted; absent: the request's X-Service-
                DocumentPassword
     """

    path: str | Unset = UNSET
    version_id: str | Unset = UNSET
    password: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        path = self.path

        version_id = self.version_id

        password = self.password


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if path is not UNSET:
            field_dict["path"] = path
        if version_id is not UNSET:
            field_dict["versionId"] = version_id
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        path = d.pop("path", UNSET)

        version_id = d.pop("versionId", UNSET)

        password = d.pop("password", UNSET)

        compare_request_with = cls(
            path=path,
            version_id=version_id,
            password=password,
        )

        return compare_request_with

