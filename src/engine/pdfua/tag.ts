import type * as mupdf from 'mupdf';
import { editPdf, withSummary, type PdfInput } from '../core/document-task.js';
import { deref, name, numbers, pageContents } from '../core/mupdf-objects.js';
import { refuseIfSigned } from '../core/save.js';
import { EngineError } from '../errors.js';
import { classify } from '../export/classify.js';
import { hasText, noText, readPagesAsTheyAre } from '../export/export.js';
import type { ExportBlock, ExportPage } from '../export/model.js';
import { headerRows } from '../export/table-grid.js';
import { StandardFontEmbedder } from '../pdfa/fonts.js';
import type { Rectangle } from '../syntax/geometry.js';
import type { TaskContext } from '../task-context.js';
import { annotationAlt, describeField, nameEmbeddedFiles, type PageLine } from './annotations.js';
import { finishTagged } from './finish.js';
import { isTagged } from './keep.js';
import { contentOperations } from '../syntax/content-tokens.js';
import { markContent, type Matrix, type Painting, type XObjectInfo } from './marking.js';

/**
 * The `tagForPdfua` task (PDFUAConvertAction; docs/accessibility.md, "Tagging an untagged document"): an untagged
 * born-digital document given a structure tree. The logical structure is the export model's (engine/export: MuPDF's
 * structured text read into headings, paragraphs, list items, tables and images in reading order, running headers,
 * footers and page numbers left out), so the tagger and the export read a page alike. Each page's content stream is
 * marked (marking.ts): the text of each block, each table cell and each image in marked content of its element, the
 * rest (what no block holds: running lines, page numbers, rules, backgrounds) as artifacts. Then the document is
 * finished as every tagged output of the service is (finish.ts: link descriptions, title, language, XMP, the PDF/UA
 * identification, which the action takes out again when veraPDF does not pass the result).
 */

export interface TagRequest {
  /** BCP 47; the document's own /Lang when absent. None is guessed. */
  lang?: string | undefined;
  title?: string | undefined;
  /** Replace the structure tree of a document that has one. */
  retag?: boolean | undefined;
  /** Alternate text of Figures, by index among the Figure elements in depth-first order. */
  figures?: ReadonlyArray<{ index: number; alt: string }> | undefined;
  /** The title when neither `title`, the Info dictionary nor the first heading gives one (the stored document's name). */
  fallbackTitle?: string | undefined;
}

export interface FigureNeed {
  index: number;
  pageIndex: number;
  rectangle: Rectangle;
}

export interface TagReport {
  /** added: the document had no tree; replaced: `retag` on a tagged document; kept: tagged already, nothing written. */
  tagged: 'added' | 'replaced' | 'kept';
  /** Elements written, by standard type (H1, P, L, LI, Table, TH, TD, Figure, Link...). */
  elements: Record<string, number>;
  /** Marked-content sequences written as artifacts. */
  artifacts: number;
  /** Figures written without alternate text: a person has to describe them (never invented). */
  figuresWithoutAlt: FigureNeed[];
  /** Fonts without a program given a metric-compatible embedded substitute (PDF/UA-1 7.21.4.1). */
  fontsEmbedded: number;
  /** Form fields given a /TU (their label on the page, else their name; PDF/UA-1 7.18.1-3). */
  fieldsDescribed: number;
  /** Annotations without /Contents whose Annot element got an /Alt (their type and the text under them; 7.18.1-2). */
  annotationsDescribed: number;
  /** Embedded files' specifications given their missing /F or /UF (7.11-1). */
  embeddedFilesNamed: number;
  /** Media clips (a screen annotation's rendition) given an /Alt (7.18.6.2-2). */
  mediaClipsDescribed: number;
  title?: string;
  language?: string;
  /** Whether the written document claims PDF/UA-1 (the action's report says it after veraPDF's verdict). */
  pdfuaIdentified: boolean;
}

