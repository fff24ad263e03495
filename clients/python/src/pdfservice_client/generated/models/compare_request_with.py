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
    """ The base the document is compared with: another stored document (filePath), a kept version (versionId; of filePath,
    else of this document), or both

        Attributes:
            file_path (str | Unset): Path of a stored document ("folder/name.pdf"); absent: this document
            version_id (str | Unset): A kept version (GET .../versions); absent: the current version
            password (str | Unset): The base's password when it is encrypted; absent: the request's X-Service-
                DocumentPassword
     """

    file_path: str | Unset = UNSET
    version_id: str | Unset = UNSET
    password: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        file_path = self.file_path

        version_id = self.version_id

        password = self.password


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if file_path is not UNSET:
            field_dict["filePath"] = file_path
        if version_id is not UNSET:
            field_dict["versionId"] = version_id
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file_path = d.pop("filePath", UNSET)

        version_id = d.pop("versionId", UNSET)

        password = d.pop("password", UNSET)

        compare_request_with = cls(
            file_path=file_path,
            version_id=version_id,
            password=password,
        )

        return compare_request_with

