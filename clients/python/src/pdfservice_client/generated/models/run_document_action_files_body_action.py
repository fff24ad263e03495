from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.run_document_action_files_body_action_apply_redactions_action import RunDocumentActionFilesBodyActionApplyRedactionsAction
  from ..models.run_document_action_files_body_action_copy_action import RunDocumentActionFilesBodyActionCopyAction
  from ..models.run_document_action_files_body_action_factur_x_action import RunDocumentActionFilesBodyActionFacturXAction
  from ..models.run_document_action_files_body_action_flatten_annotations_action import RunDocumentActionFilesBodyActionFlattenAnnotationsAction
  from ..models.run_document_action_files_body_action_flatten_fields_action import RunDocumentActionFilesBodyActionFlattenFieldsAction
  from ..models.run_document_action_files_body_action_linearize_action import RunDocumentActionFilesBodyActionLinearizeAction
  from ..models.run_document_action_files_body_action_merge_documents_action import RunDocumentActionFilesBodyActionMergeDocumentsAction
  from ..models.run_document_action_files_body_action_move_action import RunDocumentActionFilesBodyActionMoveAction
  from ..models.run_document_action_files_body_action_optimize_action import RunDocumentActionFilesBodyActionOptimizeAction
  from ..models.run_document_action_files_body_action_pdfa_convert_action import RunDocumentActionFilesBodyActionPDFAConvertAction
  from ..models.run_document_action_files_body_action_pdfua_convert_action import RunDocumentActionFilesBodyActionPDFUAConvertAction
  from ..models.run_document_action_files_body_action_pipeline_action import RunDocumentActionFilesBodyActionPipelineAction
  from ..models.run_document_action_files_body_action_sanitize_action import RunDocumentActionFilesBodyActionSanitizeAction





T = TypeVar("T", bound="RunDocumentActionFilesBodyAction")



