from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_factur_x_action_profile import ActionStepFacturXActionProfile
from ..models.action_step_factur_x_action_relationship import ActionStepFacturXActionRelationship
from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepFacturXAction")



@_attrs_define
class ActionStepFacturXAction:
    """ Makes the document a Factur-X / ZUGFeRD invoice (multipart: this JSON in part "pageAction", the invoice XML, a
    UN/CEFACT CII CrossIndustryInvoice, in part "file"): converted to PDF/A-3b (as PDFAConvertAction), the XML attached
    as factur-x.xml with AFRelationship Alternative (Data for minimum and basicwl) and the fx XMP extension schema
    (DocumentType INVOICE, DocumentFileName, Version 1.0, ConformanceLevel); validated by veraPDF before it is written.
    The profile is read from the XML's guideline id unless given. 422 INVOICE_XML_INVALID for XML that is not such an
    invoice, 422 PDFA_CONVERSION_FAILED as PDFAConvertAction. Runs as a background job unless Prefer: wait=N. See
    docs/attachments.md.

        Attributes:
            profile (ActionStepFacturXActionProfile | Unset): The Factur-X / ZUGFeRD profile (minimum, basicwl, basic,
                en16931, extended, xrechnung); absent: read from the XML's guideline id. Given, it must agree with that id
            relationship (ActionStepFacturXActionRelationship | Unset): The XML's AFRelationship; absent: Data for minimum
                and basicwl, Alternative for the others (as Factur-X 1.0 says)
     """

    profile: ActionStepFacturXActionProfile | Unset = UNSET
    relationship: ActionStepFacturXActionRelationship | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        profile: str | Unset = UNSET
        if not isinstance(self.profile, Unset):
            profile = self.profile.value


        relationship: str | Unset = UNSET
        if not isinstance(self.relationship, Unset):
            relationship = self.relationship.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if profile is not UNSET:
            field_dict["profile"] = profile
        if relationship is not UNSET:
            field_dict["relationship"] = relationship

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _profile = d.pop("profile", UNSET)
        profile: ActionStepFacturXActionProfile | Unset
        if isinstance(_profile,  Unset):
            profile = UNSET
        else:
            profile = ActionStepFacturXActionProfile(_profile)




        _relationship = d.pop("relationship", UNSET)
        relationship: ActionStepFacturXActionRelationship | Unset
        if isinstance(_relationship,  Unset):
            relationship = UNSET
        else:
            relationship = ActionStepFacturXActionRelationship(_relationship)




        action_step_factur_x_action = cls(
            profile=profile,
            relationship=relationship,
        )

        return action_step_factur_x_action

