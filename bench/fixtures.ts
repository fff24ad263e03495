/**
 * Bench fixtures written as PDF syntax by hand, not with MuPDF (the engine
 * under test). Deterministic: the same arguments always give the same bytes.
 */
import zlib from 'node:zlib';
import { serializePdf } from '../test/helpers/pdf.js';
import { cachedFixture } from './lib.js';

/**
 * The annotation kinds, cycled over each page's slots. A Popup slot belongs to
 * the Text note just before it, so popups count towards the per-page total,
 * as they do in the service's listing.
 */
const KINDS = ['Text', 'Popup', 'Highlight', 'Square', 'Circle', 'Ink', 'FreeText', 'Link', 'Line', 'Highlight'] as const;
type Kind = (typeof KINDS)[number];

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const AUTHORS = ['Alice Martin', 'Bob Schulz', 'Zoë Ångström', 'Chen Wei (review)'];

/** What a bench document holds besides its pages; every part can be left out. */
export interface DocumentOptions {
  /** Annotations a page (default 20; 0 for none). */
  annotationsPerPage?: number;
  /** Lines of text a page (default 30), each holding `word` once. */
  lines?: number;
  /** The word every line holds, so a search finds pages × lines matches (default "confidential"). */
  word?: string;
  /** A small image on every page, its own per page (default true). */
  images?: boolean;
  /** An AcroForm with FORM_WIDGETS fields on the first page (default true). */
  form?: boolean;
}

/** Fields (one widget each) of the form on the first page: a text field, a check box and a combo box. */
export const FORM_WIDGETS = 3;

/**
 * The bench document (issue 10): `pages` pages, each with 30 lines of text
 * (Helvetica, every line holding the search word once), an image of its own,
 * and 20 annotations: Text notes with Popups, Highlights with QuadPoints,
 * Square/Circle with /IC, Ink, FreeText, Link with a URI action and Line. Every
 * annotation but the Popups has /NM, /T, /Contents, /M, /C and a normal
 * appearance stream (as files from real viewers do, so no reader has to
 * synthesize one); Popups have /NM, /Parent and /Open. The first page also
 * holds a form. Text sits at the top left, the image and the form's widgets at
 * the top right, the annotations on a grid of 5 columns below the text.
 */
export function makeBenchDocument(pages: number, options: DocumentOptions = {}): Buffer {
  // From 50 pages the document takes a second or more to write (5 s at 1,000 pages): made once, kept on disk.
  return pages >= 50 ? cachedFixture(`bench-${pages}`, { pages, options }, () => writeBenchDocument(pages, options)) : writeBenchDocument(pages, options);
}

