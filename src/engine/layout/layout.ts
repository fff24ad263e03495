import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { editPdf, withSummary } from '../core/document-task.js';
import type { WrittenSummary } from '../core/inspect.js';
import { deref, numbers } from '../core/mupdf-objects.js';
import { saveFull } from '../core/save.js';
import type { PdfSource } from '../core/pdf-source.js';
import { parsePageRange } from '../pages/range.js';
import { rearrange } from '../pages/assembly.js';
import { mediaBox, normal, PageSpace, pageFrame } from '../pages/geometry.js';
import { dropSignatureValues } from '../signing/fields.js';
import { drawnBounds } from './drawn-bounds.js';
import { num, placeable, rectObject, sheet, type Placeable } from './placement.js';

/** Paper sizes by name, portrait, in points. */
export const PAPER_SIZES = {
  A3: [842, 1191],
  A4: [595, 842],
  A5: [420, 595],
  B4: [709, 1001],
  B5: [499, 709],
  Letter: [612, 792],
  Legal: [612, 1008],
  Tabloid: [792, 1224],
} as const;
export type PaperName = keyof typeof PAPER_SIZES;
export type Orientation = 'portrait' | 'landscape' | 'auto';
/** A paper: a named size or width and height, turned as `orientation` says ('auto': as the action decides). */
export interface Paper {
  paperSize?: PaperName | undefined;
  width?: number | undefined;
  height?: number | undefined;
  orientation?: Orientation | undefined;
}
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
export type NupOrder = 'rightDown' | 'downRight' | 'leftDown' | 'downLeft';
export const BOX_NAMES = ['MediaBox', 'CropBox', 'BleedBox', 'TrimBox', 'ArtBox'] as const;
export type BoxName = (typeof BOX_NAMES)[number];

/** The page-layout operations: one task, one kind per action (docs/page-layout.md). */
export type LayoutOperation =
  | ({ kind: 'nup'; perSheet: 2 | 4 | 6 | 9 | 16; order?: NupOrder | undefined; border?: boolean | undefined; margin?: number | undefined; pageRange?: string | undefined } & Paper)
  | ({ kind: 'booklet'; binding?: 'left' | 'right' | undefined; border?: boolean | undefined; margin?: number | undefined; pageRange?: string | undefined } & Paper)
  | ({ kind: 'poster'; overlap?: number | undefined; scale?: number | undefined; pageRange?: string | undefined } & Paper)
  | { kind: 'crop'; box?: Box | undefined; toContent?: boolean | undefined; margin?: number | undefined; pageRange?: string | undefined }
  | ({ kind: 'scale'; pageRange?: string | undefined } & Paper)
  | { kind: 'boxes'; boxes: Partial<Record<BoxName, Box>>; pageRange?: string | undefined };

/** Grids (columns x rows) of N-up on a landscape sheet; a portrait sheet takes them turned. */
const GRIDS = { 2: [2, 1], 4: [2, 2], 6: [3, 2], 9: [3, 3], 16: [4, 4] } as const;

/** The paper's width and height: named or given, turned to `orientation`, or to the one `auto` prefers. */
function paperSize(paper: Paper, fallback: readonly [number, number], auto: (w: number, h: number) => 'portrait' | 'landscape'): [number, number] {
  let [w, h] = paper.paperSize ? PAPER_SIZES[paper.paperSize] : [paper.width ?? fallback[0], paper.height ?? fallback[1]];
  if (paper.paperSize && (paper.width !== undefined || paper.height !== undefined)) throw new EngineError('VALIDATION_FAILED', 'Give paperSize or width and height, not both');
  if ((paper.width === undefined) !== (paper.height === undefined)) throw new EngineError('VALIDATION_FAILED', 'width and height go together');
  const short = Math.min(w, h);
  const long = Math.max(w, h);
  const orientation = paper.orientation === 'portrait' || paper.orientation === 'landscape' ? paper.orientation : auto(short, long);
  [w, h] = orientation === 'portrait' ? [short, long] : [long, short];
  return [w, h];
}

