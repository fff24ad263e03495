import { createHash } from 'node:crypto';
import * as mupdf from 'mupdf';
import type { AttachmentModel, AnnotationModel, Rectangle } from './model.js';
import { EngineError } from '../errors.js';
import type { ATTACHMENT_ICONS } from './model.js';
import { annotationEntries, entryObject, readAnnotations } from './read.js';
import { name as dataName, rgb } from '../syntax/readers.js';
import { pdfDate, pdfDateToIso } from '../syntax/dates.js';
import { editPdf, withPdf } from '../core/document-task.js';
import { checkPageIndex } from '../core/open.js';
import { deref, name, text } from '../core/mupdf-objects.js';
import type { PdfSource } from '../core/pdf-source.js';


export interface NewFileAttachment {
  pdf: PdfSource;
  password?: string | undefined;
  file: Uint8Array;
  fileName: string;
  mediaType: string;
  description?: string | undefined;
  created?: string | undefined;
  modified?: string | undefined;
  annotation: {
    name?: string | undefined;
    pageIndex?: number | undefined;
    rectangle?: Rectangle | undefined;
    contents?: string | undefined;
    author?: string | undefined;
    subject?: string | undefined;
    icon?: (typeof ATTACHMENT_ICONS)[number] | undefined;
    color?: string | undefined;
  };
}

/** Size of the icon placed by default, and its distance from the corner, in points. */
const ICON = 20;
const MARGIN = 10;

