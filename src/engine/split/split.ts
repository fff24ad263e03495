import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { withPdf, type PdfInput } from '../core/document-task.js';
import { formFacts } from '../core/inspect.js';
import { requirePermission } from '../core/access.js';
import { sourceBuffer } from '../core/open.js';
import { saveCompact } from '../core/save.js';
import { extractPages } from '../pages/assembly.js';
import { parsePageRange } from '../pages/range.js';
import { outlineOf } from '../outline/outline.js';
import type { TaskContext } from '../task-context.js';
import { inkOf } from '../blank/ink.js';
import { BLANK_DEFAULTS } from '../blank/model.js';
import { MAX_SPLIT_PARTS, type SplitBy, type SplitPartResult, type SplitResult, type SplitShare } from './model.js';

/** A part as planned: its pages (zero-based, in order) and what the answer says of it. */
interface PlannedPart {
  pages: number[];
  title?: string;
}

/**
 * What a part costs to make (milliseconds of worker CPU, fitted to the extractions of the 1,000-page bench document at
 * every level of the split, 2026-11-30): every extraction opens its source document (its cross-reference table) and
 * rearranges its page tree, a cost per page of that document (PER_SOURCE_PAGE, and PER_EXTRACTION); every page it keeps
 * is copied out and saved (PER_KEPT_PAGE). A part made straight from a large document costs a pass over all of it (1,000
 * single pages from the bench document one by one: 21 ms a part); grouped, each group's pages are first extracted into a
 * document of their own (the same extraction) and its parts are made from that, at the cost of writing every page once
 * more per level. planGroups chooses the levels from these.
 */
const COST = { PER_EXTRACTION: 0.2, PER_SOURCE_PAGE: 0.05, PER_KEPT_PAGE: 0.6 } as const;
/** The most groups one level is cut into (planGroups). */
const MAX_GROUPS = 32;

/**
 * The split (docs/merge-split.md, "Split"): the document opened once for the plan (its page count, outline, blank
 * pages), read once into MuPDF's memory, and each part made by ExtractPagesAction's extraction (extractPages) of a
 * document opened there, never read from the store again. Each part is a new document written in full with its unused
 * objects dropped (saveCompact); an encrypted source's parts keep its encryption. With `share`, the whole split is
 * planned and the parts of that share alone are made (SplitShare: each worker makes a share from its own read).
 */
export function splitDocument(input: PdfInput & { by: SplitBy; share?: SplitShare | undefined }, ctx: TaskContext): SplitResult {
  // Opened as for reading: this document is never changed, so it needs no loading of every object first (openPdf's
  // repairNow for edits, 1.5 to 2.8 s of the 1,000-page bench document on a loaded machine); the parts are opened
  // again, and a part whose document needed repairing is made again from a repaired source (SourceNeedsRepair).
  const planned = withPdf(input, 'view', (doc, opened) => {
    requirePermission(opened, 'assemble');
    const pageCount = doc.countPages();
    const plan = planParts(doc, input.by, pageCount, ctx);
    return { pageCount, ...plan, signed: formFacts(doc).hasSignatures, encrypted: opened.encrypted, password: opened.password };
  });
  const { pageCount, blankPages, signed, encrypted, password } = planned;
  if (planned.parts.length > MAX_SPLIT_PARTS) throw new EngineError('VALIDATION_FAILED', `The split would write ${planned.parts.length} documents; at most ${MAX_SPLIT_PARTS} are written by one split`);
  const parts = shareOf(planned.parts, input.share, input.by);
  const makeAll = (buffer: mupdf.Buffer): SplitPartResult[] => {
    const maker = new PartMaker(signed, encrypted, password, ctx, parts.length);
    if (input.by.kind === 'size') return bySize(maker, buffer, pageCount, input.by.maxBytes);
    const bytes = maker.make(buffer, parts.map((p) => p.pages), pageCount);
    return parts.map((p, i) => ({ pages: p.pages, bytes: bytes[i]!, ...(p.title !== undefined ? { title: p.title } : {}) }));
  };
  let buffer = sourceBuffer(input.pdf);
  try {
    let results: SplitPartResult[];
    try {
      results = makeAll(buffer);
    } catch (err) {
      if (!(err instanceof SourceNeedsRepair)) throw err;
      // A damaged file: repaired once (openPdf for an edit loads every object), written out whole, and split from that.
      buffer.destroy();
      buffer = new mupdf.Buffer(withPdf(input, 'assemble', (doc) => saveCompact(doc)));
      results = makeAll(buffer);
    }
    return { pageCount, parts: results, partCount: planned.parts.length, ...(blankPages ? { blankPages } : {}) };
  } finally {
    buffer.destroy();
  }
}

/**
 * MuPDF repaired a part's document while the part was made: a repair rebuilds the cross-reference table from the file
 * and drops the edits made before it (the extraction's), so the part would be the whole document.
 */
class SourceNeedsRepair extends Error {}

