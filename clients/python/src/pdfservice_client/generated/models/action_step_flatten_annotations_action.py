from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepFlattenAnnotationsAction")



@_attrs_define
class ActionStepFlattenAnnotationsAction:
    """ Paints every annotation other than form widgets and links into its page (generating missing appearances first) and
    removes it; popups are dropped, hidden annotations are not painted, annotations without the print flag only with
    paintNonPrintableAnnots. Links stay unless keepLinks is false.

        Attributes:
            paint_non_printable_annots (bool | Unset): Also paint annotations without the print flag (default: they are
                dropped) Default: False.
            keep_links (bool | Unset): Keep link annotations, which draw nothing but navigate (default); false removes them
                too Default: True.
     """

    paint_non_printable_annots: bool | Unset = False
    keep_links: bool | Unset = True





    def to_dict(self) -> dict[str, Any]:
        paint_non_printable_annots = self.paint_non_printable_annots

        keep_links = self.keep_links


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if paint_non_printable_annots is not UNSET:
            field_dict["paintNonPrintableAnnots"] = paint_non_printable_annots
        if keep_links is not UNSET:
            field_dict["keepLinks"] = keep_links

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        paint_non_printable_annots = d.pop("paintNonPrintableAnnots", UNSET)

        keep_links = d.pop("keepLinks", UNSET)

        action_step_flatten_annotations_action = cls(
            paint_non_printable_annots=paint_non_printable_annots,
            keep_links=keep_links,
        )

        return action_step_flatten_annotations_action

