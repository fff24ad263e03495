from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ActionStepPDFUAConvertActionFiguresItem")



@_attrs_define
class ActionStepPDFUAConvertActionFiguresItem:
    """ 
        Attributes:
            index (int):
            alt (str):
     """

    index: int
    alt: str





    def to_dict(self) -> dict[str, Any]:
        index = self.index

        alt = self.alt


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "index": index,
            "alt": alt,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("index")

        alt = d.pop("alt")

        action_step_pdfua_convert_action_figures_item = cls(
            index=index,
            alt=alt,
        )

        return action_step_pdfua_convert_action_figures_item

