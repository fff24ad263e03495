/**
 * The merge of several documents into a new one (issue 40, docs/merge-split.md). Each source's pages go in through
 * the page-insertion mechanism of InsertUploadedPagesAction (pages/assembly.ts insertPages: annotations, links between
 * copied pages, form fields renamed on collision); what a merge adds on top is the sources' navigation: their outlines
 * (under a bookmark per source), their named destinations (renamed on collision, with the links that name them), and
 * an optional table of contents in front.
 */
import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { openPdf } from '../core/open.js';
import { deref, text } from '../core/mupdf-objects.js';
import { writeNameTree } from '../core/name-tree.js';
import { saveFull } from '../core/save.js';
import { writtenSummary, type WrittenSummary } from '../core/inspect.js';
import type { PdfSource } from '../core/pdf-source.js';
import { insertPages } from '../pages/assembly.js';
import { parsePageRange } from '../pages/range.js';
import { NamedDestinations, outlineOf, writeLevel } from '../outline/outline.js';
import type { OutlineItem, OutlineItemInput } from '../outline/model.js';
import { dropSignatureValues } from '../signing/fields.js';
import { drawTextStamp } from '../stamps/text.js';
import { buildForm } from '../drawing/form.js';
import { chooseFont } from '../drawing/model.js';
import { faceChain, type Face } from '../drawing/fonts.js';
import { layoutLines } from '../drawing/text-layout.js';
import type { TaskContext } from '../task-context.js';

/** One document to merge: its content, password and pages, and how the answer and messages name it. */
export interface MergeSource {
  pdf: PdfSource;
  password?: string | undefined;
  pageRange?: string | undefined;
  /** Its path as the client gave it ("folder/name.pdf"): named in errors, and its file name is the bookmark title when it has no Title. */
  path: string;
  /** Where its password goes in the request, for the error that asks for it. */
  passwordHint: string;
}

export interface MergeInput {
  /** The first source (the document the action is posted to), as every task names its document. */
  pdf: PdfSource;
  password?: string | undefined;
  pageRange?: string | undefined;
  path: string;
  /** The sources after it, in order. */
  sources: Omit<MergeSource, 'passwordHint'>[];
  /** A bookmark per source with its outline under it (true), or the sources' outlines one after another (false). */
  bookmarks: boolean;
  tableOfContents: boolean;
}

/** What the answer's report says of each source. */
export interface MergedSource {
  path: string;
  title: string;
  /** 1-based page of the result where its first page is. */
  startPage: number;
  pageCount: number;
}

export interface MergeReport {
  sources: MergedSource[];
  /** Pages of the table of contents in front (0 without one). */
  tableOfContentsPages: number;
  /** Named destinations renamed because an earlier source used the name: old name -> new, per source index; the first RENAMES_LISTED. */
  renamedDestinations: { source: number; from: string; to: string }[];
  /** How many were renamed in all. */
  renamedDestinationCount: number;
}

/** Renamed destinations listed in the report: a merge of many copies of one document renames thousands. */
const RENAMES_LISTED = 100;

const TOC_SIZE = 11;
const TOC_TITLE_SIZE = 18;
/** The table of contents' margin: an inch, less on a small page. */
const TOC_MARGIN = 72;
/** drawTextStamp sets lines 1.2 × size apart; rows are every other line, a blank one between them. */
const TOC_LEADING = TOC_SIZE * 1.2 * 2;

/**
 * The `mergeDocuments` task: a new document with the selected pages of every source in order. Each source is opened
 * for assembly (its password, its permission), and released before the next is opened. The result is written in
 * full and not encrypted; signature values copied from signed sources are cleared (they covered the sources' bytes).
 */
