from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_scale_pages_action_orientation import ActionStepScalePagesActionOrientation
from ..models.action_step_scale_pages_action_paper_size import ActionStepScalePagesActionPaperSize
from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepScalePagesAction")



@_attrs_define
class ActionStepScalePagesAction:
    """ Puts each page on the paper given, its content scaled to fit and centred; orientation auto (default) keeps each
    page's own. Annotations move with the content; /Rotate is drawn into the content.

        Attributes:
            paper_size (ActionStepScalePagesActionPaperSize | Unset): A named paper size; or give width and height
            width (float | Unset): Paper width (points, 1/72 inch)
            height (float | Unset): Paper height (points, 1/72 inch)
            orientation (ActionStepScalePagesActionOrientation | Unset): How the paper is turned; auto (the default) chooses
                as the action says
            page_range (str | Unset): The pages to lay out (default: every page), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
     """

    paper_size: ActionStepScalePagesActionPaperSize | Unset = UNSET
    width: float | Unset = UNSET
    height: float | Unset = UNSET
    orientation: ActionStepScalePagesActionOrientation | Unset = UNSET
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
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
        _paper_size = d.pop("paperSize", UNSET)
        paper_size: ActionStepScalePagesActionPaperSize | Unset
        if isinstance(_paper_size,  Unset):
            paper_size = UNSET
        else:
            paper_size = ActionStepScalePagesActionPaperSize(_paper_size)




        width = d.pop("width", UNSET)

        height = d.pop("height", UNSET)

        _orientation = d.pop("orientation", UNSET)
        orientation: ActionStepScalePagesActionOrientation | Unset
        if isinstance(_orientation,  Unset):
            orientation = UNSET
        else:
            orientation = ActionStepScalePagesActionOrientation(_orientation)




        page_range = d.pop("pageRange", UNSET)

        action_step_scale_pages_action = cls(
            paper_size=paper_size,
            width=width,
            height=height,
            orientation=orientation,
            page_range=page_range,
        )

        return action_step_scale_pages_action

