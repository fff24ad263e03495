from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ActionStepDeletePagesAction")



@_attrs_define
class ActionStepDeletePagesAction:
    """ Deletes the pages of pageRange (not all of them). Outline items, named destinations and links that pointed at them
    are removed, and so are their form fields.

        Attributes:
            page_range (str): The pages to delete, 1-based, as in a print dialog: "1-3,7,10-"; not empty.
     """

    page_range: str





    def to_dict(self) -> dict[str, Any]:
        page_range = self.page_range


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "pageRange": page_range,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        page_range = d.pop("pageRange")

        action_step_delete_pages_action = cls(
            page_range=page_range,
        )

        return action_step_delete_pages_action

