from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_document_action_json_body_apply_redactions_action_images import RunDocumentActionJsonBodyApplyRedactionsActionImages
from ..models.run_document_action_json_body_apply_redactions_action_line_art import RunDocumentActionJsonBodyApplyRedactionsActionLineArt
from ..models.run_document_action_json_body_apply_redactions_action_naming_mode import RunDocumentActionJsonBodyApplyRedactionsActionNamingMode
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RunDocumentActionJsonBodyApplyRedactionsAction")



@_attrs_define
class RunDocumentActionJsonBodyApplyRedactionsAction:
    """ Applies Redact annotations: removes the text under them from the content streams, clears covered image pixels,
    removes covered vector art, paints the fill and overlay text and removes the annotations; then verifies that no
    redacted text remains (422 REDACTION_INCOMPLETE otherwise, nothing written). The response's report lists what was
    applied and where the redacted text still occurs outside page content.

        Attributes:
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (RunDocumentActionJsonBodyApplyRedactionsActionNamingMode | Unset): When savePath exists: 0 fail
                with 409 (default), 1 overwrite, 2 append a random number to the name. Default:
                RunDocumentActionJsonBodyApplyRedactionsActionNamingMode.VALUE_0.
            page_index (int | Unset): Only this page's Redact annotations
            names (list[str] | Unset): Only these Redact annotations (404 for an unknown name, 400 for one that is not
                Redact)
            images (RunDocumentActionJsonBodyApplyRedactionsActionImages | Unset): Images under a box: clear the covered
                pixels (default), remove the whole image, or keep images Default:
                RunDocumentActionJsonBodyApplyRedactionsActionImages.PIXELS.
            line_art (RunDocumentActionJsonBodyApplyRedactionsActionLineArt | Unset): Vector art: remove what a box covers
                entirely (default), what it touches, or nothing Default:
                RunDocumentActionJsonBodyApplyRedactionsActionLineArt.COVERED.
            scrub_elsewhere (bool | Unset): Also remove the redacted text from document information, XMP metadata,
                bookmarks, annotation texts, form field values and embedded file names Default: False.
            keep_versions (bool | Unset): Keep the earlier versions of the document, which still hold the redacted text
                (default: they are removed, and versionsPurged says how many; docs/versions.md) Default: False.
     """

    save_path: str | Unset = UNSET
    naming_mode: RunDocumentActionJsonBodyApplyRedactionsActionNamingMode | Unset = RunDocumentActionJsonBodyApplyRedactionsActionNamingMode.VALUE_0
    page_index: int | Unset = UNSET
    names: list[str] | Unset = UNSET
    images: RunDocumentActionJsonBodyApplyRedactionsActionImages | Unset = RunDocumentActionJsonBodyApplyRedactionsActionImages.PIXELS
    line_art: RunDocumentActionJsonBodyApplyRedactionsActionLineArt | Unset = RunDocumentActionJsonBodyApplyRedactionsActionLineArt.COVERED
    scrub_elsewhere: bool | Unset = False
    keep_versions: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


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

        keep_versions = self.keep_versions


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
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
        if keep_versions is not UNSET:
            field_dict["keepVersions"] = keep_versions

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: RunDocumentActionJsonBodyApplyRedactionsActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = RunDocumentActionJsonBodyApplyRedactionsActionNamingMode(_naming_mode)




        page_index = d.pop("pageIndex", UNSET)

        names = cast(list[str], d.pop("names", UNSET))


        _images = d.pop("images", UNSET)
        images: RunDocumentActionJsonBodyApplyRedactionsActionImages | Unset
        if isinstance(_images,  Unset):
            images = UNSET
        else:
            images = RunDocumentActionJsonBodyApplyRedactionsActionImages(_images)




        _line_art = d.pop("lineArt", UNSET)
        line_art: RunDocumentActionJsonBodyApplyRedactionsActionLineArt | Unset
        if isinstance(_line_art,  Unset):
            line_art = UNSET
        else:
            line_art = RunDocumentActionJsonBodyApplyRedactionsActionLineArt(_line_art)




        scrub_elsewhere = d.pop("scrubElsewhere", UNSET)

        keep_versions = d.pop("keepVersions", UNSET)

        run_document_action_json_body_apply_redactions_action = cls(
            save_path=save_path,
            naming_mode=naming_mode,
            page_index=page_index,
            names=names,
            images=images,
            line_art=line_art,
            scrub_elsewhere=scrub_elsewhere,
            keep_versions=keep_versions,
        )

        return run_document_action_json_body_apply_redactions_action

