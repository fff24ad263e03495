from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="WatchedFolderRequestPipeline")



@_attrs_define
class WatchedFolderRequestPipeline:
    """ 
        Attributes:
            name (str): The pipeline to run (GET /pipelines lists those the caller sees)
            owner (str | Unset): Whose pipeline: absent, the caller's own; another user's when it is shared (or the caller
                is an admin)
            version (int | Unset): The pipeline version to run; absent: the newest
     """

    name: str
    owner: str | Unset = UNSET
    version: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        owner = self.owner

        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if owner is not UNSET:
            field_dict["owner"] = owner
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        owner = d.pop("owner", UNSET)

        version = d.pop("version", UNSET)

        watched_folder_request_pipeline = cls(
            name=name,
            owner=owner,
            version=version,
        )

        return watched_folder_request_pipeline

