from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_apply_redactions_action_images import ActionStepApplyRedactionsActionImages
from ..models.action_step_apply_redactions_action_line_art import ActionStepApplyRedactionsActionLineArt
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ActionStepApplyRedactionsAction")



@_attrs_define
class ActionStepApplyRedactionsAction:
    """ Applies Redact annotations: removes the text under them from the content streams, clears covered image pixels,
    removes covered vector art, paints the fill and overlay text and removes the annotations; then verifies that no
    redacted text remains (422 REDACTION_INCOMPLETE otherwise, nothing written). The response's report lists what was
    applied and where the redacted text still occurs outside page content.

        Attributes:
            page_index (int | Unset): Only this page's Redact annotations
            names (list[str] | Unset): Only these Redact annotations (404 for an unknown name, 400 for one that is not
                Redact)
            images (ActionStepApplyRedactionsActionImages | Unset): Images under a box: clear the covered pixels (default),
                remove the whole image, or keep images Default: ActionStepApplyRedactionsActionImages.PIXELS.
            line_art (ActionStepApplyRedactionsActionLineArt | Unset): Vector art: remove what a box covers entirely
                (default), what it touches, or nothing Default: ActionStepApplyRedactionsActionLineArt.COVERED.
            scrub_elsewhere (bool | Unset): Also remove the redacted text from document information, XMP metadata,
                bookmarks, annotation texts, form field values and embedded file names Default: False.
     """

    page_index: int | Unset = UNSET
    names: list[str] | Unset = UNSET
    images: ActionStepApplyRedactionsActionImages | Unset = ActionStepApplyRedactionsActionImages.PIXELS
    line_art: ActionStepApplyRedactionsActionLineArt | Unset = ActionStepApplyRedactionsActionLineArt.COVERED
    scrub_elsewhere: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        page_index = self.page_index

        names: list[str] | Unset = UNSET
        if not isinstance(self.names, Unset):
            names = self.names



        images: str | Unset = UNSET
        if not isinstance(self.images, Unset):
            images = self.images.value


        line_art: str | Unset = UNSET
        if not isinstance(self.line_art, Unset):
            line_art = self.line_art.value


        scrub_elsewhere = self.scrub_elsewhere


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if names is not UNSET:
            field_dict["names"] = names
        if images is not UNSET:
            field_dict["images"] = images
        if line_art is not UNSET:
            field_dict["lineArt"] = line_art
        if scrub_elsewhere is not UNSET:
            field_dict["scrubElsewhere"] = scrub_elsewhere

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        page_index = d.pop("pageIndex", UNSET)

        names = cast(list[str], d.pop("names", UNSET))


        _images = d.pop("images", UNSET)
        images: ActionStepApplyRedactionsActionImages | Unset
        if isinstance(_images,  Unset):
            images = UNSET
        else:
            images = ActionStepApplyRedactionsActionImages(_images)




        _line_art = d.pop("lineArt", UNSET)
        line_art: ActionStepApplyRedactionsActionLineArt | Unset
        if isinstance(_line_art,  Unset):
            line_art = UNSET
        else:
            line_art = ActionStepApplyRedactionsActionLineArt(_line_art)




        scrub_elsewhere = d.pop("scrubElsewhere", UNSET)

        action_step_apply_redactions_action = cls(
            page_index=page_index,
            names=names,
            images=images,
            line_art=line_art,
            scrub_elsewhere=scrub_elsewhere,
        )

        return action_step_apply_redactions_action

