import type * as mupdf from 'mupdf';
import { deref, name, pageContents, text as textOf } from '../core/mupdf-objects.js';
import { PageSpace } from '../pages/geometry.js';
import { kidsOf } from '../pdfua/structure.js';
import { contentOperations } from '../syntax/content-tokens.js';
import type { Rectangle } from '../syntax/geometry.js';
import { joinLines } from './classify.js';
import { lineFont, type Box, type StextJsonLine } from './layout.js';
import type { ExportBlock, ImageBlock, TableCell, TextBlock } from './model.js';

/**
 * Export from the structure tree of a tagged PDF (docs/export.md, "Tagged PDF"). MuPDF's structured text with the
 * `structured` option nests the page's text and images in the structure elements whose marked content (MCIDs, through
 * the page's /StructParents and the parent tree) drew them, in the tree's order; each element is matched to its PDF
 * object by its place in its parent's /K, for what MuPDF does not give (a table cell's RowSpan and ColSpan, a figure's
 * Alt). A page the tree does not cover (no /StructParents, or text drawn outside every element) is left to the layout
 * analysis: the caller gets the reason instead of blocks.
 */

interface StextNode {
  type: string;
  bbox?: { x: number; y: number; w: number; h: number };
  lines?: StextJsonLine[];
  /** structure: the element's type as written (raw) and its standard role (std, after the role map). */
  raw?: string;
  std?: string;
  /** structure: the element's place in its parent's /K. */
  index?: number;
  contents?: StextNode[];
}

/** Elements whose text is one paragraph (unless they hold a block-level element: then they are walked as a container). */
const PARAGRAPHS = new Set(['P', 'Caption', 'BlockQuote', 'Quote', 'Note', 'Code', 'TOCI', 'Formula', 'Reference', 'BibEntry', 'Lbl', 'Index']);
const BLOCK_LEVEL = new Set(['P', 'H', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'L', 'Table', 'Figure', 'Sect', 'Div', 'Art', 'Part']);
/** ListNumbering values of a numbered list (ISO 32000-1, table 347). */
const NUMBERED = new Set(['Decimal', 'UpperRoman', 'LowerRoman', 'UpperAlpha', 'LowerAlpha']);

/** Text-showing operators, dropped inside /Artifact sequences; `'` and `"` also move to the next line, which is kept. */
const SHOW_TEXT = new Set(['Tj', 'TJ', "'", '"']);

/**
 * The page's content streams without the text of its /Artifact sequences (running headers, footers, page numbers),
 * which MuPDF's structured text would put into the element drawn before them. Only the showing of text goes: the
 * graphics and text state the artifact sets stay, so the content after it draws as before. Changes the document in
 * memory only (the export never saves it).
 */
function dropArtifactText(pageObj: mupdf.PDFObject): void {
  let depth = 0; // marked-content nesting, carried across the page's streams
  let artifactAt = -1; // the depth of the open /Artifact sequence, or -1
  for (const stream of pageContents(pageObj)) {
    const bytes = stream.readStream().asUint8Array();
    const out: Uint8Array[] = [];
    let copied = 0;
    for (const { op, start, end, args } of contentOperations(bytes)) {
      if (op === 'BMC' || op === 'BDC') {
        depth++;
        if (artifactAt < 0 && args[0] === 'Artifact') artifactAt = depth;
      } else if (op === 'EMC') {
        if (depth === artifactAt) artifactAt = -1;
        depth = Math.max(0, depth - 1);
      } else if (artifactAt >= 0 && SHOW_TEXT.has(op)) {
        out.push(bytes.subarray(copied, start), Buffer.from(op === 'Tj' || op === 'TJ' ? ' ' : ' T* '));
        copied = end;
      }
    }
    if (copied === 0) continue;
    out.push(bytes.subarray(copied));
    stream.writeStream(Buffer.concat(out));
  }
}

