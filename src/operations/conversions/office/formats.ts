import { inflateRawSync } from 'node:zlib';
import { CompoundFile } from '../../../engine/models.js';
import { ServiceError } from '../../../errors.js';

/**
 * Every Office format an upload may be converted from (issue 22; docs/office.md#formats): the
 * stored name is its file extension. Macro-enabled forms (docm, xlsm, pptm) convert with their
 * macros never run; the flat ODF forms (fodt, fods, fodp) are single XML files.
 */
export const OFFICE_FORMATS = ['doc', 'docx', 'docm', 'odt', 'fodt', 'rtf', 'txt', 'xls', 'xlsx', 'xlsm', 'ods', 'fods', 'csv', 'ppt', 'pptx', 'pptm', 'odp', 'fodp'] as const;
export type OfficeFormat = (typeof OFFICE_FORMATS)[number];

/** Which LibreOffice application converts a format (and which export filter and options apply). */
export type OfficeFamily = 'text' | 'spreadsheet' | 'presentation';

const SPREADSHEETS: ReadonlySet<OfficeFormat> = new Set(['xls', 'xlsx', 'xlsm', 'ods', 'fods', 'csv']);
const PRESENTATIONS: ReadonlySet<OfficeFormat> = new Set(['ppt', 'pptx', 'pptm', 'odp', 'fodp']);

export function officeFamilyOf(format: OfficeFormat): OfficeFamily {
  return SPREADSHEETS.has(format) ? 'spreadsheet' : PRESENTATIONS.has(format) ? 'presentation' : 'text';
}

/** What an upload may ask of the conversion (query parameters, docs/office.md#options); validated before a conversion starts. */
export interface OfficeOptions {
  /** Pages of the output to keep, LibreOffice's PageRange syntax ("1-3,5"); every page when absent. */
  pageRange?: string;
  /** Spreadsheets: every sheet printed landscape. */
  landscape?: boolean;
  /** Spreadsheets: only this sheet (1-based); every sheet when absent. */
  sheet?: number;
  /** Presentations: the notes pages exported as well as the slides. */
  notesPages?: boolean;
  /** PDF/A written by LibreOffice itself, then checked by veraPDF before it is stored. */
  pdfa?: 'pdfa1b' | 'pdfa2b' | 'pdfa3b';
  /** A tagged PDF with LibreOffice's PDF/UA option, finished as the HTML uploads' (default true; docs/accessibility.md). */
  tagged?: boolean;
}


/** How each format is named in messages ("a Word .docx document"). */
const FORMAT_NAMES: Readonly<Record<OfficeFormat, string>> = {
  doc: 'a Word 97-2003 .doc document',
  docx: 'a Word .docx document',
  docm: 'a macro-enabled Word .docm document',
  odt: 'an OpenDocument text (.odt)',
  fodt: 'a flat OpenDocument text (.fodt)',
  rtf: 'an RTF document',
  txt: 'plain text',
  xls: 'an Excel 97-2003 .xls workbook',
  xlsx: 'an Excel .xlsx workbook',
  xlsm: 'a macro-enabled Excel .xlsm workbook',
  ods: 'an OpenDocument spreadsheet (.ods)',
  fods: 'a flat OpenDocument spreadsheet (.fods)',
  csv: 'comma-separated values',
  ppt: 'a PowerPoint 97-2003 .ppt presentation',
  pptx: 'a PowerPoint .pptx presentation',
  pptm: 'a macro-enabled PowerPoint .pptm presentation',
  odp: 'an OpenDocument presentation (.odp)',
  fodp: 'a flat OpenDocument presentation (.fodp)',
};

export function officeFormatName(format: OfficeFormat): string {
  return FORMAT_NAMES[format];
}

/**
 * What the bytes are, by their structure (never their name): an Office format, whether it is
 * encrypted, and a description for messages. `format` is absent for anything the service does not
 * convert; `ooxmlEncrypted` marks an encrypted OOXML package, whose format cannot be told without
 * the password (the package is inside an OLE2 EncryptedPackage stream).
 */