export function mergeDocuments(input: MergeInput, ctx?: TaskContext): { bytes: Uint8Array; pageCount: number; report: MergeReport; summary?: WrittenSummary } {
  const all: MergeSource[] = [
    { pdf: input.pdf, password: input.password, pageRange: input.pageRange, path: input.path, passwordHint: 'X-Service-DocumentPassword' },
    ...input.sources.map((s, i) => ({ ...s, passwordHint: `sources[${i}].password` })),
  ];
  const doc = new mupdf.PDFDocument();
  try {
    const names = new Map<string, mupdf.PDFObject>();
    const renamedDestinations: MergeReport['renamedDestinations'] = [];
    let renamedCount = 0;
    const merged: (MergedSource & { start: number; outline: OutlineItem[] })[] = [];
    all.forEach((source, index) => {
      const sdoc = openSource(source);
      try {
        const selected = named(source, () => parsePageRange(source.pageRange, sdoc.countPages()));
        const start = doc.countPages();
        const map = doc.newGraftMap();
        insertPages(doc, sdoc, selected, start, map);
        // Read after insertPages pruned the source to the selected pages, in their order: indexes are the copies'.
        const outline = outlineOf(sdoc).items;
        const renamed = new Map<string, string>();
        const kept = pageObjects(sdoc);
        for (const [name, value] of new NamedDestinations(sdoc, () => undefined).all()) {
          if (!pointsAt(value, kept)) continue;
          let final = name;
          for (let n = 2; names.has(final); n++) final = `${name}_${n}`;
          if (final !== name && renamedCount++ < RENAMES_LISTED) renamedDestinations.push({ source: index, from: name, to: final });
          names.set(final, map.graftObject(value));
          renamed.set(name, final);
        }
        retargetLinks(doc, start, selected.length, renamed);
        merged.push({ path: source.path, title: titleOf(sdoc, source.path), startPage: 0, pageCount: selected.length, start, outline });
      } finally {
        sdoc.destroy();
      }
      ctx?.progress({ done: index + 1, total: all.length, unit: 'documents' });
    });

    const toc = input.tableOfContents ? tocGeometry(doc) : undefined;
    const tocPages = toc ? Math.ceil(merged.length / toc.rows) : 0;
    for (const m of merged) m.startPage = m.start + tocPages + 1;
    if (toc) addTableOfContents(doc, merged, toc, tocPages);
    writeNames(doc, names);
    const items = input.bookmarks
      ? merged.map((m): OutlineItemInput => ({ title: m.title, open: false, destination: { pageIndex: m.startPage - 1, fit: 'Fit' }, children: m.outline.map((i) => shifted(i, m.startPage - 1)) }))
      : merged.flatMap((m) => m.outline.map((i) => shifted(i, m.startPage - 1)));
    if (items.length > 0) writeOutlines(doc, items);
    dropSignatureValues(doc);
    const bytes = saveFull(doc);
    // The result is new and not encrypted: its summary is read here, so the runner does not open it again.
    const summary = writtenSummary(doc, { encrypted: false, needsPassword: false }, bytes);
    return {
      bytes,
      ...(summary ? { summary } : {}),
      pageCount: doc.countPages(),
      report: { sources: merged.map(({ path, title, startPage, pageCount }) => ({ path, title, startPage, pageCount })), tableOfContentsPages: tocPages, renamedDestinations, renamedDestinationCount: renamedCount },
    };
  } finally {
    doc.destroy();
  }
}

/** Runs `work` with its engine errors' messages naming the source. */
function named<T>(source: MergeSource, work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof EngineError) {
      const hint = err.code.startsWith('DOCUMENT_PASSWORD') ? ` (send it in ${source.passwordHint})` : '';
      throw new EngineError(err.code, `Document to merge ${source.path}: ${err.message}${hint}`, { ...err.extra, source: source.path });
    }
    throw err;
  }
}

/** The source opened for assembly (its pages are taken out of it), errors naming it. */
function openSource(source: MergeSource): mupdf.PDFDocument {
  return named(source, () => openPdf(source.pdf, source.password, 'assemble').doc);
}

/** Object numbers of the document's pages. */
function pageObjects(doc: mupdf.PDFDocument): Set<number> {
  const pages = new Set<number>();
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.findPage(i);
    if (page.isIndirect()) pages.add(page.asIndirect());
  }
  return pages;
}

/** Whether a named destination's value (an array, or a dictionary with /D) leads to one of `pages`. */
function pointsAt(value: mupdf.PDFObject, pages: Set<number>): boolean {
  let dest = deref(value);
  if (dest.isDictionary()) dest = deref(dest.get('D'));
  if (!dest.isArray() || dest.length === 0) return false;
  const page = dest.get(0);
  return page.isIndirect() && pages.has(page.asIndirect());
}

/** A name or string object's text (a destination name is either). */
function nameOf(obj: mupdf.PDFObject): string | undefined {
  const o = deref(obj);
  if (o.isName()) return o.asName();
  if (o.isString()) return o.asString();
  return undefined;
}