/** Scale and offset that fit `w` x `h` into the cell, centred. */
function fit(w: number, h: number, cell: number[]): mupdf.Matrix {
  const [x, y, cw, ch] = cell as [number, number, number, number];
  const s = Math.min(cw / w, ch / h);
  return [s, 0, 0, s, x + (cw - w * s) / 2, y + (ch - h * s) / 2];
}

/** The N-up cells of a sheet, in reading order for `order`: [x, y, width, height], y up. */
function cells(width: number, height: number, cols: number, rows: number, order: NupOrder, margin: number): number[][] {
  const cw = width / cols;
  const ch = height / rows;
  const out: number[][] = [];
  const cell = (c: number, r: number) => [c * cw + margin, height - (r + 1) * ch + margin, cw - 2 * margin, ch - 2 * margin];
  const col = (c: number) => (order === 'leftDown' || order === 'downLeft' ? cols - 1 - c : c);
  if (order === 'rightDown' || order === 'leftDown') for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out.push(cell(col(c), r));
  else for (let c = 0; c < cols; c++) for (let r = 0; r < rows; r++) out.push(cell(col(c), r));
  if (out.some((c) => c[2]! <= 1 || c[3]! <= 1)) throw new EngineError('VALIDATION_FAILED', `margin ${margin} leaves no room for the pages on a ${num(width)} x ${num(height)} sheet`);
  return out;
}

const borderOps = (cell: number[]) => `q 0.5 w 0 G ${cell.map(num).join(' ')} re S Q\n`;

/** Placeables of the selected pages, each made once however often it is drawn. */
function placeables(doc: mupdf.PDFDocument, selected: number[]): Map<number, Placeable> {
  const made = new Map<number, Placeable>();
  for (const i of selected) if (!made.has(i)) made.set(i, placeable(doc, i, `P${made.size}`));
  return made;
}

/** Sheets of pages laid out in cells: `slots[k]` the page index for cell k of sheet floor(k / per), or -1 for a blank. */
function impose(doc: mupdf.PDFDocument, made: Map<number, Placeable>, slots: number[], sheetSize: [number, number], grid: number[][], border: boolean): mupdf.PDFObject[] {
  const sheets: mupdf.PDFObject[] = [];
  const per = grid.length;
  for (let s = 0; s * per < slots.length; s++) {
    let ops = '';
    const resources = new Map<string, mupdf.PDFObject>();
    for (let k = 0; k < per; k++) {
      const index = slots[s * per + k];
      const cell = grid[k]!;
      if (border) ops += borderOps(cell);
      if (index === undefined || index < 0) continue;
      const p = made.get(index)!;
      for (const [name, obj] of p.resources) resources.set(name, obj);
      ops += p.ops(fit(p.width, p.height, cell));
    }
    sheets.push(sheet(doc, sheetSize[0], sheetSize[1], [...resources], ops));
  }
  return sheets;
}

/** A page's displayed size. */
function shownSize(doc: mupdf.PDFDocument, index: number): [number, number] {
  const { width, height } = pageFrame(doc.findPage(index));
  return [width, height];
}

function nup(doc: mupdf.PDFDocument, op: Extract<LayoutOperation, { kind: 'nup' }>, selected: number[]): mupdf.PDFObject[] {
  const grid = GRIDS[op.perSheet];
  if (!grid) throw new EngineError('VALIDATION_FAILED', `perSheet must be 2, 4, 6, 9 or 16, not ${String(op.perSheet)}`);
  const first = shownSize(doc, selected[0]!);
  // 'auto': the orientation in which the first page is drawn larger.
  const size = paperSize(op, first, (short, long) => {
    const scale = (w: number, h: number, cols: number, rows: number) => Math.min(w / cols / first[0], h / rows / first[1]);
    return scale(long, short, grid[0], grid[1]) > scale(short, long, grid[1], grid[0]) ? 'landscape' : 'portrait';
  });
  const [cols, rows] = size[0] >= size[1] ? grid : [grid[1], grid[0]];
  const layout = cells(size[0], size[1], cols, rows, op.order ?? 'rightDown', op.margin ?? 0);
  return impose(doc, placeables(doc, selected), selected, size, layout, op.border === true);
}

