/**
 * Proves every redaction fixture is what it claims, with tools we did not
 * write: qpdf (structure, streams, annotations) and poppler (pdftotext,
 * pdftoppm, pdffonts, pdfimages, pdfinfo). The redaction tests rely on these
 * claims, so a fixture that stopped drawing its secret the hard way would
 * make them pass for the wrong reason.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { pdfinfo, pdftotext, qpdfCheck, renderPage, withTempFile } from '../helpers/pdf.js';
import { QpdfDocument, qpdfAnnotations } from '../helpers/qpdf-json.js';
import {
  DEJAVU_SANS,
  helveticaWidth,
  normaliseText,
  parseTrueType,
  pdfWords,
  REDACTION_KINDS,
  redactionFixture,
  type PdfWord,
  type RedactionFixture,
  type RedactionKind,
} from '../helpers/redaction-fixtures.js';

const built = new Map<RedactionKind, RedactionFixture>();
function get(kind: RedactionKind): RedactionFixture {
  let f = built.get(kind);
  if (!f) built.set(kind, (f = redactionFixture(kind)));
  return f;
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Runs a poppler tool on the PDF and returns its stdout. */
function tool(pdf: Buffer, name: string, args: string[] = []): string {
  return withTempFile(pdf, (file) => execFileSync(name, [...args, file], { encoding: 'utf8' }));
}

/** A stream's decoded data as qpdf reads it ("12 0 R" → object 12). */
function streamData(pdf: Buffer, ref: string): string {
  const [num, gen] = ref.split(' ');
  return withTempFile(pdf, (file) => execFileSync('qpdf', [`--show-object=${num},${gen}`, '--filtered-stream-data', file]).toString('latin1'));
}

/** Decoded content of page `index`'s /Contents (a single stream in these fixtures). */
function pageContent(pdf: Buffer, index = 0): string {
  const doc = new QpdfDocument(pdf);
  const page = doc.resolve(doc.pages[index]) as Record<string, unknown>;
  return streamData(pdf, page['/Contents'] as string);
}

/** True when the two word boxes share a text line: overlap across the writing direction. */
function sameLine(a: PdfWord, b: PdfWord, vertical: boolean): boolean {
  const [a0, a1, b0, b1] = vertical ? [a.xMin, a.xMax, b.xMin, b.xMax] : [a.yMin, a.yMax, b.yMin, b.yMax];
  return Math.min(a1, b1) - Math.max(a0, b0) > 0.5 * Math.min(a1 - a0, b1 - b0);
}

/** Dark pixels (all channels < 100) inside a box given in pixels. */
function darkPixels(page: ReturnType<typeof renderPage>, box: { x0: number; y0: number; x1: number; y1: number }): number {
  let dark = 0;
  for (let y = Math.max(0, Math.floor(box.y0)); y < Math.min(page.height, Math.ceil(box.y1)); y++) {
    for (let x = Math.max(0, Math.floor(box.x0)); x < Math.min(page.width, Math.ceil(box.x1)); x++) {
      if (page.rgb(x, y).every((c) => c < 100)) dark++;
    }
  }
  return dark;
}

