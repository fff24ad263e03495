from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.redaction_model_matches_item import RedactionModelMatchesItem





T = TypeVar("T", bound="RedactionModel")



@_attrs_define
class RedactionModel:
    """ RedactionModel (XML: <Redaction>): the request echoed, the number of Redact annotations created, their names, and
    each match.

        Attributes:
            search_text (str | Unset): The text to find (no control characters but tab, LF and CR). Whitespace in it matches
                any whitespace, line breaks included.
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
            count (int | Unset):
            annotation_names (list[str] | Unset):
            matches (list[RedactionModelMatchesItem] | Unset):
     """

    search_text: str | Unset = UNSET
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
    count: int | Unset = UNSET
    annotation_names: list[str] | Unset = UNSET
    matches: list[RedactionModelMatchesItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.redaction_model_matches_item import RedactionModelMatchesItem # noqa: PLC0415
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

        count = self.count

        annotation_names: list[str] | Unset = UNSET
        if not isinstance(self.annotation_names, Unset):
            annotation_names = self.annotation_names



        matches: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.matches, Unset):
            matches = []
            for matches_item_data in self.matches:
                matches_item = matches_item_data.to_dict()
                matches.append(matches_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if search_text is not UNSET:
            field_dict["searchText"] = search_text
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
        if count is not UNSET:
            field_dict["count"] = count
        if annotation_names is not UNSET:
            field_dict["annotationNames"] = annotation_names
        if matches is not UNSET:
            field_dict["matches"] = matches

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.redaction_model_matches_item import RedactionModelMatchesItem # noqa: PLC0415
        d = dict(src_dict)
        search_text = d.pop("searchText", UNSET)

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

        count = d.pop("count", UNSET)

        annotation_names = cast(list[str], d.pop("annotationNames", UNSET))


        _matches = d.pop("matches", UNSET)
        matches: list[RedactionModelMatchesItem] | Unset = UNSET
        if _matches is not UNSET:
            matches = []
            for matches_item_data in _matches:
                matches_item = RedactionModelMatchesItem.from_dict(matches_item_data)



                matches.append(matches_item)


        redaction_model = cls(
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
            count=count,
            annotation_names=annotation_names,
            matches=matches,
        )


        redaction_model.additional_properties = d
        return redaction_model

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