/** The element's attribute `key` (RowSpan, ColSpan, ListNumbering) from its /A, a dictionary or an array of them. */
function attribute(obj: mupdf.PDFObject | undefined, key: string): mupdf.PDFObject | undefined {
  if (!obj) return undefined;
  const a = deref(deref(obj).get('A'));
  const dicts: mupdf.PDFObject[] = [];
  if (a.isDictionary()) dicts.push(a);
  else if (a.isArray()) a.forEach((d) => dicts.push(deref(d)));
  for (const d of dicts) {
    if (!d.isDictionary()) continue;
    const v = d.get(key);
    if (!v.isNull()) return v;
  }
  return undefined;
}

/** A span attribute as a count of 1 to 1,000 (a hostile file's spans stay bounded). */
function span(obj: mupdf.PDFObject | undefined, key: string): number {
  const v = attribute(obj, key);
  const n = v?.isNumber() ? Math.round(v.asNumber()) : 1;
  return Math.min(1000, Math.max(1, n));
}

/** A node of the walk: MuPDF's structure block and its PDF element (undefined when the two do not match). */
interface Node {
  role: string;
  node: StextNode;
  obj: mupdf.PDFObject | undefined;
}

/** The PDF object at `index` of `parent`'s /K when it is the element MuPDF names (same /S), else undefined. */
function kidAt(parent: mupdf.PDFObject | undefined, index: number | undefined, raw: string | undefined): mupdf.PDFObject | undefined {
  if (!parent || index === undefined) return undefined;
  const kid = kidsOf(parent)[index];
  if (!kid) return undefined;
  const obj = deref(kid);
  return obj.isDictionary() && name(obj.get('S')) === raw ? kid : undefined;
}

const childNodes = (n: Node): Node[] =>
  (n.node.contents ?? [])
    .filter((c) => c.type === 'structure')
    .map((c) => ({ role: c.std === 'NonDtruct' ? 'NonStruct' : (c.std ?? ''), node: c, obj: kidAt(n.obj, c.index, c.raw) }));

/** The lines of a text node that have text, less those whose centre lies in a box of `skip` (running lines). */
function textLines(node: StextNode, skip: readonly Box[]): StextJsonLine[] {
  return (node.lines ?? []).filter((l) => {
    const cx = l.bbox.x + l.bbox.w / 2;
    const cy = l.bbox.y + l.bbox.h / 2;
    return l.text.trim() !== '' && !skip.some((b) => cx >= b[0] - 1 && cx <= b[2] + 1 && cy >= b[1] - 1 && cy <= b[3] + 1);
  });
}

/** The text lines under a node, in order. */
function linesOf(node: StextNode, skip: readonly Box[], out: StextJsonLine[] = []): StextJsonLine[] {
  if (node.type === 'text') out.push(...textLines(node, skip));
  for (const c of node.contents ?? []) linesOf(c, skip, out);
  return out;
}

/** Whether a node holds a block-level element below it. */
const holdsBlocks = (node: StextNode): boolean => (node.contents ?? []).some((c) => c.type === 'structure' && (BLOCK_LEVEL.has(c.std ?? '') || holdsBlocks(c)));

/**
 * Lines as one text: pieces on the same row (MuPDF makes a line of each element's piece: "Revenue ", a link, "grew")
 * joined as they stand, with a space where there is a gap; rows joined as a paragraph's lines (classify's joinLines).
 */
function joinText(lines: StextJsonLine[]): string {
  const rows: string[] = [];
  let last: StextJsonLine | undefined;
  for (const l of lines) {
    const sameRow = last && Math.abs(l.bbox.y + l.bbox.h / 2 - (last.bbox.y + last.bbox.h / 2)) < Math.min(l.bbox.h, last.bbox.h) / 2 && l.bbox.x >= last.bbox.x + last.bbox.w - 1;
    if (sameRow && last) {
      const gap = l.bbox.x - (last.bbox.x + last.bbox.w);
      const spaced = /\s$/u.test(rows.at(-1)!) || /^\s/u.test(l.text) || gap > 0.15 * l.font.size;
      rows[rows.length - 1] += (spaced ? ' ' : '') + l.text;
    } else rows.push(l.text);
    last = l;
  }
  return joinLines(rows.map((r) => r.replace(/\s+/gu, ' ')));
}