describe('every kind', () => {
  for (const kind of REDACTION_KINDS) {
    test(`${kind}: qpdf --check passes, pdftotext finds the secret and every keep word`, () => {
      const f = get(kind);
      const check = qpdfCheck(f.pdf);
      assert.ok(check.ok, check.output);
      assert.equal(pdfinfo(f.pdf)['Pages'], String(f.pages));
      const text = normaliseText(pdftotext(f.pdf));
      assert.equal(count(text, f.secret), f.occurrences, text);
      assert.equal(count(text, f.search), f.occurrences, text);
      for (const word of f.keep) assert.ok(text.includes(word), `keep word ${word} not in ${text}`);
      for (const word of f.keep) {
        assert.ok(!f.secret.includes(word) && !word.includes(f.secret) && !f.search.includes(word), `keep word ${word} overlaps the secret`);
      }
      assert.equal(new Set(f.keep).size, f.keep.length, 'keep words are listed once');
    });

    if (kind === 'many') continue;
    test(`${kind}: keep words sit on the secret's line on both sides, and on other lines`, () => {
      const f = get(kind);
      const vertical = kind === 'rotated';
      const all = pdfWords(f.pdf);
      const along = (w: PdfWord) => (vertical ? w.yMin : w.xMin);
      // The first and last words of the search term (one word except for multi-line).
      const terms = f.search.split(' ');
      const first = all.find((w) => w.text === terms[0]);
      const last = all.find((w) => w.text === terms[terms.length - 1]);
      assert.ok(first && last, `search words not found: ${all.map((w) => w.text).join(' ')}`);
      const keep = all.filter((w) => f.keep.includes(w.text));
      assert.ok(keep.some((w) => sameLine(w, first, vertical) && along(w) < along(first)), 'a keep word before the secret on its line');
      assert.ok(keep.some((w) => sameLine(w, last, vertical) && along(w) > along(last)), 'a keep word after the secret on its line');
      assert.ok(keep.some((w) => !sameLine(w, first, vertical) && !sameLine(w, last, vertical)), 'a keep word on another line');
    });
  }
});

test('tj: one Tj string holds the neighbours and the secret', () => {
  const content = pageContent(get('tj').pdf);
  assert.match(content, /\(Alpha before SECRET-4711 after Omega\) Tj/);
});

test('tj-array: the secret is split over kerned TJ elements and no string holds it whole', () => {
  const f = get('tj-array');
  const content = pageContent(f.pdf);
  assert.match(content, /\[\(Alpha before SEC\) -20 \(RE\) 15 \(T-4712 after\) -300 \(Omega\)\] TJ/);
  assert.ok(!f.pdf.toString('latin1').includes(f.secret));
  // The -300 kern alone separates "after" from "Omega" as a word gap.
  const words = pdfWords(f.pdf);
  const after = words.find((w) => w.text === 'after')!;
  const omega = words.find((w) => w.text === 'Omega')!;
  assert.ok(omega.xMin - after.xMax > 3, 'a visible gap before Omega');
});

