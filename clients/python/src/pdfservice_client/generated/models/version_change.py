from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="VersionChange")



@_attrs_define
class VersionChange:
    """ What PATCH changes of a version: its label (null removes it) and pin; what is absent stays

        Attributes:
            label (None | str | Unset):
            pinned (bool | Unset):
     """

    label: None | str | Unset = UNSET
    pinned: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        pinned = self.pinned


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if label is not UNSET:
            field_dict["label"] = label
        if pinned is not UNSET:
            field_dict["pinned"] = pinned

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))


        pinned = d.pop("pinned", UNSET)

        version_change = cls(
            label=label,
            pinned=pinned,
        )

        return version_change

