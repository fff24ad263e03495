import * as mupdf from 'mupdf';
import { editPdf, withPdf, type PdfInput } from '../core/document-task.js';
import { deref, name, numbers, pageContents, text } from '../core/mupdf-objects.js';
import { EngineError } from '../errors.js';
import { scanContent, type Operand } from '../preflight/content.js';
import { PdfName } from '../syntax/parser.js';
import { structTreeRoot } from './keep.js';
import { elements, kidsOf, roleOf, type Element } from './structure.js';
import type { FigureChange, FigureModel, FiguresModel } from './model.js';

/**
 * The figures of a tagged document (docs/accessibility.md, "Figures and their alternative text"): the structure
 * elements whose type is Figure once the role map is applied, numbered from 0 in the structure tree's depth-first order
 * (structure.ts `elements`: each element once, a cycle or a shared element visited once). That numbering is the
 * contract the figure resource and PDFUAConvertAction's `figures` share. Where each figure is comes from its own
 * Layout attribute (/A with /O /Layout and /BBox), else from its content: the marked-content sequences (MCIDs) of the
 * figure and its descendants, read from the page's content streams by the preflight's tolerant scanner.
 */

/** Operators scanned per page when looking for figure content (a page of a million operators is read that far). */
const MAX_OPERATORS = 2_000_000;

type Box = [number, number, number, number];

/** One figure as found: its element, and what its content is made of (marked content by page, annotations). */
interface Found {
  element: mupdf.PDFObject;
  /** MCIDs by page object number. */
  mcids: Map<number, Set<number>>;
  /** Boxes known without scanning (annotation rectangles), by page object number. */
  boxes: Map<number, Box[]>;
  /** The page its /Pg (or an ancestor's) names, when its content says nothing. */
  page?: number | undefined;
}

const EMPTY: Box = [Infinity, Infinity, -Infinity, -Infinity];
const grow = (box: Box, x: number, y: number): void => {
  box[0] = Math.min(box[0], x);
  box[1] = Math.min(box[1], y);
  box[2] = Math.max(box[2], x);
  box[3] = Math.max(box[3], y);
};
const union = (a: Box, b: Box): Box => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
const isEmpty = (b: Box) => !(b[2] >= b[0] && b[3] >= b[1]) || !b.every(Number.isFinite);
const round = (b: Box): Box => b.map((v) => Math.round(v * 100) / 100) as Box;

/** The figure elements in depth-first order, each with the elements of the tree (for the walk below). */
function figureElements(doc: mupdf.PDFDocument): { all: Element[]; figures: number[] } | undefined {
  const root = structTreeRoot(doc);
  if (!root) return undefined;
  const roleMap = deref(root.get('RoleMap'));
  const all = elements(root);
  const figures: number[] = [];
  all.forEach((e, i) => {
    if (roleOf(e.type, roleMap) === 'Figure') figures.push(i);
  });
  return { all, figures };
}

/**
 * What each figure's content is: its MCIDs and annotations, and those of the elements below it, each on the page its
 * own /Pg or the nearest ancestor's names. One pass over the elements in tree order (a parent before its children).
 */
