/**
 * Hand-written PDF fixtures carrying annotations (not built with MuPDF, the
 * engine under test, so the tests do not check MuPDF against itself).
 *
 * Every annotation is written as the dictionary given, plus the few entries a
 * subtype needs to be structurally valid (a field for Widget, an embedded file
 * for FileAttachment, a sound stream for Sound, ...). Nothing else is implied:
 * a Line without /L stays without /L, so tests can also build sloppy files.
 */
import { PdfObjects } from './pdf-writer.js';

/** The 28 annotation subtypes of interface.md §2.3, spelt and ordered as there. */
export const SUBTYPES: readonly string[] = Object.freeze([
  'Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight', 'Underline', 'Squiggly', 'StrikeOut', 'Caret', 'Stamp',
  'Ink', 'Popup', 'FileAttachment', 'Sound', 'Movie', 'Screen', 'Widget', 'PrinterMark', 'TrapNet', 'Watermark', '3D', 'Redact', 'Projection', 'RichMedia',
]);

export interface FixtureAnnotation {
  subtype: string;
  /** Zero-based page index. */
  page: number;
  /** /NM; omitted when undefined. */
  name?: string;
  rect: [number, number, number, number];
  contents?: string;
  /** /T (for a Widget /T is the field name, so author is refused there). */
  author?: string;
  /**
   * Raw PDF dictionary entries appended verbatim. `@ref(N)` becomes the object
   * reference of annotations[N] (which must be indirect), `@page(N)` that of page N.
   */
  extra?: string;
  /** Written as a direct dictionary inside /Annots instead of an indirect object. */
  direct?: boolean;
  /** FileAttachment only: the embedded file (default attachment-<index>.txt with a line of text). */
  file?: { name: string; data: Buffer | string; mimeType?: string };
}

export interface AnnotatedPdfOptions {
  pages: number;
  annotations: FixtureAnnotation[];
  width?: number;
  height?: number;
  rotate?: (page: number) => number;
  cropBox?: (page: number) => [number, number, number, number] | undefined;
  mediaBox?: (page: number) => [number, number, number, number] | undefined;
}

type Box = [number, number, number, number];

/** Builds the PDF (PDF 1.7, classic xref table, no compression: easy to read when a test fails). */
export function makeAnnotatedPdf(options: AnnotatedPdfOptions): Buffer {
  const { pages, annotations } = options;
  const width = options.width ?? 612;
  const height = options.height ?? 792;
  for (const [i, a] of annotations.entries()) {
    if (!Number.isInteger(a.page) || a.page < 0 || a.page >= pages) throw new Error(`annotation ${i}: page ${a.page} out of range`);
    if (a.subtype === 'Widget' && a.author !== undefined) throw new Error(`annotation ${i}: a Widget's /T is its field name, author cannot be set`);
  }

  // Object bodies by number - 1. Numbers are reserved up front so that pages,
  // annotations and @ref/@page placeholders can point at each other freely.
  const pdf = new PdfObjects();
  const ref = (n: number) => `${n} 0 R`;

  const catalog = pdf.reserve();
  const pagesObj = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageObjs = Array.from({ length: pages }, () => pdf.reserve());
  const annotObjs = annotations.map((a) => (a.direct ? 0 : pdf.reserve()));

  const resolve = (extra: string, index: number) =>
    extra
      .replace(/@ref\((\d+)\)/g, (_, n: string) => {
        const target = annotObjs[Number(n)];
        if (!target) throw new Error(`annotation ${index}: @ref(${n}) does not name an indirect annotation`);
        return ref(target);
      })
      .replace(/@page\((\d+)\)/g, (_, n: string) => {
        const target = pageObjs[Number(n)];
        if (!target) throw new Error(`annotation ${index}: @page(${n}) is not a page`);
        return ref(target);
      });

  const widgets: number[] = [];
  const bodies = annotations.map((a, i) => {
    const extra = a.extra === undefined ? '' : resolve(a.extra, i);
    const entries = [`/Type /Annot /Subtype ${pdfName(a.subtype)} /Rect [${a.rect.map(num).join(' ')}] /P ${ref(pageObjs[a.page]!)} /F 4`];
    if (a.name !== undefined) entries.push(`/NM ${pdfText(a.name)}`);
    if (a.contents !== undefined) entries.push(`/Contents ${pdfText(a.contents)}`);
    if (a.author !== undefined) entries.push(`/T ${pdfText(a.author)}`);
    entries.push(...requiredEntries(a, i, extra, pdf, ref));
    if (a.subtype === 'Widget') {
      if (a.direct) throw new Error(`annotation ${i}: a Widget must be indirect to be listed in /AcroForm /Fields`);
      widgets.push(annotObjs[i]!);
    }
    if (extra) entries.push(extra);
    return `<< ${entries.join(' ')} >>`;
  });
  bodies.forEach((body, i) => {
    if (annotObjs[i]) pdf.set(annotObjs[i], body);
  });

  for (let p = 0; p < pages; p++) {
    const media: Box = options.mediaBox?.(p) ?? [0, 0, width, height];
    const crop = options.cropBox?.(p);
    const rotate = options.rotate?.(p) ?? 0;
    // Text near the top left of the visible area, so renderers show something.
    const visible = crop ?? media;
    const content = `BT /F1 24 Tf ${num(visible[0] + 72)} ${num(visible[3] - 100)} Td (Page ${p + 1}) Tj ET`;
    const stream = pdf.stream('', content);
    const annots = annotations
      .map((a, i) => ({ a, i }))
      .filter(({ a }) => a.page === p)
      .map(({ i }) => (annotObjs[i] ? ref(annotObjs[i]) : bodies[i]));
    pdf.set(
      pageObjs[p]!,
      `<< /Type /Page /Parent ${ref(pagesObj)} /MediaBox [${media.map(num).join(' ')}]` +
      (crop ? ` /CropBox [${crop.map(num).join(' ')}]` : '') +
      (rotate ? ` /Rotate ${rotate}` : '') +
      ` /Resources << /Font << /F1 ${ref(font)} >> >> /Contents ${ref(stream)}` +
      (annots.length ? ` /Annots [${annots.join(' ')}]` : '') +
      ' >>',
    );
  }

  const acroForm = widgets.length ? ` /AcroForm << /Fields [${widgets.map(ref).join(' ')}] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv ${ref(font)} >> >> >>` : '';
  pdf.set(catalog, `<< /Type /Catalog /Pages ${ref(pagesObj)}${acroForm} >>`);
  pdf.set(pagesObj, `<< /Type /Pages /Kids [${pageObjs.map(ref).join(' ')}] /Count ${pages} >>`);
  return pdf.finish(`/Root ${catalog} 0 R`);
}

