from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="FigureModel")



@_attrs_define
class FigureModel:
    """ FigureModel (XML: <Figure>): one Figure structure element (its type once the role map is applied)

        Attributes:
            index (int): Its 0-based position among the Figure elements in the structure tree's depth-first order (the
                numbering PDFUAConvertAction's figures use)
            has_alt (bool): Whether alt is present and not blank (PDF/UA-1 7.3 asks every figure for one)
            page_index (int | Unset): The page its content is on (the first one, when on several); absent when nothing names
                a page
            bbox (list[float] | Unset): [x0, y0, x1, y1] (XML: the four numbers separated by spaces): where its content is,
                in PDF user space (points, origin at the lower left of the unrotated page): its Layout attribute's /BBox, else
                the paths, images and forms its marked content draws; absent when neither says
            alt (str | Unset): /Alt, the alternate description a screen reader reads instead of the figure
            actual_text (str | Unset): /ActualText, the text the figure shows (a picture of text)
            thumbnail (str | Unset): The URL of the image of its page (GET .../pages/{pageIndex}/image, ?versionId= kept):
                crop it to bbox (at dpi d, scale by d / 72 and flip y; docs/pages.md, "Coordinates")
     """

    index: int
    has_alt: bool
    page_index: int | Unset = UNSET
    bbox: list[float] | Unset = UNSET
    alt: str | Unset = UNSET
    actual_text: str | Unset = UNSET
    thumbnail: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        index = self.index

        has_alt = self.has_alt

        page_index = self.page_index

        bbox: list[float] | Unset = UNSET
        if not isinstance(self.bbox, Unset):
            bbox = self.bbox



        alt = self.alt

        actual_text = self.actual_text

        thumbnail = self.thumbnail


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "index": index,
            "hasAlt": has_alt,
        })
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if bbox is not UNSET:
            field_dict["bbox"] = bbox
        if alt is not UNSET:
            field_dict["alt"] = alt
        if actual_text is not UNSET:
            field_dict["actualText"] = actual_text
        if thumbnail is not UNSET:
            field_dict["thumbnail"] = thumbnail

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("index")

        has_alt = d.pop("hasAlt")

        page_index = d.pop("pageIndex", UNSET)

        bbox = cast(list[float], d.pop("bbox", UNSET))


        alt = d.pop("alt", UNSET)

        actual_text = d.pop("actualText", UNSET)

        thumbnail = d.pop("thumbnail", UNSET)

        figure_model = cls(
            index=index,
            has_alt=has_alt,
            page_index=page_index,
            bbox=bbox,
            alt=alt,
            actual_text=actual_text,
            thumbnail=thumbnail,
        )


        figure_model.additional_properties = d
        return figure_model

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
