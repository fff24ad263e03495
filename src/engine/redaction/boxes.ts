/**
 * The boxes of Redact annotations on a page: where they are (quads in page
 * space), which characters lie under them, and the fill and overlay text
 * painted over them once their content is removed.
 */
import * as mupdf from 'mupdf';
import { fixedNumber } from '../syntax/numbers.js';
import { hasQuad, quadBounds, quadContains, type PageText, type Quad } from '../text/match.js';
import { type AnnotationEntry } from '../annotations/read.js';
import { numbers, text } from '../syntax/readers.js';
import { ownResources, PageOverlay } from '../pages/overlay.js';

/** A box to apply: the Redact annotation's quads (its Rect when it has none), its look, and its name. */
export interface Box {
  name: string;
  quads: Quad[];
  /** Each quad's bounds, to rule out most characters cheaply. */
  bounds: [number, number, number, number][];
  fill: [number, number, number];
  overlayText: string | undefined;
  overlayColor: [number, number, number];
}

/**
 * The boxes' quads bucketed by horizontal band, so that finding the box over
 * a character looks at the few quads near it rather than at every box on the
 * page (a page can carry thousands).
 */
export class BoxIndex {
  private readonly top: number;
  private readonly bandHeight: number;
  private readonly bands: { box: Box; quad: number }[][];

  constructor(boxes: Box[]) {
    let top = Infinity;
    let bottom = -Infinity;
    for (const box of boxes) {
      for (const b of box.bounds) {
        top = Math.min(top, b[1]);
        bottom = Math.max(bottom, b[3]);
      }
    }
    this.top = top;
    const count = Number.isFinite(top) ? Math.min(1024, Math.max(1, Math.ceil((bottom - top) / 8))) : 0;
    this.bandHeight = count ? Math.max((bottom - top) / count, 1e-6) : 1;
    this.bands = Array.from({ length: count }, () => []);
    for (const box of boxes) {
      box.bounds.forEach((b, quad) => {
        for (let i = this.band(b[1]); i <= this.band(b[3]); i++) this.bands[i]!.push({ box, quad });
      });
    }
  }

  private band(y: number): number {
    return Math.min(this.bands.length - 1, Math.max(0, Math.floor((y - this.top) / this.bandHeight)));
  }

  /** The box whose quad contains the point, if any. */
  find(x: number, y: number): Box | undefined {
    if (!this.bands.length || y < this.top) return undefined;
    const band = this.bands[this.band(y)]!;
    for (const { box, quad } of band) {
      const b = box.bounds[quad]!;
      if (x < b[0] || x > b[2] || y < b[1] || y > b[3]) continue;
      if (quadContains(box.quads[quad]!, x, y)) return box;
    }
    return undefined;
  }
}

/** The text under each box (a character is under a box when its centre is), and the rest of the text with the boxed characters cut out. */
export function splitByBoxes(text: PageText, boxes: BoxIndex): { under: Map<Box, string>; outside: string } {
  const under = new Map<Box, string>();
  const outside: string[] = [];
  let kept = 0;
  const q = text.quads;
  for (let i = 0; i < text.text.length; i++) {
    if (!hasQuad(text, i)) continue;
    const o = i * 8;
    const box = boxes.find((q[o]! + q[o + 2]! + q[o + 4]! + q[o + 6]!) / 4, (q[o + 1]! + q[o + 3]! + q[o + 5]! + q[o + 7]!) / 4);
    if (!box) continue;
    under.set(box, (under.get(box) ?? '') + text.text[i]);
    outside.push(text.text.slice(kept, i), '\n');
    kept = i + 1;
  }
  outside.push(text.text.slice(kept));
  return { under, outside: outside.join('') };
}

const fmt = (n: number): string => fixedNumber(n, 3);

/** Latin-1 text as a PDF literal string; characters outside it become '?'. */
function literal(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    const c = code > 0xff || code < 0x20 ? '?' : ch;
    out += c === '(' || c === ')' || c === '\\' ? `\\${c}` : c;
  }
  return `(${out})`;
}

