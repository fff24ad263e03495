/**
 * Fixture PDFs for redaction tests, written in raw PDF syntax (not with the
 * engine under test). Each one draws a secret in one of the ways that make
 * redaction hard, next to ordinary words on the same line and on other lines,
 * so a test can check that the secret is gone and the neighbours survive in
 * place (compare `pdfWords` before and after).
 *
 * Text content streams are left uncompressed so a failing test can be read
 * with `less`; only the embedded font and the image are Flate-compressed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { pdfName, pdfText } from './annotated-pdf.js';
import { serializePdf, withTempFile } from './pdf.js';

/** [x0 y0 x1 y1] in default user space (the page's MediaBox coordinates). */
export type Rect = [number, number, number, number];
export type Rgb = [number, number, number];

export const REDACTION_KINDS = [
  'tj',
  'tj-array',
  'quote',
  'doublequote',
  'form-xobject',
  'annotation-appearance',
  'rotated',
  'offset-mediabox',
  'cid-font',
  'type3',
  'image-duplicate',
  'multi-line',
  'many',
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** A solid block of colour in an image XObject (image-duplicate only). */
export interface ColourBlock {
  /** Zero-based page index. */
  page: number;
  /** The block's extent in user space, exactly on the image's pixel grid. */
  rect: Rect;
  rgb: Rgb;
  /** The text drawn on top of the block: the secret or a keep phrase. */
  under: string;
}

export interface RedactionFixture {
  pdf: Buffer;
  /** What must be gone after redaction, as pdftotext extracts it (whitespace normalised to single spaces). */
  secret: string;
  /** The term a redaction search should use; the secret itself except for multi-line. */
  search: string;
  /** Words (whitespace-free) that must survive redaction. None contains the secret or the search term. */
  keep: string[];
  /** How many times the secret occurs in the document. */
  occurrences: number;
  pages: number;
  /** image-duplicate: the coloured blocks of the image under the text; empty for the other kinds. */
  colourBlocks: ColourBlock[];
  /** Where else the secret hides besides drawn text (e.g. an annotation's /Contents); redaction should clear these too. */
  alsoIn: string[];
}

export interface ManyOptions {
  /** Number of pages (default 3). */
  pages?: number;
  /** Occurrences of the secret per page (default 20, at most 162). */
  perPage?: number;
}

/** Builds the fixture of one kind; `options` is used by `many` only. */
export function redactionFixture(kind: RedactionKind, options: ManyOptions = {}): RedactionFixture {
  switch (kind) {
    case 'tj':
      return tjFixture();
    case 'tj-array':
      return tjArrayFixture();
    case 'quote':
      return quoteFixture();
    case 'doublequote':
      return doubleQuoteFixture();
    case 'form-xobject':
      return formXObjectFixture();
    case 'annotation-appearance':
      return annotationAppearanceFixture();
    case 'rotated':
      return rotatedFixture();
    case 'offset-mediabox':
      return offsetMediaBoxFixture();
    case 'cid-font':
      return cidFontFixture();
    case 'type3':
      return type3Fixture();
    case 'image-duplicate':
      return imageDuplicateFixture();
    case 'multi-line':
      return multiLineFixture();
    case 'many':
      return manyFixture(options);
  }
}

// ---------------------------------------------------------------------------
// The shared page text: a heading line, the secret's line with a neighbour on
// each side, and a footer line. Every fixture uses these words (or its own in
// the same roles) so tests can treat all kinds alike.

const HEADING = 'Quarterly report heading';
const BEFORE = 'Alpha before';
const AFTER = 'after Omega';
const FOOTER = 'Closing remarks footer';
const FONT_SIZE = 12;
const LEFT = 72;
const TOP = 720;
const LEADING = 20;

/** The distinct words of the phrases, in order of first appearance. */
function words(...phrases: string[]): string[] {
  return [...new Set(phrases.flatMap((p) => p.split(/\s+/)).filter((w) => w !== ''))];
}

function fixture(pdf: Buffer, secret: string, keep: string[], extra: Partial<RedactionFixture> = {}): RedactionFixture {
  return { pdf, secret, search: secret, keep, occurrences: 1, pages: 1, colourBlocks: [], alsoIn: [], ...extra };
}

/**
 * One Letter page whose content `lines` draw with Helvetica as /F1, as most
 * fixtures' pages do; the words kept are by default the heading, the
 * neighbours of the secret and the footer.
 */
function helveticaPageFixture(
  secret: string,
  lines: string[],
  options: { keep?: string[]; page?: { mediaBox?: Rect; cropBox?: Rect }; pagesExtra?: string } = {},
): RedactionFixture {
  const doc = new PdfBuilder();
  const f1 = doc.helvetica();
  doc.page({ content: lines.join('\n'), resources: `/Font << /F1 ${ref(f1)} >>`, ...options.page });
  return fixture(doc.finish(options.pagesExtra), secret, options.keep ?? words(HEADING, BEFORE, AFTER, FOOTER));
}

/**
 * `tj`: one Tj string holds the neighbours and the secret ("Alpha before
 * SECRET-4711 after Omega"). Hard because the string must be split: the
 * secret's glyphs go, and "after Omega" must still start where it did, so the
 * removed advance has to be replaced by an explicit offset.
 */
function tjFixture(): RedactionFixture {
  const secret = 'SECRET-4711';
  return helveticaPageFixture(secret, [
    `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${TOP} Td ${lit(HEADING)} Tj`,
    `0 ${-LEADING} Td ${lit(`${BEFORE} ${secret} ${AFTER}`)} Tj`,
    `0 ${-LEADING} Td ${lit(FOOTER)} Tj ET`,
  ]);
}

/**
 * `tj-array`: the secret is split across TJ array elements with kerning
 * between the pieces, `[(Alpha before SEC) -20 (RE) 15 (T-4712 after) -300
 * (Omega)] TJ`, and the gap before "Omega" is a kern, not a space. Hard
 * because no single string contains the secret (a byte search fails) and the
 * kerns on both sides of the removed glyphs must be kept, or the neighbours
 * move.
 */
function tjArrayFixture(): RedactionFixture {
  const secret = 'SECRET-4712';
  return helveticaPageFixture(secret, [
    `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${TOP} Td ${lit(HEADING)} Tj`,
    `0 ${-LEADING} Td [${lit(`${BEFORE} SEC`)} -20 ${lit('RE')} 15 ${lit('T-4712 after')} -300 ${lit('Omega')}] TJ`,
    `0 ${-LEADING} Td ${lit(FOOTER)} Tj ET`,
  ]);
}

/**
 * `quote`: the secret's line is drawn with `'` (T* then Tj), and so is the
 * footer after it. Hard because the operator moves to the next line as well
 * as showing text: dropping the whole operation pulls the footer up a line.
 */
function quoteFixture(): RedactionFixture {
  const secret = 'SECRET-4713';
  return helveticaPageFixture(secret, [
    `BT /F1 ${FONT_SIZE} Tf ${LEADING} TL ${LEFT} ${TOP} Td ${lit(HEADING)} Tj`,
    `${lit(`${BEFORE} ${secret} ${AFTER}`)} '`,
    `${lit(FOOTER)} '`,
    'ET',
  ]);
}

/**
 * `doublequote`: the secret's line is drawn with `"` (set word spacing Tw and
 * character spacing Tc, T*, show), and the footer after it relies on that
 * spacing. Hard because the operator changes text state: dropping it moves
 * the footer up a line and changes its spacing; the neighbours on the
 * secret's line are spaced by Tw/Tc too.
 */
function doubleQuoteFixture(): RedactionFixture {
  const secret = 'SECRET-4714';
  return helveticaPageFixture(secret, [
    `BT /F1 ${FONT_SIZE} Tf ${LEADING} TL ${LEFT} ${TOP} Td ${lit(HEADING)} Tj`,
    `3 0.4 ${lit(`${BEFORE} ${secret} ${AFTER}`)} "`,
    `${lit(FOOTER)} '`,
    'ET',
  ]);
}

/**
 * `form-xobject`: the page invokes a Form XObject (with its own /Matrix and
 * resources) which shows a line of its own and invokes a second, nested form
 * that draws the secret between its neighbours. Hard because the text is not
 * in the page's content stream at all: redaction must descend through `Do`
 * twice, combine cm with each form's /Matrix to place the glyphs, resolve
 * fonts in each form's own /Resources (the page has no /FB), and rewrite the
 * form stream rather than the page.
 */
function formXObjectFixture(): RedactionFixture {
  const secret = 'SECRET-4715';
  const formLine = 'Form heading text';
  const doc = new PdfBuilder();
  const f1 = doc.helvetica();
  const fa = doc.helvetica();
  const fb = doc.helvetica();
  const innerContent = `BT /FB ${FONT_SIZE} Tf 0 0 Td ${lit(`${BEFORE} ${secret} ${AFTER}`)} Tj ET`;
  const inner = doc.stream(`/Type /XObject /Subtype /Form /BBox [0 -6 468 16] /Matrix [1 0 0 1 0 4] /Resources << /Font << /FB ${ref(fb)} >> >>`, innerContent);
  const outerContent = [`BT /FA ${FONT_SIZE} Tf 0 40 Td ${lit(formLine)} Tj ET`, 'q 1 0 0 1 0 16 cm /Inner Do Q'].join('\n');
  const outer = doc.stream(
    `/Type /XObject /Subtype /Form /BBox [0 0 468 60] /Matrix [1 0 0 1 0 -4] /Resources << /Font << /FA ${ref(fa)} >> /XObject << /Inner ${ref(inner)} >> >>`,
    outerContent,
  );
  const content = [
    `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${TOP} Td ${lit(HEADING)} Tj ET`,
    `q 1 0 0 1 ${LEFT} ${TOP - 80} cm /Fm0 Do Q`,
    `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${TOP - 120} Td ${lit(FOOTER)} Tj ET`,
  ].join('\n');
  doc.page({ content, resources: `/Font << /F1 ${ref(f1)} >> /XObject << /Fm0 ${ref(outer)} >>` });
  return fixture(doc.finish(), secret, words(HEADING, formLine, BEFORE, AFTER, FOOTER));
}

/**
 * `annotation-appearance`: the secret is in a FreeText annotation's normal
 * appearance stream (/AP /N), between "Note" and "approved", while the page
 * content draws "Alpha before" and "after Omega" on the same baseline left
 * and right of the annotation. The annotation's /Contents holds the same
 * text. Hard because the page's content stream never mentions the secret:
 * redaction must look into annotation appearances (mapped to /Rect through
 * the form's /BBox and /Matrix), and regenerating the appearance from
 * /Contents would bring the secret back.
 */
function annotationAppearanceFixture(): RedactionFixture {
  const secret = 'SECRET-4716';
  const inside = `Note ${secret} approved`;
  const doc = new PdfBuilder();
  const f1 = doc.helvetica();
  const baseline = TOP - LEADING;
  const beforeWidth = helveticaWidth(`${BEFORE} `, FONT_SIZE);
  const boxLeft = LEFT + beforeWidth;
  const boxWidth = helveticaWidth(inside, FONT_SIZE) + 4;
  // The appearance's BBox starts at (0, -4) so the text baseline is its y 0;
  // the Rect puts that baseline on the page's baseline.
  const rect: Rect = [boxLeft, baseline - 4, boxLeft + boxWidth, baseline + 12];
  const apContent = [`q 0.9 0.9 1 rg 0 -4 ${fmt(boxWidth)} 16 re f Q`, `BT /Helv ${FONT_SIZE} Tf 0 g 2 0 Td ${lit(inside)} Tj ET`].join('\n');
  const ap = doc.stream(`/Type /XObject /Subtype /Form /BBox [0 -4 ${fmt(boxWidth)} 12] /Resources << /Font << /Helv ${ref(f1)} >> >>`, apContent);
  const annot = doc.add(
    `<< /Type /Annot /Subtype /FreeText /Rect [${rect.map(fmt).join(' ')}] /F 4 /NM ${pdfText('freetext-secret')} /Contents ${pdfText(inside)}` +
      ` /DA ${lit(`/Helv ${FONT_SIZE} Tf 0 g`)} /Q 0 /AP << /N ${ref(ap)} >> >>`,
  );
  const content = [
    `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${TOP} Td ${lit(HEADING)} Tj ET`,
    `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${baseline} Td ${lit(BEFORE)} Tj ET`,
    `BT /F1 ${FONT_SIZE} Tf ${fmt(rect[2] + helveticaWidth(' ', FONT_SIZE))} ${baseline} Td ${lit(AFTER)} Tj ET`,
    `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${baseline - LEADING} Td ${lit(FOOTER)} Tj ET`,
  ].join('\n');
  doc.page({ content, resources: `/Font << /F1 ${ref(f1)} >>`, annots: [annot] });
  return fixture(doc.finish(), secret, words(HEADING, BEFORE, 'Note', 'approved', AFTER, FOOTER), { alsoIn: ['/Contents of the FreeText annotation freetext-secret'] });
}

/**
 * `rotated`: a Letter page shown turned by /Rotate 90, inherited from the
 * /Pages node (the page dictionary itself has no /Rotate). The text is
 * horizontal in user space, so it runs vertically on screen. Hard because
 * search hits come back in the rotated display space and must be mapped back
 * to user space for /QuadPoints and for clipping content; a page-level-only
 * lookup of /Rotate misses the inherited value.
 */
function rotatedFixture(): RedactionFixture {
  const secret = 'SECRET-4717';
  return helveticaPageFixture(secret, [
    `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${TOP} Td ${lit(HEADING)} Tj`,
    `0 ${-LEADING} Td ${lit(`${BEFORE} ${secret} ${AFTER}`)} Tj`,
    `0 ${-LEADING} Td ${lit(FOOTER)} Tj ET`,
  ], { pagesExtra: '/Rotate 90' });
}

/**
 * `offset-mediabox`: MediaBox [100 100 712 892] (a Letter page whose origin is
 * not 0,0) and a CropBox inset from it, [110 120 702 872]. Hard because
 * MuPDF's page coordinates (what its search returns) start at the crop box's
 * top left, while annotations and content use user space: forgetting either
 * offset puts the redaction box 10–120 pt away from the secret. (Poppler's
 * pdftotext -bbox and pdftoppm measure from the MediaBox by default.)
 */
function offsetMediaBoxFixture(): RedactionFixture {
  const secret = 'SECRET-4718';
  return helveticaPageFixture(secret, [
    `BT /F1 ${FONT_SIZE} Tf ${LEFT + 100} ${TOP + 100} Td ${lit(HEADING)} Tj`,
    `0 ${-LEADING} Td ${lit(`${BEFORE} ${secret} ${AFTER}`)} Tj`,
    `0 ${-LEADING} Td ${lit(FOOTER)} Tj ET`,
  ], { page: { mediaBox: [100, 100, 712, 892], cropBox: [110, 120, 702, 872] } });
}

/**
 * `cid-font`: Cyrillic text, secret "СЕКРЕТ-4719", in DejaVu Sans embedded as
 * a Type0/CIDFontType2 font with Identity-H: every glyph is a two-byte glyph
 * id, widths come from a /W array and text only from the /ToUnicode CMap.
 * Hard because the bytes in the content stream bear no relation to the
 * characters (a byte search fails), a redactor must decode two-byte codes
 * through the CMap and use the /W widths to keep the neighbours in place.
 */
function cidFontFixture(): RedactionFixture {
  const secret = 'СЕКРЕТ-4719';
  const heading = 'Открытый заголовок';
  const before = 'Начало строки';
  const after = 'конец строки';
  const footer = 'Public footer текст';
  const doc = new PdfBuilder();
  const font = new CidFont(doc, readFileSync(DEJAVU_SANS));
  const size = 14;
  const content = [
    `BT /C1 ${size} Tf ${LEFT} ${TOP} Td ${font.show(heading)} Tj`,
    `0 ${-LEADING} Td ${font.show(`${before} ${secret} ${after}`)} Tj`,
    `0 ${-LEADING} Td ${font.show(footer)} Tj ET`,
  ].join('\n');
  const fontRef = font.finish('DejaVuSans');
  doc.page({ content, resources: `/Font << /C1 ${ref(fontRef)} >>` });
  return fixture(doc.finish(), secret, words(heading, before, after, footer));
}

export const DEJAVU_SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/**
 * `type3`: the secret is drawn with a Type 3 font whose glyphs are block
 * letters made of filled rectangles, selected by codes 1..10 through
 * /Encoding /Differences (glyph names /g1…), with a /ToUnicode CMap; the
 * neighbours are Helvetica in the same text object. Hard because the glyphs
 * are little content streams of their own, the font has its own /FontMatrix
 * (glyph space is not 1/1000 em by rule), the codes are control bytes in a
 * hex string, and only /ToUnicode says what they mean.
 */
function type3Fixture(): RedactionFixture {
  const secret = 'SECRET-4720';
  const doc = new PdfBuilder();
  const f1 = doc.helvetica();
  const chars = [...new Set(secret)];
  const code = (c: string) => chars.indexOf(c) + 1;
  const procs = chars.map((c) => doc.stream('', blockGlyph(c)));
  const toUnicode = doc.stream('', toUnicodeCMap(1, chars.map((c) => [code(c), c])));
  const t3 = doc.add(
    '<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 700] /FontMatrix [0.001 0 0 0.001 0 0]' +
      ` /CharProcs << ${chars.map((c, i) => `/g${code(c)} ${ref(procs[i]!)}`).join(' ')} >>` +
      ` /Encoding << /Type /Encoding /Differences [1 ${chars.map((c) => `/g${code(c)}`).join(' ')}] >>` +
      ` /FirstChar 1 /LastChar ${chars.length} /Widths [${chars.map(() => BLOCK_ADVANCE).join(' ')}]` +
      ` /Resources << >> /ToUnicode ${ref(toUnicode)} >>`,
  );
  const hex = `<${[...secret].map((c) => code(c).toString(16).padStart(2, '0')).join('')}>`;
  const content = [
    `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${TOP} Td ${lit(HEADING)} Tj`,
    `0 ${-LEADING} Td ${lit(`${BEFORE} `)} Tj /T3 ${FONT_SIZE} Tf ${hex} Tj /F1 ${FONT_SIZE} Tf ${lit(` ${AFTER}`)} Tj`,
    `1 0 0 1 ${LEFT} ${TOP - 2 * LEADING} Tm ${lit(FOOTER)} Tj ET`,
  ].join('\n');
  doc.page({ content, resources: `/Font << /F1 ${ref(f1)} /T3 ${ref(t3)} >>` });
  return fixture(doc.finish(), secret, words(HEADING, BEFORE, AFTER, FOOTER));
}

/** Advance of every Type 3 block glyph, in its glyph space (1/1000 text space units). */
const BLOCK_ADVANCE = 600;

/** 5×7 block letters, top row first; only the characters the type3 fixture draws. */
const BLOCK_LETTERS: Record<string, string[]> = {
  S: ['01111', '10000', '10000', '01110', '00001', '00001', '11110'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  C: ['01111', '10000', '10000', '10000', '10000', '10000', '01111'],
  R: ['11110', '10001', '10001', '11110', '10100', '10010', '10001'],
  T: ['11111', '00100', '00100', '00100', '00100', '00100', '00100'],
  '-': ['00000', '00000', '00000', '11111', '00000', '00000', '00000'],
  '4': ['00010', '00110', '01010', '10010', '11111', '00010', '00010'],
  '7': ['11111', '00001', '00010', '00100', '01000', '01000', '01000'],
  '2': ['01110', '10001', '00001', '00010', '00100', '01000', '11111'],
  '0': ['01110', '10001', '10011', '10101', '11001', '10001', '01110'],
};

/** A Type 3 glyph procedure: d1 (shape only, painted in the current colour), then one rectangle per run of set cells. */
function blockGlyph(c: string): string {
  const rows = BLOCK_LETTERS[c];
  if (!rows) throw new Error(`no block letter for ${JSON.stringify(c)}`);
  const ops = [`${BLOCK_ADVANCE} 0 0 0 500 700 d1`];
  rows.forEach((row, r) => {
    const y = (rows.length - 1 - r) * 100;
    for (const run of row.matchAll(/1+/g)) ops.push(`${run.index! * 100} ${y} ${run[0].length * 100} 100 re`);
  });
  ops.push('f');
  return ops.join('\n');
}

/**
 * `image-duplicate`: the secret's line is drawn over an RGB image (Flate,
 * 2 pixels per point) with a solid block under each phrase: pale cyan under
 * "Alpha before", magenta under the secret, pale yellow under "after Omega",
 * white elsewhere. Each block spans exactly its text's advance width and runs
 * from 1 pt below the baseline to the cap height, so it lies inside any
 * sensible box around that text. Hard because removing the text is not
 * enough: the secret is also in the pixels, and only the pixels under the
 * redaction box may be cleared (the image must be edited, not dropped).
 */
function imageDuplicateFixture(): RedactionFixture {
  const secret = 'SECRET-4721';
  const doc = new PdfBuilder();
  const f1 = doc.helvetica();
  const size = 14;
  const baseline = TOP - LEADING;
  const scale = 2; // pixels per point
  const line = `${BEFORE} ${secret} ${AFTER}`;
  const space = helveticaWidth(' ', size);
  const spans: { under: string; x0: number; rgb: Rgb }[] = [
    { under: BEFORE, x0: LEFT, rgb: [200, 240, 255] },
    { under: secret, x0: LEFT + helveticaWidth(BEFORE, size) + space, rgb: [230, 0, 200] },
    { under: AFTER, x0: LEFT + helveticaWidth(`${BEFORE} ${secret}`, size) + space, rgb: [255, 240, 150] },
  ];
  // Image placement: 6 pt of white around the text line, on whole points.
  const imgX0 = LEFT - 6;
  const imgX1 = Math.ceil(LEFT + helveticaWidth(line, size) + 6);
  const imgY0 = baseline - 6;
  const imgY1 = Math.ceil(baseline + 0.718 * size + 6);
  const width = (imgX1 - imgX0) * scale;
  const height = (imgY1 - imgY0) * scale;
  const pixels = Buffer.alloc(width * height * 3, 255);
  const colourBlocks: ColourBlock[] = spans.map(({ under, x0, rgb }) => {
    // Round inwards to the pixel grid so the block never exceeds the text's box.
    const px0 = Math.ceil((x0 - imgX0) * scale);
    const px1 = Math.floor((x0 + helveticaWidth(under, size) - imgX0) * scale);
    const rowTop = Math.ceil((imgY1 - (baseline + 0.718 * size)) * scale); // image rows run top down
    const rowBottom = Math.floor((imgY1 - (baseline - 1)) * scale);
    for (let y = rowTop; y < rowBottom; y++) for (let x = px0; x < px1; x++) pixels.set(rgb, (y * width + x) * 3);
    return { page: 0, rect: [imgX0 + px0 / scale, imgY1 - rowBottom / scale, imgX0 + px1 / scale, imgY1 - rowTop / scale], rgb, under };
  });
  const image = doc.stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8`, pixels, true);
  const content = [
    `q ${imgX1 - imgX0} 0 0 ${imgY1 - imgY0} ${imgX0} ${imgY0} cm /Im0 Do Q`,
    `BT /F1 ${size} Tf ${LEFT} ${TOP} Td ${lit(HEADING)} Tj`,
    `0 ${-LEADING} Td ${lit(line)} Tj`,
    `0 ${-LEADING} Td ${lit(FOOTER)} Tj ET`,
  ].join('\n');
  doc.page({ content, resources: `/Font << /F1 ${ref(f1)} >> /XObject << /Im0 ${ref(image)} >>` });
  return fixture(doc.finish(), secret, words(HEADING, BEFORE, AFTER, FOOTER), { colourBlocks });
}

/**
 * `multi-line`: the search term "secret project" wraps: "top secret" ends
 * line 2 and "project name" starts line 3, in separate Tj operations with a
 * line move between them. Hard because the hit is two boxes on two lines;
 * a single bounding rectangle would swallow the rest of both lines.
 */
function multiLineFixture(): RedactionFixture {
  const line2 = `${BEFORE} the top secret`;
  const line3 = `project name ${AFTER}`;
  return helveticaPageFixture('secret project', [
    `BT /F1 ${FONT_SIZE} Tf ${LEFT} ${TOP} Td ${lit(HEADING)} Tj`,
    `0 ${-LEADING} Td ${lit(line2)} Tj`,
    `0 ${-LEADING} Td ${lit(line3)} Tj`,
    `0 ${-LEADING} Td ${lit(FOOTER)} Tj ET`,
  ], { keep: words(HEADING, BEFORE, 'the', 'top', 'name', AFTER, FOOTER) });
}

/**
 * `many`: `pages` Letter pages, each with the secret `perPage` times, one per
 * line between "alpha" and "omega", in up to three columns, under a
 * "Page N of M" heading. Hard only by volume: for timing and for checking that
 * every hit on every page goes.
 */
function manyFixture(options: ManyOptions): RedactionFixture {
  const secret = 'SECRET-4722';
  const pages = options.pages ?? 3;
  const perPage = options.perPage ?? 20;
  const rows = 54;
  if (!Number.isInteger(pages) || pages < 1) throw new RangeError(`pages must be a positive integer, not ${pages}`);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > rows * 3) throw new RangeError(`perPage must be an integer from 1 to ${rows * 3}, not ${perPage}`);
  const doc = new PdfBuilder();
  const f1 = doc.helvetica();
  for (let p = 0; p < pages; p++) {
    const ops = [`BT /F1 14 Tf ${LEFT} 740 Td ${lit(`Page ${p + 1} of ${pages}`)} Tj ET`];
    for (let i = 0; i < perPage; i++) {
      const x = LEFT + Math.floor(i / rows) * 160;
      const y = 716 - (i % rows) * 12;
      ops.push(`BT /F1 9 Tf ${x} ${y} Td ${lit(`alpha ${secret} omega`)} Tj ET`);
    }
    doc.page({ content: ops.join('\n'), resources: `/Font << /F1 ${ref(f1)} >>` });
  }
  return fixture(doc.finish(), secret, ['Page', 'of', 'alpha', 'omega'], { occurrences: pages * perPage, pages });
}

// ---------------------------------------------------------------------------
// Positions as poppler sees them.

/**
 * One word of `pdftotext -bbox`, in points in its page's display space: after
 * /Rotate, origin at the top left of the MediaBox (pdftotext's default, not the
 * CropBox a renderer shows), y down.
 */
export interface PdfWord {
  /** Zero-based page index. */
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word poppler extracts, with its box, in reading order. */
export function pdfWords(pdf: Buffer | Uint8Array): PdfWord[] {
  const html = withTempFile(pdf, (file) => execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const result: PdfWord[] = [];
  let page = -1;
  for (const m of html.matchAll(/<page\b|<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)<\/word>/g)) {
    if (m[0] === '<page') {
      page++;
      continue;
    }
    result.push({ page, text: decodeEntities(m[5]!), xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]) });
  }
  return result;
}

function decodeEntities(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === 'apos' ? "'" : String.fromCodePoint(Number(e.slice(1))),
  );
}

/** Runs of whitespace (including line and page breaks) to one space, trimmed: compare extracted text with this. */
export function normaliseText(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------
// Writing the PDF.

function ref(n: number): string {
  return `${n} 0 R`;
}

/** PDF numbers have no exponent form: at most 4 decimals. */
function fmt(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a PDF number: ${n}`);
  return String(Number(n.toFixed(4)));
}

/** A literal string for a content stream, bytes = WinAnsi = ASCII here (non-ASCII refused so widths stay known). */
function lit(s: string): string {
  if (!/^[\x20-\x7e]*$/.test(s)) throw new Error(`not printable ASCII: ${JSON.stringify(s)}`);
  return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** Objects numbered in the order added; object 1 is the catalog, 2 the page tree. */
class PdfBuilder {
  private readonly objects: string[] = ['', ''];
  private readonly pageRefs: number[] = [];

  add(body: string): number {
    this.objects.push(body);
    return this.objects.length;
  }

  /** A stream object; `dict` holds the entries other than /Length and /Filter. */
  stream(dict: string, data: string | Buffer, compress = false): number {
    let bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    let filter = '';
    if (compress) {
      bytes = deflateSync(bytes);
      filter = ' /Filter /FlateDecode';
    }
    return this.add(`<< ${dict ? `${dict} ` : ''}/Length ${bytes.length}${filter} >>\nstream\n${bytes.toString('latin1')}\nendstream`);
  }

  /** A new standard Helvetica font dictionary (WinAnsiEncoding, no embedded file, widths from the standard metrics). */
  helvetica(): number {
    return this.add(`<< /Type /Font /Subtype /Type1 /BaseFont ${pdfName('Helvetica')} /Encoding /WinAnsiEncoding >>`);
  }

  page(options: { content: string; resources: string; mediaBox?: Rect; cropBox?: Rect; rotate?: number; annots?: number[] }): number {
    const contents = this.stream('', options.content);
    const media = options.mediaBox ?? [0, 0, 612, 792];
    const n = this.add(
      `<< /Type /Page /Parent ${ref(2)} /MediaBox [${media.map(fmt).join(' ')}]` +
        (options.cropBox ? ` /CropBox [${options.cropBox.map(fmt).join(' ')}]` : '') +
        (options.rotate ? ` /Rotate ${options.rotate}` : '') +
        ` /Resources << ${options.resources} >> /Contents ${ref(contents)}` +
        (options.annots?.length ? ` /Annots [${options.annots.map(ref).join(' ')}]` : '') +
        ' >>',
    );
    this.pageRefs.push(n);
    return n;
  }

  /** `pagesExtra`: entries for the /Pages node, inherited by every page (e.g. "/Rotate 90"). */
  finish(pagesExtra = ''): Buffer {
    this.objects[0] = `<< /Type /Catalog /Pages ${ref(2)} >>`;
    this.objects[1] = `<< /Type /Pages /Kids [${this.pageRefs.map(ref).join(' ')}] /Count ${this.pageRefs.length}${pagesExtra ? ` ${pagesExtra}` : ''} >>`;
    return serializePdf(this.objects, `/Root ${ref(1)}`);
  }
}

// ---------------------------------------------------------------------------
// Helvetica metrics (the standard 14 font's advance widths, 1/1000 em) for the
// characters the fixtures use, to place images and annotations beside text.

const HELVETICA_WIDTHS: Record<string, number> = {
  ' ': 278, '-': 333, '.': 278, ',': 278, ':': 278,
  '0': 556, '1': 556, '2': 556, '3': 556, '4': 556, '5': 556, '6': 556, '7': 556, '8': 556, '9': 556,
  A: 667, B: 667, C: 722, D: 722, E: 667, F: 611, G: 778, H: 722, I: 278, J: 500, K: 667, L: 556, M: 833,
  N: 722, O: 778, P: 667, Q: 778, R: 722, S: 667, T: 611, U: 722, V: 667, W: 944, X: 667, Y: 667, Z: 611,
  a: 556, b: 556, c: 500, d: 556, e: 556, f: 278, g: 556, h: 556, i: 222, j: 222, k: 500, l: 222, m: 833,
  n: 556, o: 556, p: 556, q: 556, r: 333, s: 500, t: 278, u: 556, v: 500, w: 722, x: 500, y: 500, z: 500,
};

/** Advance width of `s` in Helvetica at `size` points (no kerning, Tc = Tw = 0). */
export function helveticaWidth(s: string, size: number): number {
  let units = 0;
  for (const c of s) {
    const w = HELVETICA_WIDTHS[c];
    if (w === undefined) throw new Error(`no Helvetica width for ${JSON.stringify(c)}`);
    units += w;
  }
  return (units * size) / 1000;
}

// ---------------------------------------------------------------------------
// TrueType: just enough of the file to embed it as a CID font.

export interface TrueTypeInfo {
  unitsPerEm: number;
  bbox: [number, number, number, number];
  ascent: number;
  descent: number;
  capHeight: number;
  italicAngle: number;
  /** Glyph id for a Unicode code point from the (3,1) format 4 cmap; 0 (.notdef) when unmapped. */
  glyphId(codePoint: number): number;
  /** Advance width of a glyph in font units (hmtx; glyphs past numberOfHMetrics share the last advance). */
  advance(glyphId: number): number;
}

/** Reads head, hhea, hmtx, OS/2, post and the Windows BMP cmap (format 4) of a TrueType file. */
export function parseTrueType(data: Buffer): TrueTypeInfo {
  const tables = new Map<string, { offset: number; length: number }>();
  const numTables = data.readUInt16BE(4);
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    tables.set(data.toString('latin1', at, at + 4), { offset: data.readUInt32BE(at + 8), length: data.readUInt32BE(at + 12) });
  }
  const table = (tag: string) => {
    const t = tables.get(tag);
    if (!t) throw new Error(`TrueType file has no ${tag} table`);
    return t.offset;
  };
  const head = table('head');
  const hhea = table('hhea');
  const hmtx = table('hmtx');
  const unitsPerEm = data.readUInt16BE(head + 18);
  const bbox: [number, number, number, number] = [data.readInt16BE(head + 36), data.readInt16BE(head + 38), data.readInt16BE(head + 40), data.readInt16BE(head + 42)];
  const ascent = data.readInt16BE(hhea + 4);
  const descent = data.readInt16BE(hhea + 6);
  const numberOfHMetrics = data.readUInt16BE(hhea + 34);
  let capHeight = ascent;
  if (tables.has('OS/2')) {
    const os2 = table('OS/2');
    if (data.readUInt16BE(os2) >= 2) capHeight = data.readInt16BE(os2 + 88);
  }
  const italicAngle = tables.has('post') ? data.readInt32BE(table('post') + 4) / 65536 : 0;

  // The cmap subtable for platform 3 (Windows), encoding 1 (Unicode BMP).
  const cmap = table('cmap');
  let sub = -1;
  for (let i = 0; i < data.readUInt16BE(cmap + 2); i++) {
    const rec = cmap + 4 + i * 8;
    if (data.readUInt16BE(rec) === 3 && data.readUInt16BE(rec + 2) === 1) sub = cmap + data.readUInt32BE(rec + 4);
  }
  if (sub < 0 || data.readUInt16BE(sub) !== 4) throw new Error('TrueType file has no (3,1) format 4 cmap');
  const segCount = data.readUInt16BE(sub + 6) / 2;
  const endCodes = sub + 14;
  const startCodes = endCodes + segCount * 2 + 2; // after reservedPad
  const idDeltas = startCodes + segCount * 2;
  const idRangeOffsets = idDeltas + segCount * 2;

  const glyphId = (c: number): number => {
    if (c > 0xffff) return 0;
    for (let i = 0; i < segCount; i++) {
      if (data.readUInt16BE(endCodes + i * 2) < c) continue;
      const start = data.readUInt16BE(startCodes + i * 2);
      if (start > c) return 0;
      const delta = data.readUInt16BE(idDeltas + i * 2);
      const rangeAt = idRangeOffsets + i * 2;
      const rangeOffset = data.readUInt16BE(rangeAt);
      if (rangeOffset === 0) return (c + delta) & 0xffff;
      // idRangeOffset is relative to its own position in the file.
      const g = data.readUInt16BE(rangeAt + rangeOffset + (c - start) * 2);
      return g === 0 ? 0 : (g + delta) & 0xffff;
    }
    return 0;
  };
  const advance = (g: number) => data.readUInt16BE(hmtx + Math.min(g, numberOfHMetrics - 1) * 4);
  return { unitsPerEm, bbox, ascent, descent, capHeight, italicAngle, glyphId, advance };
}

/** A Type0 font over an embedded TrueType file: Identity-H codes are glyph ids, and only glyphs shown get /W and /ToUnicode entries. */
class CidFont {
  readonly info: TrueTypeInfo;
  private readonly used = new Map<number, string>();

  constructor(
    private readonly doc: PdfBuilder,
    private readonly file: Buffer,
  ) {
    this.info = parseTrueType(file);
  }

  /** A hex string of two-byte glyph ids for `text` (every character must be in the font). */
  show(text: string): string {
    const hex = [...text].map((ch) => {
      const g = this.info.glyphId(ch.codePointAt(0)!);
      if (g === 0) throw new Error(`font has no glyph for ${JSON.stringify(ch)}`);
      const known = this.used.get(g);
      if (known !== undefined && known !== ch) throw new Error(`glyph ${g} maps to both ${known} and ${ch}`);
      this.used.set(g, ch);
      return g.toString(16).padStart(4, '0');
    });
    return `<${hex.join('')}>`;
  }

  /** Width of a glyph in PDF glyph space (1/1000 em), as written to /W. */
  width(glyphId: number): number {
    return Math.round((this.info.advance(glyphId) * 1000) / this.info.unitsPerEm);
  }

  /** Writes the font objects; call after every show(). */
  finish(baseFont: string): number {
    const { info, doc } = this;
    const scale = (v: number) => Math.round((v * 1000) / info.unitsPerEm);
    const glyphs = [...this.used.keys()].sort((a, b) => a - b);
    const file = doc.stream(`/Length1 ${this.file.length}`, this.file, true);
    const descriptor = doc.add(
      `<< /Type /FontDescriptor /FontName /${baseFont} /Flags 32 /FontBBox [${info.bbox.map(scale).join(' ')}] /ItalicAngle ${fmt(info.italicAngle)}` +
        ` /Ascent ${scale(info.ascent)} /Descent ${scale(info.descent)} /CapHeight ${scale(info.capHeight)} /StemV 80 /FontFile2 ${ref(file)} >>`,
    );
    const w = glyphs.map((g) => `${g} [${this.width(g)}]`).join(' ');
    const cidFont = doc.add(
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${baseFont} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>` +
        ` /FontDescriptor ${ref(descriptor)} /DW 1000 /W [${w}] /CIDToGIDMap /Identity >>`,
    );
    const toUnicode = doc.stream('', toUnicodeCMap(2, glyphs.map((g) => [g, this.used.get(g)!])));
    return doc.add(`<< /Type /Font /Subtype /Type0 /BaseFont /${baseFont} /Encoding /Identity-H /DescendantFonts [${ref(cidFont)}] /ToUnicode ${ref(toUnicode)} >>`);
  }
}

/** A ToUnicode CMap with `bytes`-byte codes mapping each code to its text (UTF-16BE), in blocks of at most 100 as the CMap syntax requires. */
function toUnicodeCMap(bytes: 1 | 2, mappings: [number, string][]): string {
  const hex = (n: number) => n.toString(16).padStart(bytes * 2, '0').toUpperCase();
  const utf16 = (s: string) => Buffer.from(s, 'utf16le').swap16().toString('hex').toUpperCase();
  const lines = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    `<${hex(0)}> <${hex(bytes === 1 ? 0xff : 0xffff)}>`,
    'endcodespacerange',
  ];
  for (let i = 0; i < mappings.length; i += 100) {
    const block = mappings.slice(i, i + 100);
    lines.push(`${block.length} beginbfchar`, ...block.map(([code, text]) => `<${hex(code)}> <${utf16(text)}>`), 'endbfchar');
  }
  lines.push('endcmap', 'CMapName currentdict /CMapResource defineresource pop', 'end', 'end');
  return lines.join('\n');
}
