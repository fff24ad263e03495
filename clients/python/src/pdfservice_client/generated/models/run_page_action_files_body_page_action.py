from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.run_page_action_files_body_page_action_booklet_action import RunPageActionFilesBodyPageActionBookletAction
  from ..models.run_page_action_files_body_page_action_crop_pages_action import RunPageActionFilesBodyPageActionCropPagesAction
  from ..models.run_page_action_files_body_page_action_delete_pages_action import RunPageActionFilesBodyPageActionDeletePagesAction
  from ..models.run_page_action_files_body_page_action_extract_pages_action import RunPageActionFilesBodyPageActionExtractPagesAction
  from ..models.run_page_action_files_body_page_action_image_stamp_action import RunPageActionFilesBodyPageActionImageStampAction
  from ..models.run_page_action_files_body_page_action_insert_attached_pages_action import RunPageActionFilesBodyPageActionInsertAttachedPagesAction
  from ..models.run_page_action_files_body_page_action_insert_uploaded_pages_action import RunPageActionFilesBodyPageActionInsertUploadedPagesAction
  from ..models.run_page_action_files_body_page_action_move_pages_action import RunPageActionFilesBodyPageActionMovePagesAction
  from ..models.run_page_action_files_body_page_action_n_up_action import RunPageActionFilesBodyPageActionNUpAction
  from ..models.run_page_action_files_body_page_action_new_page_action import RunPageActionFilesBodyPageActionNewPageAction
  from ..models.run_page_action_files_body_page_action_ocr_action import RunPageActionFilesBodyPageActionOCRAction
  from ..models.run_page_action_files_body_page_action_page_numbers_action import RunPageActionFilesBodyPageActionPageNumbersAction
  from ..models.run_page_action_files_body_page_action_poster_action import RunPageActionFilesBodyPageActionPosterAction
  from ..models.run_page_action_files_body_page_action_remove_blank_pages_action import RunPageActionFilesBodyPageActionRemoveBlankPagesAction
  from ..models.run_page_action_files_body_page_action_remove_pages_by_text_action import RunPageActionFilesBodyPageActionRemovePagesByTextAction
  from ..models.run_page_action_files_body_page_action_rotate_pages_action import RunPageActionFilesBodyPageActionRotatePagesAction
  from ..models.run_page_action_files_body_page_action_scale_pages_action import RunPageActionFilesBodyPageActionScalePagesAction
  from ..models.run_page_action_files_body_page_action_set_page_boxes_action import RunPageActionFilesBodyPageActionSetPageBoxesAction
  from ..models.run_page_action_files_body_page_action_split_document_action import RunPageActionFilesBodyPageActionSplitDocumentAction
  from ..models.run_page_action_files_body_page_action_text_stamp_action import RunPageActionFilesBodyPageActionTextStampAction





T = TypeVar("T", bound="RunPageActionFilesBodyPageAction")