@_attrs_define
class RunDocumentActionFilesBodyAction:
    """ Another name for the pageAction part: send one of the two (both is 400 MALFORMED_MULTIPART)

        Attributes:
            copy_action (RunDocumentActionFilesBodyActionCopyAction | Unset): Copies the document to savePath (required).
            move_action (RunDocumentActionFilesBodyActionMoveAction | Unset): Moves (renames) the document to savePath
                (required), with its versions; needs the rights PUT and DELETE.
            apply_redactions_action (RunDocumentActionFilesBodyActionApplyRedactionsAction | Unset): Applies Redact
                annotations: removes the text under them from the content streams, clears covered image pixels, removes covered
                vector art, paints the fill and overlay text and removes the annotations; then verifies that no redacted text
                remains (422 REDACTION_INCOMPLETE otherwise, nothing written). The response's report lists what was applied and
                where the redacted text still occurs outside page content.
            flatten_fields_action (RunDocumentActionFilesBodyActionFlattenFieldsAction | Unset): Paints every form field's
                appearance into its page (generating missing appearances first) and removes the fields and the AcroForm (and
                XFA). Push buttons are painted only with paintButtons (only those showing an image with paintOnlyImageButtons);
                fields without the print flag only with paintNonPrintableFields; hidden fields never.
            flatten_annotations_action (RunDocumentActionFilesBodyActionFlattenAnnotationsAction | Unset): Paints every
                annotation other than form widgets and links into its page (generating missing appearances first) and removes
                it; popups are dropped, hidden annotations are not painted, annotations without the print flag only with
                paintNonPrintableAnnots. Links stay unless keepLinks is false.
            pdfa_convert_action (RunDocumentActionFilesBodyActionPDFAConvertAction | Unset): Converts the document to PDF/A
                (profile pdfa1b, pdfa2b (default), pdfa2u, pdfa3b or pdfa3u): fonts embedded, sRGB output intent, XMP with
                pdfaid, no encryption (an encrypted document needs its owner password), annotations, actions, embedded files and
                transparency made what the profile allows (or refused, per the options). The output is validated with veraPDF
                and written only when it is compliant; otherwise 422 PDFA_CONVERSION_FAILED with the failed rules and nothing
                written, or with appendReport/addAnnots the document as it was with the report in it. The answer's report lists
                what was changed and the validator's verdict. Runs as a background job unless Prefer: wait=N. See docs/pdfa.md.
            pdfua_convert_action (RunDocumentActionFilesBodyActionPDFUAConvertAction | Unset): Tags an untagged document for
                accessibility (PDF/UA-1): headings, paragraphs, lists, tables with header cells, figures and links in a
                structure tree in reading order, running headers, footers, page numbers and decoration as artifacts, the
                language, title and XMP metadata set. The result is checked with veraPDF and claims PDF/UA-1 only when it
                passes; the report gives the verdict, the failed rules grouped by Matterhorn checkpoint, and the figures that
                still need alternate text (figures gives it by index). A tagged document is kept unless retag. Signed documents
                are refused (409 DOCUMENT_SIGNED), a document without text is 422 NO_TEXT (OCRAction first). Runs as a
                background job unless Prefer: wait=N. See docs/accessibility.md.
            factur_x_action (RunDocumentActionFilesBodyActionFacturXAction | Unset): Makes the document a Factur-X / ZUGFeRD
                invoice (multipart: this JSON in part "pageAction", the invoice XML, a UN/CEFACT CII CrossIndustryInvoice, in
                part "file"): converted to PDF/A-3b (as PDFAConvertAction), the XML attached as factur-x.xml with AFRelationship
                Alternative (Data for minimum and basicwl) and the fx XMP extension schema (DocumentType INVOICE,
                DocumentFileName, Version 1.0, ConformanceLevel); validated by veraPDF before it is written. The profile is read
                from the XML's guideline id unless given. 422 INVOICE_XML_INVALID for XML that is not such an invoice, 422
                PDFA_CONVERSION_FAILED as PDFAConvertAction. Runs as a background job unless Prefer: wait=N. See
                docs/attachments.md.
            linearize_action (RunDocumentActionFilesBodyActionLinearizeAction | Unset): Writes the document linearized
                ("fast web view", ISO 32000-1 Annex F) with qpdf; content, object streams and encryption are kept (an encrypted
                document needs its password, and a user password only when its permissions allow changes). A signed document is
                refused (409 DOCUMENT_SIGNED). The answer's report gives the sizes before and after. See docs/optimize.md.
            optimize_action (RunDocumentActionFilesBodyActionOptimizeAction | Unset): Makes the document smaller by an
                optimize profile (profileName, or an inline profile): images above 1.5 times the target resolution downsampled,
                colour spaces converted and images re-encoded per the profile, each kept when the new one is not smaller; unused
                resources removed, fonts subset, duplicate images and fonts merged, object streams and maximum Flate. Encryption
                is kept (the password is needed, and the permission to change); a signed document is refused (409
                DOCUMENT_SIGNED). The answer's report gives the sizes before and after, per category. When the result would not
                be smaller nothing is written and the answer is 200 with report.changed false. See docs/optimize.md.
            pipeline_action (RunDocumentActionFilesBodyActionPipelineAction | Unset): Runs a stored pipeline (name; owner
                for one shared by another user; version, else the newest) on the document: its steps one after the other, the
                document written once at the end as one new version (or at savePath). All steps or none: a step that fails
                leaves the document as it was, and the problem (PIPELINE_STEP_FAILED) names the step and carries its own
                problem. A job when a step is long by nature. See docs/pipelines.md.
            merge_documents_action (RunDocumentActionFilesBodyActionMergeDocumentsAction | Unset): Merges this document
                (first) and the documents of sources, in order, each with its pageRange, into a new document at savePath
                (required): a bookmark per source with its bookmarks under it, links and named destinations kept (clashing names
                get "_2", ...), form fields renamed on collision, optionally a table of contents in front. At most 999 sources.
                The answer's report gives each source's start page.
            sanitize_action (RunDocumentActionFilesBodyActionSanitizeAction | Unset): Removes JavaScript, embedded files,
                actions that reach outside the document, form submit and reset actions, metadata and hidden layers (both off by
                default) and annotations of chosen subtypes; rewrites the file in full, re-reads it and verifies that none of it
                remains (422 SANITIZE_INCOMPLETE otherwise, nothing written). The report counts what was removed of each kind.
                See docs/sanitize.md.
     """

    copy_action: RunDocumentActionFilesBodyActionCopyAction | Unset = UNSET
    move_action: RunDocumentActionFilesBodyActionMoveAction | Unset = UNSET
    apply_redactions_action: RunDocumentActionFilesBodyActionApplyRedactionsAction | Unset = UNSET
    flatten_fields_action: RunDocumentActionFilesBodyActionFlattenFieldsAction | Unset = UNSET
    flatten_annotations_action: RunDocumentActionFilesBodyActionFlattenAnnotationsAction | Unset = UNSET
    pdfa_convert_action: RunDocumentActionFilesBodyActionPDFAConvertAction | Unset = UNSET
    pdfua_convert_action: RunDocumentActionFilesBodyActionPDFUAConvertAction | Unset = UNSET
    factur_x_action: RunDocumentActionFilesBodyActionFacturXAction | Unset = UNSET
    linearize_action: RunDocumentActionFilesBodyActionLinearizeAction | Unset = UNSET
    optimize_action: RunDocumentActionFilesBodyActionOptimizeAction | Unset = UNSET
    pipeline_action: RunDocumentActionFilesBodyActionPipelineAction | Unset = UNSET
    merge_documents_action: RunDocumentActionFilesBodyActionMergeDocumentsAction | Unset = UNSET
    sanitize_action: RunDocumentActionFilesBodyActionSanitizeAction | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.run_document_action_files_body_action_apply_redactions_action import RunDocumentActionFilesBodyActionApplyRedactionsAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_copy_action import RunDocumentActionFilesBodyActionCopyAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_factur_x_action import RunDocumentActionFilesBodyActionFacturXAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_flatten_annotations_action import RunDocumentActionFilesBodyActionFlattenAnnotationsAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_flatten_fields_action import RunDocumentActionFilesBodyActionFlattenFieldsAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_linearize_action import RunDocumentActionFilesBodyActionLinearizeAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_merge_documents_action import RunDocumentActionFilesBodyActionMergeDocumentsAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_move_action import RunDocumentActionFilesBodyActionMoveAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_optimize_action import RunDocumentActionFilesBodyActionOptimizeAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_pdfa_convert_action import RunDocumentActionFilesBodyActionPDFAConvertAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_pdfua_convert_action import RunDocumentActionFilesBodyActionPDFUAConvertAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_pipeline_action import RunDocumentActionFilesBodyActionPipelineAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_sanitize_action import RunDocumentActionFilesBodyActionSanitizeAction # noqa: PLC0415
        copy_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.copy_action, Unset):
            copy_action = self.copy_action.to_dict()

        move_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.move_action, Unset):
            move_action = self.move_action.to_dict()

        apply_redactions_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.apply_redactions_action, Unset):
            apply_redactions_action = self.apply_redactions_action.to_dict()

        flatten_fields_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.flatten_fields_action, Unset):
            flatten_fields_action = self.flatten_fields_action.to_dict()

        flatten_annotations_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.flatten_annotations_action, Unset):
            flatten_annotations_action = self.flatten_annotations_action.to_dict()

        pdfa_convert_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.pdfa_convert_action, Unset):
            pdfa_convert_action = self.pdfa_convert_action.to_dict()

        pdfua_convert_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.pdfua_convert_action, Unset):
            pdfua_convert_action = self.pdfua_convert_action.to_dict()

        factur_x_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.factur_x_action, Unset):
            factur_x_action = self.factur_x_action.to_dict()

        linearize_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.linearize_action, Unset):
            linearize_action = self.linearize_action.to_dict()

        optimize_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.optimize_action, Unset):
            optimize_action = self.optimize_action.to_dict()

        pipeline_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.pipeline_action, Unset):
            pipeline_action = self.pipeline_action.to_dict()

        merge_documents_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.merge_documents_action, Unset):
            merge_documents_action = self.merge_documents_action.to_dict()

        sanitize_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sanitize_action, Unset):
            sanitize_action = self.sanitize_action.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if copy_action is not UNSET:
            field_dict["CopyAction"] = copy_action
        if move_action is not UNSET:
            field_dict["MoveAction"] = move_action
        if apply_redactions_action is not UNSET:
            field_dict["ApplyRedactionsAction"] = apply_redactions_action
        if flatten_fields_action is not UNSET:
            field_dict["FlattenFieldsAction"] = flatten_fields_action
        if flatten_annotations_action is not UNSET:
            field_dict["FlattenAnnotationsAction"] = flatten_annotations_action
        if pdfa_convert_action is not UNSET:
            field_dict["PDFAConvertAction"] = pdfa_convert_action
        if pdfua_convert_action is not UNSET:
            field_dict["PDFUAConvertAction"] = pdfua_convert_action
        if factur_x_action is not UNSET:
            field_dict["FacturXAction"] = factur_x_action
        if linearize_action is not UNSET:
            field_dict["LinearizeAction"] = linearize_action
        if optimize_action is not UNSET:
            field_dict["OptimizeAction"] = optimize_action
        if pipeline_action is not UNSET:
            field_dict["PipelineAction"] = pipeline_action
        if merge_documents_action is not UNSET:
            field_dict["MergeDocumentsAction"] = merge_documents_action
        if sanitize_action is not UNSET:
            field_dict["SanitizeAction"] = sanitize_action

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.run_document_action_files_body_action_apply_redactions_action import RunDocumentActionFilesBodyActionApplyRedactionsAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_copy_action import RunDocumentActionFilesBodyActionCopyAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_factur_x_action import RunDocumentActionFilesBodyActionFacturXAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_flatten_annotations_action import RunDocumentActionFilesBodyActionFlattenAnnotationsAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_flatten_fields_action import RunDocumentActionFilesBodyActionFlattenFieldsAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_linearize_action import RunDocumentActionFilesBodyActionLinearizeAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_merge_documents_action import RunDocumentActionFilesBodyActionMergeDocumentsAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_move_action import RunDocumentActionFilesBodyActionMoveAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_optimize_action import RunDocumentActionFilesBodyActionOptimizeAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_pdfa_convert_action import RunDocumentActionFilesBodyActionPDFAConvertAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_pdfua_convert_action import RunDocumentActionFilesBodyActionPDFUAConvertAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_pipeline_action import RunDocumentActionFilesBodyActionPipelineAction # noqa: PLC0415
        from ..models.run_document_action_files_body_action_sanitize_action import RunDocumentActionFilesBodyActionSanitizeAction # noqa: PLC0415
        d = dict(src_dict)
        _copy_action = d.pop("CopyAction", UNSET)
        copy_action: RunDocumentActionFilesBodyActionCopyAction | Unset
        if isinstance(_copy_action,  Unset):
            copy_action = UNSET
        else:
            copy_action = RunDocumentActionFilesBodyActionCopyAction.from_dict(_copy_action)




        _move_action = d.pop("MoveAction", UNSET)
        move_action: RunDocumentActionFilesBodyActionMoveAction | Unset
        if isinstance(_move_action,  Unset):
            move_action = UNSET
        else:
            move_action = RunDocumentActionFilesBodyActionMoveAction.from_dict(_move_action)




        _apply_redactions_action = d.pop("ApplyRedactionsAction", UNSET)
        apply_redactions_action: RunDocumentActionFilesBodyActionApplyRedactionsAction | Unset
        if isinstance(_apply_redactions_action,  Unset):
            apply_redactions_action = UNSET
        else:
            apply_redactions_action = RunDocumentActionFilesBodyActionApplyRedactionsAction.from_dict(_apply_redactions_action)




        _flatten_fields_action = d.pop("FlattenFieldsAction", UNSET)
        flatten_fields_action: RunDocumentActionFilesBodyActionFlattenFieldsAction | Unset
        if isinstance(_flatten_fields_action,  Unset):
            flatten_fields_action = UNSET
        else:
            flatten_fields_action = RunDocumentActionFilesBodyActionFlattenFieldsAction.from_dict(_flatten_fields_action)




        _flatten_annotations_action = d.pop("FlattenAnnotationsAction", UNSET)
        flatten_annotations_action: RunDocumentActionFilesBodyActionFlattenAnnotationsAction | Unset
        if isinstance(_flatten_annotations_action,  Unset):
            flatten_annotations_action = UNSET
        else:
            flatten_annotations_action = RunDocumentActionFilesBodyActionFlattenAnnotationsAction.from_dict(_flatten_annotations_action)




        _pdfa_convert_action = d.pop("PDFAConvertAction", UNSET)
        pdfa_convert_action: RunDocumentActionFilesBodyActionPDFAConvertAction | Unset
        if isinstance(_pdfa_convert_action,  Unset):
            pdfa_convert_action = UNSET
        else:
            pdfa_convert_action = RunDocumentActionFilesBodyActionPDFAConvertAction.from_dict(_pdfa_convert_action)




        _pdfua_convert_action = d.pop("PDFUAConvertAction", UNSET)
        pdfua_convert_action: RunDocumentActionFilesBodyActionPDFUAConvertAction | Unset
        if isinstance(_pdfua_convert_action,  Unset):
            pdfua_convert_action = UNSET
        else:
            pdfua_convert_action = RunDocumentActionFilesBodyActionPDFUAConvertAction.from_dict(_pdfua_convert_action)




        _factur_x_action = d.pop("FacturXAction", UNSET)
        factur_x_action: RunDocumentActionFilesBodyActionFacturXAction | Unset
        if isinstance(_factur_x_action,  Unset):
            factur_x_action = UNSET
        else:
            factur_x_action = RunDocumentActionFilesBodyActionFacturXAction.from_dict(_factur_x_action)




        _linearize_action = d.pop("LinearizeAction", UNSET)
        linearize_action: RunDocumentActionFilesBodyActionLinearizeAction | Unset
        if isinstance(_linearize_action,  Unset):
            linearize_action = UNSET
        else:
            linearize_action = RunDocumentActionFilesBodyActionLinearizeAction.from_dict(_linearize_action)




        _optimize_action = d.pop("OptimizeAction", UNSET)
        optimize_action: RunDocumentActionFilesBodyActionOptimizeAction | Unset
        if isinstance(_optimize_action,  Unset):
            optimize_action = UNSET
        else:
            optimize_action = RunDocumentActionFilesBodyActionOptimizeAction.from_dict(_optimize_action)




        _pipeline_action = d.pop("PipelineAction", UNSET)
        pipeline_action: RunDocumentActionFilesBodyActionPipelineAction | Unset
        if isinstance(_pipeline_action,  Unset):
            pipeline_action = UNSET
        else:
            pipeline_action = RunDocumentActionFilesBodyActionPipelineAction.from_dict(_pipeline_action)




        _merge_documents_action = d.pop("MergeDocumentsAction", UNSET)
        merge_documents_action: RunDocumentActionFilesBodyActionMergeDocumentsAction | Unset
        if isinstance(_merge_documents_action,  Unset):
            merge_documents_action = UNSET
        else:
            merge_documents_action = RunDocumentActionFilesBodyActionMergeDocumentsAction.from_dict(_merge_documents_action)




        _sanitize_action = d.pop("SanitizeAction", UNSET)
        sanitize_action: RunDocumentActionFilesBodyActionSanitizeAction | Unset
        if isinstance(_sanitize_action,  Unset):
            sanitize_action = UNSET
        else:
            sanitize_action = RunDocumentActionFilesBodyActionSanitizeAction.from_dict(_sanitize_action)




        run_document_action_files_body_action = cls(
            copy_action=copy_action,
            move_action=move_action,
            apply_redactions_action=apply_redactions_action,
            flatten_fields_action=flatten_fields_action,
            flatten_annotations_action=flatten_annotations_action,
            pdfa_convert_action=pdfa_convert_action,
            pdfua_convert_action=pdfua_convert_action,
            factur_x_action=factur_x_action,
            linearize_action=linearize_action,
            optimize_action=optimize_action,
            pipeline_action=pipeline_action,
            merge_documents_action=merge_documents_action,
            sanitize_action=sanitize_action,
        )


        run_document_action_files_body_action.additional_properties = d
        return run_document_action_files_body_action

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
