from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.preflight_result_accessibility_checkpoints_item_locations_item import PreflightResultAccessibilityCheckpointsItemLocationsItem
  from ..models.preflight_result_accessibility_checkpoints_item_rules_item import PreflightResultAccessibilityCheckpointsItemRulesItem





T = TypeVar("T", bound="PreflightResultAccessibilityCheckpointsItem")



@_attrs_define
class PreflightResultAccessibilityCheckpointsItem:
    """ A Matterhorn Protocol checkpoint failed rules belong to (XML: <checkpoint>)

        Attributes:
            checkpoint (str): The checkpoint's number, e.g. '01'
            name (str): Its name, e.g. 'Real content tagged'
            failure_conditions (list[str]): The failure conditions the failed rules decide, e.g. '01-005' (XML:
                <failureCondition>)
            failed_checks (int): How many times its rules failed, together
            rules (list[PreflightResultAccessibilityCheckpointsItemRulesItem]): Its failed rules, as in `rules`
            locations (list[PreflightResultAccessibilityCheckpointsItemLocationsItem]): The first places its rules failed
                (at most 10)
     """

    checkpoint: str
    name: str
    failure_conditions: list[str]
    failed_checks: int
    rules: list[PreflightResultAccessibilityCheckpointsItemRulesItem]
    locations: list[PreflightResultAccessibilityCheckpointsItemLocationsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.preflight_result_accessibility_checkpoints_item_locations_item import PreflightResultAccessibilityCheckpointsItemLocationsItem # noqa: PLC0415
        from ..models.preflight_result_accessibility_checkpoints_item_rules_item import PreflightResultAccessibilityCheckpointsItemRulesItem # noqa: PLC0415
        checkpoint = self.checkpoint

        name = self.name

        failure_conditions = self.failure_conditions



        failed_checks = self.failed_checks

        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)



        locations = []
        for locations_item_data in self.locations:
            locations_item = locations_item_data.to_dict()
            locations.append(locations_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "checkpoint": checkpoint,
            "name": name,
            "failureConditions": failure_conditions,
            "failedChecks": failed_checks,
            "rules": rules,
            "locations": locations,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.preflight_result_accessibility_checkpoints_item_locations_item import PreflightResultAccessibilityCheckpointsItemLocationsItem # noqa: PLC0415
        from ..models.preflight_result_accessibility_checkpoints_item_rules_item import PreflightResultAccessibilityCheckpointsItemRulesItem # noqa: PLC0415
        d = dict(src_dict)
        checkpoint = d.pop("checkpoint")

        name = d.pop("name")

        failure_conditions = cast(list[str], d.pop("failureConditions"))


        failed_checks = d.pop("failedChecks")

        rules = []
        _rules = d.pop("rules")
        for rules_item_data in (_rules):
            rules_item = PreflightResultAccessibilityCheckpointsItemRulesItem.from_dict(rules_item_data)



            rules.append(rules_item)


        locations = []
        _locations = d.pop("locations")
        for locations_item_data in (_locations):
            locations_item = PreflightResultAccessibilityCheckpointsItemLocationsItem.from_dict(locations_item_data)



            locations.append(locations_item)


        preflight_result_accessibility_checkpoints_item = cls(
            checkpoint=checkpoint,
            name=name,
            failure_conditions=failure_conditions,
            failed_checks=failed_checks,
            rules=rules,
            locations=locations,
        )


        preflight_result_accessibility_checkpoints_item.additional_properties = d
        return preflight_result_accessibility_checkpoints_item

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