/**
 * Paints each box's fill and overlay text over the page. Drawn in page space
 * (the inverse of the page transform as `cm`), so rotated pages and offset
 * media boxes need no special cases; PageOverlay keeps the page's own
 * graphics state from leaking into the overlay.
 */
export function paintOverlays(overlay: PageOverlay, doc: mupdf.PDFDocument, page: mupdf.PDFPage, boxes: Box[], overlayFont: () => mupdf.PDFObject): void {
  if (!boxes.length) return;
  const inv = mupdf.Matrix.invert(page.getTransform());
  const ops: string[] = [`q ${inv.map(fmt).join(' ')} cm`];
  let usesFont = false;
  for (const box of boxes) {
    for (const q of box.quads) {
      ops.push(`${box.fill.map(fmt).join(' ')} rg ${fmt(q[0])} ${fmt(q[1])} m ${fmt(q[2])} ${fmt(q[3])} l ${fmt(q[6])} ${fmt(q[7])} l ${fmt(q[4])} ${fmt(q[5])} l h f`);
    }
    if (box.overlayText) {
      const [x0, y0, x1, y1] = quadBounds(box.quads[0]!);
      const height = y1 - y0;
      const size = Math.max(1, Math.min(height * 0.8, (x1 - x0 - 2) / (0.56 * box.overlayText.length)));
      const baseline = y0 + (height + size * 0.7) / 2;
      ops.push(`BT /RedactOverlay ${fmt(size)} Tf ${box.overlayColor.map(fmt).join(' ')} rg 1 0 0 -1 ${fmt(x0 + 1)} ${fmt(baseline)} Tm ${literal(box.overlayText)} Tj ET`);
      usesFont = true;
    }
  }
  ops.push('Q');
  const pageObj = page.getObject();
  if (usesFont) ownResources(doc, pageObj, 'Font').put('RedactOverlay', overlayFont());
  overlay.attach(pageObj, overlay.drawing(ops.join('\n')));
}

/** A Redact annotation's box in page space, read from its parsed dictionary (no MuPDF objects per annotation). */
export function boxOf(entry: AnnotationEntry, ctm: mupdf.Matrix): Box {
  const toPage = (x: number, y: number): [number, number] => [ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]];
  const quads: Quad[] = [];
  const qp = numbers(entry.dict.get('QuadPoints')) ?? [];
  for (let i = 0; i + 8 <= qp.length; i += 8) {
    // /QuadPoints lists each quad's corners as upper-left, upper-right, lower-left, lower-right: MuPDF's order too.
    quads.push([...toPage(qp[i]!, qp[i + 1]!), ...toPage(qp[i + 2]!, qp[i + 3]!), ...toPage(qp[i + 4]!, qp[i + 5]!), ...toPage(qp[i + 6]!, qp[i + 7]!)] as Quad);
  }
  if (!quads.length) {
    const [x0, y0, x1, y1] = numbers(entry.dict.get('Rect')) ?? [0, 0, 0, 0];
    quads.push([...toPage(x0!, y1!), ...toPage(x1!, y1!), ...toPage(x0!, y0!), ...toPage(x1!, y0!)] as Quad);
  }
  const ic = numbers(entry.dict.get('IC'));
  const da = text(entry.dict.get('DA'));
  const colour = da ? /([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+rg/u.exec(da) : null;
  return {
    name: entry.name,
    quads,
    bounds: quads.map(quadBounds),
    // A Redact annotation without /IC is painted black: the box must hide what was there.
    fill: ic?.length === 3 ? (ic as [number, number, number]) : [0, 0, 0],
    overlayText: text(entry.dict.get('OverlayText')),
    overlayColor: colour ? [Number(colour[1]), Number(colour[2]), Number(colour[3])] : [1, 1, 1],
  };
}
