from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ActionStepMovePagesAction")



@_attrs_define
class ActionStepMovePagesAction:
    """ Moves the pages of pageRange, in the order the range lists them, so that the first of them ends up at zero-based
    position toIndex of the result.

        Attributes:
            page_range (str): The pages to move, 1-based, as in a print dialog: "1-3,7,10-"; not empty.
            to_index (int): Zero-based position of the first moved page in the resulting document
     """

    page_range: str
    to_index: int





    def to_dict(self) -> dict[str, Any]:
        page_range = self.page_range

        to_index = self.to_index


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "pageRange": page_range,
            "toIndex": to_index,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        page_range = d.pop("pageRange")

        to_index = d.pop("toIndex")

        action_step_move_pages_action = cls(
            page_range=page_range,
            to_index=to_index,
        )

        return action_step_move_pages_action

