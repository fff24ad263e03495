import { inflateSync } from 'node:zlib';
import { parseFdf, resolveFdf, textString, writeFdf, type FdfFile, type FdfStream } from './fdf.js';
import { annotationEntries, ObjectReader, pageObjectNumbers } from '../annotations/read.js';
import { applyImport, type ImportResult } from './import.js';
import { embeddedFile } from './export.js';
import { withPdf } from '../core/document-task.js';
import { isDict, name, number, ref, text } from '../syntax/readers.js';
import { PdfName, PdfRef, PdfString, type PdfDict, type PdfValue } from '../syntax/parser.js';
import type { IncomingAnnotation } from './import-map.js';
import { readAll, type PdfSource } from '../core/pdf-source.js';

/** Keys that tie an annotation to its document; FDF carries /Page instead, and appearances are drawn anew. */
const DOCUMENT_KEYS = new Set(['P', 'AP', 'AS', 'StructParent', 'OC']);
const MAX_DEPTH = 16;

/**
 * The `exportAnnotationsFdf` task: every annotation but form widgets, each an
 * object with /Page, references between them (/Popup, /Parent, /IRT) kept,
 * a file attachment's file embedded as a stream; other references are written
 * inline, and streams other than attached files (appearances, sounds) left out.
 */
export function exportAnnotationsFdf(input: { pdf: PdfSource; password?: string | undefined; fileName: string }): { fdf: Uint8Array } {
  return withPdf(input, 'view', (doc) => {
    const reader = new ObjectReader(doc);
    const entries = annotationEntries(doc).filter((e) => name(e.dict.get('Subtype')) !== 'Widget');
    const numberOf = new Map<number, number>(); // document object -> FDF object
    entries.forEach((e, i) => {
      if (e.objectNumber !== undefined) numberOf.set(e.objectNumber, i + 2);
    });
    const objects = new Map<number, PdfValue>();
    const streams = new Map<number, FdfStream>();
    let next = entries.length + 2;
    // FDF names pages by number (§12.7.8.3.1): a reference to a page, as in a link's destination, becomes its index.
    const pageIndexOf = pageObjectNumbers(doc);
    const inline = (v: PdfValue | undefined, depth: number): PdfValue | undefined => {
      const target = ref(v);
      if (target !== undefined) {
        if (numberOf.has(target)) return new PdfRef(numberOf.get(target)!, 0);
        if (pageIndexOf.has(target)) return pageIndexOf.get(target)!;
        if (depth > MAX_DEPTH) return undefined;
        const resolved = reader.resolve(v);
        return resolved === null ? undefined : inline(resolved, depth + 1); // a stream prints as its dictionary: dropped below
      }
      if (Array.isArray(v)) return v.map((x) => inline(x, depth + 1) ?? null);
      if (isDict(v)) {
        if (v.has('Length') && (v.has('Filter') || v.has('DL'))) return undefined; // a stream dictionary: its data is not carried
        const out: PdfDict = new Map();
        for (const [k, x] of v) {
          const c = inline(x, depth + 1);
          if (c !== undefined) out.set(k, c);
        }
        return out;
      }
      return v;
    };
    entries.forEach((e, i) => {
      const out: PdfDict = new Map();
      for (const [k, v] of e.dict) {
        if (DOCUMENT_KEYS.has(k) || k === 'FS') continue;
        const c = inline(v, 0);
        if (c !== undefined) out.set(k, c);
      }
      out.set('Page', e.pageIndex);
      out.set('NM', textString(e.name));
      if (name(e.dict.get('Subtype')) === 'FileAttachment') {
        const file = embeddedFile(doc, reader, e);
        if (file) {
          const streamNumber = next++;
          streams.set(streamNumber, { dict: new Map<string, PdfValue>([['Type', new PdfName('EmbeddedFile')], ['Params', new Map<string, PdfValue>([['Size', file.bytes.length]])], ...(file.mimeType ? [['Subtype', new PdfName(file.mimeType)] as [string, PdfValue]] : [])]), data: file.bytes });
          out.set('FS', new Map<string, PdfValue>([['Type', new PdfName('Filespec')], ['F', textString(file.name)], ['UF', textString(file.name)], ['EF', new Map<string, PdfValue>([['F', new PdfRef(streamNumber, 0)]])]]));
        }
      }
      objects.set(i + 2, out);
    });
    const id = reader.parse(doc.getTrailer().get('ID'));
    const ids = Array.isArray(id) && id[0] instanceof PdfString && id[1] instanceof PdfString ? ([id[0].bytes, id[1].bytes] as [Uint8Array, Uint8Array]) : undefined;
    const root: PdfDict = new Map([['Annots', entries.map((_, i) => new PdfRef(i + 2, 0))]]);
    return { fdf: writeFdf({ root, objects, streams, fileName: input.fileName, ...(ids ? { ids } : {}) }) };
  });
}