/**
 * Links on the copied pages that name a destination get the name it has in the result, as a string (the result has
 * only the name tree: a name object would look in the catalog's /Dests, which it does not have).
 */
function retargetLinks(doc: mupdf.PDFDocument, start: number, count: number, renamed: Map<string, string>): void {
  if (renamed.size === 0) return;
  // Looked up before any change: a change drops MuPDF's page map, which the next lookup would build again.
  const pages = Array.from({ length: count }, (_, k) => doc.findPage(start + k));
  for (const page of pages) {
    const annots = deref(page.get('Annots'));
    if (!annots.isArray()) continue;
    for (let i = 0; i < annots.length; i++) {
      const annot = deref(annots.get(i));
      if (!annot.isDictionary()) continue;
      const retarget = (holder: mupdf.PDFObject, key: string) => {
        const name = nameOf(holder.get(key));
        const final = name === undefined ? undefined : renamed.get(name);
        if (final !== undefined) holder.put(key, doc.newString(final));
      };
      retarget(annot, 'Dest');
      const action = deref(annot.get('A'));
      if (action.isDictionary() && nameOf(action.get('S')) === 'GoTo') retarget(action, 'D');
    }
  }
}

/** The source's title for its bookmark and table-of-contents row: its Info /Title, else its file name. */
function titleOf(doc: mupdf.PDFDocument, path: string): string {
  const info = deref(doc.getTrailer().get('Info'));
  const title = info.isDictionary() ? text(info.get('Title'))?.trim() : undefined;
  return title || (path.split('/').pop() ?? path);
}

/** A read outline item as an item to write, its destination moved by `offset` pages. */
function shifted(item: OutlineItem, offset: number): OutlineItemInput {
  return {
    title: item.title,
    open: item.open,
    bold: item.bold,
    italic: item.italic,
    ...(item.color ? { color: item.color } : {}),
    ...(item.destination ? { destination: { ...item.destination, pageIndex: item.destination.pageIndex + offset } } : {}),
    ...(item.uri !== undefined ? { uri: item.uri } : {}),
    ...(item.children?.length ? { children: item.children.map((c) => shifted(c, offset)) } : {}),
  };
}

/** The result's outline: `items` at the top level (the outline module writes the levels). */
function writeOutlines(doc: mupdf.PDFDocument, items: OutlineItemInput[]): void {
  const outlines = doc.addObject(doc.newDictionary());
  outlines.put('Type', doc.newName('Outlines'));
  const { first, last, visible } = writeLevel(doc, outlines, items);
  outlines.put('First', first);
  outlines.put('Last', last);
  outlines.put('Count', doc.newInteger(visible));
  catalogOf(doc).put('Outlines', outlines);
}

/** The named destinations of every source as one name tree (a single sorted leaf, core/name-tree.ts). */
function writeNames(doc: mupdf.PDFDocument, names: Map<string, mupdf.PDFObject>): void {
  if (names.size > 0) writeNameTree(doc, 'Dests', [...names].map(([name, value]) => ({ name, value })));
}

function catalogOf(doc: mupdf.PDFDocument): mupdf.PDFObject {
  return deref(doc.getTrailer().get('Root'));
}

/** Where the table of contents goes on its pages, which take the size of the first merged page. */
interface TocGeometry {
  width: number;
  height: number;
  margin: number;
  /** Baselines of the heading and of the first row. */
  top: number;
  first: number;
  /** Rows a page holds; a longer table takes more pages. */
  rows: number;
  /** Where the page numbers start, and the room a title has before them. */
  numberX: number;
  titleWidth: number;
}

function tocGeometry(doc: mupdf.PDFDocument): TocGeometry {
  const page = doc.loadPage(0);
  // Destroyed at once: MuPDF keeps an open page in step with every later change to the page tree (a lookup of its number each time).
  let bounds: mupdf.Rect;
  try {
    bounds = page.getBounds();
  } finally {
    page.destroy();
  }
  const [x0, y0, x1, y1] = bounds;
  const width = Math.abs(x1 - x0);
  const height = Math.abs(y1 - y0);
  const margin = Math.min(TOC_MARGIN, width / 8, height / 8);
  const top = height - margin - TOC_TITLE_SIZE;
  const first = top - 2 * TOC_TITLE_SIZE;
  const rows = Math.max(1, Math.floor((first - margin) / TOC_LEADING) + 1);
  const numberX = width - margin - TOC_SIZE * 3;
  return { width, height, margin, top, first, rows, numberX, titleWidth: Math.max(TOC_SIZE, numberX - margin - TOC_SIZE) };
}

