from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.action_step_apply_redactions_action import ActionStepApplyRedactionsAction
  from ..models.action_step_booklet_action import ActionStepBookletAction
  from ..models.action_step_crop_pages_action import ActionStepCropPagesAction
  from ..models.action_step_delete_pages_action import ActionStepDeletePagesAction
  from ..models.action_step_factur_x_action import ActionStepFacturXAction
  from ..models.action_step_flatten_annotations_action import ActionStepFlattenAnnotationsAction
  from ..models.action_step_flatten_fields_action import ActionStepFlattenFieldsAction
  from ..models.action_step_image_stamp_action import ActionStepImageStampAction
  from ..models.action_step_insert_attached_pages_action import ActionStepInsertAttachedPagesAction
  from ..models.action_step_insert_uploaded_pages_action import ActionStepInsertUploadedPagesAction
  from ..models.action_step_linearize_action import ActionStepLinearizeAction
  from ..models.action_step_move_pages_action import ActionStepMovePagesAction
  from ..models.action_step_n_up_action import ActionStepNUpAction
  from ..models.action_step_new_page_action import ActionStepNewPageAction
  from ..models.action_step_ocr_action import ActionStepOCRAction
  from ..models.action_step_optimize_action import ActionStepOptimizeAction
  from ..models.action_step_page_numbers_action import ActionStepPageNumbersAction
  from ..models.action_step_pdfa_convert_action import ActionStepPDFAConvertAction
  from ..models.action_step_pdfua_convert_action import ActionStepPDFUAConvertAction
  from ..models.action_step_poster_action import ActionStepPosterAction
  from ..models.action_step_remove_blank_pages_action import ActionStepRemoveBlankPagesAction
  from ..models.action_step_remove_pages_by_text_action import ActionStepRemovePagesByTextAction
  from ..models.action_step_rotate_pages_action import ActionStepRotatePagesAction
  from ..models.action_step_sanitize_action import ActionStepSanitizeAction
  from ..models.action_step_scale_pages_action import ActionStepScalePagesAction
  from ..models.action_step_set_page_boxes_action import ActionStepSetPageBoxesAction
  from ..models.action_step_text_stamp_action import ActionStepTextStampAction





T = TypeVar("T", bound="ActionStep")