/** A structure element being built: its type, its kids in reading order, and what it is written with. */
interface Node {
  type: string;
  kids: Kid[];
  alt?: string;
  bbox?: Rectangle;
  /** Names, and numbers (a table cell's RowSpan and ColSpan). */
  attributes?: Record<string, string | number>;
  /** A Link's element it belongs in, and whether it is placed there yet (on its first content). */
  home?: Node;
  placed?: boolean;
}
/** Marked content: on its page's stream, or (`stm`) in a form XObject's stream drawn on that page. */
type Kid = Node | { mcid: number; pageIndex: number; stm?: mupdf.PDFObject } | { annot: mupdf.PDFObject; pageIndex: number };

interface TextTarget {
  rect: Rectangle;
  node: Node;
  cells?: { rect: Rectangle; node: Node }[];
}

const node = (type: string, extra: Partial<Node> = {}): Node => ({ type, kids: [], ...extra });
const isNode = (kid: Kid): kid is Node => 'type' in kid;

/** Points a painting may lie outside the box of its block and still belong to it (glyph edges, rounding). */
const SLACK = 1.5;
function contains(r: Rectangle, x: number, y: number): boolean {
  return x >= r.x - SLACK && x <= r.x + r.width + SLACK && y >= r.y - SLACK && y <= r.y + r.height + SLACK;
}
const area = (r: Rectangle) => r.width * r.height;
const centre = (b: readonly number[]): [number, number] => [(b[0]! + b[2]!) / 2, (b[1]! + b[3]! ) / 2];

/** Most XObject forms followed for fonts (nested forms of a hostile file end there). */
const MAX_FONT_RESOURCES = 10_000;

/** The fonts of the pages' resources (and their forms', and the annotations' appearances') without a program, given a substitute where one fits. */
function embedFonts(doc: mupdf.PDFDocument): number {
  const embedder = new StandardFontEmbedder(doc);
  const seen = new Set<number>();
  let embedded = 0;
  let visited = 0;
  // Each indirect font and form once (forms drawing each other end here).
  const firstTime = (ref: mupdf.PDFObject) => {
    if (!ref.isIndirect()) return true;
    if (seen.has(ref.asIndirect())) return false;
    seen.add(ref.asIndirect());
    return true;
  };
  const visit = (resources: mupdf.PDFObject) => {
    if (!resources.isDictionary() || visited++ > MAX_FONT_RESOURCES) return;
    const fonts = deref(resources.get('Font'));
    if (fonts.isDictionary()) {
      fonts.forEach((ref) => {
        if (!firstTime(ref)) return;
        const font = deref(ref);
        const descriptor = deref(font.get('FontDescriptor'));
        const hasProgram = descriptor.isDictionary() && ['FontFile', 'FontFile2', 'FontFile3'].some((k) => !descriptor.get(k).isNull());
        if (font.isDictionary() && !hasProgram && embedder.embed(font) !== undefined) embedded++;
      });
    }
    const xobjects = deref(resources.get('XObject'));
    if (xobjects.isDictionary()) {
      xobjects.forEach((ref) => {
        if (!firstTime(ref)) return;
        // A stream stays its reference: isStream() is true for the reference only (core/mupdf-objects.ts).
        if (ref.isStream() && name(ref.get('Subtype')) === 'Form') visit(deref(ref.get('Resources')));
      });
    }
  };
  // Annotations' appearances draw with fonts too (a filled field's value): veraPDF checks them as page content.
  const appearance = (stream: mupdf.PDFObject) => {
    if (stream.isStream() && firstTime(stream)) visit(deref(stream.get('Resources')));
  };
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.findPage(i);
    visit(deref(page.getInheritable('Resources')));
    const annots = deref(page.get('Annots'));
    if (!annots.isArray()) continue;
    annots.forEach((a) => {
      const ap = deref(deref(a).get('AP'));
      if (!ap.isDictionary()) return;
      for (const key of ['N', 'R', 'D']) {
        const entry = ap.get(key);
        // One appearance, or one per state (a check box's /On and /Off).
        if (entry.isStream()) appearance(entry);
        else if (deref(entry).isDictionary()) deref(entry).forEach((state) => appearance(state));
      }
    });
  }
  return embedded;
}

/** Most form XObjects followed from the pages (nested forms of a hostile file end there). */
const MAX_FORMS = 10_000;