/**
 * A title as the table of contents shows it: characters no font of the service draws dropped, spaces folded, and cut
 * with an ellipsis to fit `room` points at TOC_SIZE (measured with the faces the text stamp would use).
 */
function tocTitle(title: string, faces: Face[], room: number): string {
  const chars = [...title.replace(/\s+/gu, ' ').trim()].filter((ch) => {
    const cp = ch.codePointAt(0)!;
    return cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0) && faces.some((f) => f.has(cp));
  });
  const widthOf = (text: string) => (layoutLines(text, faces)[0]?.width ?? 0) * TOC_SIZE;
  const whole = chars.join('');
  if (widthOf(whole) <= room) return whole || '-';
  // The most characters that fit with the ellipsis, by bisection.
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (widthOf(`${chars.slice(0, mid).join('').trimEnd()}…`) <= room) low = mid;
    else high = mid - 1;
  }
  return `${chars.slice(0, low).join('').trimEnd()}…`;
}

/**
 * The table of contents: `pages` pages in front, each row a source's title and its start page, drawn as real text as
 * the text stamp draws it (drawTextStamp: Unicode with per-character font fallback), and a link over the row to that
 * page.
 */
function addTableOfContents(doc: mupdf.PDFDocument, merged: (MergedSource & { start: number })[], g: TocGeometry, pages: number): void {
  const faces = faceChain(chooseFont('Helvetica')!);
  // Looked up before the table's pages go in front of them.
  const targets = merged.map((m) => doc.findPage(m.start));
  for (let p = 0; p < pages; p++) {
    const rows = merged.slice(p * g.rows, (p + 1) * g.rows);
    const columns = [
      ...(p === 0 ? [{ text: 'Contents', x: g.margin, y: g.top, fontSize: TOC_TITLE_SIZE, fontStyle: 'bold' as const }] : []),
      { text: rows.map((r) => tocTitle(r.title, faces, g.titleWidth)).join('\n\n'), x: g.margin, y: g.first, fontSize: TOC_SIZE },
      { text: rows.map((r) => String(r.startPage)).join('\n\n'), x: g.numberX, y: g.first, fontSize: TOC_SIZE },
    ];
    const xobjects = doc.newDictionary();
    const ops: string[] = [];
    columns.forEach((column, i) => {
      // Each column in a scratch document of its own, where buildForm subsets its fonts (as a stamp's).
      const scratch = new mupdf.PDFDocument();
      try {
        const { drawing } = drawTextStamp(scratch, column);
        xobjects.put(`T${i}`, doc.graftObject(buildForm(scratch, drawing)));
      } finally {
        scratch.destroy();
      }
      ops.push(`/T${i} Do`);
    });
    const resources = doc.newDictionary();
    resources.put('XObject', xobjects);
    // The page object as made, not looked up again: a lookup after a change builds MuPDF's page map again.
    const pageObj = doc.addPage([0, 0, g.width, g.height], 0, resources, ops.join('\n'));
    doc.insertPage(p, pageObj);
    const annots = doc.newArray();
    rows.forEach((_row, r) => {
      const baseline = g.first - r * TOC_LEADING;
      const link = doc.newDictionary();
      link.put('Type', doc.newName('Annot'));
      link.put('Subtype', doc.newName('Link'));
      link.put('Rect', numbers(doc, [g.margin, baseline - TOC_SIZE * 0.3, g.width - g.margin, baseline + TOC_SIZE]));
      link.put('Border', numbers(doc, [0, 0, 0]));
      const dest = doc.newArray();
      dest.push(targets[p * g.rows + r]!);
      dest.push(doc.newName('Fit'));
      link.put('Dest', dest);
      link.put('P', pageObj);
      annots.push(doc.addObject(link));
    });
    pageObj.put('Annots', annots);
  }
}

function numbers(doc: mupdf.PDFDocument, values: number[]): mupdf.PDFObject {
  const array = doc.newArray();
  for (const v of values) array.push(doc.newReal(Math.round(v * 100) / 100));
  return array;
}
