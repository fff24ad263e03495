from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepRemoveBlankPagesAction")



@_attrs_define
class ActionStepRemoveBlankPagesAction:
    """ Removes blank pages: each page (of pageRange, default all) is rendered at dpi, and a page whose share of pixels
    darker than whiteLevel in any of red, green and blue is below threshold (default 0.001, a tenth of a percent) is
    removed. dryRun only lists them. The report lists the removed pages (zero-based, and as a 1-based pageRange) and
    each one's ink. A document whose every page is blank is 400: a PDF keeps at least one page. See docs/page-
    numbers.md.

        Attributes:
            page_range (str | Unset): Only these pages are considered, 1-based, as in a print dialog: "2-9" (default, when
                absent: every page; empty is 400)
            dry_run (bool | Unset): Only list the pages that would be removed: nothing is written Default: False.
            threshold (float | Unset): A page is blank when the share of its pixels that are not white is below this
                Default: 0.001.
            white_level (int | Unset): A pixel is white when its red, green and blue values are all at least this (0-255)
                Default: 240.
            dpi (int | Unset): Resolution the pages are rendered at to measure their ink Default: 36.
     """

    page_range: str | Unset = UNSET
    dry_run: bool | Unset = False
    threshold: float | Unset = 0.001
    white_level: int | Unset = 240
    dpi: int | Unset = 36





    def to_dict(self) -> dict[str, Any]:
        page_range = self.page_range

        dry_run = self.dry_run

        threshold = self.threshold

        white_level = self.white_level

        dpi = self.dpi


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range
        if dry_run is not UNSET:
            field_dict["dryRun"] = dry_run
        if threshold is not UNSET:
            field_dict["threshold"] = threshold
        if white_level is not UNSET:
            field_dict["whiteLevel"] = white_level
        if dpi is not UNSET:
            field_dict["dpi"] = dpi

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        page_range = d.pop("pageRange", UNSET)

        dry_run = d.pop("dryRun", UNSET)

        threshold = d.pop("threshold", UNSET)

        white_level = d.pop("whiteLevel", UNSET)

        dpi = d.pop("dpi", UNSET)

        action_step_remove_blank_pages_action = cls(
            page_range=page_range,
            dry_run=dry_run,
            threshold=threshold,
            white_level=white_level,
            dpi=dpi,
        )

        return action_step_remove_blank_pages_action

