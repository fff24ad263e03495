from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_page_action_files_body_action_split_document_action_naming_mode import RunPageActionFilesBodyActionSplitDocumentActionNamingMode
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RunPageActionFilesBodyActionSplitDocumentAction")



@_attrs_define
class RunPageActionFilesBodyActionSplitDocumentAction:
    """ Splits the document into several new documents in `folder`, named by `pattern`: by page ranges, every N pages, a
    maximum size, top-level bookmarks or blank separator pages (exactly one). The source is not changed; the answer
    lists every document written.

        Attributes:
            folder (str): Folder the parts are written into ("reports/2026/parts"); created when missing.
            pattern (str | Unset): Name of each part, ending in ".pdf": {name} the source's name without ".pdf", {n} the
                part's number from 1 ({n:3}: zero-padded to 3 digits), {first} and {last} its first and last page (1-based),
                {title} the bookmark it starts at (bookmarks; made safe as a name). Default: '{name}-{n}.pdf'.
            naming_mode (RunPageActionFilesBodyActionSplitDocumentActionNamingMode | Unset): When a part's name exists: 0
                the split is refused with 409 and nothing is written (default), 1 overwrite, 2 append a random number to the
                name. Default: RunPageActionFilesBodyActionSplitDocumentActionNamingMode.VALUE_0.
            ranges (list[str] | Unset): One part per page range, in this order (1-based, as in a print dialog: "1-3,7,10-");
                ranges may overlap.
            every_pages (int | Unset): Parts of this many pages (the last one may be shorter).
            max_bytes (int | Unset): Parts of consecutive pages of at most this many bytes each; a page larger alone is a
                part of its own (marked oversized).
            bookmarks (bool | Unset): A part starts at each top-level bookmark's page (pages before the first one are a part
                of their own).
            blank_pages (bool | Unset): Blank pages separate the parts and are left out of them.
            ink_threshold (float | Unset): With blankPages: a page whose share of pixels that are not white is below this is
                blank (default 0.001), measured as RemoveBlankPagesAction measures it.
     """

    folder: str
    pattern: str | Unset = '{name}-{n}.pdf'
    naming_mode: RunPageActionFilesBodyActionSplitDocumentActionNamingMode | Unset = RunPageActionFilesBodyActionSplitDocumentActionNamingMode.VALUE_0
    ranges: list[str] | Unset = UNSET
    every_pages: int | Unset = UNSET
    max_bytes: int | Unset = UNSET
    bookmarks: bool | Unset = UNSET
    blank_pages: bool | Unset = UNSET
    ink_threshold: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        folder = self.folder

        pattern = self.pattern

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        ranges: list[str] | Unset = UNSET
        if not isinstance(self.ranges, Unset):
            ranges = self.ranges



        every_pages = self.every_pages

        max_bytes = self.max_bytes

        bookmarks = self.bookmarks

        blank_pages = self.blank_pages

        ink_threshold = self.ink_threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "folder": folder,
        })
        if pattern is not UNSET:
            field_dict["pattern"] = pattern
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
        if ranges is not UNSET:
            field_dict["ranges"] = ranges
        if every_pages is not UNSET:
            field_dict["everyPages"] = every_pages
        if max_bytes is not UNSET:
            field_dict["maxBytes"] = max_bytes
        if bookmarks is not UNSET:
            field_dict["bookmarks"] = bookmarks
        if blank_pages is not UNSET:
            field_dict["blankPages"] = blank_pages
        if ink_threshold is not UNSET:
            field_dict["inkThreshold"] = ink_threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        folder = d.pop("folder")

        pattern = d.pop("pattern", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: RunPageActionFilesBodyActionSplitDocumentActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = RunPageActionFilesBodyActionSplitDocumentActionNamingMode(_naming_mode)




        ranges = cast(list[str], d.pop("ranges", UNSET))


        every_pages = d.pop("everyPages", UNSET)

        max_bytes = d.pop("maxBytes", UNSET)

        bookmarks = d.pop("bookmarks", UNSET)

        blank_pages = d.pop("blankPages", UNSET)

        ink_threshold = d.pop("inkThreshold", UNSET)

        run_page_action_files_body_action_split_document_action = cls(
            folder=folder,
            pattern=pattern,
            naming_mode=naming_mode,
            ranges=ranges,
            every_pages=every_pages,
            max_bytes=max_bytes,
            bookmarks=bookmarks,
            blank_pages=blank_pages,
            ink_threshold=ink_threshold,
        )

        return run_page_action_files_body_action_split_document_action

