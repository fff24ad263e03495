from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PreflightResultAccessibilityHumanChecksItem")



@_attrs_define
class PreflightResultAccessibilityHumanChecksItem:
    """ A failure condition no program can decide: a person has to check it (XML: <humanCheck>)

        Attributes:
            failure_condition (str): Its Matterhorn number, e.g. '09-001'
            checkpoint (str): Its checkpoint number
            name (str): The checkpoint's name
            description (str): What to check
     """

    failure_condition: str
    checkpoint: str
    name: str
    description: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        failure_condition = self.failure_condition

        checkpoint = self.checkpoint

        name = self.name

        description = self.description


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "failureCondition": failure_condition,
            "checkpoint": checkpoint,
            "name": name,
            "description": description,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        failure_condition = d.pop("failureCondition")

        checkpoint = d.pop("checkpoint")

        name = d.pop("name")

        description = d.pop("description")

        preflight_result_accessibility_human_checks_item = cls(
            failure_condition=failure_condition,
            checkpoint=checkpoint,
            name=name,
            description=description,
        )


        preflight_result_accessibility_human_checks_item.additional_properties = d
        return preflight_result_accessibility_human_checks_item

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
