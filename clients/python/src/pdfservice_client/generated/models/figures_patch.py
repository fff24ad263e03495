from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.figure_change import FigureChange





T = TypeVar("T", bound="FiguresPatch")



@_attrs_define
class FiguresPatch:
    """ Changes of several figures, each as in PATCH .../figures/{index}, written together in one version (all or none)

        Attributes:
            figures (list[FigureChange]):
     """

    figures: list[FigureChange]





    def to_dict(self) -> dict[str, Any]:
        from ..models.figure_change import FigureChange # noqa: PLC0415
        figures = []
        for figures_item_data in self.figures:
            figures_item = figures_item_data.to_dict()
            figures.append(figures_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "figures": figures,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.figure_change import FigureChange # noqa: PLC0415
        d = dict(src_dict)
        figures = []
        _figures = d.pop("figures")
        for figures_item_data in (_figures):
            figures_item = FigureChange.from_dict(figures_item_data)



            figures.append(figures_item)


        figures_patch = cls(
            figures=figures,
        )

        return figures_patch

