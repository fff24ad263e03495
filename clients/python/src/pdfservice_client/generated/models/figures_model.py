from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.figure_model import FigureModel





T = TypeVar("T", bound="FiguresModel")



@_attrs_define
class FiguresModel:
    """ FiguresModel (XML: <Figures> with <figure> items): every Figure of the structure tree, in depth-first order

        Attributes:
            tagged (bool): Whether the document has a structure tree; false: figures is empty (tag it with
                PDFUAConvertAction)
            figures (list[FigureModel]):
            detail (str | Unset): For an untagged document: what to do
     """

    tagged: bool
    figures: list[FigureModel]
    detail: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.figure_model import FigureModel # noqa: PLC0415
        tagged = self.tagged

        figures = []
        for figures_item_data in self.figures:
            figures_item = figures_item_data.to_dict()
            figures.append(figures_item)



        detail = self.detail


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "tagged": tagged,
            "figures": figures,
        })
        if detail is not UNSET:
            field_dict["detail"] = detail

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.figure_model import FigureModel # noqa: PLC0415
        d = dict(src_dict)
        tagged = d.pop("tagged")

        figures = []
        _figures = d.pop("figures")
        for figures_item_data in (_figures):
            figures_item = FigureModel.from_dict(figures_item_data)



            figures.append(figures_item)


        detail = d.pop("detail", UNSET)

        figures_model = cls(
            tagged=tagged,
            figures=figures,
            detail=detail,
        )


        figures_model.additional_properties = d
        return figures_model

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