export interface OfficeContent {
  format?: OfficeFormat;
  encrypted: boolean;
  ooxmlEncrypted?: boolean;
  what: string;
}

const OLE2_SIGNATURE = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const ZIP_SIGNATURE = Buffer.from('504b0304', 'hex');
const PDF_SIGNATURE = Buffer.from('%PDF-');

/** Main-part content types of OOXML packages, templates and macro-enabled forms included (a template converts as its document). */
const OOXML_MAIN_TYPES: Readonly<Record<string, OfficeFormat>> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml': 'docx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml': 'docx',
  'application/vnd.ms-word.document.macroenabled.main+xml': 'docm',
  'application/vnd.ms-word.template.macroenabledtemplate.main+xml': 'docm',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml': 'xlsx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml': 'xlsx',
  'application/vnd.ms-excel.sheet.macroenabled.main+xml': 'xlsm',
  'application/vnd.ms-excel.template.macroenabled.main+xml': 'xlsm',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml': 'pptx',
  'application/vnd.openxmlformats-officedocument.presentationml.template.main+xml': 'pptx',
  'application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml': 'pptx',
  'application/vnd.ms-powerpoint.presentation.macroenabled.main+xml': 'pptm',
  'application/vnd.ms-powerpoint.template.macroenabled.main+xml': 'pptm',
  'application/vnd.ms-powerpoint.slideshow.macroenabled.main+xml': 'pptm',
};

const ODF_MIMETYPES: Readonly<Record<string, OfficeFormat>> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
};
const FLAT_ODF: Readonly<Record<string, OfficeFormat>> = {
  'application/vnd.oasis.opendocument.text': 'fodt',
  'application/vnd.oasis.opendocument.spreadsheet': 'fods',
  'application/vnd.oasis.opendocument.presentation': 'fodp',
};
const ODF_OFFICE_NS = 'urn:oasis:names:tc:opendocument:xmlns:office:1.0';

/** Containers an octet-stream upload is sniffed as (internal media types: the whole content decides the format). */
export const OFFICE_CONTAINERS = { ole2: 'application/x-ole-storage', zip: 'application/zip', rtf: 'application/rtf', flatXml: 'application/xml' } as const;

/**
 * The container the first bytes show, for uploads sent as application/octet-stream without a telling name:
 * plain text is not sniffed (it must be declared text/plain or text/csv, or named .txt or .csv), so that
 * arbitrary bytes are still checked as a PDF.
 */
export function officeContainerOf(head: Uint8Array): string | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.subarray(0, 8).equals(OLE2_SIGNATURE)) return OFFICE_CONTAINERS.ole2;
  if (bytes.subarray(0, 4).equals(ZIP_SIGNATURE)) return OFFICE_CONTAINERS.zip;
  const text = withoutBom(bytes).toString('latin1');
  if (text.startsWith('{\\rtf')) return OFFICE_CONTAINERS.rtf;
  if (/^\s*<\?xml[^>]*\?>/.test(text) && text.includes(ODF_OFFICE_NS)) return OFFICE_CONTAINERS.flatXml;
  return undefined;
}

function withoutBom(bytes: Buffer): Buffer {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}

/** Which declared formats a content format satisfies: a macro-enabled package may come as its plain type and back (same import filter). */
function sameKind(declared: OfficeFormat, found: OfficeFormat): boolean {
  const base = (f: OfficeFormat) => (f === 'docm' ? 'docx' : f === 'xlsm' ? 'xlsx' : f === 'pptm' ? 'pptx' : f);
  return base(declared) === base(found);
}

/**
 * The format to convert the bytes as: `declared` is what the media type or name said (undefined when only the
 * container was sniffed). 422 MALFORMED_DOCUMENT naming what the content is when it is not that format (or no
 * format the service converts); 422 OFFICE_DOCUMENT_ENCRYPTED for a password-protected file.
 */