/** The crop box's upper-left corner as the page is shown (rotation included), in PDF space. */
function defaultRectangle(page: mupdf.PDFPage): [number, number, number, number] {
  // Page space is the displayed page: rotated and cropped, origin at its top left.
  const toPdf = mupdf.Matrix.invert(page.getTransform());
  const [x0, y0, x1, y1] = mupdf.Rect.transform([MARGIN, MARGIN, MARGIN + ICON, MARGIN + ICON], toPdf);
  return [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
}

function uniqueName(taken: Set<string>): string {
  for (let i = 1; ; i++) if (!taken.has(`attachment-${i}`)) return `attachment-${i}`;
}

/**
 * The `addFileAttachment` task: embeds the file (size, dates, MD5 checksum,
 * media type) and adds a FileAttachment annotation for it, by default in the
 * upper left corner of the page, with NoRotate so it shows upright.
 */
export function addFileAttachment(input: NewFileAttachment): { bytes: Uint8Array; annotation: AnnotationModel } {
  return editPdf(input, 'annotate', (doc, { save }) => {
    const a = input.annotation;
    const pageIndex = a.pageIndex ?? 0;
    checkPageIndex(doc, pageIndex);
    const entries = annotationEntries(doc);
    const taken = new Set(entries.map((e) => e.name));
    if (a.name !== undefined && taken.has(a.name)) throw new EngineError('ALREADY_EXISTS', `An annotation named ${JSON.stringify(a.name)} exists`);
    const annotationName = a.name ?? uniqueName(taken);

    const now = new Date();
    const created = input.created ? new Date(input.created) : now;
    const modified = input.modified ? new Date(input.modified) : now;
    const filespec = doc.addEmbeddedFile(input.fileName, input.mediaType, input.file, created, modified, true);
    if (input.description) filespec.put('Desc', doc.newString(input.description));

    const page = doc.loadPage(pageIndex);
    const annot = page.createAnnotation('FileAttachment');
    annot.setFileSpec(filespec);
    annot.setIcon(a.icon ?? 'PushPin');
    if (a.color) annot.setColor(rgb(a.color));
    annot.setContents(a.contents ?? input.fileName);
    if (a.author !== undefined) annot.setAuthor(a.author);
    if (a.subject !== undefined) annot.setSubject(a.subject);
    annot.setFlags(mupdf.PDFAnnotation.IS_PRINT | mupdf.PDFAnnotation.IS_NO_ZOOM | mupdf.PDFAnnotation.IS_NO_ROTATE);
    const obj = annot.getObject();
    const r = a.rectangle;
    const rect = r ? [r.x, r.y, r.x + r.width, r.y + r.height] : defaultRectangle(page);
    obj.put('Rect', rect);
    obj.put('NM', doc.newString(annotationName));
    obj.put('CreationDate', doc.newString(pdfDate(now)));
    obj.put('M', doc.newString(pdfDate(now)));
    // MuPDF gives a new FileAttachment a popup; name it after its annotation.
    const popup = obj.get('Popup');
    if (popup.isIndirect()) popup.put('NM', doc.newString(`${annotationName}-popup`));
    annot.update();

    const bytes = save({ appendable: true });
    const annotation = readAnnotations(doc).find((m) => m.name === annotationName);
    if (!annotation) throw new EngineError('PROCESSING_FAILED', 'The attachment annotation could not be read back');
    return { bytes, annotation };
  });
}

/**
 * An embedded file's /Subtype as a media type when it is one an HTTP
 * Content-Type can carry as is (RFC 6838 restricted names); otherwise
 * undefined, and the file is served as application/octet-stream.
 */
export function mediaTypeOf(subtype: string | undefined): string | undefined {
  return subtype !== undefined && /^[A-Za-z0-9][\w!#$&^.+-]{0,126}\/[A-Za-z0-9][\w!#$&^.+-]{0,126}$/.test(subtype) ? subtype : undefined;
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** The `readAttachment` task: the AttachmentModel of a FileAttachment annotation and, when asked, the file. */
export function readAttachment(input: { pdf: PdfSource; password?: string | undefined; name: string; withContent: boolean }): { attachment: AttachmentModel; content?: Uint8Array } {
  return withPdf(input, 'view', (doc) => {
    const entry = annotationEntries(doc).find((e) => e.name === input.name);
    if (!entry) throw new EngineError('ANNOTATION_NOT_FOUND', `No annotation named ${JSON.stringify(input.name)}`);
    const subtype = dataName(entry.dict.get('Subtype'));
    if (subtype !== 'FileAttachment') throw new EngineError('NOT_A_FILE_ATTACHMENT', `${JSON.stringify(input.name)} is a ${subtype} annotation`);
    const fs = deref(entryObject(doc, entry).get('FS'));
    const ef = fs.isDictionary() ? deref(fs.get('EF')) : undefined;
    // Kept as the reference: MuPDF's isStream() is true for the indirect object only, not for what it resolves to.
    const stream = ef?.isDictionary() ? ef.get('F') : undefined;
    if (!stream?.isStream()) {
      const why = fs.isNull() ? 'no file specification' : 'a file specification without an embedded file (it refers to a file outside the document)';
      throw new EngineError('ATTACHMENT_NOT_FOUND', `The FileAttachment annotation ${JSON.stringify(input.name)} has ${why}`);
    }
    const contentBuffer = doc.getEmbeddedFileContents(fs);
    const content = contentBuffer ? contentBuffer.asUint8Array().slice() : new Uint8Array(0);
    contentBuffer?.destroy();
    const params = deref(stream.get('Params'));
    const stored = params.isDictionary() ? deref(params.get('CheckSum')) : params;
    const checksum = stored.isString() ? hex(stored.asByteString()) : createHash('md5').update(content).digest('hex');
    const attachment: AttachmentModel = {
      annotation: entry.name,
      fileName: text(fs.get('UF')) ?? text(fs.get('F')) ?? 'attachment',
      mediaType: mediaTypeOf(name(stream.get('Subtype'))) ?? 'application/octet-stream',
      size: content.length,
      checksum,
    };
    const description = text(fs.get('Desc'));
    if (description) attachment.description = description;
    if (params.isDictionary()) {
      const c = pdfDateToIso(text(params.get('CreationDate')));
      const m = pdfDateToIso(text(params.get('ModDate')));
      if (c) attachment.creationDate = c;
      if (m) attachment.modificationDate = m;
    }
    return input.withContent ? { attachment, content } : { attachment };
  });
}
