from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_document_action_files_body_page_action_factur_x_action_naming_mode import RunDocumentActionFilesBodyPageActionFacturXActionNamingMode
from ..models.run_document_action_files_body_page_action_factur_x_action_profile import RunDocumentActionFilesBodyPageActionFacturXActionProfile
from ..models.run_document_action_files_body_page_action_factur_x_action_relationship import RunDocumentActionFilesBodyPageActionFacturXActionRelationship
from ..types import UNSET, Unset






T = TypeVar("T", bound="RunDocumentActionFilesBodyPageActionFacturXAction")



@_attrs_define
class RunDocumentActionFilesBodyPageActionFacturXAction:
    """ Makes the document a Factur-X / ZUGFeRD invoice (multipart: this JSON in part "pageAction", the invoice XML, a
    UN/CEFACT CII CrossIndustryInvoice, in part "file"): converted to PDF/A-3b (as PDFAConvertAction), the XML attached
    as factur-x.xml with AFRelationship Alternative (Data for minimum and basicwl) and the fx XMP extension schema
    (DocumentType INVOICE, DocumentFileName, Version 1.0, ConformanceLevel); validated by veraPDF before it is written.
    The profile is read from the XML's guideline id unless given. 422 INVOICE_XML_INVALID for XML that is not such an
    invoice, 422 PDFA_CONVERSION_FAILED as PDFAConvertAction. Runs as a background job unless Prefer: wait=N. See
    docs/attachments.md.

        Attributes:
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (RunDocumentActionFilesBodyPageActionFacturXActionNamingMode | Unset): When savePath exists: 0 fail
                with 409 (default), 1 overwrite, 2 append a random number to the name. Default:
                RunDocumentActionFilesBodyPageActionFacturXActionNamingMode.VALUE_0.
            profile (RunDocumentActionFilesBodyPageActionFacturXActionProfile | Unset): The Factur-X / ZUGFeRD profile
                (minimum, basicwl, basic, en16931, extended, xrechnung); absent: read from the XML's guideline id. Given, it
                must agree with that id
            relationship (RunDocumentActionFilesBodyPageActionFacturXActionRelationship | Unset): The XML's AFRelationship;
                absent: Data for minimum and basicwl, Alternative for the others (as Factur-X 1.0 says)
     """

    save_path: str | Unset = UNSET
    naming_mode: RunDocumentActionFilesBodyPageActionFacturXActionNamingMode | Unset = RunDocumentActionFilesBodyPageActionFacturXActionNamingMode.VALUE_0
    profile: RunDocumentActionFilesBodyPageActionFacturXActionProfile | Unset = UNSET
    relationship: RunDocumentActionFilesBodyPageActionFacturXActionRelationship | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        profile: str | Unset = UNSET
        if not isinstance(self.profile, Unset):
            profile = self.profile.value


        relationship: str | Unset = UNSET
        if not isinstance(self.relationship, Unset):
            relationship = self.relationship.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
        if profile is not UNSET:
            field_dict["profile"] = profile
        if relationship is not UNSET:
            field_dict["relationship"] = relationship

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: RunDocumentActionFilesBodyPageActionFacturXActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = RunDocumentActionFilesBodyPageActionFacturXActionNamingMode(_naming_mode)




        _profile = d.pop("profile", UNSET)
        profile: RunDocumentActionFilesBodyPageActionFacturXActionProfile | Unset
        if isinstance(_profile,  Unset):
            profile = UNSET
        else:
            profile = RunDocumentActionFilesBodyPageActionFacturXActionProfile(_profile)




        _relationship = d.pop("relationship", UNSET)
        relationship: RunDocumentActionFilesBodyPageActionFacturXActionRelationship | Unset
        if isinstance(_relationship,  Unset):
            relationship = UNSET
        else:
            relationship = RunDocumentActionFilesBodyPageActionFacturXActionRelationship(_relationship)




        run_document_action_files_body_page_action_factur_x_action = cls(
            save_path=save_path,
            naming_mode=naming_mode,
            profile=profile,
            relationship=relationship,
        )

        return run_document_action_files_body_page_action_factur_x_action

