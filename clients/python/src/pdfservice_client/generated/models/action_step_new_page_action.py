from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepNewPageAction")



@_attrs_define
class ActionStepNewPageAction:
    """ Inserts a blank page of width x height points (default: the size of the page before it, or of the first page when
    inserted first) at pageIndex (default: at the end).

        Attributes:
            page_index (int | Unset): Zero-based position the new pages take (0: before the first page); absent: at the end
            width (float | Unset): Points (1/72 inch); ISO 32000 allows 3 to 14,400
            height (float | Unset): Points (1/72 inch); ISO 32000 allows 3 to 14,400
     """

    page_index: int | Unset = UNSET
    width: float | Unset = UNSET
    height: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        page_index = self.page_index

        width = self.width

        height = self.height


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if width is not UNSET:
            field_dict["width"] = width
        if height is not UNSET:
            field_dict["height"] = height

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        page_index = d.pop("pageIndex", UNSET)

        width = d.pop("width", UNSET)

        height = d.pop("height", UNSET)

        action_step_new_page_action = cls(
            page_index=page_index,
            width=width,
            height=height,
        )

        return action_step_new_page_action