/**
 * Saddle-stitch booklet: the pages padded with blanks to a multiple of 4,
 * two to a side of a landscape sheet, sides in the order a duplex printer
 * prints them (front then back of each sheet, flipped on the short edge):
 * folded and stapled in the middle, they read in order.
 */
function booklet(doc: mupdf.PDFDocument, op: Extract<LayoutOperation, { kind: 'booklet' }>, selected: number[]): mupdf.PDFObject[] {
  const first = shownSize(doc, selected[0]!);
  const size = paperSize({ ...op, orientation: 'landscape' }, [first[0] * 2, first[1]], () => 'landscape');
  if (op.orientation === 'portrait') throw new EngineError('VALIDATION_FAILED', 'A booklet sheet is landscape: two pages side by side');
  const n = Math.ceil(selected.length / 4) * 4;
  const page = (k: number) => (k < selected.length ? selected[k]! : -1);
  const slots: number[] = [];
  for (let s = 0; s < n / 4; s++) {
    // Front: last and first unprinted pages; back: the next two inwards.
    const front = [page(n - 1 - 2 * s), page(2 * s)];
    const back = [page(2 * s + 1), page(n - 2 - 2 * s)];
    if (op.binding === 'right') slots.push(front[1]!, front[0]!, back[1]!, back[0]!);
    else slots.push(...front, ...back);
  }
  const layout = cells(size[0], size[1], 2, 1, 'rightDown', op.margin ?? 0);
  return impose(doc, placeables(doc, selected), slots, size, layout, op.border === true);
}

/** Each page enlarged by `scale` and cut into tiles of the paper, left to right and top to bottom, overlapping by `overlap`. */
function poster(doc: mupdf.PDFDocument, op: Extract<LayoutOperation, { kind: 'poster' }>, selected: number[]): mupdf.PDFObject[] {
  const scale = op.scale ?? 1;
  const overlap = op.overlap ?? 0;
  const made = placeables(doc, selected);
  const sheets: mupdf.PDFObject[] = [];
  for (const index of selected) {
    const p = made.get(index)!;
    const w = p.width * scale;
    const h = p.height * scale;
    const tiles = (pw: number, ph: number) => [Math.max(1, Math.ceil((w - overlap) / (pw - overlap))), Math.max(1, Math.ceil((h - overlap) / (ph - overlap)))] as const;
    // 'auto': the orientation that needs fewer tiles (portrait on a tie).
    const [pw, ph] = paperSize(op, PAPER_SIZES.A4, (short, long) => {
      const [pc, pr] = tiles(short, long);
      const [lc, lr] = tiles(long, short);
      return lc * lr < pc * pr ? 'landscape' : 'portrait';
    });
    if (overlap * 2 >= Math.min(pw, ph)) throw new EngineError('VALIDATION_FAILED', `overlap ${overlap} must be less than half the paper's shorter side (${num(Math.min(pw, ph))} points)`);
    const [cols, rows] = tiles(pw, ph);
    if (cols * rows > 1000) throw new EngineError('VALIDATION_FAILED', `A page would need ${cols * rows} tiles; at most 1,000 are made`);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        // The tile's area of the enlarged page (y up), moved to the sheet's origin.
        const x0 = c * (pw - overlap);
        const top = h - r * (ph - overlap);
        sheets.push(sheet(doc, pw, ph, p.resources, p.ops([scale, 0, 0, scale, -x0, ph - top])));
      }
    }
  }
  return sheets;
}

const asRect = (b: Box) => [b.x, b.y, b.x + b.width, b.y + b.height];

const inside = (r: number[], outer: number[]) => r[0]! >= outer[0]! - 0.01 && r[1]! >= outer[1]! - 0.01 && r[2]! <= outer[2]! + 0.01 && r[3]! <= outer[3]! + 0.01;

