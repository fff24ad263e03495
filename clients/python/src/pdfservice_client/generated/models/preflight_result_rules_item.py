from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.preflight_result_rules_item_locations_item import PreflightResultRulesItemLocationsItem





T = TypeVar("T", bound="PreflightResultRulesItem")



@_attrs_define
class PreflightResultRulesItem:
    """ A rule the document fails (XML: <rule>)

        Attributes:
            specification (str): The standard the rule is from, e.g. 'ISO 19005-2:2011' (PDF/A-2) or 'ISO 15930-7:2010'
                (PDF/X-4)
            clause (str): Its clause, e.g. '6.2.11.4.1'
            test_number (int): The validator's test number within the clause; 0 for the service's own rule that the file
                could not be read
            description (str): What the rule requires
            failed_checks (int): How many times it failed
            locations (list[PreflightResultRulesItemLocationsItem]): The first places it failed (at most 10)
     """

    specification: str
    clause: str
    test_number: int
    description: str
    failed_checks: int
    locations: list[PreflightResultRulesItemLocationsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.preflight_result_rules_item_locations_item import PreflightResultRulesItemLocationsItem # noqa: PLC0415
        specification = self.specification

        clause = self.clause

        test_number = self.test_number

        description = self.description

        failed_checks = self.failed_checks

        locations = []
        for locations_item_data in self.locations:
            locations_item = locations_item_data.to_dict()
            locations.append(locations_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "specification": specification,
            "clause": clause,
            "testNumber": test_number,
            "description": description,
            "failedChecks": failed_checks,
            "locations": locations,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.preflight_result_rules_item_locations_item import PreflightResultRulesItemLocationsItem # noqa: PLC0415
        d = dict(src_dict)
        specification = d.pop("specification")

        clause = d.pop("clause")

        test_number = d.pop("testNumber")

        description = d.pop("description")

        failed_checks = d.pop("failedChecks")

        locations = []
        _locations = d.pop("locations")
        for locations_item_data in (_locations):
            locations_item = PreflightResultRulesItemLocationsItem.from_dict(locations_item_data)



            locations.append(locations_item)


        preflight_result_rules_item = cls(
            specification=specification,
            clause=clause,
            test_number=test_number,
            description=description,
            failed_checks=failed_checks,
            locations=locations,
        )


        preflight_result_rules_item.additional_properties = d
        return preflight_result_rules_item

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
