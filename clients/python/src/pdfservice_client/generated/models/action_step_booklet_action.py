from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_booklet_action_binding import ActionStepBookletActionBinding
from ..models.action_step_booklet_action_orientation import ActionStepBookletActionOrientation
from ..models.action_step_booklet_action_paper_size import ActionStepBookletActionPaperSize
from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepBookletAction")



@_attrs_define
class ActionStepBookletAction:
    """ Saddle-stitch booklet: pages padded with blank pages to a multiple of 4, two on each side of a landscape sheet,
    sides in duplex printing order (front, back; flip on the short edge). Folded in the middle, the sheets read in
    order. The sheet is the paper given (landscape) or twice the first page's width.

        Attributes:
            binding (ActionStepBookletActionBinding | Unset): Where the fold is when the booklet is read: left (default,
                left-to-right scripts) or right
            border (bool | Unset): Draw a thin line around each cell (default false)
            margin (float | Unset): Space kept free around each page on the sheet (points; default 0)
            paper_size (ActionStepBookletActionPaperSize | Unset): A named paper size; or give width and height
            width (float | Unset): Paper width (points, 1/72 inch)
            height (float | Unset): Paper height (points, 1/72 inch)
            orientation (ActionStepBookletActionOrientation | Unset): How the paper is turned; auto (the default) chooses as
                the action says
            page_range (str | Unset): The pages to lay out (default: every page), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
     """

    binding: ActionStepBookletActionBinding | Unset = UNSET
    border: bool | Unset = UNSET
    margin: float | Unset = UNSET
    paper_size: ActionStepBookletActionPaperSize | Unset = UNSET
    width: float | Unset = UNSET
    height: float | Unset = UNSET
    orientation: ActionStepBookletActionOrientation | Unset = UNSET
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        binding: str | Unset = UNSET
        if not isinstance(self.binding, Unset):
            binding = self.binding.value


        border = self.border

        margin = self.margin

        paper_size: str | Unset = UNSET
        if not isinstance(self.paper_size, Unset):
            paper_size = self.paper_size.value


        width = self.width

        height = self.height

        orientation: str | Unset = UNSET
        if not isinstance(self.orientation, Unset):
            orientation = self.orientation.value


        page_range = self.page_range


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if binding is not UNSET:
            field_dict["binding"] = binding
        if border is not UNSET:
            field_dict["border"] = border
        if margin is not UNSET:
            field_dict["margin"] = margin
        if paper_size is not UNSET:
            field_dict["paperSize"] = paper_size
        if width is not UNSET:
            field_dict["width"] = width
        if height is not UNSET:
            field_dict["height"] = height
        if orientation is not UNSET:
            field_dict["orientation"] = orientation
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _binding = d.pop("binding", UNSET)
        binding: ActionStepBookletActionBinding | Unset
        if isinstance(_binding,  Unset):
            binding = UNSET
        else:
            binding = ActionStepBookletActionBinding(_binding)




        border = d.pop("border", UNSET)

        margin = d.pop("margin", UNSET)

        _paper_size = d.pop("paperSize", UNSET)
        paper_size: ActionStepBookletActionPaperSize | Unset
        if isinstance(_paper_size,  Unset):
            paper_size = UNSET
        else:
            paper_size = ActionStepBookletActionPaperSize(_paper_size)




        width = d.pop("width", UNSET)

        height = d.pop("height", UNSET)

        _orientation = d.pop("orientation", UNSET)
        orientation: ActionStepBookletActionOrientation | Unset
        if isinstance(_orientation,  Unset):
            orientation = UNSET
        else:
            orientation = ActionStepBookletActionOrientation(_orientation)




        page_range = d.pop("pageRange", UNSET)

        action_step_booklet_action = cls(
            binding=binding,
            border=border,
            margin=margin,
            paper_size=paper_size,
            width=width,
            height=height,
            orientation=orientation,
            page_range=page_range,
        )

        return action_step_booklet_action