/**
 * Entries a subtype cannot do without (PDF 32000 §12.5.6), added unless `extra`
 * already supplies them. Streams they need are added to `pdf` as new objects.
 */
function requiredEntries(a: FixtureAnnotation, index: number, extra: string, pdf: PdfObjects, ref: (n: number) => string): string[] {
  const has = (key: string) => new RegExp(`${key}(?![A-Za-z0-9])`).test(extra);
  switch (a.subtype) {
    case 'Widget':
      // A merged field/widget: a text field named after /NM when there is one.
      return [`/FT /Tx /T ${pdfText(a.name ?? `field${index}`)}`];
    case 'FileAttachment': {
      if (has('/FS')) return [];
      const file = a.file ?? { name: `attachment-${index}.txt`, data: `Attachment of annotation ${index}\n` };
      const data = typeof file.data === 'string' ? Buffer.from(file.data, 'utf8') : file.data;
      const embedded = pdf.stream(`/Type /EmbeddedFile /Subtype ${pdfName(file.mimeType ?? 'text/plain')} /Params << /Size ${data.length} >>`, data);
      return [`/FS << /Type /Filespec /F ${pdfText(file.name)} /UF ${pdfText(file.name)} /EF << /F ${ref(embedded)} >> >>`];
    }
    case 'Sound':
      // One period of a square wave: 8-bit raw samples.
      return has('/Sound') ? [] : [`/Sound ${ref(pdf.stream('/Type /Sound /R 8000 /B 8 /C 1 /E /Raw', Buffer.from([0, 0, 0, 0, 255, 255, 255, 255])))}`];
    case 'Movie':
      return has('/Movie') ? [] : ['/Movie << /F (movie.mp4) >>'];
    case '3D':
      // Not a real U3D model: viewers only need the stream to exist to list the annotation.
      return has('/3DD') ? [] : [`/3DD ${ref(pdf.stream('/Type /3D /Subtype /U3D', Buffer.from('U3D\0fixture', 'latin1')))}`];
    case 'RichMedia':
      return has('/RichMediaContent') ? [] : ['/RichMediaContent << >>'];
    default:
      return [];
  }
}

