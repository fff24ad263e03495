from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="FigureChange")



@_attrs_define
class FigureChange:
    """ 
        Attributes:
            index (int): The figure, as the list numbers it
            alt (None | str | Unset):
            actual_text (None | str | Unset):
     """

    index: int
    alt: None | str | Unset = UNSET
    actual_text: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        index = self.index

        alt: None | str | Unset
        if isinstance(self.alt, Unset):
            alt = UNSET
        else:
            alt = self.alt

        actual_text: None | str | Unset
        if isinstance(self.actual_text, Unset):
            actual_text = UNSET
        else:
            actual_text = self.actual_text


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "index": index,
        })
        if alt is not UNSET:
            field_dict["alt"] = alt
        if actual_text is not UNSET:
            field_dict["actualText"] = actual_text

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("index")

        def _parse_alt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        alt = _parse_alt(d.pop("alt", UNSET))


        def _parse_actual_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        actual_text = _parse_actual_text(d.pop("actualText", UNSET))


        figure_change = cls(
            index=index,
            alt=alt,
            actual_text=actual_text,
        )

        return figure_change

