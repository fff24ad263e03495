from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_remove_pages_by_text_action_match import ActionStepRemovePagesByTextActionMatch
from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepRemovePagesByTextAction")



@_attrs_define
class ActionStepRemovePagesByTextAction:
    """ Removes the pages (of pageRange, default all) whose text contains searchText (match "contains"), or whose whole text
    is searchText (match "only": separator sheets). searchText is literal (whitespace matches any whitespace) or, with
    regex, a regular expression under a time budget, as the redaction search. Text of annotations is not searched.
    dryRun only lists the pages. A search that matches every page is 400. See docs/page-numbers.md.

        Attributes:
            search_text (str): The text (or regular expression) a page to remove has
            page_range (str | Unset): Only these pages are considered, 1-based, as in a print dialog: "2-9" (default, when
                absent: every page; empty is 400)
            dry_run (bool | Unset): Only list the pages that would be removed: nothing is written Default: False.
            regex (bool | Unset): searchText is a JavaScript regular expression (run under a time budget, as redaction's
                search) Default: False.
            case_sensitive (bool | Unset):  Default: False.
            whole_word (bool | Unset): Match whole words only Default: False.
            match (ActionStepRemovePagesByTextActionMatch | Unset): contains: the page's text has a match; only: the page's
                whole text (spaces and line breaks around it aside) is a match Default:
                ActionStepRemovePagesByTextActionMatch.CONTAINS.
     """

    search_text: str
    page_range: str | Unset = UNSET
    dry_run: bool | Unset = False
    regex: bool | Unset = False
    case_sensitive: bool | Unset = False
    whole_word: bool | Unset = False
    match: ActionStepRemovePagesByTextActionMatch | Unset = ActionStepRemovePagesByTextActionMatch.CONTAINS





    def to_dict(self) -> dict[str, Any]:
        search_text = self.search_text

        page_range = self.page_range

        dry_run = self.dry_run

        regex = self.regex

        case_sensitive = self.case_sensitive

        whole_word = self.whole_word

        match: str | Unset = UNSET
        if not isinstance(self.match, Unset):
            match = self.match.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "searchText": search_text,
        })
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range
        if dry_run is not UNSET:
            field_dict["dryRun"] = dry_run
        if regex is not UNSET:
            field_dict["regex"] = regex
        if case_sensitive is not UNSET:
            field_dict["caseSensitive"] = case_sensitive
        if whole_word is not UNSET:
            field_dict["wholeWord"] = whole_word
        if match is not UNSET:
            field_dict["match"] = match

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        search_text = d.pop("searchText")

        page_range = d.pop("pageRange", UNSET)

        dry_run = d.pop("dryRun", UNSET)

        regex = d.pop("regex", UNSET)

        case_sensitive = d.pop("caseSensitive", UNSET)

        whole_word = d.pop("wholeWord", UNSET)

        _match = d.pop("match", UNSET)
        match: ActionStepRemovePagesByTextActionMatch | Unset
        if isinstance(_match,  Unset):
            match = UNSET
        else:
            match = ActionStepRemovePagesByTextActionMatch(_match)




        action_step_remove_pages_by_text_action = cls(
            search_text=search_text,
            page_range=page_range,
            dry_run=dry_run,
            regex=regex,
            case_sensitive=case_sensitive,
            whole_word=whole_word,
            match=match,
        )

        return action_step_remove_pages_by_text_action