/** Crop box of each page: the given box, or the bounds of what the page draws (drawn-bounds.ts) with a margin, within the MediaBox. */
function crop(doc: mupdf.PDFDocument, op: Extract<LayoutOperation, { kind: 'crop' }>, selected: number[]): void {
  if ((op.box === undefined) === (op.toContent !== true)) throw new EngineError('VALIDATION_FAILED', 'Give either box or toContent: true');
  const margin = op.margin ?? 0;
  for (const i of selected) {
    const pageObj = doc.findPage(i);
    const media = mediaBox(pageObj);
    let r: number[];
    if (op.box) {
      r = asRect(op.box);
      if (!inside(r, media)) throw new EngineError('VALIDATION_FAILED', `box [${r.map(num).join(' ')}] is not inside page ${i + 1}'s MediaBox [${media.map(num).join(' ')}]`);
    } else {
      const page = doc.loadPage(i) as mupdf.PDFPage;
      const drawn = drawnBounds(page);
      if (!(drawn[2] > drawn[0] && drawn[3] > drawn[1])) {
        page.destroy();
        continue; // draws nothing: left as it is
      }
      const user = mupdf.Rect.transform(drawn, new PageSpace(page).toUser);
      page.destroy();
      r = [Math.max(media[0]!, user[0] - margin), Math.max(media[1]!, user[1] - margin), Math.min(media[2]!, user[2] + margin), Math.min(media[3]!, user[3] + margin)];
      if (r[2]! <= r[0]! || r[3]! <= r[1]!) continue;
    }
    pageObj.put('CropBox', rectObject(doc, r));
  }
}

function setBoxes(doc: mupdf.PDFDocument, op: Extract<LayoutOperation, { kind: 'boxes' }>, selected: number[]): void {
  const given = BOX_NAMES.filter((name) => op.boxes[name] !== undefined);
  if (given.length === 0) throw new EngineError('VALIDATION_FAILED', `Give at least one of ${BOX_NAMES.join(', ')}`);
  for (const i of selected) {
    const pageObj = doc.findPage(i);
    const media = op.boxes.MediaBox ? asRect(op.boxes.MediaBox) : mediaBox(pageObj);
    for (const name of given) {
      const r = asRect(op.boxes[name]!);
      if (name !== 'MediaBox' && !inside(r, media)) throw new EngineError('VALIDATION_FAILED', `${name} [${r.map(num).join(' ')}] is not inside page ${i + 1}'s MediaBox [${media.map(num).join(' ')}]`);
    }
    for (const name of given) pageObj.put(name, rectObject(doc, asRect(op.boxes[name]!)));
  }
}

/** Point arrays of an annotation, moved with the page's content when it is scaled. */
const POINT_KEYS = ['QuadPoints', 'Vertices', 'L', 'CL'];

function transformPoints(doc: mupdf.PDFDocument, values: number[], m: mupdf.Matrix): mupdf.PDFObject {
  const array = doc.newArray();
  for (let k = 0; k + 1 < values.length; k += 2) {
    const [x, y] = mupdf.Matrix.concat([1, 0, 0, 1, values[k]!, values[k + 1]!], m).slice(4);
    array.push(doc.newReal(x!));
    array.push(doc.newReal(y!));
  }
  return array;
}

/**
 * Each page on a new paper size, its content scaled to fit and centred (its
 * rotation drawn into the content, /Rotate 0). The page keeps its
 * annotations, moved with it: /Rect and point arrays transformed.
 */
