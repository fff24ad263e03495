from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.action_step_pdfua_convert_action_figures_item import ActionStepPDFUAConvertActionFiguresItem





T = TypeVar("T", bound="ActionStepPDFUAConvertAction")



@_attrs_define
class ActionStepPDFUAConvertAction:
    """ Tags an untagged document for accessibility (PDF/UA-1): headings, paragraphs, lists, tables with header cells,
    figures and links in a structure tree in reading order, running headers, footers, page numbers and decoration as
    artifacts, the language, title and XMP metadata set. The result is checked with veraPDF and claims PDF/UA-1 only
    when it passes; the report gives the verdict, the failed rules grouped by Matterhorn checkpoint, and the figures
    that still need alternate text (figures gives it by index). A tagged document is kept unless retag. Signed documents
    are refused (409 DOCUMENT_SIGNED), a document without text is 422 NO_TEXT (OCRAction first). Runs as a background
    job unless Prefer: wait=N. See docs/accessibility.md.

        Attributes:
            lang (str | Unset): The document language, a BCP 47 tag (en-US). Default: the document's own /Lang; none is
                guessed
            title (str | Unset): The document title (Info and XMP dc:title). Default: the document's own title, else its
                first heading, else the stored document's name
            retag (bool | Unset): Replace the structure tree of a document that is tagged already (default: such a document
                is kept as it is, nothing written) Default: False.
            figures (list[ActionStepPDFUAConvertActionFiguresItem] | Unset): Alternate text of figures: index is the
                figure's 0-based position among the Figure elements of the tagged document in depth-first order (an index past
                the last figure is 400)
     """

    lang: str | Unset = UNSET
    title: str | Unset = UNSET
    retag: bool | Unset = False
    figures: list[ActionStepPDFUAConvertActionFiguresItem] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_step_pdfua_convert_action_figures_item import ActionStepPDFUAConvertActionFiguresItem # noqa: PLC0415
        lang = self.lang

        title = self.title

        retag = self.retag

        figures: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.figures, Unset):
            figures = []
            for figures_item_data in self.figures:
                figures_item = figures_item_data.to_dict()
                figures.append(figures_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if lang is not UNSET:
            field_dict["lang"] = lang
        if title is not UNSET:
            field_dict["title"] = title
        if retag is not UNSET:
            field_dict["retag"] = retag
        if figures is not UNSET:
            field_dict["figures"] = figures

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_step_pdfua_convert_action_figures_item import ActionStepPDFUAConvertActionFiguresItem # noqa: PLC0415
        d = dict(src_dict)
        lang = d.pop("lang", UNSET)

        title = d.pop("title", UNSET)

        retag = d.pop("retag", UNSET)

        _figures = d.pop("figures", UNSET)
        figures: list[ActionStepPDFUAConvertActionFiguresItem] | Unset = UNSET
        if _figures is not UNSET:
            figures = []
            for figures_item_data in _figures:
                figures_item = ActionStepPDFUAConvertActionFiguresItem.from_dict(figures_item_data)



                figures.append(figures_item)


        action_step_pdfua_convert_action = cls(
            lang=lang,
            title=title,
            retag=retag,
            figures=figures,
        )

        return action_step_pdfua_convert_action

