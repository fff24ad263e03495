from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_n_up_action_order import ActionStepNUpActionOrder
from ..models.action_step_n_up_action_orientation import ActionStepNUpActionOrientation
from ..models.action_step_n_up_action_paper_size import ActionStepNUpActionPaperSize
from ..models.action_step_n_up_action_per_sheet import ActionStepNUpActionPerSheet
from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepNUpAction")



@_attrs_define
class ActionStepNUpAction:
    """ Puts perSheet pages (2, 4, 6, 9 or 16) on each sheet, scaled to fit their cells and centred, in the order given
    (default rightDown: left to right, top to bottom). The sheet is the paper given or the first page's size, turned
    (auto) so the pages come out largest. Pages are drawn as Form XObjects; annotations are drawn from their
    appearances, not kept as annotations.

        Attributes:
            per_sheet (ActionStepNUpActionPerSheet): Pages per sheet
            order (ActionStepNUpActionOrder | Unset): Order of the cells: rightDown (rows left to right, top to bottom;
                default), downRight (columns top to bottom, left to right), leftDown, downLeft
            border (bool | Unset): Draw a thin line around each cell (default false)
            margin (float | Unset): Space kept free around each page on the sheet (points; default 0)
            paper_size (ActionStepNUpActionPaperSize | Unset): A named paper size; or give width and height
            width (float | Unset): Paper width (points, 1/72 inch)
            height (float | Unset): Paper height (points, 1/72 inch)
            orientation (ActionStepNUpActionOrientation | Unset): How the paper is turned; auto (the default) chooses as the
                action says
            page_range (str | Unset): The pages to lay out (default: every page), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
     """

    per_sheet: ActionStepNUpActionPerSheet
    order: ActionStepNUpActionOrder | Unset = UNSET
    border: bool | Unset = UNSET
    margin: float | Unset = UNSET
    paper_size: ActionStepNUpActionPaperSize | Unset = UNSET
    width: float | Unset = UNSET
    height: float | Unset = UNSET
    orientation: ActionStepNUpActionOrientation | Unset = UNSET
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        per_sheet = self.per_sheet.value

        order: str | Unset = UNSET
        if not isinstance(self.order, Unset):
            order = self.order.value


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
            "perSheet": per_sheet,
        })
        if order is not UNSET:
            field_dict["order"] = order
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
        per_sheet = ActionStepNUpActionPerSheet(d.pop("perSheet"))




        _order = d.pop("order", UNSET)
        order: ActionStepNUpActionOrder | Unset
        if isinstance(_order,  Unset):
            order = UNSET
        else:
            order = ActionStepNUpActionOrder(_order)




        border = d.pop("border", UNSET)

        margin = d.pop("margin", UNSET)

        _paper_size = d.pop("paperSize", UNSET)
        paper_size: ActionStepNUpActionPaperSize | Unset
        if isinstance(_paper_size,  Unset):
            paper_size = UNSET
        else:
            paper_size = ActionStepNUpActionPaperSize(_paper_size)




        width = d.pop("width", UNSET)

        height = d.pop("height", UNSET)

        _orientation = d.pop("orientation", UNSET)
        orientation: ActionStepNUpActionOrientation | Unset
        if isinstance(_orientation,  Unset):
            orientation = UNSET
        else:
            orientation = ActionStepNUpActionOrientation(_orientation)




        page_range = d.pop("pageRange", UNSET)

        action_step_n_up_action = cls(
            per_sheet=per_sheet,
            order=order,
            border=border,
            margin=margin,
            paper_size=paper_size,
            width=width,
            height=height,
            orientation=orientation,
            page_range=page_range,
        )

        return action_step_n_up_action

