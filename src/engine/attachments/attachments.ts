import { createHash } from 'node:crypto';
import type * as mupdf from 'mupdf';
import { editPdf, withPdf, type PdfInput } from '../core/document-task.js';
import { deref, name, text } from '../core/mupdf-objects.js';
import { checkWhole, putInNameTree, readNameTree, removeFromNameTree, type NameTree, type NameTreeEntry } from '../core/name-tree.js';
import { EngineError } from '../errors.js';
import { mediaTypeOf } from '../annotations/attachments.js';
import { certifyingSignature } from '../signing/verify.js';
import { isoToPdfDate, pdfDateToIso } from '../syntax/dates.js';
import { MAX_ATTACHMENTS, type DocumentAttachment, type DocumentAttachmentList, type NewDocumentAttachment } from './model.js';

/** Warnings kept per answer. */
const MAX_WARNINGS = 20;

/** The embedded file stream of a file specification (kept as its reference: isStream() is true for that only). */
function fileStream(spec: mupdf.PDFObject): mupdf.PDFObject | undefined {
  const fs = deref(spec);
  if (!fs.isDictionary()) return undefined;
  const ef = deref(fs.get('EF'));
  if (!ef.isDictionary()) return undefined;
  const stream = ef.get('UF').isStream() ? ef.get('UF') : ef.get('F');
  return stream.isStream() ? stream : undefined;
}

function contentOf(stream: mupdf.PDFObject): Uint8Array {
  const buffer = stream.readStream();
  try {
    return buffer.asUint8Array().slice();
  } finally {
    buffer.destroy();
  }
}

/** Object numbers the catalog's /AF lists. */
function associatedNumbers(doc: mupdf.PDFDocument): Set<number> {
  const out = new Set<number>();
  const root = deref(doc.getTrailer().get('Root'));
  const af = root.isDictionary() ? deref(root.get('AF')) : undefined;
  if (af?.isArray()) af.forEach((item) => {
    if (item.isIndirect()) out.add(item.asIndirect());
  });
  return out;
}

function describe(entry: NameTreeEntry, stream: mupdf.PDFObject, content: Uint8Array, associated: Set<number>): DocumentAttachment {
  const fs = deref(entry.value);
  const params = deref(stream.get('Params'));
  const stored = params.isDictionary() ? deref(params.get('CheckSum')) : params;
  const checksum = stored.isString() && stored.asByteString().length === 16 ? Buffer.from(stored.asByteString()).toString('hex') : createHash('md5').update(content).digest('hex');
  const out: DocumentAttachment = {
    name: entry.name,
    fileName: text(fs.get('UF')) ?? text(fs.get('F')) ?? entry.name,
    mediaType: mediaTypeOf(name(stream.get('Subtype'))) ?? 'application/octet-stream',
    size: content.length,
    checksum,
    associated: entry.value.isIndirect() && associated.has(entry.value.asIndirect()),
  };
  const description = text(fs.get('Desc'));
  if (description) out.description = description;
  if (params.isDictionary()) {
    const c = pdfDateToIso(text(params.get('CreationDate')));
    const m = pdfDateToIso(text(params.get('ModDate')));
    if (c) out.creationDate = c;
    if (m) out.modificationDate = m;
  }
  const relationship = name(fs.get('AFRelationship'));
  if (relationship) out.relationship = relationship;
  return out;
}

/** Every attachment of an open document, described (each file decoded once for its size and, without a stored one, its MD5). */
export function attachmentsOf(doc: mupdf.PDFDocument): DocumentAttachmentList {
  const tree = readNameTree(doc, 'EmbeddedFiles');
  const associated = associatedNumbers(doc);
  const attachments: DocumentAttachment[] = [];
  for (const entry of tree.entries) {
    const stream = fileStream(entry.value);
    if (!stream) {
      if (tree.warnings.length < MAX_WARNINGS) tree.warnings.push(`${JSON.stringify(entry.name.slice(0, 100))} embeds no file (it refers to a file outside the document): left out`);
      continue;
    }
    attachments.push(describe(entry, stream, contentOf(stream), associated));
  }
  return { attachments, warnings: tree.warnings };
}

/** The `listDocumentAttachments` task. */
export function listDocumentAttachments(input: PdfInput): DocumentAttachmentList {
  return withPdf(input, 'view', (doc) => attachmentsOf(doc));
}

/** The `readDocumentAttachment` task: one attachment's model and its bytes (404 ATTACHMENT_NOT_FOUND). */
export function readDocumentAttachment(input: PdfInput & { name: string }): { attachment: DocumentAttachment; content: Uint8Array } {
  return withPdf(input, 'view', (doc) => attachmentNamed(doc, input.name));
}

/** One attachment of an open document, described, with its bytes (404 ATTACHMENT_NOT_FOUND); the others are not decoded. */
function attachmentNamed(doc: mupdf.PDFDocument, attachment: string): { attachment: DocumentAttachment; content: Uint8Array } {
  const entry = readNameTree(doc, 'EmbeddedFiles').entries.find((e) => e.name === attachment);
  const stream = entry && fileStream(entry.value);
  if (!entry || !stream) throw notFound(attachment);
  const content = contentOf(stream);
  return { attachment: describe(entry, stream, content, associatedNumbers(doc)), content };
}

