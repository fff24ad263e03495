from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="RedactionRequest")



@_attrs_define
class RedactionRequest:
    """ RedactionModel (XML: <Redaction>): what to search for and how the created Redact annotations look.

        Attributes:
            search_text (str): The text to find (no control characters but tab, LF and CR). Whitespace in it matches any
                whitespace, line breaks included.
            case_sensitive (bool | Unset):  Default: False.
            whole_word (bool | Unset): Only matches not preceded or followed by a letter, digit or underscore Default:
                False.
            regex (bool | Unset): searchText is a JavaScript regular expression (Unicode mode); one that does not compile is
                400 INVALID_SEARCH Default: False.
            page_index (int | Unset): Only this page (zero-based)
            include_annotations (bool | Unset): Also search the text annotations show (free text, stamps, form fields);
                applying removes such an annotation Default: True.
            overlay_text (str | Unset): Text painted over each box when applied (/OverlayText)
            overlay_text_color (str | Unset):  Default: '#FFFFFF'.
            fill_color (str | Unset): The box colour once applied (/IC) Default: '#000000'.
            outline_color (str | Unset): The outline shown before applying (/C) Default: '#FF0000'.
            author (str | Unset):
            contents (str | Unset):
     """

    search_text: str
    case_sensitive: bool | Unset = False
    whole_word: bool | Unset = False
    regex: bool | Unset = False
    page_index: int | Unset = UNSET
    include_annotations: bool | Unset = True
    overlay_text: str | Unset = UNSET
    overlay_text_color: str | Unset = '#FFFFFF'
    fill_color: str | Unset = '#000000'
    outline_color: str | Unset = '#FF0000'
    author: str | Unset = UNSET
    contents: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        search_text = self.search_text

        case_sensitive = self.case_sensitive

        whole_word = self.whole_word

        regex = self.regex

        page_index = self.page_index

        include_annotations = self.include_annotations

        overlay_text = self.overlay_text

        overlay_text_color = self.overlay_text_color

        fill_color = self.fill_color

        outline_color = self.outline_color

        author = self.author

        contents = self.contents


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "searchText": search_text,
        })
        if case_sensitive is not UNSET:
            field_dict["caseSensitive"] = case_sensitive
        if whole_word is not UNSET:
            field_dict["wholeWord"] = whole_word
        if regex is not UNSET:
            field_dict["regex"] = regex
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if include_annotations is not UNSET:
            field_dict["includeAnnotations"] = include_annotations
        if overlay_text is not UNSET:
            field_dict["overlayText"] = overlay_text
        if overlay_text_color is not UNSET:
            field_dict["overlayTextColor"] = overlay_text_color
        if fill_color is not UNSET:
            field_dict["fillColor"] = fill_color
        if outline_color is not UNSET:
            field_dict["outlineColor"] = outline_color
        if author is not UNSET:
            field_dict["author"] = author
        if contents is not UNSET:
            field_dict["contents"] = contents

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        search_text = d.pop("searchText")

        case_sensitive = d.pop("caseSensitive", UNSET)

        whole_word = d.pop("wholeWord", UNSET)

        regex = d.pop("regex", UNSET)

        page_index = d.pop("pageIndex", UNSET)

        include_annotations = d.pop("includeAnnotations", UNSET)

        overlay_text = d.pop("overlayText", UNSET)

        overlay_text_color = d.pop("overlayTextColor", UNSET)

        fill_color = d.pop("fillColor", UNSET)

        outline_color = d.pop("outlineColor", UNSET)

        author = d.pop("author", UNSET)

        contents = d.pop("contents", UNSET)

        redaction_request = cls(
            search_text=search_text,
            case_sensitive=case_sensitive,
            whole_word=whole_word,
            regex=regex,
            page_index=page_index,
            include_annotations=include_annotations,
            overlay_text=overlay_text,
            overlay_text_color=overlay_text_color,
            fill_color=fill_color,
            outline_color=outline_color,
            author=author,
            contents=contents,
        )

        return redaction_request