function scale(doc: mupdf.PDFDocument, op: Extract<LayoutOperation, { kind: 'scale' }>, selected: number[]): void {
  for (const i of selected) {
    const pageObj = doc.findPage(i);
    const { width: w, height: h, toShown } = pageFrame(pageObj);
    // 'auto': the page's own orientation.
    const [pw, ph] = paperSize(op, PAPER_SIZES.A4, () => (w > h ? 'landscape' : 'portrait'));
    const m = mupdf.Matrix.concat(toShown, fit(w, h, [0, 0, pw, ph]));
    const contents = doc.newArray();
    contents.push(doc.addStream(`q ${m.map(num).join(' ')} cm\n`, {}));
    const old = pageObj.get('Contents');
    const resolved = deref(old);
    if (resolved.isArray()) for (let k = 0; k < resolved.length; k++) contents.push(resolved.get(k));
    else if (old.isIndirect()) contents.push(old);
    contents.push(doc.addStream('\nQ\n', {}));
    // Inherited entries the page needs once it has its own MediaBox and Rotate.
    const resources = pageObj.getInheritable('Resources');
    if (pageObj.get('Resources').isNull() && !resources.isNull()) pageObj.put('Resources', resources);
    pageObj.put('Contents', contents);
    for (const name of ['TrimBox', 'BleedBox', 'ArtBox']) {
      const box = numbers(pageObj.get(name));
      if (box && box.length === 4) pageObj.put(name, rectObject(doc, mupdf.Rect.transform(normal(box) as mupdf.Rect, m)));
    }
    pageObj.delete('CropBox');
    pageObj.put('MediaBox', rectObject(doc, [0, 0, pw, ph]));
    pageObj.put('Rotate', doc.newInteger(0));
    const annots = deref(pageObj.get('Annots'));
    if (!annots.isArray()) continue;
    for (let k = 0; k < annots.length; k++) {
      const annot = deref(annots.get(k));
      if (!annot.isDictionary()) continue;
      const rect = numbers(annot.get('Rect'));
      if (rect && rect.length === 4) annot.put('Rect', rectObject(doc, mupdf.Rect.transform(normal(rect) as mupdf.Rect, m)));
      for (const key of POINT_KEYS) {
        const values = numbers(annot.get(key));
        if (values) annot.put(key, transformPoints(doc, values, m));
      }
      const ink = deref(annot.get('InkList'));
      if (ink.isArray()) {
        const list = doc.newArray();
        for (let s = 0; s < ink.length; s++) list.push(transformPoints(doc, numbers(ink.get(s)) ?? [], m));
        annot.put('InkList', list);
      }
    }
  }
}

/**
 * The `layoutPages` task. N-up, booklet and poster replace the pages with
 * new sheets that draw them (the document's catalog kept, as when pages are
 * deleted: outline items and links to the old pages go); crop, scale and
 * boxes change the pages in place. A signed document is only imposed into a
 * new document (`newDocument`: savePath given), written in full with its
 * signature values cleared, as an extract is.
 */
export function layoutPages(input: { pdf: PdfSource; password?: string | undefined; operation: LayoutOperation; newDocument?: boolean | undefined }): { bytes: Uint8Array; pageCount: number; summary?: WrittenSummary } {
  const { operation } = input;
  return editPdf(input, 'assemble', (doc, { signed, save, opened }) => {
    const count = doc.countPages();
    const selected = parsePageRange(operation.pageRange, count);
    switch (operation.kind) {
      case 'crop':
        crop(doc, operation, selected);
        break;
      case 'boxes':
        setBoxes(doc, operation, selected);
        break;
      case 'scale':
        scale(doc, operation, selected);
        break;
      default: {
        if (signed && !input.newDocument) {
          throw new EngineError('DOCUMENT_SIGNED', `${operation.kind === 'nup' ? 'N-up' : operation.kind === 'booklet' ? 'A booklet' : 'A poster'} replaces every page, and with them the signatures: write it to a new document (savePath)`);
        }
        const sheets = operation.kind === 'nup' ? nup(doc, operation, selected) : operation.kind === 'booklet' ? booklet(doc, operation, selected) : poster(doc, operation, selected);
        sheets.forEach((s, k) => doc.insertPage(count + k, s));
        rearrange(doc, sheets.map((_, k) => count + k));
        if (signed) {
          dropSignatureValues(doc);
          return withSummary(doc, opened, { bytes: saveFull(doc), pageCount: doc.countPages() });
        }
      }
    }
    return withSummary(doc, opened, { bytes: save(), pageCount: doc.countPages() });
  });
}