/** A form XObject the pages' content draws: how many times a page's own stream draws it, and whether a form does. */
interface FormUse {
  ref: mupdf.PDFObject;
  drawn: number;
  nested: boolean;
}

/**
 * The form XObjects drawn from the pages' content, directly or through other forms (not annotation appearances, whose
 * marked content, such as a text field's /Tx, is the field's own), by object number.
 */
function formUses(doc: mupdf.PDFDocument): Map<number, FormUse> {
  const uses = new Map<number, FormUse>();
  const queue: mupdf.PDFObject[] = [];
  const scan = (streams: mupdf.PDFObject[], resources: mupdf.PDFObject, fromPage: boolean) => {
    const xobjects = resources.isDictionary() ? deref(resources.get('XObject')) : resources;
    if (!xobjects.isDictionary()) return;
    for (const stream of streams) {
      if (!stream.isStream()) continue;
      for (const { op, args } of contentOperations(stream.readStream().asUint8Array())) {
        if (op !== 'Do' || typeof args[0] !== 'string') continue;
        const ref = xobjects.get(args[0]);
        if (!ref.isIndirect() || !ref.isStream() || name(ref.get('Subtype')) !== 'Form') continue;
        let use = uses.get(ref.asIndirect());
        if (!use) {
          if (uses.size >= MAX_FORMS) continue;
          use = { ref, drawn: 0, nested: false };
          uses.set(ref.asIndirect(), use);
          queue.push(ref);
        }
        if (fromPage) use.drawn++;
        else use.nested = true;
      }
    }
  };
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.findPage(i);
    scan(pageContents(page), deref(page.getInheritable('Resources')), true);
  }
  for (let next = queue.shift(); next; next = queue.shift()) scan([next], deref(next.get('Resources')), false);
  return uses;
}

/**
 * Whether a form's own stream is marked (MCIDs in it, /StructParents on it, the elements naming it with /Stm) rather
 * than its drawing placed as a whole: when one page draws it once and no other form draws it (ISO 32000-1 14.7.4.3:
 * a form's marked content belongs to one parent-tree entry, so to one drawing). A form drawn again (a logo on every
 * page) is one sequence around each Do, that drawing's element or an artifact (14.7.4.6 and 14.7.6).
 */
const ownMarked = (use: FormUse | undefined): boolean => use !== undefined && use.drawn === 1 && !use.nested;

/** A retag: the old tree, the pages' and annotations' keys into its parent tree go (the streams' marked content is stripped as they are marked). */
function dropStructure(doc: mupdf.PDFDocument, forms: Map<number, FormUse>): void {
  // The forms' old marked content and keys go too: their MCIDs belong to the tree being replaced.
  for (const { ref } of forms.values()) {
    ref.delete('StructParents');
    ref.delete('StructParent');
    const bytes = ref.readStream().asUint8Array();
    const stripped = markContent(bytes, { targetOf: () => undefined, tagOf: () => '', xobject: () => undefined, strip: true, mark: false });
    if (!Buffer.from(stripped.bytes).equals(Buffer.from(bytes))) ref.writeStream(stripped.bytes);
  }
  const catalog = deref(doc.getTrailer().get('Root'));
  catalog.delete('StructTreeRoot');
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.findPage(i);
    page.delete('StructParents');
    const annots = deref(page.get('Annots'));
    if (annots.isArray()) annots.forEach((a) => deref(a).isDictionary() && deref(a).delete('StructParent'));
  }
}

/** The XObjects of `resources` by name, as markContent asks for them; `forms` says which forms are marked inside. */
function xobjectLookup(resources: mupdf.PDFObject, forms?: Map<number, FormUse>): (key: string) => XObjectInfo | undefined {
  const xobjects = resources.isDictionary() ? deref(resources.get('XObject')) : resources;
  return (key) => {
    if (!xobjects.isDictionary()) return undefined;
    const x = xobjects.get(key);
    if (!x.isStream()) return undefined;
    const subtype = name(x.get('Subtype'));
    if (subtype === 'Image') return { kind: 'image' };
    if (subtype !== 'Form') return undefined;
    const own = forms !== undefined && x.isIndirect() && ownMarked(forms.get(x.asIndirect()));
    return { kind: own ? 'own' : 'form', bbox: numbers(x.get('BBox')) ?? [], matrix: numbers(x.get('Matrix')) ?? [] };
  };
}

