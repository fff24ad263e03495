from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.preflight_result_accessibility import PreflightResultAccessibility
  from ..models.preflight_result_rules_item import PreflightResultRulesItem
  from ..models.preflight_result_validator import PreflightResultValidator





T = TypeVar("T", bound="PreflightResult")



@_attrs_define
class PreflightResult:
    """ PreflightResult (XML: <PreflightResult> with <rules><rule> items, each with <locations><location>): the verdict of
    one profile on one version of the document, with every failed rule. Cached per version (etag), password and profile.

        Attributes:
            document (str): Path of the document checked, as DocumentModel.path writes it, e.g. "/reports/q1.pdf"
            etag (str): ETag of the version checked
            profile (str): The profile checked against, e.g. pdfa2b
            compliant (bool): true when no rule failed
            validator (PreflightResultValidator): What checked it: veraPDF (PDF/A, PDF/UA, WTPDF) or the service's own rules
                (PDF/X)
            passed_checks (int): Checks that passed
            failed_checks (int): Checks that failed, all rules together
            rules (list[PreflightResultRulesItem]): The failed rules, in clause order; empty when compliant
            accessibility (PreflightResultAccessibility | Unset): Accessibility profiles only (pdfua1, pdfua2, wtpdf1a;
                docs/accessibility.md): the failures by Matterhorn Protocol checkpoint (PDF/UA-1) and what a person still has to
                check
     """

    document: str
    etag: str
    profile: str
    compliant: bool
    validator: PreflightResultValidator
    passed_checks: int
    failed_checks: int
    rules: list[PreflightResultRulesItem]
    accessibility: PreflightResultAccessibility | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.preflight_result_accessibility import PreflightResultAccessibility # noqa: PLC0415
        from ..models.preflight_result_rules_item import PreflightResultRulesItem # noqa: PLC0415
        from ..models.preflight_result_validator import PreflightResultValidator # noqa: PLC0415
        document = self.document

        etag = self.etag

        profile = self.profile

        compliant = self.compliant

        validator = self.validator.to_dict()

        passed_checks = self.passed_checks

        failed_checks = self.failed_checks

        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)



        accessibility: dict[str, Any] | Unset = UNSET
        if not isinstance(self.accessibility, Unset):
            accessibility = self.accessibility.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "document": document,
            "etag": etag,
            "profile": profile,
            "compliant": compliant,
            "validator": validator,
            "passedChecks": passed_checks,
            "failedChecks": failed_checks,
            "rules": rules,
        })
        if accessibility is not UNSET:
            field_dict["accessibility"] = accessibility

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.preflight_result_accessibility import PreflightResultAccessibility # noqa: PLC0415
        from ..models.preflight_result_rules_item import PreflightResultRulesItem # noqa: PLC0415
        from ..models.preflight_result_validator import PreflightResultValidator # noqa: PLC0415
        d = dict(src_dict)
        document = d.pop("document")

        etag = d.pop("etag")

        profile = d.pop("profile")

        compliant = d.pop("compliant")

        validator = PreflightResultValidator.from_dict(d.pop("validator"))




        passed_checks = d.pop("passedChecks")

        failed_checks = d.pop("failedChecks")

        rules = []
        _rules = d.pop("rules")
        for rules_item_data in (_rules):
            rules_item = PreflightResultRulesItem.from_dict(rules_item_data)



            rules.append(rules_item)


        _accessibility = d.pop("accessibility", UNSET)
        accessibility: PreflightResultAccessibility | Unset
        if isinstance(_accessibility,  Unset):
            accessibility = UNSET
        else:
            accessibility = PreflightResultAccessibility.from_dict(_accessibility)




        preflight_result = cls(
            document=document,
            etag=etag,
            profile=profile,
            compliant=compliant,
            validator=validator,
            passed_checks=passed_checks,
            failed_checks=failed_checks,
            rules=rules,
            accessibility=accessibility,
        )


        preflight_result.additional_properties = d
        return preflight_result

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
