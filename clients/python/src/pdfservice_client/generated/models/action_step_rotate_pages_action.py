from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepRotatePagesAction")



@_attrs_define
class ActionStepRotatePagesAction:
    """ Turns the pages of pageRange (default: all) clockwise by rotation degrees, a multiple of 90 (negative turns counter-
    clockwise); /Rotate is set, the content is not rewritten.

        Attributes:
            rotation (int): Degrees clockwise, a multiple of 90
            page_range (str | Unset): The pages to turn (default: every page), 1-based, as in a print dialog: "1-3,7,10-";
                not empty.
     """

    rotation: int
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        rotation = self.rotation

        page_range = self.page_range


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rotation": rotation,
        })
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rotation = d.pop("rotation")

        page_range = d.pop("pageRange", UNSET)

        action_step_rotate_pages_action = cls(
            rotation=rotation,
            page_range=page_range,
        )

        return action_step_rotate_pages_action