/** Whether the page has a widget annotation (a form field). */
function hasWidget(page: mupdf.PDFObject): boolean {
  const annots = deref(page.get('Annots'));
  let found = false;
  if (annots.isArray()) annots.forEach((a) => void (found ||= name(deref(a).get('Subtype')) === 'Widget'));
  return found;
}

/** A user-space rectangle of an annotation's /Rect. */
function annotRect(annot: mupdf.PDFObject): Rectangle | undefined {
  const r = numbers(annot.get('Rect'));
  if (!r || r.length !== 4) return undefined;
  return { x: Math.min(r[0]!, r[2]!), y: Math.min(r[1]!, r[3]!), width: Math.abs(r[2]! - r[0]!), height: Math.abs(r[3]! - r[1]!) };
}

/**
 * The image blocks drawn at the same place and size (to the point) on at least half the pages, and on two or more: a
 * letterhead's logo, a picture in a running header or footer, whether drawn as an image or by a form. Such a picture
 * is page furniture, not content (ISO 32000-1 14.8.2.2.2: pagination artifacts), so it is an artifact rather than a
 * Figure asking for the same alternate text on every page. The running-line detection of the export reads text only.
 */
function runningImages(pages: readonly ExportPage[], pageCount: number): Set<ExportBlock> {
  const needed = Math.max(2, Math.ceil(pageCount / 2));
  const byPlace = new Map<string, { pages: Set<number>; blocks: ExportBlock[] }>();
  for (const page of pages) {
    for (const block of page.blocks) {
      if (block.type !== 'image') continue;
      const r = block.rectangle;
      const key = [r.x, r.y, r.width, r.height].map(Math.round).join(' ');
      const place = byPlace.get(key) ?? { pages: new Set(), blocks: [] };
      place.pages.add(page.pageIndex);
      place.blocks.push(block);
      byPlace.set(key, place);
    }
  }
  return new Set([...byPlace.values()].filter((p) => p.pages.size >= needed).flatMap((p) => p.blocks));
}

type TagResult = { bytes?: Uint8Array; report: TagReport };

