import type * as mupdf from 'mupdf';
import { editPdf, withPdf, type PdfInput } from '../core/document-task.js';
import { deref, text } from '../core/mupdf-objects.js';
import { EngineError } from '../errors.js';
import { isTagged } from '../pdfua/keep.js';
import { isoSeconds, isoToPdfDate, pdfDateToIso } from '../syntax/dates.js';
import { DATE_FIELDS, INFO_KEYS, MAX_CUSTOM_KEYS, mergeMetadata, RESERVED_INFO_KEYS, TEXT_FIELDS, type MetadataChange, type MetadataFields, type MetadataModel } from './model.js';
import { applyXmpFields, newXmp, parseXmp, readXmpFields, serializeXmp, type XmpPacket } from './xmp.js';

/**
 * The metadata resource's tasks (docs/metadata.md): the Info dictionary, the catalog's /Lang and the XMP packet read
 * together, and written together so that they say the same.
 */

function catalogOf(doc: mupdf.PDFDocument): mupdf.PDFObject {
  return deref(doc.getTrailer().get('Root'));
}

function infoOf(doc: mupdf.PDFDocument): mupdf.PDFObject | undefined {
  const info = deref(doc.getTrailer().get('Info'));
  return info.isDictionary() ? info : undefined;
}

/** The catalog's /Metadata stream (its reference: MuPDF reads and writes stream data through it), when there is one. */
function xmpStream(doc: mupdf.PDFDocument): mupdf.PDFObject | undefined {
  const ref = catalogOf(doc).get('Metadata');
  return ref.isStream() ? ref : undefined;
}

/** The Info dictionary's fields and the catalog's /Lang (dates as ISO 8601). */
function infoFields(doc: mupdf.PDFDocument): MetadataFields {
  const fields: MetadataFields = {};
  const info = infoOf(doc);
  if (info) {
    for (const field of TEXT_FIELDS) {
      if (field === 'language') continue;
      const value = text(info.get(INFO_KEYS[field]));
      if (value === undefined) continue;
      fields[field] = (DATE_FIELDS as readonly string[]).includes(field) ? (pdfDateToIso(value) ?? value) : value;
    }
    const custom: Record<string, string> = {};
    info.forEach((value, key) => {
      if (RESERVED_INFO_KEYS.includes(String(key))) return;
      const t = text(value);
      if (t !== undefined) custom[String(key)] = t;
    });
    if (Object.keys(custom).length > 0) fields.custom = custom;
  }
  const lang = text(catalogOf(doc).get('Lang'));
  if (lang !== undefined) fields.language = lang;
  return fields;
}

/** The XMP packet as text (UTF-8), when the document has one. */
function xmpText(doc: mupdf.PDFDocument): string | undefined {
  const stream = xmpStream(doc);
  return stream ? new TextDecoder('utf-8').decode(stream.readStream().asUint8Array()) : undefined;
}

/** The stored packet parsed; undefined when there is none or it cannot be read (a write then replaces it with a new one). */
function storedXmp(doc: mupdf.PDFDocument): XmpPacket | undefined {
  const xml = xmpText(doc);
  if (xml === undefined) return undefined;
  try {
    return parseXmp(xml);
  } catch {
    return undefined;
  }
}

/** The document's metadata: the Info dictionary's fields, the XMP packet's where the Info dictionary has none. */
function metadataOf(doc: mupdf.PDFDocument): MetadataModel {
  const fields = infoFields(doc);
  const packet = storedXmp(doc);
  if (packet) {
    const xmp = readXmpFields(packet);
    for (const field of TEXT_FIELDS) if (fields[field] === undefined && xmp[field] !== undefined) fields[field] = xmp[field];
  }
  return { ...fields, hasXmp: xmpStream(doc) !== undefined };
}

/** The `readMetadata` task: viewing is enough. */
export function readMetadata(input: PdfInput): MetadataModel {
  return withPdf(input, 'view', (doc) => metadataOf(doc));
}

/** The `readXmp` task: the packet's bytes as stored (decoded from its filters), undefined when there is none. */
export function readXmp(input: PdfInput): { xmp?: Uint8Array } {
  return withPdf(input, 'view', (doc) => {
    const stream = xmpStream(doc);
    return stream ? { xmp: stream.readStream().asUint8Array().slice() } : {};
  });
}

/** Writes `fields` into the Info dictionary and /Lang: every text field and custom key replaced, other entries (Trapped) kept. */
function writeInfo(doc: mupdf.PDFDocument, fields: MetadataFields): void {
  let info = infoOf(doc);
  if (!info) {
    info = doc.addObject(doc.newDictionary());
    doc.getTrailer().put('Info', info);
  }
  const stale: string[] = [];
  info.forEach((value, key) => {
    if (!RESERVED_INFO_KEYS.includes(String(key)) && text(value) !== undefined) stale.push(String(key));
  });
  for (const key of stale) info.delete(key);
  for (const field of TEXT_FIELDS) {
    if (field === 'language') continue;
    const value = fields[field];
    const key = INFO_KEYS[field];
    if (value === undefined) info.delete(key);
    else info.put(key, doc.newString((DATE_FIELDS as readonly string[]).includes(field) ? (isoToPdfDate(value) ?? value) : value));
  }
  for (const [key, value] of Object.entries(fields.custom ?? {})) info.put(key, doc.newString(value));
  const catalog = catalogOf(doc);
  if (fields.language === undefined) catalog.delete('Lang');
  else catalog.put('Lang', doc.newString(fields.language));
}

