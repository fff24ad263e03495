from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CompareReportSummary")



@_attrs_define
class CompareReportSummary:
    """ 
        Attributes:
            unchanged_pages (int):
            changed_pages (int):
            moved_pages (int):
            inserted_pages (int):
            deleted_pages (int):
            inserted_words (int):
            deleted_words (int):
            visual_changes (int):
     """

    unchanged_pages: int
    changed_pages: int
    moved_pages: int
    inserted_pages: int
    deleted_pages: int
    inserted_words: int
    deleted_words: int
    visual_changes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        unchanged_pages = self.unchanged_pages

        changed_pages = self.changed_pages

        moved_pages = self.moved_pages

        inserted_pages = self.inserted_pages

        deleted_pages = self.deleted_pages

        inserted_words = self.inserted_words

        deleted_words = self.deleted_words

        visual_changes = self.visual_changes


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "unchangedPages": unchanged_pages,
            "changedPages": changed_pages,
            "movedPages": moved_pages,
            "insertedPages": inserted_pages,
            "deletedPages": deleted_pages,
            "insertedWords": inserted_words,
            "deletedWords": deleted_words,
            "visualChanges": visual_changes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        unchanged_pages = d.pop("unchangedPages")

        changed_pages = d.pop("changedPages")

        moved_pages = d.pop("movedPages")

        inserted_pages = d.pop("insertedPages")

        deleted_pages = d.pop("deletedPages")

        inserted_words = d.pop("insertedWords")

        deleted_words = d.pop("deletedWords")

        visual_changes = d.pop("visualChanges")

        compare_report_summary = cls(
            unchanged_pages=unchanged_pages,
            changed_pages=changed_pages,
            moved_pages=moved_pages,
            inserted_pages=inserted_pages,
            deleted_pages=deleted_pages,
            inserted_words=inserted_words,
            deleted_words=deleted_words,
            visual_changes=visual_changes,
        )


        compare_report_summary.additional_properties = d
        return compare_report_summary

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