test("quote: the secret's line and the footer are drawn with ' one leading apart", () => {
  const f = get('quote');
  const content = pageContent(f.pdf);
  assert.match(content, /20 TL/);
  assert.match(content, /\(Alpha before SECRET-4713 after Omega\) '/);
  assert.match(content, /\(Closing remarks footer\) '/);
  const words = pdfWords(f.pdf);
  const secret = words.find((w) => w.text === f.secret)!;
  const footer = words.find((w) => w.text === 'Closing')!;
  assert.ok(Math.abs(footer.yMin - secret.yMin - 20) < 0.01, `footer ${footer.yMin} vs secret ${secret.yMin}`);
});

test('doublequote: " sets Tw and Tc, and the footer after it is spaced by them', () => {
  const f = get('doublequote');
  const content = pageContent(f.pdf);
  assert.match(content, /3 0\.4 \(Alpha before SECRET-4714 after Omega\) "/);
  assert.match(content, /\(Closing remarks footer\) '/);
  const words = pdfWords(f.pdf);
  const closing = words.find((w) => w.text === 'Closing')!;
  const remarks = words.find((w) => w.text === 'remarks')!;
  // Poppler ends a word at its last glyph's advance without the Tc after it:
  // 6 × 0.4 pt inside "Closing"; the gap holds that Tc, the space with its Tc, and 3 pt Tw.
  assert.ok(Math.abs(closing.xMax - closing.xMin - (helveticaWidth('Closing', 12) + 6 * 0.4)) < 0.05, `Closing is ${closing.xMax - closing.xMin} wide`);
  assert.ok(Math.abs(remarks.xMin - closing.xMax - (helveticaWidth(' ', 12) + 3 + 2 * 0.4)) < 0.05, `gap ${remarks.xMin - closing.xMax}`);
});

test('form-xobject: the secret is only in a nested form, which has its own resources and matrix', () => {
  const f = get('form-xobject');
  const doc = new QpdfDocument(f.pdf);
  const page = doc.resolve(doc.pages[0]) as Record<string, unknown>;
  assert.ok(!pageContent(f.pdf).includes('SECRET'));
  const resources = doc.get(page, '/Resources') as Record<string, unknown>;
  const outerRef = (doc.get(resources, '/XObject') as Record<string, string>)['/Fm0']!;
  const outer = doc.resolve(outerRef) as Record<string, unknown>;
  assert.equal(outer['/Subtype'], '/Form');
  assert.ok(!streamData(f.pdf, outerRef).includes('SECRET'));
  const innerRef = (doc.get(doc.get(outer, '/Resources') as Record<string, unknown>, '/XObject') as Record<string, string>)['/Inner']!;
  const inner = doc.resolve(innerRef) as Record<string, unknown>;
  assert.equal(inner['/Subtype'], '/Form');
  assert.deepEqual(inner['/Matrix'], [1, 0, 0, 1, 0, 4]);
  assert.match(streamData(f.pdf, innerRef), /\/FB 12 Tf .*\(Alpha before SECRET-4715 after Omega\) Tj/);
  // The font the inner form uses is not in the page's resources.
  assert.ok(!('/FB' in (doc.get(resources, '/Font') as Record<string, unknown>)));
  assert.ok('/FB' in (doc.get(doc.get(inner, '/Resources') as Record<string, unknown>, '/Font') as Record<string, unknown>));
});

test('annotation-appearance: the secret is in a FreeText appearance and its /Contents, not in the page content', () => {
  const f = get('annotation-appearance');
  assert.ok(!pageContent(f.pdf).includes('SECRET'));
  const [annot, ...others] = qpdfAnnotations(f.pdf);
  assert.equal(others.length, 0);
  assert.equal(annot!.subtype, 'FreeText');
  assert.equal(annot!.dict['/Contents'], 'u:Note SECRET-4716 approved');
  const ap = annot!.dict['/AP'] as Record<string, string>;
  assert.match(streamData(f.pdf, ap['/N']!), /\(Note SECRET-4716 approved\) Tj/);
  assert.equal(f.alsoIn.length, 1);
  // The appearance sits between the page's own words on the same baseline.
  const words = pdfWords(f.pdf);
  const secret = words.find((w) => w.text === f.secret)!;
  const [x0, , x1] = annot!.rect;
  assert.ok(secret.xMin > x0! && secret.xMax < x1!);
  assert.ok(words.find((w) => w.text === 'before')!.xMax < x0!);
  assert.ok(words.find((w) => w.text === 'after')!.xMin > x1!);
});

test('rotated: /Rotate 90 is inherited from /Pages, and the page renders with the secret where pdftotext says', () => {
  const f = get('rotated');
  const doc = new QpdfDocument(f.pdf);
  const page = doc.resolve(doc.pages[0]) as Record<string, unknown>;
  assert.ok(!('/Rotate' in page));
  assert.equal((doc.resolve(page['/Parent']) as Record<string, unknown>)['/Rotate'], 90);
  assert.equal(pdfinfo(f.pdf)['Page rot'], '90');
  const rendered = renderPage(f.pdf);
  assert.deepEqual([rendered.width, rendered.height], [792, 612]);
  const secret = pdfWords(f.pdf).find((w) => w.text === f.secret)!;
  assert.ok(secret.yMax - secret.yMin > 5 * (secret.xMax - secret.xMin), 'the secret runs vertically on screen');
  assert.ok(darkPixels(rendered, { x0: secret.xMin, y0: secret.yMin, x1: secret.xMax, y1: secret.yMax }) > 50);
});

test('offset-mediabox: MediaBox starts at 100,100, the CropBox is inset, and the page renders with the secret inside it', () => {
  const f = get('offset-mediabox');
  const boxes = tool(f.pdf, 'pdfinfo', ['-box']);
  assert.match(boxes, /MediaBox:\s+100\.00\s+100\.00\s+712\.00\s+892\.00/);
  assert.match(boxes, /CropBox:\s+110\.00\s+120\.00\s+702\.00\s+872\.00/);
  // pdfinfo's page size is the CropBox's; pdftoppm and pdftotext (without -cropbox) use the MediaBox, origin at its top left.
  assert.match(pdfinfo(f.pdf)['Page size'] ?? '', /^592 x 752 pts/);
  const rendered = renderPage(f.pdf);
  assert.deepEqual([rendered.width, rendered.height], [612, 792]);
  const secret = pdfWords(f.pdf).find((w) => w.text === f.secret)!;
  // The heading's baseline is at y 820 in user space: 72 pt below the MediaBox's top edge at 892.
  assert.ok(Math.abs(pdfWords(f.pdf).find((w) => w.text === 'Quarterly')!.yMax - (892 - 820)) < 3);
  assert.ok(darkPixels(rendered, { x0: secret.xMin, y0: secret.yMin, x1: secret.xMax, y1: secret.yMax }) > 50);
  // Nothing is drawn below the footer (the offset was applied once, not twice or not at all).
  assert.equal(darkPixels(rendered, { x0: 0, y0: secret.yMax + 30, x1: rendered.width, y1: rendered.height }), 0);
});

test('cid-font: an embedded CIDFontType2 with Identity-H; /W widths match hmtx, so positions are right', () => {
  const f = get('cid-font');
  const fonts = tool(f.pdf, 'pdffonts');
  assert.match(fonts, /DejaVuSans\s+CID TrueType\s+Identity-H\s+yes\s+no\s+yes/);
  const raw = f.pdf.toString('latin1');
  assert.ok(!raw.includes(Buffer.from(f.secret, 'utf8').toString('latin1')) && !raw.includes(Buffer.from(f.secret, 'utf16le').swap16().toString('latin1')));
  assert.match(pageContent(f.pdf), /Tf .*<[0-9a-f]{4,}> Tj/);
  const ttf = parseTrueType(readFileSync(DEJAVU_SANS));
  const expected = [...f.secret].reduce((sum, c) => sum + ttf.advance(ttf.glyphId(c.codePointAt(0)!)), 0) * (14 / ttf.unitsPerEm);
  const secret = pdfWords(f.pdf).find((w) => w.text === f.secret)!;
  assert.ok(Math.abs(secret.xMax - secret.xMin - expected) < 0.1, `width ${secret.xMax - secret.xMin}, hmtx says ${expected}`);
  assert.ok(darkPixels(renderPage(f.pdf), { x0: secret.xMin, y0: secret.yMin, x1: secret.xMax, y1: secret.yMax }) > 50, 'the glyphs are drawn');
});

test('type3: the secret is drawn with a Type 3 font by control-byte codes; only /ToUnicode names them', () => {
  const f = get('type3');
  assert.match(tool(f.pdf, 'pdffonts'), /Type 3\s+Custom\s+yes\s+no\s+yes/);
  assert.ok(!f.pdf.toString('latin1').includes(f.secret));
  assert.match(pageContent(f.pdf), /\/T3 12 Tf <010203040205060708090a> Tj/);
  const secret = pdfWords(f.pdf).find((w) => w.text === f.secret)!;
  assert.ok(Math.abs(secret.xMax - secret.xMin - 11 * 0.6 * 12) < 0.1, 'eleven glyphs of 600/1000 em');
  assert.ok(darkPixels(renderPage(f.pdf), { x0: secret.xMin, y0: secret.yMin, x1: secret.xMax, y1: secret.yMax }) > 50, 'the glyph procedures paint');
});

test('image-duplicate: an RGB image under the line has a magenta block exactly under the secret', () => {
  const f = get('image-duplicate');
  assert.match(tool(f.pdf, 'pdfimages', ['-list']), /\n\s+1\s+0\s+image\s+\d+\s+\d+\s+rgb\s+3\s+8\s+image/);
  const magenta = f.colourBlocks.find((b) => b.under === f.secret);
  assert.ok(magenta);
  assert.deepEqual(f.colourBlocks.map((b) => b.under), ['Alpha before', f.secret, 'after Omega']);
  // Each block lies within its text's box (user space: y up; pdftotext: y down from 792).
  const words = pdfWords(f.pdf);
  for (const block of f.colourBlocks) {
    const first = words.find((w) => w.text === block.under.split(' ')[0])!;
    const last = words.find((w) => w.text === block.under.split(' ').at(-1))!;
    const [x0, y0, x1, y1] = block.rect;
    assert.ok(x0 >= first.xMin - 0.05 && x1 <= last.xMax + 0.05, `${block.under}: block x ${x0}..${x1}, text ${first.xMin}..${last.xMax}`);
    assert.ok(792 - y1 >= first.yMin && 792 - y0 <= first.yMax, `${block.under}: block y ${y0}..${y1}, text ${792 - first.yMax}..${792 - first.yMin}`);
    assert.ok(x1 - x0 > 20 && y1 - y0 > 8);
  }
  // Rendered, most of each block shows its colour (the rest is glyphs and antialiasing).
  const dpi = 144;
  const page = renderPage(f.pdf, 1, dpi);
  const s = dpi / 72;
  for (const block of f.colourBlocks) {
    const [x0, y0, x1, y1] = block.rect;
    let match = 0;
    let total = 0;
    for (let y = Math.ceil((792 - y1) * s); y < Math.floor((792 - y0) * s); y++) {
      for (let x = Math.ceil(x0 * s); x < Math.floor(x1 * s); x++) {
        total++;
        if (page.rgb(x, y).every((c, i) => Math.abs(c - block.rgb[i]!) <= 8)) match++;
      }
    }
    assert.ok(match / total > 0.4, `${block.under}: ${match}/${total} pixels of ${block.rgb}`);
  }
});

test('multi-line: "secret" ends one line and "project" starts the next', () => {
  const f = get('multi-line');
  assert.equal(f.search, 'secret project');
  const words = pdfWords(f.pdf);
  const secret = words.find((w) => w.text === 'secret')!;
  const project = words.find((w) => w.text === 'project')!;
  assert.ok(Math.abs(project.yMin - secret.yMin - 20) < 0.01);
  assert.ok(!words.some((w) => sameLine(w, secret, false) && w.xMin > secret.xMax), 'nothing after "secret" on its line');
  assert.ok(!words.some((w) => sameLine(w, project, false) && w.xMax < project.xMin), 'nothing before "project" on its line');
});

test('many: pages × perPage occurrences, parameters checked', () => {
  const f = redactionFixture('many', { pages: 2, perPage: 150 });
  assert.ok(qpdfCheck(f.pdf).ok);
  assert.equal(f.occurrences, 300);
  assert.equal(pdfinfo(f.pdf)['Pages'], '2');
  const perPage = pdftotext(f.pdf).split('\f').slice(0, 2).map((page) => count(page, f.secret));
  assert.deepEqual(perPage, [150, 150]);
  // Columns do not run into each other: every occurrence is a word of its own.
  assert.equal(pdfWords(f.pdf).filter((w) => w.text === f.secret).length, 300);
  assert.throws(() => redactionFixture('many', { perPage: 163 }), RangeError);
  assert.throws(() => redactionFixture('many', { pages: 0 }), RangeError);
});
