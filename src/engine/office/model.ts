import { inflateRawSync } from 'node:zlib';
import { ServiceError } from '../../errors.js';

/**
 * Recognises a Word upload by its structure, not its name or signature alone:
 * LibreOffice opens whatever format it detects, so a spreadsheet, a drawing or
 * an ODF file renamed .docx would otherwise be converted with other import
 * code than the Word filters the service vouches for.
 */
export type WordFormat = 'doc' | 'docx';

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
}

const OLE2_SIGNATURE = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const ZIP_SIGNATURE = Buffer.from('504b0304', 'hex');

/** Content types of a WordprocessingML main part (.docx, .dotx and their macro-enabled forms). */
const WORD_MAIN_TYPES = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml',
  'application/vnd.ms-word.document.macroenabled.main+xml',
  'application/vnd.ms-word.template.macroenabledtemplate.main+xml',
]);

/** The Word format the first bytes' container (OLE2 or ZIP) would be, before wordFormatOf checks the structure. */
export function wordContainerOf(head: Uint8Array): WordFormat | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.subarray(0, 8).equals(OLE2_SIGNATURE)) return 'doc';
  if (bytes.subarray(0, 4).equals(ZIP_SIGNATURE)) return 'docx';
  return undefined;
}

/** The Word format of the bytes; 422 MALFORMED_DOCUMENT saying why when they are not a Word document. */
export function wordFormatOf(bytes: Buffer): WordFormat {
  if (bytes.subarray(0, 8).equals(OLE2_SIGNATURE)) {
    if (hasWordDocumentStream(bytes)) return 'doc';
    throw notWord('The file is an OLE2 compound file without a WordDocument stream (for example an .xls or .ppt), not a Word .doc');
  }
  if (bytes.subarray(0, 4).equals(ZIP_SIGNATURE)) {
    if (declaresWordMainPart(bytes)) return 'docx';
    throw notWord('The file is a ZIP package whose [Content_Types].xml declares no WordprocessingML main document part (for example an .xlsx, .pptx or .odt), not a Word .docx');
  }
  throw notWord('The file is not a Word document (.doc or .docx)');
}

function notWord(detail: string): ServiceError {
  return new ServiceError('MALFORMED_DOCUMENT', detail);
}

/** True when the package's [Content_Types].xml overrides a part that exists with a Word main content type. */
function declaresWordMainPart(zip: Buffer): boolean {
  const entries = zipEntries(zip);
  if (!entries) return false;
  const types = entries.get('[Content_Types].xml');
  const xml = types && zipEntryText(zip, types);
  if (!xml) return false;
  for (const [element] of xml.matchAll(/<(?:\w+:)?Override\b[^>]*>/g)) {
    const contentType = /\bContentType\s*=\s*(["'])(.*?)\1/.exec(element)?.[2];
    const partName = /\bPartName\s*=\s*(["'])(.*?)\1/.exec(element)?.[2];
    if (contentType && partName && WORD_MAIN_TYPES.has(contentType.trim().toLowerCase()) && entries.has(partName.replace(/^\//, ''))) return true;
  }
  return false;
}

interface ZipEntry {
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The central directory by name, or null when it cannot be read (ZIP64 is not needed for Word files). */
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
    /* damaged or too large: not a Word package we accept */
  }
  return null;
}

/** True when the compound file's directory holds a stream named WordDocument (what makes a .doc). */
function hasWordDocumentStream(cfb: Buffer): boolean {
  if (cfb.length < 512) return false;
  const shift = cfb.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) return false;
  const size = 1 << shift;
  const perSector = size / 4;
  const sectorCount = Math.floor(cfb.length / size) - 1;
  const sectorAt = (id: number) => (id >= 0 && id < sectorCount ? (id + 1) * size : -1);
  // The FAT's own sectors: 109 listed in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) fatSectors.push(cfb.readUInt32LE(0x4c + i * 4));
  for (let id = cfb.readUInt32LE(0x44), hops = 0; sectorAt(id) >= 0 && hops <= sectorCount; hops++) {
    const at = sectorAt(id);
    for (let i = 0; i < perSector - 1; i++) fatSectors.push(cfb.readUInt32LE(at + i * 4));
    id = cfb.readUInt32LE(at + size - 4);
  }
  const next = (id: number): number => {
    const at = sectorAt(fatSectors[Math.floor(id / perSector)] ?? -1);
    return at < 0 ? -1 : cfb.readUInt32LE(at + (id % perSector) * 4);
  };
  for (let id = cfb.readUInt32LE(0x30), hops = 0; sectorAt(id) >= 0 && hops <= sectorCount; id = next(id), hops++) {
    const at = sectorAt(id);
    for (let entry = at; entry + 128 <= at + size; entry += 128) {
      const nameBytes = cfb.readUInt16LE(entry + 0x40);
      if (cfb[entry + 0x42] !== 2 || nameBytes < 2 || nameBytes > 64) continue; // 2: a stream
      if (cfb.toString('utf16le', entry, entry + nameBytes - 2).toLowerCase() === 'worddocument') return true;
    }
  }
  return false;
}
