import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { call, expectUnchanged, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { encryptPdf, makePdf, pdfinfo, pdftotext, qpdfCheck, renderPage, serializePdf, withTempFile } from '../helpers/pdf.js';
import { signedFieldPdf } from '../helpers/signing.js';
import { serverForSuite } from '../helpers/server.js';

// A 2 s regular-expression budget (PDFSERVICE_REGEX_BUDGET_MS, 5 s by default): the catastrophic-backtracking test waits it out.
const server = serverForSuite({ env: { PDFSERVICE_REGEX_BUDGET_MS: '2000' } });

const action = (doc: string, body: object) => call(server, 'POST', `/documents/${doc}/pages`, { body });
const ok = (reply: Reply) => assert.equal(reply.status, 200, reply.text);
const upload = async (doc: string, pdf: Buffer) => {
  const reply = await putPdf(server, doc, pdf);
  assert.equal(reply.status, 201, reply.text);
};

/** The stored document, checked by qpdf. */
async function stored(doc: string): Promise<Buffer> {
  const bytes = await storedBytes(server, doc);
  const check = qpdfCheck(bytes);
  assert.ok(check.ok, check.output);
  return bytes;
}

/** One page's text by poppler (1-based page). */
const pageText = (pdf: Buffer, page: number) => withTempFile(pdf, (file) => execFileSync('pdftotext', ['-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' }));
const pageCount = (pdf: Buffer) => Number(pdfinfo(pdf)['Pages']);

/** Where a page's ink is, by poppler at 72 dpi, as shown (rotation applied): y counted from the top, in points; undefined when blank. */
function inkBox(pdf: Buffer, page: number): { x0: number; y0: number; x1: number; y1: number } | undefined {
  const { width, height, rgb } = renderPage(pdf, page);
  let box: { x0: number; y0: number; x1: number; y1: number } | undefined;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = rgb(x, y);
      if (r + g + b > 600) continue;
      box = box ? { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x + 1), y1: Math.max(box.y1, y + 1) } : { x0: x, y0: y, x1: x + 1, y1: y + 1 };
    }
  }
  return box;
}

/** Pages with nothing drawn, so that all the ink after numbering is the number's. */
const blankPages = (pages: number, options: { width?: number; height?: number } = {}) => makePdf({ pages, text: () => '', ...options });