/**
 * A PDF text string: a literal string when it is printable ASCII (escaping
 * \ ( ) and control characters), else UTF-16BE hex with a byte order mark,
 * which every reader decodes the same way (PDFDocEncoding differs from Latin-1
 * in places, so non-ASCII never goes into a literal).
 */
export function pdfText(s: string): string {
  if (/^[\x00-\x7e]*$/.test(s)) {
    return `(${s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[\x00-\x1f]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)})`;
  }
  const utf16 = Buffer.from(s, 'utf16le').swap16();
  return `<FEFF${utf16.toString('hex').toUpperCase()}>`;
}

/** A PDF name, with # escapes for delimiters and bytes outside printable ASCII (e.g. text/plain → /text#2Fplain). */
export function pdfName(s: string): string {
  const escaped = [...Buffer.from(s, 'utf8')]
    .map((b) => (b > 0x20 && b < 0x7f && !'#/()<>[]{}%'.includes(String.fromCharCode(b)) ? String.fromCharCode(b) : `#${b.toString(16).padStart(2, '0').toUpperCase()}`))
    .join('');
  return `/${escaped}`;
}

/** PDF numbers have no exponent form, so fix small fractions to 4 places. */
function num(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a PDF number: ${n}`);
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(4)));
}

/**
 * A 3-page Letter document with each of the 28 subtypes at least once and the
 * awkward cases real files have: annotations without /NM, two sharing an /NM
 * (on different pages), a name with a space and a slash, a non-ASCII name, a
 * direct dictionary in /Annots, a popup and a reply, links with URI and /Dest.
 */
export function everySubtypeFixture(): { pdf: Buffer; annotations: FixtureAnnotation[] } {
  // Colour, modification and creation dates, as most viewers write them.
  const common = '/C [1 0 0] /M (D:20260101120000Z) /CreationDate (D:20251231090000Z)';
  const quad = (x1: number, y1: number, x2: number, y2: number) => `/QuadPoints [${x1} ${y2} ${x2} ${y2} ${x1} ${y1} ${x2} ${y1}]`;
  const annotations: FixtureAnnotation[] = [
    // Page 0: comments and their threads.
    /* 0 */ { subtype: 'Text', page: 0, name: 'note-1', rect: [72, 650, 92, 670], contents: 'First note', author: 'Alice', extra: `${common} /Subj (Comment) /Name /Comment /Open false /Popup @ref(1)` },
    /* 1 */ { subtype: 'Popup', page: 0, name: 'note-1-popup', rect: [100, 600, 300, 680], extra: '/Parent @ref(0) /Open true' },
    /* 2 */ { subtype: 'Text', page: 0, name: 'reply-1', rect: [72, 650, 92, 670], contents: 'A reply', author: 'Bob', extra: `${common} /Subj (Reply) /IRT @ref(0) /RT /R` },
    /* 3 */ { subtype: 'Link', page: 0, name: 'link-uri', rect: [72, 600, 200, 620], extra: '/Border [0 0 0] /A << /S /URI /URI (https://example.com/a b) >>' },
    /* 4 */ { subtype: 'Link', page: 0, rect: [72, 570, 200, 590], extra: '/Border [0 0 1] /Dest [@page(2) /Fit]' },
    /* 5 */ { subtype: 'FreeText', page: 0, name: 'notes/first draft', rect: [300, 500, 500, 540], contents: 'Typed text', author: 'Alice', extra: `${common} /Subj (Text box) /DA (/Helv 12 Tf 0 g) /Q 0` },
    /* 6 */ { subtype: 'Line', page: 0, name: 'line-1', rect: [70, 400, 310, 460], extra: `${common} /CA 0.5 /L [72 410 300 450] /LE [/None /OpenArrow] /BS << /W 2 /S /S >>` },
    /* 7 */ { subtype: 'Square', page: 0, name: 'shared-name', rect: [72, 300, 172, 380], contents: 'A square', extra: `${common} /IC [0 0 1] /BS << /W 1 /S /D /D [3 2] >>` },
    /* 8 */ { subtype: 'Circle', page: 0, name: 'Anmerkung-Ä', rect: [200, 300, 300, 380], contents: 'Ein Kreis', author: 'Jürgen', extra: `${common} /IC [0 1 0] /CA 0.5` },
    /* 9 */ { subtype: 'Widget', page: 0, name: 'customer_name', rect: [72, 200, 272, 224], extra: '/V (Jane Doe) /MK << /BC [0 0 0] >> /DA (/Helv 10 Tf 0 g)' },
    // Page 1: text markup, drawings and media.
    /* 10 */ { subtype: 'Polygon', page: 1, name: 'polygon-1', rect: [70, 600, 230, 720], extra: `${common} /IC [1 1 0] /Vertices [72 602 228 602 150 718]` },
    /* 11 */ { subtype: 'PolyLine', page: 1, name: 'polyline-1', rect: [300, 600, 500, 720], extra: `${common} /Vertices [302 602 400 718 498 602] /LE [/Circle /None]` },
    /* 12 */ { subtype: 'Highlight', page: 1, name: 'highlight-1', rect: [72, 560, 200, 580], contents: 'Highlighted', extra: `${common.replace('/C [1 0 0]', '/C [1 1 0]')} ${quad(72, 560, 200, 580)}` },
    /* 13 */ { subtype: 'Underline', page: 1, name: 'underline-1', rect: [72, 530, 200, 550], extra: `${common} ${quad(72, 530, 200, 550)}` },
    /* 14 */ { subtype: 'Squiggly', page: 1, name: 'squiggly-1', rect: [72, 500, 200, 520], extra: `${common} ${quad(72, 500, 200, 520)}` },
    /* 15 */ { subtype: 'StrikeOut', page: 1, name: 'strikeout-1', rect: [72, 470, 200, 490], extra: `${common} ${quad(72, 470, 200, 490)}` },
    /* 16 */ { subtype: 'Caret', page: 1, rect: [210, 470, 220, 490], contents: 'Insert here', extra: `${common} /RD [1 1 1 1] /Sy /P` },
    /* 17 */ { subtype: 'Stamp', page: 1, name: 'stamp-1', rect: [350, 400, 500, 450], author: 'Carol', extra: `${common} /Subj (Approved) /Name /Approved` },
    /* 18 */ { subtype: 'Ink', page: 1, name: 'ink-1', rect: [70, 350, 250, 450], extra: `${common} /InkList [[72 352 120 448 160 360] [180 400 248 420]] /BS << /W 3 >>` },
    /* 19 */ { subtype: 'FileAttachment', page: 1, name: 'attachment-1', rect: [520, 700, 540, 720], contents: 'Attached report', extra: `${common} /Name /Paperclip`, file: { name: 'report.txt', data: 'quarterly numbers\n' } },
    /* 20 */ { subtype: 'Sound', page: 1, name: 'sound-1', rect: [520, 660, 540, 680], extra: '/Name /Speaker' },
    /* 21 */ { subtype: 'Movie', page: 1, name: 'movie-1', rect: [300, 200, 460, 320], extra: '/Border [0 0 0]' },
    /* 22 */ { subtype: 'Screen', page: 1, name: 'screen-1', rect: [72, 200, 232, 320], extra: '/MK << /BG [0 0 0] >>' },
    // Page 2: the rest, a direct dictionary and the second holder of the shared name.
    /* 23 */ { subtype: 'PrinterMark', page: 2, name: 'printermark-1', rect: [10, 10, 30, 30], extra: '/MN /ColorBar' },
    /* 24 */ { subtype: 'TrapNet', page: 2, name: 'trapnet-1', rect: [0, 0, 612, 792], extra: '/LastModified (D:20260101120000Z)' },
    /* 25 */ { subtype: 'Watermark', page: 2, name: 'watermark-1', rect: [156, 346, 456, 446], extra: '/FixedPrint << /Type /FixedPrint /Matrix [1 0 0 1 0 0] /H 0 /V 0 >>' },
    /* 26 */ { subtype: '3D', page: 2, name: '3d-1', rect: [72, 500, 272, 700], extra: '/3DI true' },
    /* 27 */ { subtype: 'Redact', page: 2, name: 'redact-1', rect: [300, 650, 500, 670], extra: `${common} /OverlayText (REDACTED) /IC [0 0 0] ${quad(300, 650, 500, 670)}` },
    /* 28 */ { subtype: 'Projection', page: 2, name: 'shared-name', rect: [300, 500, 400, 600], contents: 'Projected' },
    /* 29 */ { subtype: 'RichMedia', page: 2, name: 'richmedia-1', rect: [72, 300, 272, 450] },
    /* 30 */ { subtype: 'Square', page: 2, name: 'direct-square', rect: [300, 300, 400, 400], contents: 'Direct dictionary', direct: true, extra: `${common} /IC [0.5 0.5 0.5]` },
  ];
  return { pdf: makeAnnotatedPdf({ pages: 3, annotations }), annotations };
}