export function officeFormatOf(bytes: Buffer, declared: OfficeFormat | undefined): OfficeFormat {
  // Text formats are read as text whatever the text says (an RTF or XML text declared text/plain stays text), but a
  // PDF sent as text is a client's mistake, not a listing of PDF syntax to typeset.
  if (declared === 'txt' || declared === 'csv') {
    if (officeTextAsUtf8(bytes) && !withoutBom(bytes).subarray(0, 5).equals(PDF_SIGNATURE)) return declared;
    const content = officeContentOf(bytes);
    throw new ServiceError('MALFORMED_DOCUMENT', `The file is ${content.what}, not ${FORMAT_NAMES[declared]} (text is UTF-8, UTF-16 with a byte order mark or Windows-1252, without NUL or other control bytes)`);
  }
  const content = officeContentOf(bytes);
  const wanted = declared ? FORMAT_NAMES[declared] : 'an Office document the service converts';
  if (content.ooxmlEncrypted && (!declared || OOXML_FORMATS.has(declared))) throw encrypted(content.what);
  if (!content.format || content.format === 'txt' || (declared && !sameKind(declared, content.format))) {
    throw new ServiceError('MALFORMED_DOCUMENT', `The file is ${content.what}, not ${wanted}`);
  }
  if (content.encrypted) throw encrypted(content.what);
  return content.format;
}

const OOXML_FORMATS: ReadonlySet<OfficeFormat> = new Set(['docx', 'docm', 'xlsx', 'xlsm', 'pptx', 'pptm']);

function encrypted(what: string): ServiceError {
  return new ServiceError('OFFICE_DOCUMENT_ENCRYPTED', `The file is ${what}, protected by a password: the service does not open encrypted Office documents (docs/office.md#encrypted-documents); save it without a password and upload it again`);
}

/** What the bytes are (see OfficeContent). */
export function officeContentOf(bytes: Buffer): OfficeContent {
  if (bytes.subarray(0, 8).equals(OLE2_SIGNATURE)) return compoundFileContent(bytes);
  if (bytes.subarray(0, 4).equals(ZIP_SIGNATURE)) return zipContent(bytes);
  const start = withoutBom(bytes);
  if (start.subarray(0, 5).toString('latin1') === '{\\rtf') return { format: 'rtf', encrypted: false, what: FORMAT_NAMES.rtf };
  if (start.subarray(0, 5).toString('latin1') === '%PDF-' || bytes.subarray(0, 1024).includes('%PDF-')) return { encrypted: false, what: 'a PDF' };
  const text = officeTextAsUtf8(bytes);
  if (text) {
    // The root element comes first: 64 KiB is plenty, and bounds the prolog's regular expression.
    const flat = flatOdfFormat(withoutBom(text).subarray(0, 65536).toString('utf8'));
    if (flat) return { format: flat, encrypted: false, what: FORMAT_NAMES[flat] };
    return { format: 'txt', encrypted: false, what: 'plain text' };
  }
  return { encrypted: false, what: 'binary data of no format the service converts' };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Windows-1252's characters at 0x80-0x9F (the rest is Latin-1); Node 20's TextDecoder('windows-1252') decodes Latin-1 instead. */
const CP1252_HIGH = '\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178';

function fromWindows1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}
/** Control characters text files do not hold (tab, line feed, form feed, carriage return and DOS's end-of-file 0x1A do). */
const CONTROL = /[\x00-\x08\x0b\x0e-\x19\x1b-\x1f]/;

/**
 * A text upload as UTF-8, what the import filter is told to read: UTF-8 as it is, UTF-16 with its byte order mark
 * transcoded, anything else read as Windows-1252 (the legacy encoding of text files from Windows; Latin-1's printable
 * characters are the same). Null for binary data: a NUL or another control character.
 */
export function officeTextAsUtf8(bytes: Buffer): Buffer | null {
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
  // Most binary files show a NUL early: no need to decode all of a large one to say so.
  if (!utf16 && bytes.subarray(0, 65536).includes(0)) return null;
  let text: string;
  try {
    text = utf16 ? new TextDecoder(utf16, { fatal: true }).decode(bytes) : UTF8.decode(bytes);
  } catch {
    if (utf16) return null;
    text = fromWindows1252(bytes);
  }
  // The decoders drop a byte order mark: LibreOffice gets plain UTF-8.
  return CONTROL.test(text) ? null : Buffer.from(text, 'utf8');
}