/** Stores the packet text in the catalog's /Metadata stream (its object kept when there is one), unfiltered as PDF/A wants it. */
function writeXmpStream(doc: mupdf.PDFDocument, xml: string): void {
  const bytes = new TextEncoder().encode(xml);
  const stream = xmpStream(doc);
  if (stream) {
    stream.writeStream(bytes);
    const dict = deref(stream);
    dict.put('Type', doc.newName('Metadata'));
    dict.put('Subtype', doc.newName('XML'));
    return;
  }
  catalogOf(doc).put('Metadata', doc.addStream(bytes, { Type: 'Metadata', Subtype: 'XML' }));
}

function nowIso(): string {
  return isoSeconds(new Date());
}

/**
 * The document's metadata changed (`replace`: replaced) on the open document: the Info dictionary, /Lang and the XMP
 * packet written together, the packet updated property by property (everything else in it kept) or created; `amend`
 * changes the packet before it is stored (the PDF/UA finish adds its identification). The metadata as written.
 */
export function changeMetadata(doc: mupdf.PDFDocument, change: MetadataChange, replace: boolean, amend?: (packet: XmpPacket) => void): MetadataFields {
  const now = nowIso();
  const fields = mergeMetadata(metadataOf(doc), change, replace, now);
  if (Object.keys(fields.custom ?? {}).length > MAX_CUSTOM_KEYS) throw new EngineError('VALIDATION_FAILED', `A document may have at most ${MAX_CUSTOM_KEYS} custom metadata keys`);
  writeInfo(doc, fields);
  const stored = storedXmp(doc);
  if (stored) applyXmpFields(stored, fields, now);
  const packet = stored ?? newXmp(fields, now);
  amend?.(packet);
  writeXmpStream(doc, serializeXmp(packet));
  return fields;
}

/** PDF/UA-1 7.1 (veraPDF 7.1-10): a viewer shows the document's title, not its file name (/ViewerPreferences /DisplayDocTitle true). */
export function displayDocTitle(doc: mupdf.PDFDocument): void {
  const catalog = catalogOf(doc);
  let prefs = deref(catalog.get('ViewerPreferences'));
  if (!prefs.isDictionary()) {
    catalog.put('ViewerPreferences', doc.newDictionary());
    prefs = deref(catalog.get('ViewerPreferences'));
  }
  if (prefs.get('DisplayDocTitle').isBoolean() && prefs.get('DisplayDocTitle').asBoolean()) return;
  prefs.put('DisplayDocTitle', doc.newBoolean(true));
}

/**
 * A tagged document that has a title after a metadata write shows it (displayDocTitle): PDF/UA asks for both the
 * title in XMP (dc:title, written with the other fields) and that flag, and a title set for accessibility is set
 * through this resource (docs/accessibility.md). An untagged document's viewer preferences are left as they are.
 */
function showTitleWhenTagged(doc: mupdf.PDFDocument, fields: MetadataFields): void {
  if (fields.title !== undefined && fields.title.trim() !== '' && isTagged(doc)) displayDocTitle(doc);
}

/**
 * The `writeMetadata` task: PATCH (`replace` false) or PUT of the metadata. The Info dictionary, /Lang and the XMP
 * packet are written together: the packet is updated property by property (everything else in it kept), or created.
 * Needs "change the document" with the user password. Saved by the edit rule, never appended but to a signed document:
 * a field removed, or a name replaced, is gone from the file, not kept in an earlier revision.
 */
export function writeMetadata(input: PdfInput & { change: MetadataChange; replace: boolean }): { bytes: Uint8Array; model: MetadataModel } {
  return editPdf(input, 'edit', (doc, edit) => {
    showTitleWhenTagged(doc, changeMetadata(doc, input.change, input.replace));
    const bytes = edit.save();
    return { bytes, model: metadataOf(doc) };
  });
}

/**
 * The `writeXmp` task: PUT of a raw packet, parsed first (400 MALFORMED_XMP before the document is opened), stored as
 * sent, and the Info dictionary and /Lang made to say what it says (its dates in PDF form; a date it gives in no
 * ISO 8601 form is left out of the Info dictionary).
 */
export function writeXmp(input: PdfInput & { xmp: Uint8Array }): { bytes: Uint8Array; model: MetadataModel } {
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(input.xmp);
  } catch {
    throw new EngineError('MALFORMED_XMP', 'The XMP packet is not UTF-8');
  }
  const fields = readXmpFields(parseXmp(xml));
  for (const field of DATE_FIELDS) if (fields[field] !== undefined && isoToPdfDate(fields[field]) === undefined) delete fields[field];
  if (Object.keys(fields.custom ?? {}).length > MAX_CUSTOM_KEYS) throw new EngineError('MALFORMED_XMP', `The XMP packet has more than ${MAX_CUSTOM_KEYS} pdfx properties (custom keys)`);
  return editPdf(input, 'edit', (doc, edit) => {
    writeInfo(doc, fields);
    writeXmpStream(doc, xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml);
    showTitleWhenTagged(doc, fields);
    const bytes = edit.save();
    return { bytes, model: metadataOf(doc) };
  });
}