export function tagForPdfua(input: PdfInput & TagRequest, ctx?: TaskContext) {
  return editPdf(input, 'edit', (doc, edit) => {
    const report: TagReport = { tagged: 'added', elements: {}, artifacts: 0, figuresWithoutAlt: [], fontsEmbedded: 0, fieldsDescribed: 0, annotationsDescribed: 0, embeddedFilesNamed: 0, mediaClipsDescribed: 0, pdfuaIdentified: false };
    const retag = isTagged(doc);
    if (retag && !input.retag) return withSummary<TagResult>(doc, edit.opened, { report: { ...report, tagged: 'kept' } });
    refuseIfSigned(doc, 'tagging changes every page\'s content');
    const pageCount = doc.countPages();
    const indices = Array.from({ length: pageCount }, (_, i) => i);
    const raw = readPagesAsTheyAre(doc, indices, ctx, 'read');
    // A form whose only text is in its fields (their appearances are not page content) is tagged: its fields are Form
    // elements, described by their names. Without text and without fields it is a scan: OCRAction first.
    if (!hasText(raw) && !indices.some((i) => hasWidget(doc.findPage(i)))) throw noText('document');
    // The lines of each page, table cells included, in PDF user space: where form fields' labels are read from.
    const linesOf = new Map<number, PageLine[]>();
    for (const page of raw) {
      const lines: PageLine[] = [];
      for (const item of page.items) {
        if (item.kind === 'lines') lines.push(...item.lines.map((l) => ({ text: l.text, rect: l.rect })));
        else if (item.kind === 'table') item.cells.forEach((row, r) => row.forEach((rect, c) => lines.push({ text: item.block.type === 'table' ? (item.block.rows[r]?.[c]?.text ?? '') : '', rect })));
      }
      linesOf.set(page.pageIndex, lines);
    }
    // Table cells by table: the model keeps the block objects of the raw items.
    const cellsOf = new Map<ExportBlock, Rectangle[][]>();
    for (const page of raw) for (const item of page.items) if (item.kind === 'table') cellsOf.set(item.block, item.cells);
    const model = classify(raw, pageCount);
    const running = runningImages(model.pages, pageCount);
    const forms = formUses(doc);
    if (retag) {
      report.tagged = 'replaced';
      dropStructure(doc, forms);
    }

    const document = node('Document');
    let list: Node | undefined;
    let lastLevel = 0;
    let firstHeading: string | undefined;
    const annotKids: { key: number; annot: mupdf.PDFObject; node: Node }[] = [];
    // The parent-tree entries of the forms marked inside: the elements by MCID of each form's stream.
    const formKids: { key: number; nodes: Node[] }[] = [];
    const written = new Map<Node, mupdf.PDFObject>();
    const byPage = new Map<number, Node[]>();
    // Parent-tree keys after the pages' (which are their indices): annotations and forms marked inside, in order.
    let nextKey = pageCount;

    for (const page of model.pages) {
      const texts: TextTarget[] = [];
      const images: { rect: Rectangle; node: Node }[] = [];
      for (const block of page.blocks) {
        if (block.type !== 'listItem') list = undefined;
        if (block.type === 'heading') {
          // Levels as the export found them, never skipping one downwards (PDF/UA-1 7.4.2: headings nest).
          const level = Math.min(block.level ?? 1, lastLevel + 1);
          lastLevel = level;
          firstHeading ??= block.text;
          const h = node(`H${level}`);
          document.kids.push(h);
          texts.push({ rect: block.rectangle, node: h });
        } else if (block.type === 'paragraph') {
          const p = node('P');
          document.kids.push(p);
          texts.push({ rect: block.rectangle, node: p });
        } else if (block.type === 'listItem') {
          if (!list || (list.attributes?.ListNumbering === 'Decimal') !== (block.ordered === true)) {
            list = node('L', { attributes: { O: 'List', ListNumbering: block.ordered ? 'Decimal' : 'Disc' } });
            document.kids.push(list);
          }
          const body = node('LBody');
          list.kids.push(node('LI', { kids: [body] }));
          texts.push({ rect: block.rectangle, node: body });
        } else if (block.type === 'table') {
          const table = node('Table');
          document.kids.push(table);
          const cells: { rect: Rectangle; node: Node }[] = [];
          const head = headerRows(block.rows);
          (cellsOf.get(block) ?? []).forEach((row, r) => {
            const tr = node('TR');
            table.kids.push(tr);
            for (const [i, rect] of row.entries()) {
              // The head rows are header rows, as the export's HTML has them; their cells head the columns. A merged cell
              // says how far it reaches (PDF 32000-1 14.8.5.7, RowSpan and ColSpan), as the HTML's rowspan and colspan.
              const { rowSpan = 1, colSpan = 1 } = block.rows[r]?.[i] ?? {};
              const spans = { ...(rowSpan > 1 ? { RowSpan: rowSpan } : {}), ...(colSpan > 1 ? { ColSpan: colSpan } : {}) };
              const cell = r < head ? node('TH', { attributes: { O: 'Table', Scope: 'Column', ...spans } }) : node('TD', rowSpan > 1 || colSpan > 1 ? { attributes: { O: 'Table', ...spans } } : {});
              tr.kids.push(cell);
              cells.push({ rect, node: cell });
            }
          });
          texts.push({ rect: block.rectangle, node: table, cells });
        } else if (!running.has(block)) {
          // A running image gets no element: what it draws is marked as an artifact (targetOf finds no image there).
          const figure = node('Figure', { bbox: block.rectangle });
          document.kids.push(figure);
          images.push({ rect: block.rectangle, node: figure });
        }
      }

      const pageObj = doc.findPage(page.pageIndex);
      const annots = deref(pageObj.get('Annots'));
      const links: { rect: Rectangle; node: Node }[] = [];
      const others: { annot: mupdf.PDFObject; node: Node }[] = [];
      if (annots.isArray()) {
        annots.forEach((ref) => {
          const annot = deref(ref);
          const subtype = annot.isDictionary() ? name(annot.get('Subtype')) : undefined;
          // A printer's mark is an incidental artifact, never tagged (PDF/UA-1 7.18.8); a popup is tagged as any other
          // annotation (veraPDF's 7.18.1-1 and 7.18.1-2 ask it of popups too).
          if (!subtype || subtype === 'PrinterMark' || !ref.isIndirect()) return;
          const rect = annotRect(annot);
          const element = node(subtype === 'Link' ? 'Link' : subtype === 'Widget' ? 'Form' : 'Annot', { kids: [] });
          const lines = linesOf.get(page.pageIndex) ?? [];
          if (subtype === 'Widget') {
            if (describeField(doc, annot, rect, lines) !== undefined) report.fieldsDescribed++;
          } else if (subtype !== 'Link') {
            // Links get their /Contents when the document is finished (the text they cover); other annotations an /Alt.
            element.alt = annotationAlt(annot, subtype, rect, lines);
            if (element.alt !== undefined) report.annotationsDescribed++;
          }
          if (subtype === 'Link' && rect) {
            const [x, y] = centre([rect.x, rect.y, rect.x + rect.width, rect.y + rect.height]);
            const home = texts.filter((t) => contains(t.rect, x, y)).sort((a, b) => area(a.rect) - area(b.rect))[0];
            const cell = home?.cells?.find((c) => contains(c.rect, x, y));
            element.home = cell?.node ?? home?.node ?? document;
            links.push({ rect, node: element });
          }
          others.push({ annot: ref, node: element });
        });
      }

      const textTarget = (x: number, y: number): Node | undefined => {
        const hit = texts.filter((t) => contains(t.rect, x, y)).sort((a, b) => area(a.rect) - area(b.rect))[0];
        if (!hit) return undefined;
        if (!hit.cells) return hit.node;
        if (hit.cells.length === 0) return undefined;
        const inCell = hit.cells.find((c) => contains(c.rect, x, y));
        if (inCell) return inCell.node;
        const d = (r: Rectangle) => Math.hypot(r.x + r.width / 2 - x, r.y + r.height / 2 - y);
        return [...hit.cells].sort((a, b) => d(a.rect) - d(b.rect))[0]!.node;
      };
      const targetOf = (p: Painting): Node | undefined => {
        if (p.kind === 'graphics') return undefined;
        if (p.kind === 'text') {
          const link = links.find((l) => contains(l.rect, p.x, p.y));
          const home = textTarget(p.x, p.y);
          if (link && home) return link.node;
          return home;
        }
        const [x, y] = centre(p.box);
        const image = images.filter((i) => contains(i.rect, x, y)).sort((a, b) => area(a.rect) - area(b.rect))[0];
        if (p.kind === 'image') return image?.node;
        return textTarget(x, y) ?? image?.node;
      };

      const streams = pageContents(pageObj).filter((s) => s.isStream());
      const mcidNodes: Node[] = [];
      if (streams.length) {
        // Marked content may not span two streams of an array: they are read, and written back, as the one they make.
        const parts = streams.map((s) => s.readStream().asUint8Array());
        const joined = parts.length === 1 ? parts[0]! : Buffer.concat(parts.flatMap((p) => [p, Buffer.from('\n')]));
        const pageResources = deref(pageObj.getInheritable('Resources'));
        const pageXObjects = xobjectLookup(pageResources, forms);
        // A form drawn once is marked in its own stream, placed in page space by the CTM at its Do (ownMarked).
        const formsMarked: { before: number; ref: mupdf.PDFObject; mcids: Node[] }[] = [];
        const ownForm = (key: string, ctm: Matrix, before: number) => {
          const ref = deref(pageResources.get('XObject')).get(key);
          const own = deref(ref.get('Resources'));
          const inner = markContent(ref.readStream().asUint8Array(), { targetOf, tagOf: (n: Node) => n.type, xobject: xobjectLookup(own.isDictionary() ? own : pageResources), strip: retag, ctm });
          ref.writeStream(inner.bytes);
          report.artifacts += inner.artifacts;
          formsMarked.push({ before, ref, mcids: inner.mcids });
        };
        const marked = markContent(joined, { targetOf, tagOf: (n) => n.type, xobject: pageXObjects, strip: retag, ownForm });
        streams[0]!.writeStream(marked.bytes);
        if (streams.length > 1) pageObj.put('Contents', streams[0]!);
        report.artifacts += marked.artifacts;
        const place = (target: Node) => {
          if (target.home && !target.placed) {
            target.home.kids.push(target);
            target.placed = true;
          }
        };
        // The forms' content in the elements in drawing order: before the page's MCID that followed their Do.
        let nextForm = 0;
        const formsUpTo = (mcid: number) => {
          for (; nextForm < formsMarked.length && formsMarked[nextForm]!.before <= mcid; nextForm++) {
            const { ref, mcids } = formsMarked[nextForm]!;
            if (mcids.length === 0) continue;
            const key = nextKey++;
            ref.put('StructParents', doc.newInteger(key));
            mcids.forEach((target, mcid) => {
              place(target);
              target.kids.push({ mcid, pageIndex: page.pageIndex, stm: ref });
            });
            formKids.push({ key, nodes: mcids });
          }
        };
        marked.mcids.forEach((target, mcid) => {
          formsUpTo(mcid);
          place(target);
          target.kids.push({ mcid, pageIndex: page.pageIndex });
          mcidNodes.push(target);
        });
        formsUpTo(Infinity);
      }
      byPage.set(page.pageIndex, mcidNodes);
      // Annotations: a Link in its block (after its text), a link without text and other annotations after the page's content.
      for (const other of others) {
        other.node.kids.push({ annot: other.annot, pageIndex: page.pageIndex });
        if (!other.node.placed) {
          (other.node.home ?? document).kids.push(other.node);
          other.node.placed = true;
        }
        annotKids.push({ key: nextKey++, annot: other.annot, node: other.node });
      }
      if (others.length) pageObj.put('Tabs', doc.newName('S'));
    }

    // Elements with no content anywhere below are left out (a block whose text is drawn inside another's form, say);
    // a table's empty cells stay, in a row that has content, so that its rows stay regular.
    const hasContent = (n: Node): boolean => n.kids.some((k) => !isNode(k) || hasContent(k));
    const prune = (n: Node) => {
      n.kids = n.kids.filter((k) => !isNode(k) || hasContent(k) || ((k.type === 'TD' || k.type === 'TH') && n.type === 'TR'));
      n.kids.forEach((k) => isNode(k) && prune(k));
    };
    prune(document);

    // Figures in depth-first order: their alt text from the request, by that index.
    const figures: Node[] = [];
    const walk = (n: Node) => {
      if (n.type === 'Figure') figures.push(n);
      n.kids.forEach((k) => isNode(k) && walk(k));
    };
    walk(document);
    for (const f of input.figures ?? []) {
      if (f.index >= figures.length) throw new EngineError('VALIDATION_FAILED', `figures: index ${f.index} names no figure: tagged, the document has ${figures.length} figure${figures.length === 1 ? '' : 's'} (numbered from 0)`);
      figures[f.index]!.alt = f.alt;
    }

    // The tree written: each element once, its MCIDs (with /Pg) and annotations (OBJR).
    const root = doc.addObject(doc.newDictionary());
    root.put('Type', doc.newName('StructTreeRoot'));
    const write = (n: Node, parent: mupdf.PDFObject): mupdf.PDFObject => {
      const element = doc.addObject(doc.newDictionary());
      written.set(n, element);
      report.elements[n.type] = (report.elements[n.type] ?? 0) + 1;
      element.put('Type', doc.newName('StructElem'));
      element.put('S', doc.newName(n.type));
      element.put('P', parent);
      const pageOf = n.kids.find((k): k is { mcid: number; pageIndex: number } => !isNode(k) && 'mcid' in k)?.pageIndex;
      if (pageOf !== undefined) element.put('Pg', doc.findPage(pageOf));
      if (n.alt !== undefined) element.put('Alt', doc.newString(n.alt));
      const attributes = doc.newDictionary();
      for (const [key, value] of Object.entries(n.attributes ?? {})) attributes.put(key, typeof value === 'number' ? doc.newInteger(value) : doc.newName(value));
      if (n.bbox) {
        attributes.put('O', doc.newName('Layout'));
        const b = doc.newArray();
        for (const v of [n.bbox.x, n.bbox.y, n.bbox.x + n.bbox.width, n.bbox.y + n.bbox.height]) b.push(doc.newReal(v));
        attributes.put('BBox', b);
      }
      if (n.attributes || n.bbox) element.put('A', attributes);
      const kids = doc.newArray();
      for (const kid of n.kids) {
        if (isNode(kid)) kids.push(write(kid, element));
        else if ('mcid' in kid) {
          if (kid.pageIndex === pageOf && !kid.stm) kids.push(doc.newInteger(kid.mcid));
          else {
            const mcr = doc.newDictionary();
            mcr.put('Type', doc.newName('MCR'));
            mcr.put('Pg', doc.findPage(kid.pageIndex));
            if (kid.stm) mcr.put('Stm', kid.stm);
            mcr.put('MCID', doc.newInteger(kid.mcid));
            kids.push(mcr);
          }
        } else {
          const objr = doc.newDictionary();
          objr.put('Type', doc.newName('OBJR'));
          objr.put('Obj', kid.annot);
          objr.put('Pg', doc.findPage(kid.pageIndex));
          kids.push(objr);
        }
      }
      element.put('K', kids);
      return element;
    };
    const documentElement = write(document, root);
    root.put('K', documentElement);

    const nums = doc.newArray();
    for (const [pageIndex, nodes] of [...byPage].sort((a, b) => a[0] - b[0])) {
      if (nodes.length === 0) continue;
      const page = doc.findPage(pageIndex);
      page.put('StructParents', doc.newInteger(pageIndex));
      nums.push(doc.newInteger(pageIndex));
      const arr = doc.newArray();
      for (const n of nodes) arr.push(written.get(n) ?? doc.newNull());
      nums.push(arr);
    }
    // Annotations' and forms' keys, in key order (a number tree's /Nums is sorted).
    const entries: { key: number; value: () => mupdf.PDFObject | undefined }[] = [];
    for (const { key, annot, node: n } of annotKids) {
      entries.push({
        key,
        value: () => {
          const element = written.get(n);
          if (element) deref(annot).put('StructParent', doc.newInteger(key));
          return element;
        },
      });
    }
    for (const { key, nodes } of formKids) {
      entries.push({
        key,
        value: () => {
          const arr = doc.newArray();
          for (const n of nodes) arr.push(written.get(n) ?? doc.newNull());
          return arr;
        },
      });
    }
    for (const { key, value } of entries.sort((a, b) => a.key - b.key)) {
      const v = value();
      if (!v) continue;
      nums.push(doc.newInteger(key));
      nums.push(v);
    }
    const tree = doc.newDictionary();
    tree.put('Nums', nums);
    root.put('ParentTree', doc.addObject(tree));
    root.put('ParentTreeNextKey', doc.newInteger(nextKey));
    deref(doc.getTrailer().get('Root')).put('StructTreeRoot', root);

    report.fontsEmbedded = embedFonts(doc);
    const named = nameEmbeddedFiles(doc);
    report.embeddedFilesNamed = named.files;
    report.mediaClipsDescribed = named.mediaClips;
    const finished = finishTagged(doc, { title: input.title, language: input.lang, fallbackTitle: firstHeading ?? input.fallbackTitle }, 'always');
    figures.forEach((f, index) => {
      if (f.alt === undefined) report.figuresWithoutAlt.push({ index, pageIndex: pageOfFigure(f), rectangle: f.bbox! });
    });
    if (finished.title !== undefined) report.title = finished.title;
    if (finished.language !== undefined) report.language = finished.language;
    report.pdfuaIdentified = finished.pdfuaIdentified;
    return withSummary<TagResult>(doc, edit.opened, { bytes: edit.save(), report });
  });
}

function pageOfFigure(f: Node): number {
  const kid = f.kids.find((k) => !isNode(k) && 'mcid' in k) as { pageIndex: number } | undefined;
  return kid?.pageIndex ?? 0;
}