function notFound(attachment: string): EngineError {
  return new EngineError('ATTACHMENT_NOT_FOUND', `The document has no attachment named ${JSON.stringify(attachment.slice(0, 200))}`);
}

/** Refuses a change of the tree that would lose entries it could not read, or that the certification forbids. */
function checkWritable(doc: mupdf.PDFDocument, tree: NameTree): void {
  if (certifyingSignature(doc)) throw new EngineError('DOCUMENT_CERTIFIED', 'The document is certified: no certification level allows its attachments to change');
  checkWhole('EmbeddedFiles', tree);
}

/** Sets the catalog's /AF to what it listed minus `drop`, plus `add` (references). No entries left: /AF goes. */
function updateAf(doc: mupdf.PDFDocument, drop: Set<number>, add: mupdf.PDFObject[]): void {
  const root = deref(doc.getTrailer().get('Root'));
  const old = deref(root.get('AF'));
  const af = doc.newArray();
  const listed = new Set<number>();
  if (old.isArray()) old.forEach((item) => {
    if (item.isIndirect() && drop.has(item.asIndirect())) return;
    if (item.isIndirect()) listed.add(item.asIndirect());
    af.push(item);
  });
  for (const ref of add) if (!listed.has(ref.asIndirect())) af.push(ref);
  if (af.length) root.put('AF', af);
  else root.delete('AF');
}

/**
 * Embeds `file` as an attachment of the open document: an embedded file stream with its size, dates, MD5 and media
 * type, a file specification with F, UF, Desc and AFRelationship (Unspecified when none is given: what PDF/A-3 asks of
 * every embedded file), the tree rewritten sorted, and the catalog's /AF listing it. An attachment of the same name is
 * replaced when `replace` (its file specification leaves the tree and /AF), else 409 ATTACHMENT_EXISTS.
 */
export function embedAttachment(doc: mupdf.PDFDocument, input: Omit<NewDocumentAttachment, 'file'> & { file: Uint8Array }): { replaced: boolean } {
  const tree = readNameTree(doc, 'EmbeddedFiles');
  checkWritable(doc, tree);
  const existing = tree.entries.find((e) => e.name === input.name);
  if (existing && !input.replace) throw new EngineError('ATTACHMENT_EXISTS', `The document has an attachment named ${JSON.stringify(input.name.slice(0, 200))} (replace it with replace=true)`);
  if (!existing && tree.entries.length >= MAX_ATTACHMENTS) throw new EngineError('VALIDATION_FAILED', `The document has ${MAX_ATTACHMENTS} attachments, the most the service adds to`);
  const now = new Date();
  const date = (iso: string | undefined) => (iso ? new Date(iso) : now);
  const spec = doc.addEmbeddedFile(input.fileName ?? input.name, input.mediaType, input.file, date(input.created), date(input.modified), true);
  const fs = deref(spec);
  // MuPDF writes the dates in UTC with a bare Z; written again as the other PDF dates of the service (+00'00').
  const stream = fileStream(spec);
  const params = stream ? deref(stream.get('Params')) : undefined;
  if (params?.isDictionary()) {
    for (const [key, iso] of [['CreationDate', input.created ?? now.toISOString()], ['ModDate', input.modified ?? now.toISOString()]] as const) {
      const written = isoToPdfDate(iso);
      if (written) params.put(key, doc.newString(written));
    }
  }
  if (input.description) fs.put('Desc', doc.newString(input.description));
  fs.put('AFRelationship', doc.newName(input.relationship ?? 'Unspecified'));
  putInNameTree(doc, 'EmbeddedFiles', input.name, spec, tree);
  updateAf(doc, existing?.value.isIndirect() ? new Set([existing.value.asIndirect()]) : new Set(), [spec]);
  return { replaced: existing !== undefined };
}

/** The `addDocumentAttachment` task: embedAttachment, saved by the signature rule (appended to a signed document). */
export function addDocumentAttachment(input: PdfInput & NewDocumentAttachment): { bytes: Uint8Array; attachment: DocumentAttachment; replaced: boolean } {
  return editPdf(input, 'edit', (doc, edit) => {
    const { replaced } = embedAttachment(doc, input);
    // A replaced file's bytes are content the user removed: rewritten unless signed; a new one is appended when large.
    const bytes = edit.save({ appendable: !replaced });
    return { bytes, attachment: attachmentNamed(doc, input.name).attachment, replaced };
  });
}

/**
 * The `deleteDocumentAttachment` task: the entry leaves the tree and /AF; the document is rewritten, so the file's bytes
 * leave it, unless it is signed (appended: the earlier revision, which the signatures cover, still holds them).
 */
export function deleteDocumentAttachment(input: PdfInput & { name: string }): { bytes: Uint8Array } {
  return editPdf(input, 'edit', (doc, edit) => {
    const tree = readNameTree(doc, 'EmbeddedFiles');
    const entry = tree.entries.find((e) => e.name === input.name);
    if (!entry) throw notFound(input.name);
    checkWritable(doc, tree);
    removeFromNameTree(doc, 'EmbeddedFiles', input.name, tree);
    updateAf(doc, entry.value.isIndirect() ? new Set([entry.value.asIndirect()]) : new Set(), []);
    return { bytes: edit.save() };
  });
}