function writeBenchDocument(pages: number, options: DocumentOptions): Buffer {
  const { annotationsPerPage: perPage = 20, lines = 30, word = 'confidential', images = true, form = true } = options;
  const objects: string[] = [];
  const add = (body: string) => objects.push(body); // returns the new object's number
  const ref = (n: number) => `${n} 0 R`;
  const catalog = add('');
  const pageTree = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const stream = (dict: string, content: string) => add(`<< ${dict} /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);

  const rows = Math.max(1, Math.ceil(perPage / 5));
  const cellHeight = Math.min(120, GRID_HEIGHT / rows);
  const kids: number[] = [];
  const fields: number[] = [];
  let serial = 0;
  for (let p = 0; p < pages; p++) {
    const shown = Array.from({ length: lines }, (_, l) => `(${pdfText(`Page ${p + 1} line ${l + 1}: the ${word} figures stay with the board until review.`)}) Tj`);
    const image = images ? stream(imageDict(), pageImage(p)) : 0;
    const content = stream('', `BT /F1 10 Tf 12 TL 56 760 Td ${shown.join(' T* ')} ET${image ? ' q 120 0 0 90 470 660 cm /Im0 Do Q' : ''}`);
    // The page's number is needed by /P before the page itself is written: reserve it.
    const page = add('');
    const annots: number[] = [];
    if (form && p === 0) fields.push(...formWidgets(add, stream, ref, page, font));
    let lastText = 0;
    for (let j = 0; j < perPage; j++) {
      const kind: Kind = KINDS[j % KINDS.length]!;
      const x = 40 + (j % 5) * 108;
      const y = Number(fixed(GRID_BOTTOM + GRID_HEIGHT - Math.floor(j / 5 + 1) * cellHeight));
      const w = 96;
      const h = Math.max(8, cellHeight - 10);
      const rect = `[${x} ${y} ${x + w} ${fixed(y + h)}]`;
      const name = `bench-p${p + 1}-a${j + 1}`;
      if (kind === 'Popup') {
        // KINDS puts a Text right before every Popup slot, so lastText is this popup's parent.
        const popup = add(`<< /Type /Annot /Subtype /Popup /NM (${name}) /Rect ${rect} /P ${ref(page)} /Parent ${ref(lastText)} /Open false /F 28 >>`);
        objects[lastText - 1] = objects[lastText - 1]!.replace('/Popup null', `/Popup ${ref(popup)}`);
        annots.push(popup);
        continue;
      }
      serial++;
      const color = [(serial * 37) % 256, (serial * 91) % 256, (serial * 53) % 256].map((c) => fixed(c / 255));
      const author = AUTHORS[serial % AUTHORS.length]!;
      const day = 1 + (serial % 28);
      const common =
        `/Type /Annot /Subtype /${kind} /NM (${name}) /Rect ${rect} /P ${ref(page)} /F 4` +
        ` /T ${pdfTextString(author)} /Contents ${pdfTextString(`${kind} ${serial} on page ${p + 1}: ${kind === 'Text' ? 'please check the figures (and the units).' : 'reviewed'}`)}` +
        ` /M (D:2024${String(1 + (serial % 12)).padStart(2, '0')}${String(day).padStart(2, '0')}10${String(serial % 60).padStart(2, '0')}00+01'00') /C [${color.join(' ')}]`;
      const resources = kind === 'FreeText' ? ` /Resources << /Font << /Helv ${ref(font)} >> >>` : '';
      const ap = stream(`/Type /XObject /Subtype /Form /BBox [0 0 ${w} ${fixed(h)}]${resources}`, appearance(kind, w, h, color));
      const specific = kindEntries(kind, x, y, w, h, p);
      const annot = add(`<< ${common} ${specific} /AP << /N ${ref(ap)} >>${kind === 'Text' ? ' /Popup null' : ''} >>`);
      if (kind === 'Text') lastText = annot;
      annots.push(annot);
    }
    // A Text note whose Popup slot fell off the page's end keeps no /Popup entry.
    if (lastText) objects[lastText - 1] = objects[lastText - 1]!.replace(' /Popup null', '');
    const widgets = form && p === 0 ? fields : [];
    objects[page - 1] =
      `<< /Type /Page /Parent ${ref(pageTree)} /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 ${ref(font)} >>${image ? ` /XObject << /Im0 ${ref(image)} >>` : ''} >>` +
      ` /Contents ${ref(content)}${annots.length + widgets.length ? ` /Annots [${[...widgets, ...annots].map(ref).join(' ')}]` : ''} >>`;
    kids.push(page);
  }
  // FreeText's /DA names /Helv: readers look it up in the form's default resources.
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${ref(pageTree)} /AcroForm << /Fields [${fields.map(ref).join(' ')}] /DR << /Font << /Helv ${ref(font)} >> >> /DA (/Helv 0 Tf 0 g) >> >>`;
  objects[pageTree - 1] = `<< /Type /Pages /Kids [${kids.map(ref).join(' ')}] /Count ${pages} >>`;

  return serializePdf(objects, `/Root ${ref(catalog)}`);
}

/** The annotation grid's vertical extent: below the text, above the bottom margin. */
const GRID_HEIGHT = 360;
const GRID_BOTTOM = 40;

const IMAGE_WIDTH = 64;
const IMAGE_HEIGHT = 48;

function imageDict(): string {
  return `/Type /XObject /Subtype /Image /Width ${IMAGE_WIDTH} /Height ${IMAGE_HEIGHT} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`;
}

/** A gradient shifted by the page number, compressed; as a latin1 string, which serializePdf writes byte for byte. */
function pageImage(page: number): string {
  const samples = Buffer.alloc(IMAGE_WIDTH * IMAGE_HEIGHT * 3);
  for (let y = 0; y < IMAGE_HEIGHT; y++) {
    for (let x = 0; x < IMAGE_WIDTH; x++) samples.set([(x * 4 + page * 13) & 255, (y * 5 + page * 7) & 255, ((x + y) * 3 + page) & 255], (y * IMAGE_WIDTH + x) * 3);
  }
  return zlib.deflateSync(samples, { level: 6 }).toString('latin1');
}

/**
 * The form: a filled text field, a checked check box and a combo box, each a
 * field merged with its widget (with /NM, so listings name them as the peer
 * does), with appearance streams. Answers the widgets' object numbers.
 */
function formWidgets(add: (body: string) => number, stream: (dict: string, content: string) => number, ref: (n: number) => string, page: number, font: number): number[] {
  const form = (w: number, h: number, content: string) => stream(`/Type /XObject /Subtype /Form /BBox [0 0 ${w} ${h}] /Resources << /Font << /Helv ${ref(font)} >> >>`, content);
  const common = (name: string, rect: string) => `/Type /Annot /Subtype /Widget /NM (bench-form-${name}) /T (${name}) /Rect ${rect} /P ${ref(page)} /F 4`;
  const text = form(120, 20, '/Tx BMC q BT /Helv 10 Tf 0 g 2 6 Td (Jane Doe) Tj ET Q EMC');
  const on = form(16, 16, '0 g 3 3 10 10 re f');
  const off = form(16, 16, '');
  const combo = form(120, 20, '/Tx BMC q BT /Helv 10 Tf 0 g 2 6 Td (Approved) Tj ET Q EMC');
  return [
    add(`<< ${common('name', '[470 620 590 640]')} /FT /Tx /V (Jane Doe) /DA (/Helv 10 Tf 0 g) /AP << /N ${ref(text)} >> >>`),
    add(`<< ${common('agreed', '[470 592 486 608]')} /FT /Btn /V /Yes /AS /Yes /AP << /N << /Yes ${ref(on)} /Off ${ref(off)} >> >> >>`),
    add(`<< ${common('status', '[470 560 590 580]')} /FT /Ch /Ff 131072 /Opt [(Draft) (Approved) (Rejected)] /V (Approved) /DA (/Helv 10 Tf 0 g) /AP << /N ${ref(combo)} >> >>`),
  ];
}

/** The subtype-specific entries, in user space. */
function kindEntries(kind: Exclude<Kind, 'Popup'>, x: number, y: number, w: number, h: number, page: number): string {
  switch (kind) {
    case 'Text':
      return '/Name /Comment /Open false';
    case 'Highlight': {
      // Two quads, as a highlight spanning two lines of text: (x1 y1 x2 y2 x3 y3 x4 y4) per quad, upper edge first.
      const mid = fixed(y + h / 2);
      const top = fixed(y + h);
      return `/QuadPoints [${x} ${top} ${x + w} ${top} ${x} ${mid} ${x + w} ${mid} ${x} ${mid} ${x + w / 2} ${mid} ${x} ${y} ${x + w / 2} ${y}] /CA 0.5`;
    }
    case 'Square':
    case 'Circle':
      return '/IC [1 1 0.8] /BS << /W 2 /S /S >>';
    case 'Ink': {
      // A zigzag stroke and a straight one.
      const zigzag = Array.from({ length: 8 }, (_, i) => `${fixed(x + (i * w) / 7)} ${fixed(y + (i % 2 ? h * 0.8 : h * 0.2))}`);
      return `/InkList [[${zigzag.join(' ')}] [${x} ${fixed(y + h / 2)} ${x + w} ${fixed(y + h / 2)}]] /BS << /W 1.5 >>`;
    }
    case 'FreeText':
      return '/DA (/Helv 10 Tf 0 0 1 rg) /Q 0';
    case 'Link':
      return `/A << /S /URI /URI (https://example.com/bench/page/${page + 1}) >> /Border [0 0 0] /H /I`;
    case 'Line':
      return `/L [${x} ${y} ${x + w} ${fixed(y + h)}] /LE [/None /OpenArrow] /BS << /W 1 >>`;
  }
}

/** A small normal appearance for the kind, drawn in the form's own space (0 0 w h). */
function appearance(kind: Exclude<Kind, 'Popup'>, w: number, h: number, color: string[]): string {
  const rgb = color.join(' ');
  const box = `0 0 ${w} ${fixed(h)} re`;
  switch (kind) {
    case 'Highlight':
      return `${rgb} rg ${box} f`;
    case 'Square':
      return `1 1 0.8 rg ${rgb} RG 2 w 1 1 ${w - 2} ${fixed(h - 2)} re B`;
    case 'Circle': {
      // An ellipse from four Bézier arcs (k ≈ 0.552 of the radius).
      const [rx, ry] = [w / 2 - 1, h / 2 - 1];
      const [cx, cy, kx, ky] = [w / 2, h / 2, rx * 0.552, ry * 0.552];
      const n = (v: number) => fixed(v);
      return (
        `1 1 0.8 rg ${rgb} RG 2 w ${n(cx + rx)} ${n(cy)} m ${n(cx + rx)} ${n(cy + ky)} ${n(cx + kx)} ${n(cy + ry)} ${n(cx)} ${n(cy + ry)} c ` +
        `${n(cx - kx)} ${n(cy + ry)} ${n(cx - rx)} ${n(cy + ky)} ${n(cx - rx)} ${n(cy)} c ${n(cx - rx)} ${n(cy - ky)} ${n(cx - kx)} ${n(cy - ry)} ${n(cx)} ${n(cy - ry)} c ` +
        `${n(cx + kx)} ${n(cy - ry)} ${n(cx + rx)} ${n(cy - ky)} ${n(cx + rx)} ${n(cy)} c B`
      );
    }
    case 'Ink':
    case 'Line':
      return `${rgb} RG 1.5 w 0 0 m ${w} ${fixed(h)} l S`;
    case 'FreeText':
      return `0 0 1 RG ${box} S BT /Helv 10 Tf 0 0 1 rg 2 ${fixed(h - 12)} Td (Free text) Tj ET`;
    case 'Text':
    case 'Link':
      return `${rgb} rg 0 ${fixed(h - 16)} 20 16 re f`;
  }
}

function fixed(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

/** A literal string's body with its delimiters escaped (Latin-1 text only). */
function pdfText(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A PDF text string: literal PDFDocEncoding when ASCII, else UTF-16BE hex with its byte-order mark. */
function pdfTextString(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return `(${pdfText(s)})`;
  let hex = 'FEFF';
  for (let i = 0; i < s.length; i++) hex += s.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

/**
 * A text-only PDF of `pages` pages with `lines` lines each; every line holds
 * `word` once among other words, so a search finds pages × lines matches.
 */
export function makeTextDocument(pages: number, lines: number, word: string): Buffer {
  return makeBenchDocument(pages, { lines, word, annotationsPerPage: 0, images: false, form: false });
}
