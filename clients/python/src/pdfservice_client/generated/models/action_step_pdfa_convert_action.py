from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_pdfa_convert_action_embedded_files import ActionStepPDFAConvertActionEmbeddedFiles
from ..models.action_step_pdfa_convert_action_profile import ActionStepPDFAConvertActionProfile
from ..models.action_step_pdfa_convert_action_transparency import ActionStepPDFAConvertActionTransparency
from ..models.action_step_pdfa_convert_action_unsupported_annots import ActionStepPDFAConvertActionUnsupportedAnnots
from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepPDFAConvertAction")



@_attrs_define
class ActionStepPDFAConvertAction:
    """ Converts the document to PDF/A (profile pdfa1b, pdfa2b (default), pdfa2u, pdfa3b or pdfa3u): fonts embedded, sRGB
    output intent, XMP with pdfaid, no encryption (an encrypted document needs its owner password), annotations,
    actions, embedded files and transparency made what the profile allows (or refused, per the options). The output is
    validated with veraPDF and written only when it is compliant; otherwise 422 PDFA_CONVERSION_FAILED with the failed
    rules and nothing written, or with appendReport/addAnnots the document as it was with the report in it. The answer's
    report lists what was changed and the validator's verdict. Runs as a background job unless Prefer: wait=N. See
    docs/pdfa.md.

        Attributes:
            profile (ActionStepPDFAConvertActionProfile | Unset): PDF/A flavour to convert to (default pdfa2b: allows
                transparency and JPEG 2000, read by every archive system) Default: ActionStepPDFAConvertActionProfile.PDFA2B.
            unsupported_annots (ActionStepPDFAConvertActionUnsupportedAnnots | Unset): Annotations the profile forbids (3D,
                Sound, Movie, Screen, RichMedia, unknown types): 0 delete them (default), 1 fail Default:
                ActionStepPDFAConvertActionUnsupportedAnnots.VALUE_0.
            embedded_files (ActionStepPDFAConvertActionEmbeddedFiles | Unset): Embedded files and file attachment
                annotations in PDF/A-1 and -2: 0 delete them (default), 1 fail. PDF/A-3 keeps them (with AFRelationship)
                Default: ActionStepPDFAConvertActionEmbeddedFiles.VALUE_0.
            transparency (ActionStepPDFAConvertActionTransparency | Unset): Transparency in PDF/A-1: 1 fail, 2 make it
                opaque (default). PDF/A-2 and -3 keep it Default: ActionStepPDFAConvertActionTransparency.VALUE_2.
            append_report (bool | Unset): When the conversion fails: write the document as it was with pages listing the
                failed rules appended (not PDF/A), and answer 200/201 with the report, instead of 422 Default: False.
            add_annots (bool | Unset): When the conversion fails: write the document as it was with a note on each page
                where a rule failed (not PDF/A), and answer 200/201 with the report, instead of 422 Default: False.
     """

    profile: ActionStepPDFAConvertActionProfile | Unset = ActionStepPDFAConvertActionProfile.PDFA2B
    unsupported_annots: ActionStepPDFAConvertActionUnsupportedAnnots | Unset = ActionStepPDFAConvertActionUnsupportedAnnots.VALUE_0
    embedded_files: ActionStepPDFAConvertActionEmbeddedFiles | Unset = ActionStepPDFAConvertActionEmbeddedFiles.VALUE_0
    transparency: ActionStepPDFAConvertActionTransparency | Unset = ActionStepPDFAConvertActionTransparency.VALUE_2
    append_report: bool | Unset = False
    add_annots: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        profile: str | Unset = UNSET
        if not isinstance(self.profile, Unset):
            profile = self.profile.value


        unsupported_annots: int | Unset = UNSET
        if not isinstance(self.unsupported_annots, Unset):
            unsupported_annots = self.unsupported_annots.value


        embedded_files: int | Unset = UNSET
        if not isinstance(self.embedded_files, Unset):
            embedded_files = self.embedded_files.value


        transparency: int | Unset = UNSET
        if not isinstance(self.transparency, Unset):
            transparency = self.transparency.value


        append_report = self.append_report

        add_annots = self.add_annots


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if profile is not UNSET:
            field_dict["profile"] = profile
        if unsupported_annots is not UNSET:
            field_dict["unsupportedAnnots"] = unsupported_annots
        if embedded_files is not UNSET:
            field_dict["embeddedFiles"] = embedded_files
        if transparency is not UNSET:
            field_dict["transparency"] = transparency
        if append_report is not UNSET:
            field_dict["appendReport"] = append_report
        if add_annots is not UNSET:
            field_dict["addAnnots"] = add_annots

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _profile = d.pop("profile", UNSET)
        profile: ActionStepPDFAConvertActionProfile | Unset
        if isinstance(_profile,  Unset):
            profile = UNSET
        else:
            profile = ActionStepPDFAConvertActionProfile(_profile)




        _unsupported_annots = d.pop("unsupportedAnnots", UNSET)
        unsupported_annots: ActionStepPDFAConvertActionUnsupportedAnnots | Unset
        if isinstance(_unsupported_annots,  Unset):
            unsupported_annots = UNSET
        else:
            unsupported_annots = ActionStepPDFAConvertActionUnsupportedAnnots(_unsupported_annots)




        _embedded_files = d.pop("embeddedFiles", UNSET)
        embedded_files: ActionStepPDFAConvertActionEmbeddedFiles | Unset
        if isinstance(_embedded_files,  Unset):
            embedded_files = UNSET
        else:
            embedded_files = ActionStepPDFAConvertActionEmbeddedFiles(_embedded_files)




        _transparency = d.pop("transparency", UNSET)
        transparency: ActionStepPDFAConvertActionTransparency | Unset
        if isinstance(_transparency,  Unset):
            transparency = UNSET
        else:
            transparency = ActionStepPDFAConvertActionTransparency(_transparency)




        append_report = d.pop("appendReport", UNSET)

        add_annots = d.pop("addAnnots", UNSET)

        action_step_pdfa_convert_action = cls(
            profile=profile,
            unsupported_annots=unsupported_annots,
            embedded_files=embedded_files,
            transparency=transparency,
            append_report=append_report,
            add_annots=add_annots,
        )

        return action_step_pdfa_convert_action