/** An FDF stream's bytes, decoded when Flate-compressed (the only filter FDF writers use for files). */
function streamBytes(stream: FdfStream): Uint8Array | undefined {
  const filter = stream.dict.get('Filter');
  const filters = Array.isArray(filter) ? filter : filter === undefined ? [] : [filter];
  if (filters.length === 0) return stream.data;
  if (filters.length === 1 && name(filters[0]) === 'FlateDecode') {
    try {
      return Uint8Array.from(inflateSync(stream.data));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The FDF's annotations as incoming annotations, references between them turned into names. */
function annotationsFromFdf(fdf: FdfFile, warnings: string[]): IncomingAnnotation[] {
  const list = resolveFdf(fdf, fdf.root.get('Annots'));
  if (!Array.isArray(list)) return [];
  const items = list.map((v) => ({ num: ref(v), dict: resolveFdf(fdf, v) })).filter((x): x is { num: number | undefined; dict: PdfDict } => isDict(x.dict));
  // Names first, so /IRT and /Popup can be given as names.
  const nameOf = new Map<number, string>();
  items.forEach((x, i) => {
    if (x.num !== undefined) nameOf.set(x.num, text(x.dict.get('NM')) ?? `fdf-${i + 1}`);
  });
  const popups = new Set<number>();
  for (const x of items) {
    const p = ref(x.dict.get('Popup'));
    if (p !== undefined) popups.add(p);
  }
  const copy = (v: PdfValue | undefined, depth: number): PdfValue | undefined => {
    if (depth > MAX_DEPTH) return undefined;
    if (v instanceof PdfRef) return copy(resolveFdf(fdf, v), depth + 1);
    if (Array.isArray(v)) return v.map((x) => copy(x, depth + 1) ?? null);
    if (isDict(v)) {
      const out: PdfDict = new Map();
      for (const [k, x] of v) {
        const c = copy(x, depth + 1);
        if (c !== undefined) out.set(k, c);
      }
      return out;
    }
    return v;
  };
  const incoming: IncomingAnnotation[] = [];
  for (const x of items) {
    if (x.num !== undefined && popups.has(x.num)) continue; // written with its parent
    const subtype = name(x.dict.get('Subtype'));
    const pageIndex = number(x.dict.get('Page'));
    if (!subtype || subtype === 'Widget' || pageIndex === undefined || !Number.isInteger(pageIndex) || pageIndex < 0) {
      warnings.push(`an FDF annotation without a usable /Subtype or /Page${subtype ? ` (${subtype})` : ''}: not imported`);
      continue;
    }
    const dict: PdfDict = new Map();
    for (const [k, v] of x.dict) {
      if (DOCUMENT_KEYS.has(k) || ['Page', 'Popup', 'IRT', 'Parent', 'FS'].includes(k)) continue;
      const c = copy(v, 0);
      if (c !== undefined) dict.set(k, c);
    }
    const item: IncomingAnnotation = { subtype, pageIndex, dict, ...(x.num !== undefined ? { name: nameOf.get(x.num)! } : {}) };
    // A destination names its page by number in FDF; the page reference is set when the link is written.
    const dest = dict.get('Dest');
    if (Array.isArray(dest) && typeof dest[0] === 'number') {
      item.destinationPage = dest[0];
      dict.set('Dest', [null, ...dest.slice(1)]);
    }
    const irt = ref(x.dict.get('IRT'));
    if (irt !== undefined && nameOf.has(irt)) item.inReplyTo = nameOf.get(irt)!;
    const popupNum = ref(x.dict.get('Popup'));
    const popup = popupNum !== undefined ? resolveFdf(fdf, x.dict.get('Popup')) : undefined;
    if (isDict(popup)) {
      const pd: PdfDict = new Map();
      for (const [k, v] of popup) if (!['Page', 'Parent', 'P'].includes(k)) pd.set(k, copy(v, 0) ?? null);
      item.popup = { pageIndex: number(popup.get('Page')) ?? pageIndex, dict: pd, name: nameOf.get(popupNum!)! };
    }
    if (subtype === 'FileAttachment') {
      const fs = resolveFdf(fdf, x.dict.get('FS'));
      const fileName = isDict(fs) ? (text(fs.get('UF')) ?? text(fs.get('F'))) : text(fs);
      const ef = isDict(fs) ? resolveFdf(fdf, fs.get('EF')) : undefined;
      const streamRef = isDict(ef) ? ref(ef.get('F')) : undefined;
      const stream = streamRef !== undefined ? fdf.streams.get(streamRef) : undefined;
      if (fileName) {
        const bytes = stream ? streamBytes(stream) : undefined;
        if (stream && !bytes) warnings.push(`the file of ${item.name ?? 'a file attachment'} uses a filter the service does not decode: imported as a reference`);
        item.file = { name: fileName, mimeType: stream ? (name(stream.dict.get('Subtype')) ?? 'application/octet-stream') : 'application/octet-stream', ...(bytes ? { bytes } : {}) };
      }
    }
    incoming.push(item);
  }
  return incoming;
}

/** The `importAnnotationsFdf` task (A5, A3 with an FDF body). */
export function importAnnotationsFdf(input: { pdf: PdfSource; password?: string | undefined; fdf: PdfSource }): ImportResult {
  const fdf = parseFdf(readAll(input.fdf));
  const warnings = [...fdf.warnings];
  return applyImport(input, annotationsFromFdf(fdf, warnings), warnings);
}