/**
 * The parts of `share` (SplitShare): consecutive parts, about as many for each share. Every share plans the whole
 * split from its own read of the document, so the shares agree on it without a word between them.
 */
function shareOf(parts: PlannedPart[], share: SplitShare | undefined, by: SplitBy): PlannedPart[] {
  if (!share) return parts;
  const { index, count } = share;
  if (by.kind === 'size' || by.kind === 'blank' || !Number.isInteger(count) || count < 1 || !Number.isInteger(index) || index < 0 || index >= count) {
    throw new EngineError('VALIDATION_FAILED', `A split by ${by.kind} is not made in shares (${index} of ${count})`);
  }
  return parts.slice(Math.floor((index * parts.length) / count), Math.floor(((index + 1) * parts.length) / count));
}

/** The parts of every mode but `size` (which needs the pages' sizes, bySize), and the blank pages found. */
function planParts(doc: mupdf.PDFDocument, by: SplitBy, pageCount: number, ctx: TaskContext): { parts: PlannedPart[]; blankPages?: number[] } {
  const runs = (starts: number[]) => starts.map((start, i) => ({ pages: range(start, (starts[i + 1] ?? pageCount) - 1) }));
  switch (by.kind) {
    case 'ranges':
      return { parts: by.ranges.map((r) => ({ pages: parsePageRange(r, pageCount) })) };
    case 'every': {
      if (!Number.isInteger(by.pages) || by.pages < 1) throw new EngineError('VALIDATION_FAILED', `everyPages must be a whole number from 1, not ${by.pages}`);
      const starts: number[] = [];
      for (let p = 0; p < pageCount; p += by.pages) starts.push(p);
      return { parts: runs(starts) };
    }
    case 'size':
      return { parts: [] };
    case 'bookmarks': {
      // The first top-level item that leads to each page names the part that starts there.
      const titles = new Map<number, string>();
      for (const item of outlineOf(doc).items) {
        const page = item.destination?.pageIndex;
        if (page !== undefined && page >= 0 && page < pageCount && !titles.has(page)) titles.set(page, item.title);
      }
      if (titles.size === 0) throw new EngineError('SPLIT_NOT_POSSIBLE', 'The document has no top-level bookmark that leads to one of its pages: there is nowhere to split it by bookmarks');
      const starts = [...titles.keys()].sort((a, b) => a - b);
      // Pages before the first bookmarked one are a part of their own, without a title.
      if (starts[0] !== 0) starts.unshift(0);
      return { parts: runs(starts).map((part) => ({ ...part, ...(titles.has(part.pages[0]!) ? { title: titles.get(part.pages[0]!)! } : {}) })) };
    }
    case 'blank': {
      const blankPages: number[] = [];
      const parts: PlannedPart[] = [];
      let current: number[] = [];
      for (let p = 0; p < pageCount; p++) {
        ctx.progress({ done: p, total: pageCount, unit: 'pages', stage: 'blank pages' });
        // RemoveBlankPagesAction's measure (engine/blank), at its defaults.
        if (inkOf(doc, p, BLANK_DEFAULTS.dpi, BLANK_DEFAULTS.whiteLevel) < by.inkThreshold) {
          blankPages.push(p);
          if (current.length) parts.push({ pages: current });
          current = [];
        } else {
          current.push(p);
        }
      }
      if (current.length) parts.push({ pages: current });
      if (parts.length === 0) throw new EngineError('SPLIT_NOT_POSSIBLE', `Every page of the document is blank (less ink than ${by.inkThreshold}): no part would have a page`);
      return { parts, blankPages };
    }
  }
}

/**
 * Size mode, greedy: each page's size alone is measured (the page made as a part of its own), then each part takes the
 * following pages while the sum of their sizes stays within maxBytes. A part of several pages shares its fonts and its
 * document structure, so it is at most that sum; it is made and checked, and a page is taken off in the rare case it
 * is larger. A page larger than maxBytes alone is a part of its own, marked oversized.
 */
function bySize(maker: PartMaker, buffer: mupdf.Buffer, pageCount: number, maxBytes: number): SplitPartResult[] {
  const singles = maker.make(buffer, range(0, pageCount - 1).map((p) => [p]), pageCount);
  const sizes = singles.map((b) => b.length);
  const results: SplitPartResult[] = [];
  for (let start = 0; start < pageCount;) {
    if (sizes[start]! > maxBytes) {
      results.push({ pages: [start], bytes: singles[start]!, oversized: true });
      start++;
      continue;
    }
    let end = start;
    let sum = sizes[start]!;
    while (end + 1 < pageCount && sum + sizes[end + 1]! <= maxBytes) sum += sizes[++end]!;
    for (;;) {
      const pages = range(start, end);
      const bytes = pages.length === 1 ? singles[start]! : maker.make(buffer, [pages], pageCount)[0]!;
      if (bytes.length <= maxBytes || end === start) {
        results.push({ pages, bytes });
        break;
      }
      end--;
    }
    start = end + 1;
    if (results.length > MAX_SPLIT_PARTS) throw new EngineError('VALIDATION_FAILED', `The split would write more than ${MAX_SPLIT_PARTS} documents; at most ${MAX_SPLIT_PARTS} are written by one split`);
  }
  return results;
}

