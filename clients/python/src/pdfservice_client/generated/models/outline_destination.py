from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.outline_destination_fit import OutlineDestinationFit
from ..types import UNSET, Unset






T = TypeVar("T", bound="OutlineDestination")



@_attrs_define
class OutlineDestination:
    """ A page of the document and the view of it (ISO 32000-1 12.3.2.2). Without fit, /Fit is written.

        Attributes:
            page_index (int): The page, from 0
            fit (OutlineDestinationFit | Unset): The view: XYZ (left, top, zoom), Fit, FitH (top), FitV (left), FitR (left,
                bottom, right, top), FitB, FitBH (top), FitBV (left)
            left (float | Unset): PDF units from the page's left; absent: unchanged
            top (float | Unset): PDF units from the page's bottom; absent: unchanged
            right (float | Unset): FitR only
            bottom (float | Unset): FitR only
            zoom (float | Unset): XYZ only: 1 is 100%; 0 or absent keeps the viewer's zoom
     """

    page_index: int
    fit: OutlineDestinationFit | Unset = UNSET
    left: float | Unset = UNSET
    top: float | Unset = UNSET
    right: float | Unset = UNSET
    bottom: float | Unset = UNSET
    zoom: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        page_index = self.page_index

        fit: str | Unset = UNSET
        if not isinstance(self.fit, Unset):
            fit = self.fit.value


        left = self.left

        top = self.top

        right = self.right

        bottom = self.bottom

        zoom = self.zoom


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "pageIndex": page_index,
        })
        if fit is not UNSET:
            field_dict["fit"] = fit
        if left is not UNSET:
            field_dict["left"] = left
        if top is not UNSET:
            field_dict["top"] = top
        if right is not UNSET:
            field_dict["right"] = right
        if bottom is not UNSET:
            field_dict["bottom"] = bottom
        if zoom is not UNSET:
            field_dict["zoom"] = zoom

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        page_index = d.pop("pageIndex")

        _fit = d.pop("fit", UNSET)
        fit: OutlineDestinationFit | Unset
        if isinstance(_fit,  Unset):
            fit = UNSET
        else:
            fit = OutlineDestinationFit(_fit)




        left = d.pop("left", UNSET)

        top = d.pop("top", UNSET)

        right = d.pop("right", UNSET)

        bottom = d.pop("bottom", UNSET)

        zoom = d.pop("zoom", UNSET)

        outline_destination = cls(
            page_index=page_index,
            fit=fit,
            left=left,
            top=top,
            right=right,
            bottom=bottom,
            zoom=zoom,
        )

        return outline_destination

