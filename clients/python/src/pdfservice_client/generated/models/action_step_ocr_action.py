from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepOCRAction")



@_attrs_define
class ActionStepOCRAction:
    """ Recognises the text of scanned pages (Tesseract) and adds it as an invisible text layer over each page, line by
    line, so that the document can be searched, selected and extracted; the pages' content and images are not changed.
    Pages with text of their own are skipped unless skipPagesWithText is false; pages scanned sideways or upside down
    are recognised the right way up (autoRotate also turns their display). The report lists each page: recognised
    (words, mean confidence, rotation), no-text (nothing read there is text, e.g. a photo; nothing added), skipped or
    failed. Runs as a background job unless Prefer: wait=N. See docs/ocr.md.

        Attributes:
            language (str | Unset): Tesseract language codes, several joined with "+" (eng+deu); 400 UNKNOWN_LANGUAGE names
                the installed ones Default: 'eng'.
            dpi (int | Unset): Resolution the pages are rendered at for recognition Default: 300.
            page_index (int | Unset): Only this page (zero-based)
            page_range (str | Unset): Only these pages, 1-based, as in a print dialog: "1-3,7,10-" (default, when absent:
                every page; empty is 400)
            skip_pages_with_text (bool | Unset): Leave a page that already has text of its own alone (reported as skipped)
                Default: True.
            force (bool | Unset): Recognise pages again that have a text layer of an earlier OCRAction, replacing it
                Default: False.
            tagged (bool | Unset): An untagged document gets a structure tree: each recognised page's text layer a P, the
                page's own content an artifact (docs/accessibility.md); a tagged document keeps its tree Default: True.
            auto_rotate (bool | Unset): Turn a page found scanned sideways or upside down upright, by its /Rotate (the
                page's content is not changed) Default: False.
     """

    language: str | Unset = 'eng'
    dpi: int | Unset = 300
    page_index: int | Unset = UNSET
    page_range: str | Unset = UNSET
    skip_pages_with_text: bool | Unset = True
    force: bool | Unset = False
    tagged: bool | Unset = True
    auto_rotate: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        language = self.language

        dpi = self.dpi

        page_index = self.page_index

        page_range = self.page_range

        skip_pages_with_text = self.skip_pages_with_text

        force = self.force

        tagged = self.tagged

        auto_rotate = self.auto_rotate


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if language is not UNSET:
            field_dict["language"] = language
        if dpi is not UNSET:
            field_dict["dpi"] = dpi
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range
        if skip_pages_with_text is not UNSET:
            field_dict["skipPagesWithText"] = skip_pages_with_text
        if force is not UNSET:
            field_dict["force"] = force
        if tagged is not UNSET:
            field_dict["tagged"] = tagged
        if auto_rotate is not UNSET:
            field_dict["autoRotate"] = auto_rotate

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        language = d.pop("language", UNSET)

        dpi = d.pop("dpi", UNSET)

        page_index = d.pop("pageIndex", UNSET)

        page_range = d.pop("pageRange", UNSET)

        skip_pages_with_text = d.pop("skipPagesWithText", UNSET)

        force = d.pop("force", UNSET)

        tagged = d.pop("tagged", UNSET)

        auto_rotate = d.pop("autoRotate", UNSET)

        action_step_ocr_action = cls(
            language=language,
            dpi=dpi,
            page_index=page_index,
            page_range=page_range,
            skip_pages_with_text=skip_pages_with_text,
            force=force,
            tagged=tagged,
            auto_rotate=auto_rotate,
        )

        return action_step_ocr_action