function figureContents(all: Element[], figures: number[]): Found[] {
  const found = figures.map((i): Found => ({ element: all[i]!.obj, mcids: new Map(), boxes: new Map() }));
  const figureAt = new Map(figures.map((i, n) => [i, n]));
  // The figures an element is inside (itself included); shared arrays, copied only at a figure.
  const owners: number[][] = new Array<number[]>(all.length);
  const NONE: number[] = [];
  const pageOf = (pg: mupdf.PDFObject) => (pg.isIndirect() ? pg.asIndirect() : undefined);
  // The page an element is on: its /Pg, else its parent's. Looked up only for elements in a figure (and their
  // ancestors when those have none), since each lookup is a call into MuPDF and a tree may have 100,000 elements.
  const pages = new Map<number, number | undefined>();
  const pageAt = (i: number): number | undefined => {
    const path: number[] = [];
    let at = i;
    let page: number | undefined;
    while (at >= 0 && !pages.has(at)) {
      path.push(at);
      page = pageOf(deref(all[at]!.obj).get('Pg'));
      if (page !== undefined) break;
      at = all[at]!.parent;
    }
    if (page === undefined && at >= 0) page = pages.get(at);
    for (const p of path) pages.set(p, page);
    return page;
  };
  all.forEach((e, i) => {
    const parentOwners = e.parent >= 0 ? owners[e.parent]! : NONE;
    const self = figureAt.get(i);
    owners[i] = self === undefined ? parentOwners : [...parentOwners, self];
    if (owners[i]!.length === 0) return;
    const element = deref(e.obj);
    const page = pageAt(i);
    for (const n of owners[i]!) found[n]!.page ??= page;
    for (const kid of kidsOf(element)) {
      const k = deref(kid);
      let mcid: number | undefined;
      let on = page;
      if (k.isNumber()) mcid = k.asNumber();
      else if (k.isDictionary() && name(k.get('Type')) === 'MCR') {
        // Marked content in a form XObject's own stream (/Stm) is not on the page's streams: not located.
        if (!k.get('Stm').isNull()) continue;
        const id = deref(k.get('MCID'));
        if (id.isNumber()) mcid = id.asNumber();
        on = pageOf(k.get('Pg')) ?? page;
      } else if (k.isDictionary() && name(k.get('Type')) === 'OBJR') {
        on = pageOf(k.get('Pg')) ?? page;
        const rect = numbers(deref(k.get('Obj')).get('Rect'));
        if (on === undefined || rect?.length !== 4) continue;
        const box: Box = [Math.min(rect[0]!, rect[2]!), Math.min(rect[1]!, rect[3]!), Math.max(rect[0]!, rect[2]!), Math.max(rect[1]!, rect[3]!)];
        for (const n of owners[i]!) {
          const list = found[n]!.boxes.get(on) ?? [];
          list.push(box);
          found[n]!.boxes.set(on, list);
        }
        continue;
      }
      if (mcid === undefined || on === undefined) continue;
      for (const n of owners[i]!) {
        const set = found[n]!.mcids.get(on) ?? new Set<number>();
        set.add(mcid);
        found[n]!.mcids.set(on, set);
      }
    }
  });
  return found;
}

/** The element's Layout attribute's /BBox (PDF user space), when it has one: /A is a dictionary or an array of them (with revision numbers). */
function layoutBox(element: mupdf.PDFObject): Box | undefined {
  const a = deref(element.get('A'));
  const candidates: mupdf.PDFObject[] = [];
  if (a.isDictionary()) candidates.push(a);
  else if (a.isArray()) for (let i = 0; i < a.length && i < 64; i++) candidates.push(deref(a.get(i)));
  for (const attr of candidates) {
    if (!attr.isDictionary() || name(attr.get('O')) !== 'Layout') continue;
    const b = numbers(attr.get('BBox'));
    if (b?.length === 4) return [Math.min(b[0]!, b[2]!), Math.min(b[1]!, b[3]!), Math.max(b[0]!, b[2]!), Math.max(b[1]!, b[3]!)];
  }
  return undefined;
}