@_attrs_define
class ActionStep:
    """ An action as POST /documents/{filePath}.pdf takes it (one key naming the action, holding its parameters), without
    savePath and namingMode

        Attributes:
            apply_redactions_action (ActionStepApplyRedactionsAction | Unset): Applies Redact annotations: removes the text
                under them from the content streams, clears covered image pixels, removes covered vector art, paints the fill
                and overlay text and removes the annotations; then verifies that no redacted text remains (422
                REDACTION_INCOMPLETE otherwise, nothing written). The response's report lists what was applied and where the
                redacted text still occurs outside page content.
            flatten_fields_action (ActionStepFlattenFieldsAction | Unset): Paints every form field's appearance into its
                page (generating missing appearances first) and removes the fields and the AcroForm (and XFA). Push buttons are
                painted only with paintButtons (only those showing an image with paintOnlyImageButtons); fields without the
                print flag only with paintNonPrintableFields; hidden fields never.
            flatten_annotations_action (ActionStepFlattenAnnotationsAction | Unset): Paints every annotation other than form
                widgets and links into its page (generating missing appearances first) and removes it; popups are dropped,
                hidden annotations are not painted, annotations without the print flag only with paintNonPrintableAnnots. Links
                stay unless keepLinks is false.
            new_page_action (ActionStepNewPageAction | Unset): Inserts a blank page of width x height points (default: the
                size of the page before it, or of the first page when inserted first) at pageIndex (default: at the end).
            insert_uploaded_pages_action (ActionStepInsertUploadedPagesAction | Unset): Inserts pages of another document
                stored on the server (appendFilePath) at pageIndex (default: at the end), with their annotations, links between
                them and form fields (clashing field names get "_2", "_3", ...).
            insert_attached_pages_action (ActionStepInsertAttachedPagesAction | Unset): Inserts pages of the PDF sent in
                another part of the multipart request at pageIndex (default: at the end), as InsertUploadedPagesAction does.
            delete_pages_action (ActionStepDeletePagesAction | Unset): Deletes the pages of pageRange (not all of them).
                Outline items, named destinations and links that pointed at them are removed, and so are their form fields.
            rotate_pages_action (ActionStepRotatePagesAction | Unset): Turns the pages of pageRange (default: all) clockwise
                by rotation degrees, a multiple of 90 (negative turns counter-clockwise); /Rotate is set, the content is not
                rewritten.
            move_pages_action (ActionStepMovePagesAction | Unset): Moves the pages of pageRange, in the order the range
                lists them, so that the first of them ends up at zero-based position toIndex of the result.
            n_up_action (ActionStepNUpAction | Unset): Puts perSheet pages (2, 4, 6, 9 or 16) on each sheet, scaled to fit
                their cells and centred, in the order given (default rightDown: left to right, top to bottom). The sheet is the
                paper given or the first page's size, turned (auto) so the pages come out largest. Pages are drawn as Form
                XObjects; annotations are drawn from their appearances, not kept as annotations.
            booklet_action (ActionStepBookletAction | Unset): Saddle-stitch booklet: pages padded with blank pages to a
                multiple of 4, two on each side of a landscape sheet, sides in duplex printing order (front, back; flip on the
                short edge). Folded in the middle, the sheets read in order. The sheet is the paper given (landscape) or twice
                the first page's width.
            poster_action (ActionStepPosterAction | Unset): Cuts each page, enlarged by scale (default 1), into tiles of the
                paper (default A4, turned so fewer tiles are needed), left to right and top to bottom, neighbouring tiles
                overlapping by overlap points.
            crop_pages_action (ActionStepCropPagesAction | Unset): Sets the CropBox of the pages: to box, or (toContent:
                true) to the bounds of what each page draws, grown by margin, within the MediaBox. A page that draws nothing is
                left as it is.
            scale_pages_action (ActionStepScalePagesAction | Unset): Puts each page on the paper given, its content scaled
                to fit and centred; orientation auto (default) keeps each page's own. Annotations move with the content; /Rotate
                is drawn into the content.
            set_page_boxes_action (ActionStepSetPageBoxesAction | Unset): Sets the page boxes given (MediaBox, CropBox,
                BleedBox, TrimBox, ArtBox) on the pages; every box but the MediaBox must lie inside the MediaBox.
            text_stamp_action (ActionStepTextStampAction | Unset): Stamps text on a page (pageIndex) or on every page: the
                first line's baseline starts at (x, y) in the page's default user space, turned rotation degrees counter-
                clockwise about that point; lines are split at \\n. Characters the font lacks are drawn with the shipped DejaVu
                fonts or the CJK font. See docs/stamps.md.
            image_stamp_action (ActionStepImageStampAction | Unset): Stamps an image (multipart: this JSON in part
                "pageAction", a JPEG or PNG in part "file") on a page (pageIndex) or on every page: its lower-left corner at (x,
                y) in the page's default user space, turned rotation degrees counter-clockwise about that corner; width and/or
                height in points, or scale of its natural size (its own resolution, else 72 dpi). See docs/stamps.md.
            page_numbers_action (ActionStepPageNumbersAction | Unset): Numbers the pages (all, or pageRange) from
                startNumber: format ("Page {n} of {total}") between prefix and suffix, {n} zero-padded to digits (Bates
                numbers), at a corner or the middle of the top or bottom edge of the page as shown, margin points in, upright
                however the page is turned. Fonts as TextStampAction. With documents, a set numbered as one sequence (Bates
                numbers across documents), each in place, all or nothing. The report gives the pages numbered, the first and
                last labels and the last number (with documents: each document's too). See docs/page-numbers.md.
            remove_blank_pages_action (ActionStepRemoveBlankPagesAction | Unset): Removes blank pages: each page (of
                pageRange, default all) is rendered at dpi, and a page whose share of pixels darker than whiteLevel in any of
                red, green and blue is below threshold (default 0.001, a tenth of a percent) is removed. dryRun only lists them.
                The report lists the removed pages (zero-based, and as a 1-based pageRange) and each one's ink. A document whose
                every page is blank is 400: a PDF keeps at least one page. See docs/page-numbers.md.
            remove_pages_by_text_action (ActionStepRemovePagesByTextAction | Unset): Removes the pages (of pageRange,
                default all) whose text contains searchText (match "contains"), or whose whole text is searchText (match "only":
                separator sheets). searchText is literal (whitespace matches any whitespace) or, with regex, a regular
                expression under a time budget, as the redaction search. Text of annotations is not searched. dryRun only lists
                the pages. A search that matches every page is 400. See docs/page-numbers.md.
            ocr_action (ActionStepOCRAction | Unset): Recognises the text of scanned pages (Tesseract) and adds it as an
                invisible text layer over each page, line by line, so that the document can be searched, selected and extracted;
                the pages' content and images are not changed. Pages with text of their own are skipped unless skipPagesWithText
                is false; pages scanned sideways or upside down are recognised the right way up (autoRotate also turns their
                display). The report lists each page: recognised (words, mean confidence, rotation), no-text (nothing read there
                is text, e.g. a photo; nothing added), skipped or failed. Runs as a background job unless Prefer: wait=N. See
                docs/ocr.md.
            pdfa_convert_action (ActionStepPDFAConvertAction | Unset): Converts the document to PDF/A (profile pdfa1b,
                pdfa2b (default), pdfa2u, pdfa3b or pdfa3u): fonts embedded, sRGB output intent, XMP with pdfaid, no encryption
                (an encrypted document needs its owner password), annotations, actions, embedded files and transparency made
                what the profile allows (or refused, per the options). The output is validated with veraPDF and written only
                when it is compliant; otherwise 422 PDFA_CONVERSION_FAILED with the failed rules and nothing written, or with
                appendReport/addAnnots the document as it was with the report in it. The answer's report lists what was changed
                and the validator's verdict. Runs as a background job unless Prefer: wait=N. See docs/pdfa.md.
            pdfua_convert_action (ActionStepPDFUAConvertAction | Unset): Tags an untagged document for accessibility
                (PDF/UA-1): headings, paragraphs, lists, tables with header cells, figures and links in a structure tree in
                reading order, running headers, footers, page numbers and decoration as artifacts, the language, title and XMP
                metadata set. The result is checked with veraPDF and claims PDF/UA-1 only when it passes; the report gives the
                verdict, the failed rules grouped by Matterhorn checkpoint, and the figures that still need alternate text
                (figures gives it by index). A tagged document is kept unless retag. Signed documents are refused (409
                DOCUMENT_SIGNED), a document without text is 422 NO_TEXT (OCRAction first). Runs as a background job unless
                Prefer: wait=N. See docs/accessibility.md.
            factur_x_action (ActionStepFacturXAction | Unset): Makes the document a Factur-X / ZUGFeRD invoice (multipart:
                this JSON in part "pageAction", the invoice XML, a UN/CEFACT CII CrossIndustryInvoice, in part "file"):
                converted to PDF/A-3b (as PDFAConvertAction), the XML attached as factur-x.xml with AFRelationship Alternative
                (Data for minimum and basicwl) and the fx XMP extension schema (DocumentType INVOICE, DocumentFileName, Version
                1.0, ConformanceLevel); validated by veraPDF before it is written. The profile is read from the XML's guideline
                id unless given. 422 INVOICE_XML_INVALID for XML that is not such an invoice, 422 PDFA_CONVERSION_FAILED as
                PDFAConvertAction. Runs as a background job unless Prefer: wait=N. See docs/attachments.md.
            linearize_action (ActionStepLinearizeAction | Unset): Writes the document linearized ("fast web view", ISO
                32000-1 Annex F) with qpdf; content, object streams and encryption are kept (an encrypted document needs its
                password, and a user password only when its permissions allow changes). A signed document is refused (409
                DOCUMENT_SIGNED). The answer's report gives the sizes before and after. See docs/optimize.md.
            optimize_action (ActionStepOptimizeAction | Unset): Makes the document smaller by an optimize profile
                (profileName, or an inline profile): images above 1.5 times the target resolution downsampled, colour spaces
                converted and images re-encoded per the profile, each kept when the new one is not smaller; unused resources
                removed, fonts subset, duplicate images and fonts merged, object streams and maximum Flate. Encryption is kept
                (the password is needed, and the permission to change); a signed document is refused (409 DOCUMENT_SIGNED). The
                answer's report gives the sizes before and after, per category. When the result would not be smaller nothing is
                written and the answer is 200 with report.changed false. See docs/optimize.md.
            sanitize_action (ActionStepSanitizeAction | Unset): Removes JavaScript, embedded files, actions that reach
                outside the document, form submit and reset actions, metadata and hidden layers (both off by default) and
                annotations of chosen subtypes; rewrites the file in full, re-reads it and verifies that none of it remains (422
                SANITIZE_INCOMPLETE otherwise, nothing written). The report counts what was removed of each kind. See
                docs/sanitize.md.
     """

    apply_redactions_action: ActionStepApplyRedactionsAction | Unset = UNSET
    flatten_fields_action: ActionStepFlattenFieldsAction | Unset = UNSET
    flatten_annotations_action: ActionStepFlattenAnnotationsAction | Unset = UNSET
    new_page_action: ActionStepNewPageAction | Unset = UNSET
    insert_uploaded_pages_action: ActionStepInsertUploadedPagesAction | Unset = UNSET
    insert_attached_pages_action: ActionStepInsertAttachedPagesAction | Unset = UNSET
    delete_pages_action: ActionStepDeletePagesAction | Unset = UNSET
    rotate_pages_action: ActionStepRotatePagesAction | Unset = UNSET
    move_pages_action: ActionStepMovePagesAction | Unset = UNSET
    n_up_action: ActionStepNUpAction | Unset = UNSET
    booklet_action: ActionStepBookletAction | Unset = UNSET
    poster_action: ActionStepPosterAction | Unset = UNSET
    crop_pages_action: ActionStepCropPagesAction | Unset = UNSET
    scale_pages_action: ActionStepScalePagesAction | Unset = UNSET
    set_page_boxes_action: ActionStepSetPageBoxesAction | Unset = UNSET
    text_stamp_action: ActionStepTextStampAction | Unset = UNSET
    image_stamp_action: ActionStepImageStampAction | Unset = UNSET
    page_numbers_action: ActionStepPageNumbersAction | Unset = UNSET
    remove_blank_pages_action: ActionStepRemoveBlankPagesAction | Unset = UNSET
    remove_pages_by_text_action: ActionStepRemovePagesByTextAction | Unset = UNSET
    ocr_action: ActionStepOCRAction | Unset = UNSET
    pdfa_convert_action: ActionStepPDFAConvertAction | Unset = UNSET
    pdfua_convert_action: ActionStepPDFUAConvertAction | Unset = UNSET
    factur_x_action: ActionStepFacturXAction | Unset = UNSET
    linearize_action: ActionStepLinearizeAction | Unset = UNSET
    optimize_action: ActionStepOptimizeAction | Unset = UNSET
    sanitize_action: ActionStepSanitizeAction | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_step_apply_redactions_action import ActionStepApplyRedactionsAction # noqa: PLC0415
        from ..models.action_step_booklet_action import ActionStepBookletAction # noqa: PLC0415
        from ..models.action_step_crop_pages_action import ActionStepCropPagesAction # noqa: PLC0415
        from ..models.action_step_delete_pages_action import ActionStepDeletePagesAction # noqa: PLC0415
        from ..models.action_step_factur_x_action import ActionStepFacturXAction # noqa: PLC0415
        from ..models.action_step_flatten_annotations_action import ActionStepFlattenAnnotationsAction # noqa: PLC0415
        from ..models.action_step_flatten_fields_action import ActionStepFlattenFieldsAction # noqa: PLC0415
        from ..models.action_step_image_stamp_action import ActionStepImageStampAction # noqa: PLC0415
        from ..models.action_step_insert_attached_pages_action import ActionStepInsertAttachedPagesAction # noqa: PLC0415
        from ..models.action_step_insert_uploaded_pages_action import ActionStepInsertUploadedPagesAction # noqa: PLC0415
        from ..models.action_step_linearize_action import ActionStepLinearizeAction # noqa: PLC0415
        from ..models.action_step_move_pages_action import ActionStepMovePagesAction # noqa: PLC0415
        from ..models.action_step_n_up_action import ActionStepNUpAction # noqa: PLC0415
        from ..models.action_step_new_page_action import ActionStepNewPageAction # noqa: PLC0415
        from ..models.action_step_ocr_action import ActionStepOCRAction # noqa: PLC0415
        from ..models.action_step_optimize_action import ActionStepOptimizeAction # noqa: PLC0415
        from ..models.action_step_page_numbers_action import ActionStepPageNumbersAction # noqa: PLC0415
        from ..models.action_step_pdfa_convert_action import ActionStepPDFAConvertAction # noqa: PLC0415
        from ..models.action_step_pdfua_convert_action import ActionStepPDFUAConvertAction # noqa: PLC0415
        from ..models.action_step_poster_action import ActionStepPosterAction # noqa: PLC0415
        from ..models.action_step_remove_blank_pages_action import ActionStepRemoveBlankPagesAction # noqa: PLC0415
        from ..models.action_step_remove_pages_by_text_action import ActionStepRemovePagesByTextAction # noqa: PLC0415
        from ..models.action_step_rotate_pages_action import ActionStepRotatePagesAction # noqa: PLC0415
        from ..models.action_step_sanitize_action import ActionStepSanitizeAction # noqa: PLC0415
        from ..models.action_step_scale_pages_action import ActionStepScalePagesAction # noqa: PLC0415
        from ..models.action_step_set_page_boxes_action import ActionStepSetPageBoxesAction # noqa: PLC0415
        from ..models.action_step_text_stamp_action import ActionStepTextStampAction # noqa: PLC0415
        apply_redactions_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.apply_redactions_action, Unset):
            apply_redactions_action = self.apply_redactions_action.to_dict()

        flatten_fields_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.flatten_fields_action, Unset):
            flatten_fields_action = self.flatten_fields_action.to_dict()

        flatten_annotations_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.flatten_annotations_action, Unset):
            flatten_annotations_action = self.flatten_annotations_action.to_dict()

        new_page_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.new_page_action, Unset):
            new_page_action = self.new_page_action.to_dict()

        insert_uploaded_pages_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.insert_uploaded_pages_action, Unset):
            insert_uploaded_pages_action = self.insert_uploaded_pages_action.to_dict()

        insert_attached_pages_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.insert_attached_pages_action, Unset):
            insert_attached_pages_action = self.insert_attached_pages_action.to_dict()

        delete_pages_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.delete_pages_action, Unset):
            delete_pages_action = self.delete_pages_action.to_dict()

        rotate_pages_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rotate_pages_action, Unset):
            rotate_pages_action = self.rotate_pages_action.to_dict()

        move_pages_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.move_pages_action, Unset):
            move_pages_action = self.move_pages_action.to_dict()

        n_up_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.n_up_action, Unset):
            n_up_action = self.n_up_action.to_dict()

        booklet_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.booklet_action, Unset):
            booklet_action = self.booklet_action.to_dict()

        poster_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.poster_action, Unset):
            poster_action = self.poster_action.to_dict()

        crop_pages_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.crop_pages_action, Unset):
            crop_pages_action = self.crop_pages_action.to_dict()

        scale_pages_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.scale_pages_action, Unset):
            scale_pages_action = self.scale_pages_action.to_dict()

        set_page_boxes_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.set_page_boxes_action, Unset):
            set_page_boxes_action = self.set_page_boxes_action.to_dict()

        text_stamp_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.text_stamp_action, Unset):
            text_stamp_action = self.text_stamp_action.to_dict()

        image_stamp_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.image_stamp_action, Unset):
            image_stamp_action = self.image_stamp_action.to_dict()

        page_numbers_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.page_numbers_action, Unset):
            page_numbers_action = self.page_numbers_action.to_dict()

        remove_blank_pages_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.remove_blank_pages_action, Unset):
            remove_blank_pages_action = self.remove_blank_pages_action.to_dict()

        remove_pages_by_text_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.remove_pages_by_text_action, Unset):
            remove_pages_by_text_action = self.remove_pages_by_text_action.to_dict()

        ocr_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.ocr_action, Unset):
            ocr_action = self.ocr_action.to_dict()

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

        sanitize_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sanitize_action, Unset):
            sanitize_action = self.sanitize_action.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if apply_redactions_action is not UNSET:
            field_dict["ApplyRedactionsAction"] = apply_redactions_action
        if flatten_fields_action is not UNSET:
            field_dict["FlattenFieldsAction"] = flatten_fields_action
        if flatten_annotations_action is not UNSET:
            field_dict["FlattenAnnotationsAction"] = flatten_annotations_action
        if new_page_action is not UNSET:
            field_dict["NewPageAction"] = new_page_action
        if insert_uploaded_pages_action is not UNSET:
            field_dict["InsertUploadedPagesAction"] = insert_uploaded_pages_action
        if insert_attached_pages_action is not UNSET:
            field_dict["InsertAttachedPagesAction"] = insert_attached_pages_action
        if delete_pages_action is not UNSET:
            field_dict["DeletePagesAction"] = delete_pages_action
        if rotate_pages_action is not UNSET:
            field_dict["RotatePagesAction"] = rotate_pages_action
        if move_pages_action is not UNSET:
            field_dict["MovePagesAction"] = move_pages_action
        if n_up_action is not UNSET:
            field_dict["NUpAction"] = n_up_action
        if booklet_action is not UNSET:
            field_dict["BookletAction"] = booklet_action
        if poster_action is not UNSET:
            field_dict["PosterAction"] = poster_action
        if crop_pages_action is not UNSET:
            field_dict["CropPagesAction"] = crop_pages_action
        if scale_pages_action is not UNSET:
            field_dict["ScalePagesAction"] = scale_pages_action
        if set_page_boxes_action is not UNSET:
            field_dict["SetPageBoxesAction"] = set_page_boxes_action
        if text_stamp_action is not UNSET:
            field_dict["TextStampAction"] = text_stamp_action
        if image_stamp_action is not UNSET:
            field_dict["ImageStampAction"] = image_stamp_action
        if page_numbers_action is not UNSET:
            field_dict["PageNumbersAction"] = page_numbers_action
        if remove_blank_pages_action is not UNSET:
            field_dict["RemoveBlankPagesAction"] = remove_blank_pages_action
        if remove_pages_by_text_action is not UNSET:
            field_dict["RemovePagesByTextAction"] = remove_pages_by_text_action
        if ocr_action is not UNSET:
            field_dict["OCRAction"] = ocr_action
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
        if sanitize_action is not UNSET:
            field_dict["SanitizeAction"] = sanitize_action

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_step_apply_redactions_action import ActionStepApplyRedactionsAction # noqa: PLC0415
        from ..models.action_step_booklet_action import ActionStepBookletAction # noqa: PLC0415
        from ..models.action_step_crop_pages_action import ActionStepCropPagesAction # noqa: PLC0415
        from ..models.action_step_delete_pages_action import ActionStepDeletePagesAction # noqa: PLC0415
        from ..models.action_step_factur_x_action import ActionStepFacturXAction # noqa: PLC0415
        from ..models.action_step_flatten_annotations_action import ActionStepFlattenAnnotationsAction # noqa: PLC0415
        from ..models.action_step_flatten_fields_action import ActionStepFlattenFieldsAction # noqa: PLC0415
        from ..models.action_step_image_stamp_action import ActionStepImageStampAction # noqa: PLC0415
        from ..models.action_step_insert_attached_pages_action import ActionStepInsertAttachedPagesAction # noqa: PLC0415
        from ..models.action_step_insert_uploaded_pages_action import ActionStepInsertUploadedPagesAction # noqa: PLC0415
        from ..models.action_step_linearize_action import ActionStepLinearizeAction # noqa: PLC0415
        from ..models.action_step_move_pages_action import ActionStepMovePagesAction # noqa: PLC0415
        from ..models.action_step_n_up_action import ActionStepNUpAction # noqa: PLC0415
        from ..models.action_step_new_page_action import ActionStepNewPageAction # noqa: PLC0415
        from ..models.action_step_ocr_action import ActionStepOCRAction # noqa: PLC0415
        from ..models.action_step_optimize_action import ActionStepOptimizeAction # noqa: PLC0415
        from ..models.action_step_page_numbers_action import ActionStepPageNumbersAction # noqa: PLC0415
        from ..models.action_step_pdfa_convert_action import ActionStepPDFAConvertAction # noqa: PLC0415
        from ..models.action_step_pdfua_convert_action import ActionStepPDFUAConvertAction # noqa: PLC0415
        from ..models.action_step_poster_action import ActionStepPosterAction # noqa: PLC0415
        from ..models.action_step_remove_blank_pages_action import ActionStepRemoveBlankPagesAction # noqa: PLC0415
        from ..models.action_step_remove_pages_by_text_action import ActionStepRemovePagesByTextAction # noqa: PLC0415
        from ..models.action_step_rotate_pages_action import ActionStepRotatePagesAction # noqa: PLC0415
        from ..models.action_step_sanitize_action import ActionStepSanitizeAction # noqa: PLC0415
        from ..models.action_step_scale_pages_action import ActionStepScalePagesAction # noqa: PLC0415
        from ..models.action_step_set_page_boxes_action import ActionStepSetPageBoxesAction # noqa: PLC0415
        from ..models.action_step_text_stamp_action import ActionStepTextStampAction # noqa: PLC0415
        d = dict(src_dict)
        _apply_redactions_action = d.pop("ApplyRedactionsAction", UNSET)
        apply_redactions_action: ActionStepApplyRedactionsAction | Unset
        if isinstance(_apply_redactions_action,  Unset):
            apply_redactions_action = UNSET
        else:
            apply_redactions_action = ActionStepApplyRedactionsAction.from_dict(_apply_redactions_action)




        _flatten_fields_action = d.pop("FlattenFieldsAction", UNSET)
        flatten_fields_action: ActionStepFlattenFieldsAction | Unset
        if isinstance(_flatten_fields_action,  Unset):
            flatten_fields_action = UNSET
        else:
            flatten_fields_action = ActionStepFlattenFieldsAction.from_dict(_flatten_fields_action)




        _flatten_annotations_action = d.pop("FlattenAnnotationsAction", UNSET)
        flatten_annotations_action: ActionStepFlattenAnnotationsAction | Unset
        if isinstance(_flatten_annotations_action,  Unset):
            flatten_annotations_action = UNSET
        else:
            flatten_annotations_action = ActionStepFlattenAnnotationsAction.from_dict(_flatten_annotations_action)




        _new_page_action = d.pop("NewPageAction", UNSET)
        new_page_action: ActionStepNewPageAction | Unset
        if isinstance(_new_page_action,  Unset):
            new_page_action = UNSET
        else:
            new_page_action = ActionStepNewPageAction.from_dict(_new_page_action)




        _insert_uploaded_pages_action = d.pop("InsertUploadedPagesAction", UNSET)
        insert_uploaded_pages_action: ActionStepInsertUploadedPagesAction | Unset
        if isinstance(_insert_uploaded_pages_action,  Unset):
            insert_uploaded_pages_action = UNSET
        else:
            insert_uploaded_pages_action = ActionStepInsertUploadedPagesAction.from_dict(_insert_uploaded_pages_action)




        _insert_attached_pages_action = d.pop("InsertAttachedPagesAction", UNSET)
        insert_attached_pages_action: ActionStepInsertAttachedPagesAction | Unset
        if isinstance(_insert_attached_pages_action,  Unset):
            insert_attached_pages_action = UNSET
        else:
            insert_attached_pages_action = ActionStepInsertAttachedPagesAction.from_dict(_insert_attached_pages_action)




        _delete_pages_action = d.pop("DeletePagesAction", UNSET)
        delete_pages_action: ActionStepDeletePagesAction | Unset
        if isinstance(_delete_pages_action,  Unset):
            delete_pages_action = UNSET
        else:
            delete_pages_action = ActionStepDeletePagesAction.from_dict(_delete_pages_action)




        _rotate_pages_action = d.pop("RotatePagesAction", UNSET)
        rotate_pages_action: ActionStepRotatePagesAction | Unset
        if isinstance(_rotate_pages_action,  Unset):
            rotate_pages_action = UNSET
        else:
            rotate_pages_action = ActionStepRotatePagesAction.from_dict(_rotate_pages_action)




        _move_pages_action = d.pop("MovePagesAction", UNSET)
        move_pages_action: ActionStepMovePagesAction | Unset
        if isinstance(_move_pages_action,  Unset):
            move_pages_action = UNSET
        else:
            move_pages_action = ActionStepMovePagesAction.from_dict(_move_pages_action)




        _n_up_action = d.pop("NUpAction", UNSET)
        n_up_action: ActionStepNUpAction | Unset
        if isinstance(_n_up_action,  Unset):
            n_up_action = UNSET
        else:
            n_up_action = ActionStepNUpAction.from_dict(_n_up_action)




        _booklet_action = d.pop("BookletAction", UNSET)
        booklet_action: ActionStepBookletAction | Unset
        if isinstance(_booklet_action,  Unset):
            booklet_action = UNSET
        else:
            booklet_action = ActionStepBookletAction.from_dict(_booklet_action)




        _poster_action = d.pop("PosterAction", UNSET)
        poster_action: ActionStepPosterAction | Unset
        if isinstance(_poster_action,  Unset):
            poster_action = UNSET
        else:
            poster_action = ActionStepPosterAction.from_dict(_poster_action)




        _crop_pages_action = d.pop("CropPagesAction", UNSET)
        crop_pages_action: ActionStepCropPagesAction | Unset
        if isinstance(_crop_pages_action,  Unset):
            crop_pages_action = UNSET
        else:
            crop_pages_action = ActionStepCropPagesAction.from_dict(_crop_pages_action)




        _scale_pages_action = d.pop("ScalePagesAction", UNSET)
        scale_pages_action: ActionStepScalePagesAction | Unset
        if isinstance(_scale_pages_action,  Unset):
            scale_pages_action = UNSET
        else:
            scale_pages_action = ActionStepScalePagesAction.from_dict(_scale_pages_action)




        _set_page_boxes_action = d.pop("SetPageBoxesAction", UNSET)
        set_page_boxes_action: ActionStepSetPageBoxesAction | Unset
        if isinstance(_set_page_boxes_action,  Unset):
            set_page_boxes_action = UNSET
        else:
            set_page_boxes_action = ActionStepSetPageBoxesAction.from_dict(_set_page_boxes_action)




        _text_stamp_action = d.pop("TextStampAction", UNSET)
        text_stamp_action: ActionStepTextStampAction | Unset
        if isinstance(_text_stamp_action,  Unset):
            text_stamp_action = UNSET
        else:
            text_stamp_action = ActionStepTextStampAction.from_dict(_text_stamp_action)




        _image_stamp_action = d.pop("ImageStampAction", UNSET)
        image_stamp_action: ActionStepImageStampAction | Unset
        if isinstance(_image_stamp_action,  Unset):
            image_stamp_action = UNSET
        else:
            image_stamp_action = ActionStepImageStampAction.from_dict(_image_stamp_action)




        _page_numbers_action = d.pop("PageNumbersAction", UNSET)
        page_numbers_action: ActionStepPageNumbersAction | Unset
        if isinstance(_page_numbers_action,  Unset):
            page_numbers_action = UNSET
        else:
            page_numbers_action = ActionStepPageNumbersAction.from_dict(_page_numbers_action)




        _remove_blank_pages_action = d.pop("RemoveBlankPagesAction", UNSET)
        remove_blank_pages_action: ActionStepRemoveBlankPagesAction | Unset
        if isinstance(_remove_blank_pages_action,  Unset):
            remove_blank_pages_action = UNSET
        else:
            remove_blank_pages_action = ActionStepRemoveBlankPagesAction.from_dict(_remove_blank_pages_action)




        _remove_pages_by_text_action = d.pop("RemovePagesByTextAction", UNSET)
        remove_pages_by_text_action: ActionStepRemovePagesByTextAction | Unset
        if isinstance(_remove_pages_by_text_action,  Unset):
            remove_pages_by_text_action = UNSET
        else:
            remove_pages_by_text_action = ActionStepRemovePagesByTextAction.from_dict(_remove_pages_by_text_action)




        _ocr_action = d.pop("OCRAction", UNSET)
        ocr_action: ActionStepOCRAction | Unset
        if isinstance(_ocr_action,  Unset):
            ocr_action = UNSET
        else:
            ocr_action = ActionStepOCRAction.from_dict(_ocr_action)




        _pdfa_convert_action = d.pop("PDFAConvertAction", UNSET)
        pdfa_convert_action: ActionStepPDFAConvertAction | Unset
        if isinstance(_pdfa_convert_action,  Unset):
            pdfa_convert_action = UNSET
        else:
            pdfa_convert_action = ActionStepPDFAConvertAction.from_dict(_pdfa_convert_action)




        _pdfua_convert_action = d.pop("PDFUAConvertAction", UNSET)
        pdfua_convert_action: ActionStepPDFUAConvertAction | Unset
        if isinstance(_pdfua_convert_action,  Unset):
            pdfua_convert_action = UNSET
        else:
            pdfua_convert_action = ActionStepPDFUAConvertAction.from_dict(_pdfua_convert_action)




        _factur_x_action = d.pop("FacturXAction", UNSET)
        factur_x_action: ActionStepFacturXAction | Unset
        if isinstance(_factur_x_action,  Unset):
            factur_x_action = UNSET
        else:
            factur_x_action = ActionStepFacturXAction.from_dict(_factur_x_action)




        _linearize_action = d.pop("LinearizeAction", UNSET)
        linearize_action: ActionStepLinearizeAction | Unset
        if isinstance(_linearize_action,  Unset):
            linearize_action = UNSET
        else:
            linearize_action = ActionStepLinearizeAction.from_dict(_linearize_action)




        _optimize_action = d.pop("OptimizeAction", UNSET)
        optimize_action: ActionStepOptimizeAction | Unset
        if isinstance(_optimize_action,  Unset):
            optimize_action = UNSET
        else:
            optimize_action = ActionStepOptimizeAction.from_dict(_optimize_action)




        _sanitize_action = d.pop("SanitizeAction", UNSET)
        sanitize_action: ActionStepSanitizeAction | Unset
        if isinstance(_sanitize_action,  Unset):
            sanitize_action = UNSET
        else:
            sanitize_action = ActionStepSanitizeAction.from_dict(_sanitize_action)




        action_step = cls(
            apply_redactions_action=apply_redactions_action,
            flatten_fields_action=flatten_fields_action,
            flatten_annotations_action=flatten_annotations_action,
            new_page_action=new_page_action,
            insert_uploaded_pages_action=insert_uploaded_pages_action,
            insert_attached_pages_action=insert_attached_pages_action,
            delete_pages_action=delete_pages_action,
            rotate_pages_action=rotate_pages_action,
            move_pages_action=move_pages_action,
            n_up_action=n_up_action,
            booklet_action=booklet_action,
            poster_action=poster_action,
            crop_pages_action=crop_pages_action,
            scale_pages_action=scale_pages_action,
            set_page_boxes_action=set_page_boxes_action,
            text_stamp_action=text_stamp_action,
            image_stamp_action=image_stamp_action,
            page_numbers_action=page_numbers_action,
            remove_blank_pages_action=remove_blank_pages_action,
            remove_pages_by_text_action=remove_pages_by_text_action,
            ocr_action=ocr_action,
            pdfa_convert_action=pdfa_convert_action,
            pdfua_convert_action=pdfua_convert_action,
            factur_x_action=factur_x_action,
            linearize_action=linearize_action,
            optimize_action=optimize_action,
            sanitize_action=sanitize_action,
        )


        action_step.additional_properties = d
        return action_step

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
