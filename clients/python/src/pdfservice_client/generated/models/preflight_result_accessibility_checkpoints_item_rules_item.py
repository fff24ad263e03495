from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PreflightResultAccessibilityCheckpointsItemRulesItem")



@_attrs_define
class PreflightResultAccessibilityCheckpointsItemRulesItem:
    """ A failed rule of `rules`, by its clause and test number (XML: <rule>)

        Attributes:
            clause (str):
            test_number (int):
     """

    clause: str
    test_number: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        clause = self.clause

        test_number = self.test_number


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clause": clause,
            "testNumber": test_number,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        clause = d.pop("clause")

        test_number = d.pop("testNumber")

        preflight_result_accessibility_checkpoints_item_rules_item = cls(
            clause=clause,
            test_number=test_number,
        )


        preflight_result_accessibility_checkpoints_item_rules_item.additional_properties = d
        return preflight_result_accessibility_checkpoints_item_rules_item

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