/** The area two rectangles share. */
const overlap = (a: Rectangle, b: Rectangle) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/**
 * Blocks of one page from its structure elements, or the reason the tree cannot be used for it. `layout`: the layout
 * analysis' blocks of the same page, for what the tree does not give: the images' pixels (DOCX) and the URI links
 * over the words; `running`: the boxes of the running headers, footers and page numbers the layout analysis found,
 * left out here too (a producer that does not mark them as artifacts still repeats them on every page).
 */
export function readTaggedPage(page: mupdf.PDFPage, root: mupdf.PDFObject, layout: readonly ExportBlock[], running: readonly Box[]): ExportBlock[] | string {
  const pageObj = page.getObject();
  if (!deref(pageObj).get('StructParents').isNumber()) return 'the page has no marked-content ids (/StructParents)';
  dropArtifactText(deref(pageObj));
  const stext = page.toStructuredText('structured,preserve-images');
  let top: StextNode[];
  try {
    top = (JSON.parse(stext.asJSON()) as { blocks: StextNode[] }).blocks;
  } finally {
    stext.destroy();
  }
  if (top.some((b) => b.type === 'text' && linesOf(b, running).length > 0)) return 'text on the page is outside the structure tree';
  const roots: Node[] = top.filter((b) => b.type === 'structure').map((b) => ({ role: b.std === 'NonDtruct' ? 'NonStruct' : (b.std ?? ''), node: b, obj: kidAt(root, b.index, b.raw) }));
  if (!roots.some((r) => linesOf(r.node, running).length > 0)) return 'no text of the page is in the structure tree';

  const space = new PageSpace(page);
  const rect = (boxes: { x: number; y: number; w: number; h: number }[]): Rectangle => {
    const x0 = Math.min(...boxes.map((b) => b.x));
    const y0 = Math.min(...boxes.map((b) => b.y));
    const x1 = Math.max(...boxes.map((b) => b.x + b.w));
    const y1 = Math.max(...boxes.map((b) => b.y + b.h));
    return space.rectangle([x0, y0, x1, y1]);
  };
  const blocks: ExportBlock[] = [];
  const textBlock = (type: TextBlock['type'], lines: StextJsonLine[], extra: Partial<TextBlock> = {}) => {
    const t = joinText(lines);
    if (t === '') return;
    const rectangle = rect(lines.map((l) => l.bbox));
    // The links of the layout's blocks over this one whose words are in its text.
    const links = layout.flatMap((b) => (b.type !== 'table' && b.type !== 'image' && b.links && overlap(b.rectangle, rectangle) > 0 ? b.links : [])).filter((k) => t.includes(k.text));
    blocks.push({ type, text: t, font: lineFont(lines[0]!), rectangle, ...extra, ...(links.length ? { links } : {}) });
  };
  const boxesOf = (node: StextNode, out: { x: number; y: number; w: number; h: number }[] = []) => {
    if (node.type !== 'structure' && node.bbox) out.push(node.bbox);
    for (const c of node.contents ?? []) boxesOf(c, out);
    return out;
  };

  const list = (l: Node) => {
    const numbering = attribute(l.obj, 'ListNumbering');
    const numbered = numbering !== undefined && NUMBERED.has(name(numbering) ?? '');
    const items = (n: Node): Node[] => childNodes(n).flatMap((c) => (c.role === 'LI' ? [c] : c.role === 'L' ? [] : items(c)));
    for (const item of items(l)) {
      const parts = childNodes(item);
      const label = joinText(parts.filter((p) => p.role === 'Lbl').flatMap((p) => linesOf(p.node, running)));
      // The item's own text (its LBody, or what is not its label), without the lists nested in it, which follow it.
      const nested: Node[] = [];
      const own: StextJsonLine[] = [];
      const collect = (n: StextNode, top: boolean) => {
        if (n.type === 'text') own.push(...textLines(n, running));
        for (const c of n.contents ?? []) {
          if (c.type === 'structure' && c.std === 'L') nested.push({ role: 'L', node: c, obj: undefined });
          else if (!(top && c.type === 'structure' && c.std === 'Lbl')) collect(c, false);
        }
      };
      collect(item.node, true);
      const ordered = numbered || /^\(?[0-9]+[.)]$|^\(?[a-z][.)]$|^\(?[ivxlc]+[.)]$/iu.test(label);
      if (own.length) textBlock('listItem', own, { ordered });
      // Nested lists' PDF elements are found again from the item's (their attributes: numbering).
      for (const n of nested) list({ ...n, obj: kidAt(item.obj, n.node.index, n.node.raw) ?? bodyKid(item, n.node) });
    }
  };
  /** A nested list's element when it sits in the item's LBody. */
  const bodyKid = (item: Node, node: StextNode) => {
    for (const c of childNodes(item)) {
      const found = kidAt(c.obj, node.index, node.raw);
      if (found) return found;
    }
    return undefined;
  };

  const table = (t: Node) => {
    const rows: TableCell[][] = [];
    const rowsOf = (n: Node): Node[] => childNodes(n).flatMap((c) => (c.role === 'TR' ? [c] : ['THead', 'TBody', 'TFoot'].includes(c.role) ? rowsOf(c) : []));
    for (const tr of rowsOf(t)) {
      const cells = childNodes(tr).filter((c) => c.role === 'TH' || c.role === 'TD');
      rows.push(cells.map((c) => ({ text: joinText(linesOf(c.node, running)), rowSpan: span(c.obj, 'RowSpan'), colSpan: span(c.obj, 'ColSpan') })));
    }
    const boxes = boxesOf(t.node);
    if (rows.length === 0 || boxes.length === 0) return;
    blocks.push({ type: 'table', rows, rectangle: rect(boxes) });
  };

  const figure = (f: Node) => {
    const boxes = boxesOf(f.node);
    if (boxes.length === 0) return;
    const rectangle = rect(boxes);
    const o = f.obj ? deref(f.obj) : undefined;
    const alt = o ? (textOf(o.get('Alt')) ?? textOf(o.get('ActualText'))) : undefined;
    // The image's pixels (DOCX) from the layout reading of the same page: the image block that overlaps the figure most.
    const images = layout.filter((b): b is ImageBlock => b.type === 'image');
    const image = images.sort((a, b) => overlap(b.rectangle, rectangle) - overlap(a.rectangle, rectangle))[0];
    const png = image && overlap(image.rectangle, rectangle) > 0 ? image.png : undefined;
    blocks.push({ type: 'image', rectangle, ...(alt ? { alt } : {}), ...(png ? { png } : {}) });
  };

  const walk = (n: Node) => {
    const heading = /^H([1-6])?$/u.exec(n.role);
    if (heading) return textBlock('heading', linesOf(n.node, running), { level: Number(heading[1] ?? 1) });
    if (n.role === 'L') return list(n);
    if (n.role === 'Table') return table(n);
    if (n.role === 'Figure') return figure(n);
    if (PARAGRAPHS.has(n.role) && !holdsBlocks(n.node)) return textBlock('paragraph', linesOf(n.node, running));
    // A container (Document, Sect, Div, NonStruct, Span, Link, an unknown type): its own text is a paragraph per text
    // block MuPDF made, its elements are walked in order.
    let loose: StextJsonLine[] = [];
    const flush = () => {
      if (loose.length) textBlock('paragraph', loose);
      loose = [];
    };
    const kids = childNodes(n);
    for (const c of n.node.contents ?? []) {
      if (c.type === 'text') loose.push(...textLines(c, running));
      else if (c.type === 'structure') {
        const kid = kids.find((k) => k.node === c)!;
        // Inline elements (a Span, a Link, NonStruct) continue the text around them.
        if (!BLOCK_LEVEL.has(kid.role) && !holdsBlocks(c) && !['L', 'Table', 'Figure'].includes(kid.role) && !/^H[1-6]?$/u.test(kid.role) && !PARAGRAPHS.has(kid.role)) loose.push(...linesOf(c, running));
        else {
          flush();
          walk(kid);
        }
      }
    }
    flush();
  };
  for (const r of roots) walk(r);
  return blocks;
}
