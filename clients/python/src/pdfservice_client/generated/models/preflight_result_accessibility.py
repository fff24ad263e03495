from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.preflight_result_accessibility_checkpoints_item import PreflightResultAccessibilityCheckpointsItem
  from ..models.preflight_result_accessibility_human_checks_item import PreflightResultAccessibilityHumanChecksItem





T = TypeVar("T", bound="PreflightResultAccessibility")



@_attrs_define
class PreflightResultAccessibility:
    """ Accessibility profiles only (pdfua1, pdfua2, wtpdf1a; docs/accessibility.md): the failures by Matterhorn Protocol
    checkpoint (PDF/UA-1) and what a person still has to check

        Attributes:
            human_checks (list[PreflightResultAccessibilityHumanChecksItem]): The failure conditions that need human
                judgement, whatever the verdict
            protocol (str | Unset): 'Matterhorn Protocol 1.1' when the failures are grouped (pdfua1)
            checkpoints (list[PreflightResultAccessibilityCheckpointsItem] | Unset): pdfua1: the failed rules by checkpoint,
                in checkpoint order; empty when compliant
     """

    human_checks: list[PreflightResultAccessibilityHumanChecksItem]
    protocol: str | Unset = UNSET
    checkpoints: list[PreflightResultAccessibilityCheckpointsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.preflight_result_accessibility_checkpoints_item import PreflightResultAccessibilityCheckpointsItem # noqa: PLC0415
        from ..models.preflight_result_accessibility_human_checks_item import PreflightResultAccessibilityHumanChecksItem # noqa: PLC0415
        human_checks = []
        for human_checks_item_data in self.human_checks:
            human_checks_item = human_checks_item_data.to_dict()
            human_checks.append(human_checks_item)



        protocol = self.protocol

        checkpoints: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.checkpoints, Unset):
            checkpoints = []
            for checkpoints_item_data in self.checkpoints:
                checkpoints_item = checkpoints_item_data.to_dict()
                checkpoints.append(checkpoints_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "humanChecks": human_checks,
        })
        if protocol is not UNSET:
            field_dict["protocol"] = protocol
        if checkpoints is not UNSET:
            field_dict["checkpoints"] = checkpoints

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.preflight_result_accessibility_checkpoints_item import PreflightResultAccessibilityCheckpointsItem # noqa: PLC0415
        from ..models.preflight_result_accessibility_human_checks_item import PreflightResultAccessibilityHumanChecksItem # noqa: PLC0415
        d = dict(src_dict)
        human_checks = []
        _human_checks = d.pop("humanChecks")
        for human_checks_item_data in (_human_checks):
            human_checks_item = PreflightResultAccessibilityHumanChecksItem.from_dict(human_checks_item_data)



            human_checks.append(human_checks_item)


        protocol = d.pop("protocol", UNSET)

        _checkpoints = d.pop("checkpoints", UNSET)
        checkpoints: list[PreflightResultAccessibilityCheckpointsItem] | Unset = UNSET
        if _checkpoints is not UNSET:
            checkpoints = []
            for checkpoints_item_data in _checkpoints:
                checkpoints_item = PreflightResultAccessibilityCheckpointsItem.from_dict(checkpoints_item_data)



                checkpoints.append(checkpoints_item)


        preflight_result_accessibility = cls(
            human_checks=human_checks,
            protocol=protocol,
            checkpoints=checkpoints,
        )


        preflight_result_accessibility.additional_properties = d
        return preflight_result_accessibility

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
