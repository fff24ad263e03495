from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="PreflightResultAccessibilityCheckpointsItemLocationsItem")



@_attrs_define
class PreflightResultAccessibilityCheckpointsItemLocationsItem:
    """ One place a rule failed (XML: <location>)

        Attributes:
            context (str): The validator's path to the place, e.g. root/document[0]/pages[0](3 0 obj
                PDPage)/contentStream[0]
            page_index (int | Unset): Zero-based page index, when the place is on a page
            object_number (int | Unset): Number of the PDF object the check ran on (the last one in the context path), when
                known
     """

    context: str
    page_index: int | Unset = UNSET
    object_number: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        context = self.context

        page_index = self.page_index

        object_number = self.object_number


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "context": context,
        })
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if object_number is not UNSET:
            field_dict["objectNumber"] = object_number

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        context = d.pop("context")

        page_index = d.pop("pageIndex", UNSET)

        object_number = d.pop("objectNumber", UNSET)

        preflight_result_accessibility_checkpoints_item_locations_item = cls(
            context=context,
            page_index=page_index,
            object_number=object_number,
        )


        preflight_result_accessibility_checkpoints_item_locations_item.additional_properties = d
        return preflight_result_accessibility_checkpoints_item_locations_item

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