describe('PageNumbersAction', () => {
  test('"Page {n} of {total}" on every page: pdftotext reads each page\'s own number; same page count; the report gives pages and labels', async () => {
    await upload('pn/five.pdf', makePdf({ pages: 5 }));
    const reply = await action('pn/five.pdf', { PageNumbersAction: { format: 'Page {n} of {total}' } });
    ok(reply);
    assert.deepEqual(reply.json().report, { pages: [0, 1, 2, 3, 4], first: 'Page 1 of 5', last: 'Page 5 of 5', lastNumber: 5, fonts: ['Helvetica'] });
    const pdf = await stored('pn/five.pdf');
    assert.equal(pageCount(pdf), 5);
    for (let p = 1; p <= 5; p++) {
      const text = pageText(pdf, p);
      assert.match(text, new RegExp(`Page ${p} of 5`), `page ${p}: ${text}`);
      assert.doesNotMatch(text, new RegExp(`Page ${p === 1 ? 2 : 1} of 5`), `page ${p} shows only its own number`);
    }
  });

  test('Bates numbers: prefix, zero-padded counter, start number and a page range that skips the cover; {total} is the last number given', async () => {
    await upload('pn/bates.pdf', blankPages(4));
    const reply = await action('pn/bates.pdf', { PageNumbersAction: { prefix: 'ACME-', format: '{n}', suffix: ' (of {total})', digits: 6, startNumber: 120, pageRange: '2-', position: 'bottom-right' } });
    ok(reply);
    const report = reply.json().report;
    assert.deepEqual([report.pages, report.first, report.last, report.lastNumber], [[1, 2, 3], 'ACME-000120 (of {total})', 'ACME-000122 (of {total})', 122]);
    const pdf = await stored('pn/bates.pdf');
    assert.doesNotMatch(pageText(pdf, 1), /ACME/);
    for (const [page, n] of [[2, 120], [3, 121], [4, 122]] as const) assert.match(pageText(pdf, page), new RegExp(`ACME-000${n}`));
    // Bottom right of the page (612 x 792 points), 36 points in.
    const box = inkBox(pdf, 2)!;
    assert.ok(box.x1 <= 612 - 36 + 1 && box.x1 > 612 - 36 - 5, `right end near the margin: ${JSON.stringify(box)}`);
    assert.ok(box.y1 <= 792 - 36 + 4 && box.y0 > 792 - 36 - 20, `baseline near the bottom margin: ${JSON.stringify(box)}`);
  });

  test('positions: top-left and bottom-center lie where named, on an upright page and on a page shown turned (/Rotate 90)', async () => {
    const turned = withTempFile(blankPages(2), (file) => execFileSync('qpdf', [file, '--rotate=+90:2', '-'], { maxBuffer: 1 << 26 }));
    await upload('pn/where.pdf', turned);
    ok(await action('pn/where.pdf', { PageNumbersAction: { format: '{n}', position: 'bottom-center', fontSize: 20, margin: 30 } }));
    const pdf = await stored('pn/where.pdf');
    // Page 1 upright, 612 x 792; page 2 shown 792 wide and 612 high.
    for (const [page, width, height] of [[1, 612, 792], [2, 792, 612]] as const) {
      const box = inkBox(pdf, page)!;
      const middle = (box.x0 + box.x1) / 2;
      assert.ok(Math.abs(middle - width / 2) < 8, `page ${page}: centred (${JSON.stringify(box)})`);
      assert.ok(box.y1 <= height - 30 + 5 && box.y0 >= height - 30 - 20, `page ${page}: above the bottom margin (${JSON.stringify(box)})`);
      // Upright as shown: a digit is taller than wide.
      assert.ok(box.y1 - box.y0 > box.x1 - box.x0, `page ${page}: upright (${JSON.stringify(box)})`);
    }
    assert.match(pageText(pdf, 2), /2/);

    await upload('pn/top.pdf', blankPages(1));
    ok(await action('pn/top.pdf', { PageNumbersAction: { format: '{n}', position: 'top-left', fontSize: 20, margin: 50 } }));
    const box = inkBox(await stored('pn/top.pdf'), 1)!;
    assert.ok(box.x0 >= 50 && box.x0 < 56, `left edge at the margin: ${JSON.stringify(box)}`);
    assert.ok(box.y0 >= 50 && box.y1 <= 50 + 20 + 1, `below the top margin, within a font size: ${JSON.stringify(box)}`);
  });

  test('the crop box is the page: a number at the bottom right sits inside it, however large the media box', async () => {
    // One empty page: media box 612 x 792, crop box [100 100 512 692].
    const pdf = serializePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /CropBox [100 100 512 692] >>'], '/Root 1 0 R');
    await upload('pn/cropped.pdf', pdf);
    ok(await action('pn/cropped.pdf', { PageNumbersAction: { format: '{n}', position: 'bottom-right', fontSize: 20, margin: 20 } }));
    // Rendered on its media box (pdftoppm's default), y from the top: the crop box's right edge is x 512, its bottom y 692.
    const box = inkBox(await stored('pn/cropped.pdf'), 1)!;
    // The digit's ink ends some 4 points before its advance width (Helvetica's 1).
    assert.ok(box.x1 <= 512 - 20 + 1 && box.x1 > 512 - 20 - 8, `right end at the crop box's margin: ${JSON.stringify(box)}`);
    assert.ok(box.y1 <= 692 - 20 + 2 && box.y0 > 692 - 20 - 22, `baseline at the crop box's bottom margin: ${JSON.stringify(box)}`);
  });

  test('a font embedded for Unicode text is stored once for every page, subset, and the text reads back', async () => {
    await upload('pn/unicode.pdf', makePdf({ pages: 12 }));
    const reply = await action('pn/unicode.pdf', { PageNumbersAction: { format: 'Σελίδα {n} / {total}', fontName: 'DejaVuSans' } });
    ok(reply);
    assert.deepEqual(reply.json().report.fonts, ['DejaVuSans']);
    const pdf = await stored('pn/unicode.pdf');
    assert.match(pageText(pdf, 7), /Σελίδα 7 \/ 12/);
    const rows = withTempFile(pdf, (file) => execFileSync('pdffonts', [file], { encoding: 'utf8' })).split('\n').filter((l) => l.includes('DejaVuSans'));
    assert.equal(rows.length, 1, rows.join('\n'));
    assert.match(rows[0]!, /^[A-Z]{6}\+DejaVuSans\b.* yes +yes +yes /, 'embedded, subset, with a ToUnicode map');
  });

  test('a signed document is appended to (its signed revision kept byte for byte); an encrypted one needs its password and stays encrypted', async () => {
    const signed = signedFieldPdf();
    await upload('pn/signed.pdf', signed);
    ok(await action('pn/signed.pdf', { PageNumbersAction: { format: 'Signed page {n}' } }));
    const pdf = await stored('pn/signed.pdf');
    assert.ok(pdf.length > signed.length && pdf.subarray(0, signed.length).equals(signed), 'the signed revision is kept');
    assert.match(pageText(pdf, 1), /Signed page 1/);

    await upload('pn/locked.pdf', encryptPdf(makePdf({ pages: 2 }), 'user-pw', 'owner-pw'));
    await expectUnchanged(server, 'pn/locked.pdf', () => action('pn/locked.pdf', { PageNumbersAction: {} }), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    const reply = await call(server, 'POST', '/documents/pn/locked.pdf/pages', { body: { PageNumbersAction: { format: '#{n}' } }, headers: { 'x-service-documentpassword': 'owner-pw' } });
    ok(reply);
    const locked = await storedBytes(server, 'pn/locked.pdf');
    withTempFile(locked, (file) => execFileSync('qpdf', ['--password=user-pw', '--check', file]));
    assert.match(pdftotext(locked, 'user-pw'), /#2/);
  });

  test('bad input: an unknown placeholder, a page range past the end, an unknown font, a character no font has: 400, nothing written', async () => {
    await upload('pn/bad.pdf', makePdf({ pages: 2 }));
    const run = (params: object) => () => action('pn/bad.pdf', { PageNumbersAction: params });
    const placeholder = await expectUnchanged(server, 'pn/bad.pdf', run({ format: 'Page {page}' }), 400, 'VALIDATION_FAILED');
    assert.match(placeholder.json().detail, /\{page\}/);
    await expectUnchanged(server, 'pn/bad.pdf', run({ pageRange: '1-3' }), 400, 'PAGE_OUT_OF_RANGE');
    await expectUnchanged(server, 'pn/bad.pdf', run({ pageRange: '' }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, 'pn/bad.pdf', run({ fontName: 'Comic Sans' }), 400, 'UNKNOWN_FONT');
    await expectUnchanged(server, 'pn/bad.pdf', run({ format: '{n} \u0E01' }), 400, 'UNSUPPORTED_CHARACTERS');
    await expectUnchanged(server, 'pn/bad.pdf', run({ digits: 0 }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, 'pn/bad.pdf', run({ transparency: 0.5, opacity: 0.5 }), 400, 'VALIDATION_FAILED');
  });
});

describe('RemoveBlankPagesAction', () => {
  /** Eight pages; 2, 5 and 8 (1-based) are blank, 7 holds a single short word (0.03% ink at 36 dpi: under the default threshold). */
  const withBlanks = () => makePdf({ pages: 8, text: (i) => ([1, 4, 7].includes(i) ? '' : i === 6 ? 'ok' : `Page ${i + 1}`) });

  test('removes exactly the blank pages (the answer lists them); the rest keep their order and text', async () => {
    await upload('blank/doc.pdf', withBlanks());
    // A threshold under the short word's ink keeps its page.
    const reply = await action('blank/doc.pdf', { RemoveBlankPagesAction: { threshold: 0.0001 } });
    ok(reply);
    const { report, pageCount: count } = reply.json();
    assert.deepEqual([report.removed, report.pageRange, report.dryRun, count], [[1, 4, 7], '2,5,8', false, 5]);
    assert.deepEqual(report.ink, [0, 0, 0]);
    const pdf = await stored('blank/doc.pdf');
    assert.equal(pageCount(pdf), 5);
    assert.deepEqual([1, 2, 3, 4, 5].map((p) => pageText(pdf, p).trim()), ['Page 1', 'Page 3', 'Page 4', 'Page 6', 'ok']);
  });

  test('the default threshold (0.001) also takes a page with one short word: dryRun shows it first', async () => {
    await upload('blank/word.pdf', withBlanks());
    const reply = await action('blank/word.pdf', { RemoveBlankPagesAction: { dryRun: true } });
    ok(reply);
    const { removed, ink } = reply.json().report;
    assert.deepEqual(removed, [1, 4, 6, 7]);
    assert.ok(ink[2] > 0.0001 && ink[2] < 0.001, `the word's ink: ${ink[2]}`);
  });

  test('dryRun lists the pages and writes nothing; pageRange limits the pages considered; a threshold of 0 finds none', async () => {
    await upload('blank/dry.pdf', withBlanks());
    const before = sha256(await storedBytes(server, 'blank/dry.pdf'));
    const dry = await action('blank/dry.pdf', { RemoveBlankPagesAction: { dryRun: true, threshold: 0.0001 } });
    ok(dry);
    assert.deepEqual([dry.json().report.removed, dry.json().report.dryRun, dry.json().pageCount], [[1, 4, 7], true, 8]);
    const ranged = await action('blank/dry.pdf', { RemoveBlankPagesAction: { dryRun: true, pageRange: '3-6', threshold: 0.0001 } });
    ok(ranged);
    assert.deepEqual(ranged.json().report.removed, [4]);
    const none = await action('blank/dry.pdf', { RemoveBlankPagesAction: { threshold: 0 } });
    ok(none);
    assert.deepEqual(none.json().report.removed, []);
    assert.equal(sha256(await storedBytes(server, 'blank/dry.pdf')), before);
  });

  test('a document whose every page is blank is 400 and unchanged; so is a bad page range', async () => {
    await upload('blank/all.pdf', blankPages(3));
    const reply = await expectUnchanged(server, 'blank/all.pdf', () => action('blank/all.pdf', { RemoveBlankPagesAction: {} }), 400, 'VALIDATION_FAILED');
    assert.match(reply.json().detail, /every page/);
    await expectUnchanged(server, 'blank/all.pdf', () => action('blank/all.pdf', { RemoveBlankPagesAction: { pageRange: '4' } }), 400, 'PAGE_OUT_OF_RANGE');
    await expectUnchanged(server, 'blank/all.pdf', () => action('blank/all.pdf', { RemoveBlankPagesAction: { threshold: 2 } }), 400, 'VALIDATION_FAILED');
  });

  test('savePath: the result goes there, the source stays', async () => {
    await upload('blank/src.pdf', withBlanks());
    const before = sha256(await storedBytes(server, 'blank/src.pdf'));
    const reply = await action('blank/src.pdf', { RemoveBlankPagesAction: { savePath: 'blank/out.pdf', threshold: 0.0001 } });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(pageCount(await stored('blank/out.pdf')), 5);
    assert.equal(sha256(await storedBytes(server, 'blank/src.pdf')), before);
  });
});

describe('as one-shot steps', () => {
  test('POST /convert: blank pages removed, then the rest numbered, in one request that stores nothing', async () => {
    const pdf = makePdf({ pages: 4, text: (i) => (i === 2 ? '' : `Page ${i + 1}`) });
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'in.pdf');
    body.append('steps', JSON.stringify([{ RemoveBlankPagesAction: {} }, { PageNumbersAction: { format: 'p. {n}/{total}' } }]));
    const reply = await call(server, 'POST', '/convert', { body });
    ok(reply);
    const out = reply.bytes;
    assert.ok(qpdfCheck(out).ok);
    assert.equal(pageCount(out), 3);
    assert.deepEqual([1, 2, 3].map((p) => pageText(out, p).replace(/\s+/g, ' ').trim()), ['Page 1 p. 1/3', 'Page 2 p. 2/3', 'Page 4 p. 3/3']);
  });
});

describe('RemovePagesByTextAction', () => {
  const withSeparators = () => makePdf({ pages: 6, text: (i) => (i === 1 || i === 3 ? 'SEPARATOR' : i === 4 ? 'See SEPARATOR sheets' : `Page ${i + 1}`) });

  test('match "only" removes the pages that say nothing else; "contains" also the page that mentions it', async () => {
    await upload('bytext/only.pdf', withSeparators());
    const only = await action('bytext/only.pdf', { RemovePagesByTextAction: { searchText: 'separator', match: 'only' } });
    ok(only);
    assert.deepEqual(only.json().report.removed, [1, 3]);
    const pdf = await stored('bytext/only.pdf');
    assert.deepEqual([1, 2, 3, 4].map((p) => pageText(pdf, p).trim()), ['Page 1', 'Page 3', 'See SEPARATOR sheets', 'Page 6']);

    await upload('bytext/contains.pdf', withSeparators());
    const contains = await action('bytext/contains.pdf', { RemovePagesByTextAction: { searchText: 'SEPARATOR', caseSensitive: true } });
    ok(contains);
    assert.deepEqual(contains.json().report.removed, [1, 3, 4]);
    assert.equal(pageCount(await stored('bytext/contains.pdf')), 3);
  });

  test('a regular expression; dryRun; no match changes nothing', async () => {
    await upload('bytext/re.pdf', withSeparators());
    const before = sha256(await storedBytes(server, 'bytext/re.pdf'));
    const dry = await action('bytext/re.pdf', { RemovePagesByTextAction: { searchText: 'Page [36]', regex: true, match: 'only', dryRun: true } });
    ok(dry);
    assert.deepEqual(dry.json().report.removed, [2, 5]);
    const none = await action('bytext/re.pdf', { RemovePagesByTextAction: { searchText: 'nowhere' } });
    ok(none);
    assert.deepEqual(none.json().report.removed, []);
    assert.equal(sha256(await storedBytes(server, 'bytext/re.pdf')), before);
  });

  test('bad input: an invalid expression, a search that matches every page, a blank search: 400, nothing written', async () => {
    await upload('bytext/bad.pdf', withSeparators());
    const run = (params: object) => () => action('bytext/bad.pdf', { RemovePagesByTextAction: params });
    await expectUnchanged(server, 'bytext/bad.pdf', run({ searchText: '(', regex: true }), 400, 'INVALID_SEARCH');
    await expectUnchanged(server, 'bytext/bad.pdf', run({ searchText: '.', regex: true }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, 'bytext/bad.pdf', run({ searchText: '   ' }), 400, 'VALIDATION_FAILED');
  });

  test('a regular expression that backtracks for ever is stopped by the search budget: 400 INVALID_SEARCH, nothing written', async () => {
    await upload('bytext/slow.pdf', makePdf({ pages: 2, text: () => 'a'.repeat(40) }));
    const reply = await expectUnchanged(server, 'bytext/slow.pdf', () => action('bytext/slow.pdf', { RemovePagesByTextAction: { searchText: '(a+)+b', regex: true } }), 400, 'INVALID_SEARCH');
    assert.match(reply.json().detail, /longer than/);
  });
});
