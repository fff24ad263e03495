from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="GetHealthResponse200ToolsItem")



@_attrs_define
class GetHealthResponse200ToolsItem:
    """ 
        Attributes:
            name (str):
            debian_package (str): what installs it
            available (bool):
            version (None | str): as the program reports it; null when unknown
            reason (str | Unset): why it is not available
     """

    name: str
    debian_package: str
    available: bool
    version: None | str
    reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        debian_package = self.debian_package

        available = self.available

        version: None | str
        version = self.version

        reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "debianPackage": debian_package,
            "available": available,
            "version": version,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        debian_package = d.pop("debianPackage")

        available = d.pop("available")

        def _parse_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        version = _parse_version(d.pop("version"))


        reason = d.pop("reason", UNSET)

        get_health_response_200_tools_item = cls(
            name=name,
            debian_package=debian_package,
            available=available,
            version=version,
            reason=reason,
        )


        get_health_response_200_tools_item.additional_properties = d
        return get_health_response_200_tools_item

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