type Matrix = [number, number, number, number, number, number];
const concat = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5],
];
const apply = (m: Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

const PAINT = new Set(['f', 'F', 'f*', 'S', 's', 'B', 'B*', 'b', 'b*']);

/**
 * The boxes (PDF user space) of what the page's content draws inside each of `wanted` marked-content ids: paths as
 * their points, images (Do of an image, inline images) as their unit square, form XObjects as their /BBox, all through
 * the CTM. Text is not measured (its glyph widths need the font): a figure made only of text gets no box from its content.
 */
function markedBoxes(page: mupdf.PDFObject, wanted: Set<number>): Map<number, Box> {
  const boxes = new Map<number, Box>();
  const streams = pageContents(page).filter((s) => s.isStream());
  if (streams.length === 0) return boxes;
  const parts = streams.map((s) => s.readStream().asUint8Array());
  const data = parts.length === 1 ? parts[0]! : Buffer.concat(parts.flatMap((p) => [p, Buffer.from('\n')]));
  const resources = deref(page.get('Resources'));
  const properties = resources.isDictionary() ? deref(resources.get('Properties')) : undefined;
  const xobjects = resources.isDictionary() ? deref(resources.get('XObject')) : undefined;
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const saved: Matrix[] = [];
  const marked: (number | undefined)[] = [];
  let path: [number, number][] = [];
  const current = (): number | undefined => {
    for (let i = marked.length - 1; i >= 0; i--) if (marked[i] !== undefined) return marked[i];
    return undefined;
  };
  const add = (id: number, points: [number, number][]) => {
    const box = boxes.get(id) ?? ([...EMPTY] as Box);
    for (const [x, y] of points) grow(box, x, y);
    boxes.set(id, box);
  };
  const unit = (m: Matrix) => [apply(m, 0, 0), apply(m, 1, 0), apply(m, 0, 1), apply(m, 1, 1)];
  const num = (v: Operand | undefined) => (typeof v === 'number' ? v : 0);
  const mcidOf = (props: Operand | undefined): number | undefined => {
    if (props instanceof Map) {
      const id = props.get('MCID');
      return typeof id === 'number' ? id : undefined;
    }
    if (props instanceof PdfName && properties?.isDictionary()) {
      const id = deref(deref(properties.get(props.name)).get('MCID'));
      return id.isNumber() ? id.asNumber() : undefined;
    }
    return undefined;
  };
  scanContent(data, MAX_OPERATORS, (op, operands) => {
    const n = (i: number) => num(operands[i]);
    switch (op) {
      case 'q': saved.push(ctm); if (saved.length > 10_000) saved.shift(); break;
      case 'Q': ctm = saved.pop() ?? ctm; break;
      case 'cm': ctm = concat([n(0), n(1), n(2), n(3), n(4), n(5)], ctm); break;
      case 'BDC': {
        const id = mcidOf(operands[1]);
        marked.push(id !== undefined && wanted.has(id) ? id : undefined);
        break;
      }
      case 'BMC': marked.push(undefined); break;
      case 'EMC': marked.pop(); break;
      case 'm': case 'l': path.push(apply(ctm, n(0), n(1))); break;
      case 'c': path.push(apply(ctm, n(0), n(1)), apply(ctm, n(2), n(3)), apply(ctm, n(4), n(5))); break;
      case 'v': case 'y': path.push(apply(ctm, n(0), n(1)), apply(ctm, n(2), n(3))); break;
      case 're': {
        const [x, y, w, h] = [n(0), n(1), n(2), n(3)];
        path.push(apply(ctm, x, y), apply(ctm, x + w, y), apply(ctm, x, y + h), apply(ctm, x + w, y + h));
        break;
      }
      case 'n': path = []; break;
      case 'BI': {
        const id = current();
        if (id !== undefined) add(id, unit(ctm));
        break;
      }
      case 'Do': {
        const id = current();
        const ref = operands[0];
        if (id === undefined || !(ref instanceof PdfName) || !xobjects?.isDictionary()) break;
        const xobject = deref(xobjects.get(ref.name));
        if (!xobject.isDictionary() && !xobject.isStream()) break;
        if (name(xobject.get('Subtype')) === 'Form') {
          const b = numbers(xobject.get('BBox'));
          const matrix = numbers(xobject.get('Matrix'));
          const m = matrix?.length === 6 ? concat(matrix as Matrix, ctm) : ctm;
          if (b?.length === 4) add(id, [apply(m, b[0]!, b[1]!), apply(m, b[2]!, b[1]!), apply(m, b[0]!, b[3]!), apply(m, b[2]!, b[3]!)]);
        } else add(id, unit(ctm));
        break;
      }
      default:
        if (PAINT.has(op)) {
          const id = current();
          if (id !== undefined && path.length > 0) add(id, path);
          path = [];
        }
    }
  });
  return boxes;
}

/** Page object numbers by page index, and back. */
function pageNumbers(doc: mupdf.PDFDocument): { index: Map<number, number>; objects: mupdf.PDFObject[] } {
  const index = new Map<number, number>();
  const objects: mupdf.PDFObject[] = [];
  const count = doc.countPages();
  for (let i = 0; i < count; i++) {
    const page = doc.findPage(i);
    objects.push(page);
    if (page.isIndirect() && !index.has(page.asIndirect())) index.set(page.asIndirect(), i);
  }
  return { index, objects };
}

function describe(doc: mupdf.PDFDocument, figures: Found[], indexes: readonly number[]): FigureModel[] {
  const { index: pageIndex, objects } = pageNumbers(doc);
  // The pages whose content is scanned, each once, for every MCID of every figure asked for on it.
  const wanted = new Map<number, Set<number>>();
  for (const n of indexes) {
    const f = figures[n]!;
    if (layoutBox(deref(f.element))) continue;
    for (const [page, ids] of f.mcids) {
      const set = wanted.get(page) ?? new Set<number>();
      ids.forEach((id) => set.add(id));
      wanted.set(page, set);
    }
  }
  const scanned = new Map<number, Map<number, Box>>();
  for (const [page, ids] of wanted) {
    const i = pageIndex.get(page);
    if (i !== undefined) scanned.set(page, markedBoxes(objects[i]!, ids));
  }
  return indexes.map((n) => {
    const f = figures[n]!;
    const element = deref(f.element);
    const alt = text(element.get('Alt'));
    const actualText = text(element.get('ActualText'));
    // The first page (in page order) that holds the figure's content, and the box of its content there.
    let page: number | undefined;
    let box: Box | undefined = layoutBox(element);
    if (box) page = f.page;
    else {
      const onPages = new Set([...f.mcids.keys(), ...f.boxes.keys()].filter((p) => pageIndex.has(p)));
      for (const p of [...onPages].sort((a, b) => pageIndex.get(a)! - pageIndex.get(b)!)) {
        let b: Box = [...EMPTY];
        const found = scanned.get(p);
        for (const id of f.mcids.get(p) ?? []) {
          const got = found?.get(id);
          if (got) b = union(b, got);
        }
        for (const r of f.boxes.get(p) ?? []) b = union(b, r);
        if (!isEmpty(b)) {
          page = p;
          box = b;
          break;
        }
      }
      page ??= [...onPages].sort((a, b) => pageIndex.get(a)! - pageIndex.get(b)!)[0] ?? f.page;
    }
    const model: FigureModel = { index: n, hasAlt: alt !== undefined && alt.trim() !== '' };
    const at = page === undefined ? undefined : pageIndex.get(page);
    if (at !== undefined) model.pageIndex = at;
    if (box && !isEmpty(box)) model.bbox = round(box);
    if (alt !== undefined) model.alt = alt;
    if (actualText !== undefined) model.actualText = actualText;
    return model;
  });
}

/** The `listFigures` task: every Figure of the structure tree; `tagged` false (and no figures) without a structure tree. */
export function listFigures(input: PdfInput): FiguresModel {
  return withPdf(input, 'view', (doc) => {
    const found = figureElements(doc);
    if (!found) return { tagged: false, figures: [] };
    const figures = figureContents(found.all, found.figures);
    return { tagged: true, figures: describe(doc, figures, figures.map((_, i) => i)) };
  });
}

/**
 * The `writeFigures` task: sets or removes (null) /Alt and /ActualText of the figures `changes` name by index; all
 * are checked before any is changed (409 DOCUMENT_NOT_TAGGED without a structure tree, FIGURE_NOT_FOUND for an index
 * past the last figure: 404 when the index is the URL's). Answers the changed figures as they are afterwards; no bytes
 * when nothing changed.
 */
export function writeFigures(input: PdfInput & { changes: FigureChange[]; inPath?: boolean }): { bytes?: Uint8Array; figures: FigureModel[] } {
  return editPdf(input, 'edit', (doc, edit) => {
    const found = figureElements(doc);
    if (!found) throw new EngineError('DOCUMENT_NOT_TAGGED', 'The document has no structure tree, so no figures: tag it first (PDFUAConvertAction)');
    const count = found.figures.length;
    for (const change of input.changes) {
      if (change.index >= count) {
        throw new EngineError('FIGURE_NOT_FOUND', count === 0 ? `The document has no Figure elements (index ${change.index})` : `Figure ${change.index} is past the last figure (figures 0 to ${count - 1})`, undefined, { inPath: input.inPath === true });
      }
    }
    let changed = false;
    for (const change of input.changes) {
      const element = deref(found.all[found.figures[change.index]!]!.obj);
      for (const key of ['alt', 'actualText'] as const) {
        const value = change[key];
        if (value === undefined) continue;
        const entry = key === 'alt' ? 'Alt' : 'ActualText';
        const before = text(element.get(entry));
        if (value === null) {
          if (element.get(entry).isNull()) continue;
          element.delete(entry);
        } else {
          if (before === value) continue;
          element.put(entry, doc.newString(value));
        }
        changed = true;
      }
    }
    const figures = figureContents(found.all, found.figures);
    const indexes = [...new Set(input.changes.map((c) => c.index))];
    const described = describe(doc, figures, indexes);
    return changed ? { bytes: edit.save(), figures: described } : { figures: described };
  });
}