/** Makes parts from a document in MuPDF's memory, directly or in groups (planGroups). */
class PartMaker {
  private done = 0;

  constructor(
    private readonly signed: boolean,
    /** An encrypted source's parts keep its encryption, so they are made from it directly (a group's document would have none). */
    private readonly encrypted: boolean,
    private readonly password: string | undefined,
    private readonly ctx: TaskContext,
    private readonly total: number,
  ) {}

  /** The parts (pages of `from`, a document of `sourcePages` pages; zero-based), in order. */
  make(from: mupdf.Buffer, parts: number[][], sourcePages?: number): Uint8Array[] {
    const pages = parts.reduce((sum, p) => sum + p.length, 0);
    const size = this.encrypted ? parts.length : planGroups(parts.length, sourcePages ?? pages, pages / Math.max(1, parts.length)).size;
    if (size >= parts.length) return parts.map((p) => this.part(from, p));
    const out: Uint8Array[] = [];
    for (let g = 0; g < parts.length; g += size) {
      const group = parts.slice(g, g + size);
      const union = [...new Set(group.flat())].sort((a, b) => a - b);
      const index = new Map(union.map((p, k) => [p, k]));
      const groupDoc = this.extract(from, union);
      const groupBuffer = new mupdf.Buffer(groupDoc);
      try {
        out.push(...this.make(groupBuffer, group.map((p) => p.map((q) => index.get(q)!)), union.length));
      } finally {
        groupBuffer.destroy();
      }
    }
    return out;
  }

  private part(from: mupdf.Buffer, pages: number[]): Uint8Array {
    const bytes = this.extract(from, pages);
    this.ctx.progress({ done: ++this.done, total: this.total, unit: 'documents', stage: 'split' });
    return bytes;
  }

  /**
   * `pages` of the document in `from` as a new document: opened there, extracted (extractPages), and written. Unless
   * it is encrypted, what the extraction left is copied into a new document first, which holds only the objects the
   * kept pages and the catalog reach, so the save loads and writes those alone, not every object of the source.
   */
  private extract(from: mupdf.Buffer, pages: number[]): Uint8Array {
    const doc = mupdf.PDFDocument.openDocument(from, 'application/pdf').asPDF()!;
    try {
      if (this.encrypted && this.password !== undefined) doc.authenticatePassword(this.password);
      const repaired = () => {
        if (doc.wasRepaired()) throw new SourceNeedsRepair();
      };
      extractPages(doc, pages, this.signed);
      repaired();
      if (this.encrypted) {
        // The save loads every object: a repair there would write the document unextracted.
        const bytes = saveCompact(doc);
        repaired();
        return bytes;
      }
      const copy = new mupdf.PDFDocument();
      try {
        const map = copy.newGraftMap();
        const trailer = doc.getTrailer();
        copy.getTrailer().put('Root', map.graftObject(trailer.get('Root')));
        if (!trailer.get('Info').isNull()) copy.getTrailer().put('Info', map.graftObject(trailer.get('Info')));
        repaired();
        return saveCompact(copy);
      } finally {
        copy.destroy();
      }
    } finally {
      doc.destroy();
    }
  }
}

/**
 * How `parts` parts of about `pagesPerPart` pages each are made from a document of `sourcePages` pages at least cost
 * (COST): straight (size: all of them), or in groups of `size` parts, each group's document made the same way in turn.
 * Measured on the bench document, 1,000 single pages: 32 groups of 32 (then 6 of 6) took 4.3 s of CPU, 10 groups of
 * 100 (then 10 of 10), the choice here, 3.6 s.
 */
export function planGroups(parts: number, sourcePages: number, pagesPerPart: number): { size: number; cost: number } {
  const memo = new Map<number, { size: number; cost: number }>();
  const best = (n: number, source: number): { size: number; cost: number } => {
    const straight = { size: n, cost: n * (COST.PER_EXTRACTION + COST.PER_SOURCE_PAGE * source + COST.PER_KEPT_PAGE * pagesPerPart) };
    let choice = straight;
    for (let groups = 2; groups <= Math.min(MAX_GROUPS, n - 1); groups++) {
      const size = Math.ceil(n / groups);
      const count = Math.ceil(n / size);
      const last = n - (count - 1) * size;
      const cost = count * (COST.PER_EXTRACTION + COST.PER_SOURCE_PAGE * source) + COST.PER_KEPT_PAGE * n * pagesPerPart + (count - 1) * inner(size) + inner(last);
      if (cost < choice.cost) choice = { size, cost };
    }
    return choice;
  };
  // A group's document holds the pages of its parts only.
  const inner = (n: number): number => {
    let known = memo.get(n);
    if (!known) memo.set(n, (known = best(n, n * pagesPerPart)));
    return known.cost;
  };
  return best(parts, sourcePages);
}

function range(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
}