@_attrs_define
class RunPageActionFilesBodyPageAction:
    """ The action, as in a JSON body

        Attributes:
            new_page_action (RunPageActionFilesBodyPageActionNewPageAction | Unset): Inserts a blank page of width x height
                points (default: the size of the page before it, or of the first page when inserted first) at pageIndex
                (default: at the end).
            insert_uploaded_pages_action (RunPageActionFilesBodyPageActionInsertUploadedPagesAction | Unset): Inserts pages
                of another document stored on the server (appendFilePath) at pageIndex (default: at the end), with their
                annotations, links between them and form fields (clashing field names get "_2", "_3", ...).
            insert_attached_pages_action (RunPageActionFilesBodyPageActionInsertAttachedPagesAction | Unset): Inserts pages
                of the PDF sent in another part of the multipart request at pageIndex (default: at the end), as
                InsertUploadedPagesAction does.
            delete_pages_action (RunPageActionFilesBodyPageActionDeletePagesAction | Unset): Deletes the pages of pageRange
                (not all of them). Outline items, named destinations and links that pointed at them are removed, and so are
                their form fields.
            rotate_pages_action (RunPageActionFilesBodyPageActionRotatePagesAction | Unset): Turns the pages of pageRange
                (default: all) clockwise by rotation degrees, a multiple of 90 (negative turns counter-clockwise); /Rotate is
                set, the content is not rewritten.
            move_pages_action (RunPageActionFilesBodyPageActionMovePagesAction | Unset): Moves the pages of pageRange, in
                the order the range lists them, so that the first of them ends up at zero-based position toIndex of the result.
            extract_pages_action (RunPageActionFilesBodyPageActionExtractPagesAction | Unset): Writes a new document
                (savePath, required) with the pages of pageRange in that order, with their annotations and form fields; the
                source is unchanged.
            n_up_action (RunPageActionFilesBodyPageActionNUpAction | Unset): Puts perSheet pages (2, 4, 6, 9 or 16) on each
                sheet, scaled to fit their cells and centred, in the order given (default rightDown: left to right, top to
                bottom). The sheet is the paper given or the first page's size, turned (auto) so the pages come out largest.
                Pages are drawn as Form XObjects; annotations are drawn from their appearances, not kept as annotations.
            booklet_action (RunPageActionFilesBodyPageActionBookletAction | Unset): Saddle-stitch booklet: pages padded with
                blank pages to a multiple of 4, two on each side of a landscape sheet, sides in duplex printing order (front,
                back; flip on the short edge). Folded in the middle, the sheets read in order. The sheet is the paper given
                (landscape) or twice the first page's width.
            poster_action (RunPageActionFilesBodyPageActionPosterAction | Unset): Cuts each page, enlarged by scale (default
                1), into tiles of the paper (default A4, turned so fewer tiles are needed), left to right and top to bottom,
                neighbouring tiles overlapping by overlap points.
            crop_pages_action (RunPageActionFilesBodyPageActionCropPagesAction | Unset): Sets the CropBox of the pages: to
                box, or (toContent: true) to the bounds of what each page draws, grown by margin, within the MediaBox. A page
                that draws nothing is left as it is.
            scale_pages_action (RunPageActionFilesBodyPageActionScalePagesAction | Unset): Puts each page on the paper
                given, its content scaled to fit and centred; orientation auto (default) keeps each page's own. Annotations move
                with the content; /Rotate is drawn into the content.
            set_page_boxes_action (RunPageActionFilesBodyPageActionSetPageBoxesAction | Unset): Sets the page boxes given
                (MediaBox, CropBox, BleedBox, TrimBox, ArtBox) on the pages; every box but the MediaBox must lie inside the
                MediaBox.
            split_document_action (RunPageActionFilesBodyPageActionSplitDocumentAction | Unset): Splits the document into
                several new documents in `folder`, named by `pattern`: by page ranges, every N pages, a maximum size, top-level
                bookmarks or blank separator pages (exactly one). The source is not changed; the answer lists every document
                written.
            text_stamp_action (RunPageActionFilesBodyPageActionTextStampAction | Unset): Stamps text on a page (pageIndex)
                or on every page: the first line's baseline starts at (x, y) in the page's default user space, turned rotation
                degrees counter-clockwise about that point; lines are split at \\n. Characters the font lacks are drawn with the
                shipped DejaVu fonts or the CJK font. See docs/stamps.md.
            image_stamp_action (RunPageActionFilesBodyPageActionImageStampAction | Unset): Stamps an image (multipart: this
                JSON in part "pageAction", a JPEG or PNG in part "file") on a page (pageIndex) or on every page: its lower-left
                corner at (x, y) in the page's default user space, turned rotation degrees counter-clockwise about that corner;
                width and/or height in points, or scale of its natural size (its own resolution, else 72 dpi). See
                docs/stamps.md.
            page_numbers_action (RunPageActionFilesBodyPageActionPageNumbersAction | Unset): Numbers the pages (all, or
                pageRange) from startNumber: format ("Page {n} of {total}") between prefix and suffix, {n} zero-padded to digits
                (Bates numbers), at a corner or the middle of the top or bottom edge of the page as shown, margin points in,
                upright however the page is turned. Fonts as TextStampAction. With documents, a set numbered as one sequence
                (Bates numbers across documents), each in place, all or nothing. The report gives the pages numbered, the first
                and last labels and the last number (with documents: each document's too). See docs/page-numbers.md.
            remove_blank_pages_action (RunPageActionFilesBodyPageActionRemoveBlankPagesAction | Unset): Removes blank pages:
                each page (of pageRange, default all) is rendered at dpi, and a page whose share of pixels darker than
                whiteLevel in any of red, green and blue is below threshold (default 0.001, a tenth of a percent) is removed.
                dryRun only lists them. The report lists the removed pages (zero-based, and as a 1-based pageRange) and each
                one's ink. A document whose every page is blank is 400: a PDF keeps at least one page. See docs/page-numbers.md.
            remove_pages_by_text_action (RunPageActionFilesBodyPageActionRemovePagesByTextAction | Unset): Removes the pages
                (of pageRange, default all) whose text contains searchText (match "contains"), or whose whole text is searchText
                (match "only": separator sheets). searchText is literal (whitespace matches any whitespace) or, with regex, a
                regular expression under a time budget, as the redaction search. Text of annotations is not searched. dryRun
                only lists the pages. A search that matches every page is 400. See docs/page-numbers.md.
            ocr_action (RunPageActionFilesBodyPageActionOCRAction | Unset): Recognises the text of scanned pages (Tesseract)
                and adds it as an invisible text layer over each page, line by line, so that the document can be searched,
                selected and extracted; the pages' content and images are not changed. Pages with text of their own are skipped
                unless skipPagesWithText is false; pages scanned sideways or upside down are recognised the right way up
                (autoRotate also turns their display). The report lists each page: recognised (words, mean confidence,
                rotation), no-text (nothing read there is text, e.g. a photo; nothing added), skipped or failed. Runs as a
                background job unless Prefer: wait=N. See docs/ocr.md.
     """

    new_page_action: RunPageActionFilesBodyPageActionNewPageAction | Unset = UNSET
    insert_uploaded_pages_action: RunPageActionFilesBodyPageActionInsertUploadedPagesAction | Unset = UNSET
    insert_attached_pages_action: RunPageActionFilesBodyPageActionInsertAttachedPagesAction | Unset = UNSET
    delete_pages_action: RunPageActionFilesBodyPageActionDeletePagesAction | Unset = UNSET
    rotate_pages_action: RunPageActionFilesBodyPageActionRotatePagesAction | Unset = UNSET
    move_pages_action: RunPageActionFilesBodyPageActionMovePagesAction | Unset = UNSET
    extract_pages_action: RunPageActionFilesBodyPageActionExtractPagesAction | Unset = UNSET
    n_up_action: RunPageActionFilesBodyPageActionNUpAction | Unset = UNSET
    booklet_action: RunPageActionFilesBodyPageActionBookletAction | Unset = UNSET
    poster_action: RunPageActionFilesBodyPageActionPosterAction | Unset = UNSET
    crop_pages_action: RunPageActionFilesBodyPageActionCropPagesAction | Unset = UNSET
    scale_pages_action: RunPageActionFilesBodyPageActionScalePagesAction | Unset = UNSET
    set_page_boxes_action: RunPageActionFilesBodyPageActionSetPageBoxesAction | Unset = UNSET
    split_document_action: RunPageActionFilesBodyPageActionSplitDocumentAction | Unset = UNSET
    text_stamp_action: RunPageActionFilesBodyPageActionTextStampAction | Unset = UNSET
    image_stamp_action: RunPageActionFilesBodyPageActionImageStampAction | Unset = UNSET
    page_numbers_action: RunPageActionFilesBodyPageActionPageNumbersAction | Unset = UNSET
    remove_blank_pages_action: RunPageActionFilesBodyPageActionRemoveBlankPagesAction | Unset = UNSET
    remove_pages_by_text_action: RunPageActionFilesBodyPageActionRemovePagesByTextAction | Unset = UNSET
    ocr_action: RunPageActionFilesBodyPageActionOCRAction | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.run_page_action_files_body_page_action_booklet_action import RunPageActionFilesBodyPageActionBookletAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_crop_pages_action import RunPageActionFilesBodyPageActionCropPagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_delete_pages_action import RunPageActionFilesBodyPageActionDeletePagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_extract_pages_action import RunPageActionFilesBodyPageActionExtractPagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_image_stamp_action import RunPageActionFilesBodyPageActionImageStampAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_insert_attached_pages_action import RunPageActionFilesBodyPageActionInsertAttachedPagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_insert_uploaded_pages_action import RunPageActionFilesBodyPageActionInsertUploadedPagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_move_pages_action import RunPageActionFilesBodyPageActionMovePagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_n_up_action import RunPageActionFilesBodyPageActionNUpAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_new_page_action import RunPageActionFilesBodyPageActionNewPageAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_ocr_action import RunPageActionFilesBodyPageActionOCRAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_page_numbers_action import RunPageActionFilesBodyPageActionPageNumbersAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_poster_action import RunPageActionFilesBodyPageActionPosterAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_remove_blank_pages_action import RunPageActionFilesBodyPageActionRemoveBlankPagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_remove_pages_by_text_action import RunPageActionFilesBodyPageActionRemovePagesByTextAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_rotate_pages_action import RunPageActionFilesBodyPageActionRotatePagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_scale_pages_action import RunPageActionFilesBodyPageActionScalePagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action import RunPageActionFilesBodyPageActionSetPageBoxesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_split_document_action import RunPageActionFilesBodyPageActionSplitDocumentAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_text_stamp_action import RunPageActionFilesBodyPageActionTextStampAction # noqa: PLC0415
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

        extract_pages_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.extract_pages_action, Unset):
            extract_pages_action = self.extract_pages_action.to_dict()

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

        split_document_action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.split_document_action, Unset):
            split_document_action = self.split_document_action.to_dict()

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


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
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
        if extract_pages_action is not UNSET:
            field_dict["ExtractPagesAction"] = extract_pages_action
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
        if split_document_action is not UNSET:
            field_dict["SplitDocumentAction"] = split_document_action
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

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.run_page_action_files_body_page_action_booklet_action import RunPageActionFilesBodyPageActionBookletAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_crop_pages_action import RunPageActionFilesBodyPageActionCropPagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_delete_pages_action import RunPageActionFilesBodyPageActionDeletePagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_extract_pages_action import RunPageActionFilesBodyPageActionExtractPagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_image_stamp_action import RunPageActionFilesBodyPageActionImageStampAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_insert_attached_pages_action import RunPageActionFilesBodyPageActionInsertAttachedPagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_insert_uploaded_pages_action import RunPageActionFilesBodyPageActionInsertUploadedPagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_move_pages_action import RunPageActionFilesBodyPageActionMovePagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_n_up_action import RunPageActionFilesBodyPageActionNUpAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_new_page_action import RunPageActionFilesBodyPageActionNewPageAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_ocr_action import RunPageActionFilesBodyPageActionOCRAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_page_numbers_action import RunPageActionFilesBodyPageActionPageNumbersAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_poster_action import RunPageActionFilesBodyPageActionPosterAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_remove_blank_pages_action import RunPageActionFilesBodyPageActionRemoveBlankPagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_remove_pages_by_text_action import RunPageActionFilesBodyPageActionRemovePagesByTextAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_rotate_pages_action import RunPageActionFilesBodyPageActionRotatePagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_scale_pages_action import RunPageActionFilesBodyPageActionScalePagesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_set_page_boxes_action import RunPageActionFilesBodyPageActionSetPageBoxesAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_split_document_action import RunPageActionFilesBodyPageActionSplitDocumentAction # noqa: PLC0415
        from ..models.run_page_action_files_body_page_action_text_stamp_action import RunPageActionFilesBodyPageActionTextStampAction # noqa: PLC0415
        d = dict(src_dict)
        _new_page_action = d.pop("NewPageAction", UNSET)
        new_page_action: RunPageActionFilesBodyPageActionNewPageAction | Unset
        if isinstance(_new_page_action,  Unset):
            new_page_action = UNSET
        else:
            new_page_action = RunPageActionFilesBodyPageActionNewPageAction.from_dict(_new_page_action)




        _insert_uploaded_pages_action = d.pop("InsertUploadedPagesAction", UNSET)
        insert_uploaded_pages_action: RunPageActionFilesBodyPageActionInsertUploadedPagesAction | Unset
        if isinstance(_insert_uploaded_pages_action,  Unset):
            insert_uploaded_pages_action = UNSET
        else:
            insert_uploaded_pages_action = RunPageActionFilesBodyPageActionInsertUploadedPagesAction.from_dict(_insert_uploaded_pages_action)




        _insert_attached_pages_action = d.pop("InsertAttachedPagesAction", UNSET)
        insert_attached_pages_action: RunPageActionFilesBodyPageActionInsertAttachedPagesAction | Unset
        if isinstance(_insert_attached_pages_action,  Unset):
            insert_attached_pages_action = UNSET
        else:
            insert_attached_pages_action = RunPageActionFilesBodyPageActionInsertAttachedPagesAction.from_dict(_insert_attached_pages_action)




        _delete_pages_action = d.pop("DeletePagesAction", UNSET)
        delete_pages_action: RunPageActionFilesBodyPageActionDeletePagesAction | Unset
        if isinstance(_delete_pages_action,  Unset):
            delete_pages_action = UNSET
        else:
            delete_pages_action = RunPageActionFilesBodyPageActionDeletePagesAction.from_dict(_delete_pages_action)




        _rotate_pages_action = d.pop("RotatePagesAction", UNSET)
        rotate_pages_action: RunPageActionFilesBodyPageActionRotatePagesAction | Unset
        if isinstance(_rotate_pages_action,  Unset):
            rotate_pages_action = UNSET
        else:
            rotate_pages_action = RunPageActionFilesBodyPageActionRotatePagesAction.from_dict(_rotate_pages_action)




        _move_pages_action = d.pop("MovePagesAction", UNSET)
        move_pages_action: RunPageActionFilesBodyPageActionMovePagesAction | Unset
        if isinstance(_move_pages_action,  Unset):
            move_pages_action = UNSET
        else:
            move_pages_action = RunPageActionFilesBodyPageActionMovePagesAction.from_dict(_move_pages_action)




        _extract_pages_action = d.pop("ExtractPagesAction", UNSET)
        extract_pages_action: RunPageActionFilesBodyPageActionExtractPagesAction | Unset
        if isinstance(_extract_pages_action,  Unset):
            extract_pages_action = UNSET
        else:
            extract_pages_action = RunPageActionFilesBodyPageActionExtractPagesAction.from_dict(_extract_pages_action)




        _n_up_action = d.pop("NUpAction", UNSET)
        n_up_action: RunPageActionFilesBodyPageActionNUpAction | Unset
        if isinstance(_n_up_action,  Unset):
            n_up_action = UNSET
        else:
            n_up_action = RunPageActionFilesBodyPageActionNUpAction.from_dict(_n_up_action)




        _booklet_action = d.pop("BookletAction", UNSET)
        booklet_action: RunPageActionFilesBodyPageActionBookletAction | Unset
        if isinstance(_booklet_action,  Unset):
            booklet_action = UNSET
        else:
            booklet_action = RunPageActionFilesBodyPageActionBookletAction.from_dict(_booklet_action)




        _poster_action = d.pop("PosterAction", UNSET)
        poster_action: RunPageActionFilesBodyPageActionPosterAction | Unset
        if isinstance(_poster_action,  Unset):
            poster_action = UNSET
        else:
            poster_action = RunPageActionFilesBodyPageActionPosterAction.from_dict(_poster_action)




        _crop_pages_action = d.pop("CropPagesAction", UNSET)
        crop_pages_action: RunPageActionFilesBodyPageActionCropPagesAction | Unset
        if isinstance(_crop_pages_action,  Unset):
            crop_pages_action = UNSET
        else:
            crop_pages_action = RunPageActionFilesBodyPageActionCropPagesAction.from_dict(_crop_pages_action)




        _scale_pages_action = d.pop("ScalePagesAction", UNSET)
        scale_pages_action: RunPageActionFilesBodyPageActionScalePagesAction | Unset
        if isinstance(_scale_pages_action,  Unset):
            scale_pages_action = UNSET
        else:
            scale_pages_action = RunPageActionFilesBodyPageActionScalePagesAction.from_dict(_scale_pages_action)




        _set_page_boxes_action = d.pop("SetPageBoxesAction", UNSET)
        set_page_boxes_action: RunPageActionFilesBodyPageActionSetPageBoxesAction | Unset
        if isinstance(_set_page_boxes_action,  Unset):
            set_page_boxes_action = UNSET
        else:
            set_page_boxes_action = RunPageActionFilesBodyPageActionSetPageBoxesAction.from_dict(_set_page_boxes_action)




        _split_document_action = d.pop("SplitDocumentAction", UNSET)
        split_document_action: RunPageActionFilesBodyPageActionSplitDocumentAction | Unset
        if isinstance(_split_document_action,  Unset):
            split_document_action = UNSET
        else:
            split_document_action = RunPageActionFilesBodyPageActionSplitDocumentAction.from_dict(_split_document_action)




        _text_stamp_action = d.pop("TextStampAction", UNSET)
        text_stamp_action: RunPageActionFilesBodyPageActionTextStampAction | Unset
        if isinstance(_text_stamp_action,  Unset):
            text_stamp_action = UNSET
        else:
            text_stamp_action = RunPageActionFilesBodyPageActionTextStampAction.from_dict(_text_stamp_action)




        _image_stamp_action = d.pop("ImageStampAction", UNSET)
        image_stamp_action: RunPageActionFilesBodyPageActionImageStampAction | Unset
        if isinstance(_image_stamp_action,  Unset):
            image_stamp_action = UNSET
        else:
            image_stamp_action = RunPageActionFilesBodyPageActionImageStampAction.from_dict(_image_stamp_action)




        _page_numbers_action = d.pop("PageNumbersAction", UNSET)
        page_numbers_action: RunPageActionFilesBodyPageActionPageNumbersAction | Unset
        if isinstance(_page_numbers_action,  Unset):
            page_numbers_action = UNSET
        else:
            page_numbers_action = RunPageActionFilesBodyPageActionPageNumbersAction.from_dict(_page_numbers_action)




        _remove_blank_pages_action = d.pop("RemoveBlankPagesAction", UNSET)
        remove_blank_pages_action: RunPageActionFilesBodyPageActionRemoveBlankPagesAction | Unset
        if isinstance(_remove_blank_pages_action,  Unset):
            remove_blank_pages_action = UNSET
        else:
            remove_blank_pages_action = RunPageActionFilesBodyPageActionRemoveBlankPagesAction.from_dict(_remove_blank_pages_action)




        _remove_pages_by_text_action = d.pop("RemovePagesByTextAction", UNSET)
        remove_pages_by_text_action: RunPageActionFilesBodyPageActionRemovePagesByTextAction | Unset
        if isinstance(_remove_pages_by_text_action,  Unset):
            remove_pages_by_text_action = UNSET
        else:
            remove_pages_by_text_action = RunPageActionFilesBodyPageActionRemovePagesByTextAction.from_dict(_remove_pages_by_text_action)




        _ocr_action = d.pop("OCRAction", UNSET)
        ocr_action: RunPageActionFilesBodyPageActionOCRAction | Unset
        if isinstance(_ocr_action,  Unset):
            ocr_action = UNSET
        else:
            ocr_action = RunPageActionFilesBodyPageActionOCRAction.from_dict(_ocr_action)




        run_page_action_files_body_page_action = cls(
            new_page_action=new_page_action,
            insert_uploaded_pages_action=insert_uploaded_pages_action,
            insert_attached_pages_action=insert_attached_pages_action,
            delete_pages_action=delete_pages_action,
            rotate_pages_action=rotate_pages_action,
            move_pages_action=move_pages_action,
            extract_pages_action=extract_pages_action,
            n_up_action=n_up_action,
            booklet_action=booklet_action,
            poster_action=poster_action,
            crop_pages_action=crop_pages_action,
            scale_pages_action=scale_pages_action,
            set_page_boxes_action=set_page_boxes_action,
            split_document_action=split_document_action,
            text_stamp_action=text_stamp_action,
            image_stamp_action=image_stamp_action,
            page_numbers_action=page_numbers_action,
            remove_blank_pages_action=remove_blank_pages_action,
            remove_pages_by_text_action=remove_pages_by_text_action,
            ocr_action=ocr_action,
        )


        run_page_action_files_body_page_action.additional_properties = d
        return run_page_action_files_body_page_action

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