/** The flat ODF format of an XML text: the root element is office:document (by namespace) with an office:mimetype attribute. */
function flatOdfFormat(xml: string): OfficeFormat | undefined {
  // Past the prolog: the XML declaration, comments, processing instructions and a DOCTYPE.
  const rest = xml.replace(/^\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*/, '');
  const root = /^<(?:([\w.-]+):)?document\b([^>]*)>/.exec(rest);
  if (!root) return undefined;
  const prefix = root[1];
  const attributes = root[2]!;
  const binding = new RegExp(`\\bxmlns${prefix ? `:${prefix}` : ''}\\s*=\\s*(["'])(.*?)\\1`).exec(attributes)?.[2];
  if (binding !== ODF_OFFICE_NS || !prefix) return undefined;
  const mimetype = new RegExp(`\\b${prefix}:mimetype\\s*=\\s*(["'])(.*?)\\1`).exec(attributes)?.[2];
  return mimetype ? FLAT_ODF[mimetype.trim()] : undefined;
}

function zipContent(zip: Buffer): OfficeContent {
  const entries = zipEntries(zip);
  if (!entries) return { encrypted: false, what: 'a damaged ZIP archive' };
  const mimetypeEntry = entries.get('mimetype');
  const manifestEntry = entries.get('META-INF/manifest.xml');
  const manifest = manifestEntry ? zipEntryText(zip, manifestEntry) : null;
  // The mimetype entry names an ODF package's type; without one (it is only recommended), the manifest's root entry does.
  const rootType = !mimetypeEntry && manifest ? /<(?:[\w.-]+:)?file-entry\b(?=[^>]*\bfull-path\s*=\s*["']\/["'])[^>]*\bmedia-type\s*=\s*["']([^"']*)["']/.exec(manifest)?.[1] : undefined;
  if (mimetypeEntry || rootType) {
    const mimetype = mimetypeEntry ? zipEntryText(zip, mimetypeEntry)?.trim() : rootType;
    const format = mimetype ? ODF_MIMETYPES[mimetype] : undefined;
    if (!format) return { encrypted: false, what: `a ZIP package of type ${JSON.stringify(mimetype ?? '')}, no OpenDocument text, spreadsheet or presentation` };
    // An encrypted ODF package lists how each encrypted part is encrypted in its (plain) manifest.
    return { format, encrypted: !!manifest && /<(?:[\w.-]+:)?encryption-data\b/.test(manifest), what: FORMAT_NAMES[format] };
  }
  const typesEntry = entries.get('[Content_Types].xml');
  const types = typesEntry && zipEntryText(zip, typesEntry);
  if (types) {
    for (const [element] of types.matchAll(/<(?:\w+:)?Override\b[^>]*>/g)) {
      const contentType = /\bContentType\s*=\s*(["'])(.*?)\1/.exec(element)?.[2]?.trim().toLowerCase();
      const partName = /\bPartName\s*=\s*(["'])(.*?)\1/.exec(element)?.[2];
      const format = contentType ? OOXML_MAIN_TYPES[contentType] : undefined;
      // The main part must exist: a [Content_Types].xml alone does not make a document.
      if (format && partName && entries.has(partName.replace(/^\//, ''))) return { format, encrypted: false, what: FORMAT_NAMES[format] };
    }
    return { encrypted: false, what: 'an Office Open XML package with no Word, Excel or PowerPoint main part (for example an .xlsb or a Visio file)' };
  }
  return { encrypted: false, what: 'a ZIP archive that is no Office document' };
}

interface ZipEntry {
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The central directory by name, or null when it cannot be read (ZIP64 is not needed for the parts read here). */
function zipEntries(zip: Buffer): Map<string, ZipEntry> | null {
  const lowest = Math.max(0, zip.length - 22 - 0xffff);
  let end = -1;
  for (let i = zip.length - 22; i >= lowest; i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries = new Map<string, ZipEntry>();
  for (let i = 0; i < count; i++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== 0x02014b50) return null;
    const nameLength = zip.readUInt16LE(offset + 28);
    const name = zip.toString('utf8', offset + 46, Math.min(zip.length, offset + 46 + nameLength));
    entries.set(name, { method: zip.readUInt16LE(offset + 10), compressedSize: zip.readUInt32LE(offset + 20), localOffset: zip.readUInt32LE(offset + 42) });
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return entries;
}

/** A small entry's text (stored or deflated, at most 1 MiB inflated), or null. */
function zipEntryText(zip: Buffer, entry: ZipEntry): string | null {
  const at = entry.localOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== 0x04034b50) return null;
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  try {
    if (entry.method === 0) return data.toString('utf8');
    if (entry.method === 8) return inflateRawSync(data, { maxOutputLength: 1024 * 1024 }).toString('utf8');
  } catch {
    /* damaged or too large: not a part we can judge by */
  }
  return null;
}

function compoundFileContent(cfb: Buffer): OfficeContent {
  const file = CompoundFile.open(cfb);
  if (!file) return { encrypted: false, what: 'a damaged OLE2 compound file' };
  if (file.has('encryptioninfo') && file.has('encryptedpackage')) {
    return { encrypted: true, ooxmlEncrypted: true, what: 'an encrypted Office Open XML document (.docx, .xlsx or .pptx)' };
  }
  if (file.has('worddocument')) {
    // FibBase: the flags word at offset 10; fEncrypted is its bit 8 (MS-DOC 2.5.2).
    const fib = file.read('worddocument', 12);
    return { format: 'doc', encrypted: !!fib && fib.length >= 12 && (fib.readUInt16LE(10) & 0x0100) !== 0, what: FORMAT_NAMES.doc };
  }
  const book = file.has('workbook') ? 'workbook' : file.has('book') ? 'book' : undefined;
  if (book) return { format: 'xls', encrypted: hasFilePass(file.read(book, 64 * 1024)), what: FORMAT_NAMES.xls };
  if (file.has('powerpoint document')) {
    // CurrentUserAtom after its 8-byte record header: size, then headerToken, 0xF3D1C4DF when the file is encrypted (MS-PPT 2.3.2).
    const user = file.read('current user', 16);
    return { format: 'ppt', encrypted: !!user && user.length >= 16 && user.readUInt32LE(12) === 0xf3d1c4df, what: FORMAT_NAMES.ppt };
  }
  return { encrypted: false, what: 'an OLE2 compound file that is no Word, Excel or PowerPoint document' };
}

/**
 * A .doc's nFib (FibBase, after the wIdent): 193 (0xC1) and above is Word 97 or later; below it Word 6 or Word 95,
 * which LibreOffice's "MS Word 97" import filter does not load (the corpus's poi/Word95.doc). Undefined when unreadable.
 */
export function wordBinaryFib(bytes: Buffer): number | undefined {
  const fib = CompoundFile.open(bytes)?.read('worddocument', 4);
  if (!fib || fib.length < 4) return undefined;
  // wIdent: 0xA5EC for Word 97 and later, 0xA5DC for Word 6 and 95.
  const ident = fib.readUInt16LE(0);
  return ident === 0xa5ec || ident === 0xa5dc ? fib.readUInt16LE(2) : undefined;
}

/** Whether the workbook globals (the BIFF records up to the first EOF) hold a FILEPASS record (0x002F): the workbook is encrypted. */
function hasFilePass(stream: Buffer | null): boolean {
  if (!stream) return false;
  for (let at = 0; at + 4 <= stream.length; ) {
    const type = stream.readUInt16LE(at);
    if (type === 0x002f) return true;
    if (type === 0x000a) return false;
    at += 4 + stream.readUInt16LE(at + 2);
  }
  return false;
}

