import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { call, leaksInternals, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { makePagesPdf, textLines, type FixtureDocument } from '../helpers/page-fixtures.js';
import { makePdf, renderPage, withTempFile } from '../helpers/pdf.js';
import { PdfObjects } from '../helpers/pdf-writer.js';
import { decodePng, grayOf, jpegSize, type Raster } from '../helpers/png.js';
import { pdfinfoPages, popplerPages, popplerWords, words } from '../helpers/poppler-text.js';
import { qpdfAnnotations } from '../helpers/qpdf-json.js';
import { startServer, type TestServer } from '../helpers/server.js';

interface Rect { x: number; y: number; width: number; height: number }
interface Page { pageIndex: number; width: number; height: number; rotation: number; mediaBox: Rect; cropBox: Rect; annotationCount: number }
interface Unit { text: string; rectangle: Rect }

const PARAGRAPH = ['The quick brown fox jumps over the lazy dog.', 'Pack my box with five dozen liquor jugs.', 'Sphinx of black quartz, judge my vow!'];
/** Six pages: Letter with annotations (one FreeText shown, one hidden), A4 turned 90°, a crop box on a page turned 270° (and text outside it), a media box off the origin turned 180° (inherited), an empty page, two sizes and two columns. */
const FIXTURE: FixtureDocument = {
  inherited: '/MediaBox [0 0 612 792]',
  pages: [
    { lines: textLines(72, 700, 12, 16, PARAGRAPH), annotations: ['Text', 'FreeText', 'Square', 'HiddenFreeText', 'Link'] },
    { mediaBox: [0, 0, 595.28, 841.89], rotate: 90, lines: textLines(72, 760, 14, 20, ['Rotated page: reading across the long side.', 'Second line of the turned page.']) },
    {
      mediaBox: [0, 0, 500, 700],
      cropBox: [50, 60, 450, 650],
      rotate: -90,
      lines: [...textLines(80, 600, 10, 14, ['Inside the crop box, first line.', 'Inside the crop box, second line.']), { x: 60, y: 20, size: 10, text: 'Hidden below the crop box' }],
    },
    { mediaBox: [100, 100, 500, 400], rotate: 540, lines: textLines(120, 350, 11, 15, ['Offset media box, upside down.', 'Numbers 12,345.67 and 3.14 too.']) },
    {},
    { lines: [{ x: 72, y: 700, size: 24, text: 'Large heading' }, { x: 72, y: 660, size: 9, text: 'small print under it' }, { x: 320, y: 660, size: 9, text: 'a second column' }] },
  ],
};
const pdf = makePagesPdf(FIXTURE);
const LETTER_PAGE = 0;
const ROTATED_PAGE = 1;
const CROPPED_PAGE = 2;
const EMPTY_PAGE = 4;
const COLUMNS_PAGE = 5;

let server: TestServer;
let pages: Page[];
before(async () => {
  server = await startServer();
  assert.equal((await putPdf(server, 'pages/fixture.pdf', pdf)).status, 201);
  const reply = await call(server, 'GET', '/documents/pages/fixture.pdf/pages');
  assert.equal(reply.status, 200, reply.text);
  pages = reply.json().pages;
});
after(async () => {
  await server.stop();
});

const get = (url: string, headers: Record<string, string> = {}) => call(server, 'GET', `/documents/${url}`, { headers });
const pageText = async (page: number, query = '') => {
  const reply = await get(`pages/fixture.pdf/pages/${page}/text${query}`);
  assert.equal(reply.status, 200, reply.text);
  return reply.json() as { pageIndex: number; text: string; words?: Unit[]; lines?: Unit[]; blocks?: Unit[] };
};
const asBox = (r: number[]) => ({ x: r[0]!, y: r[1]!, width: r[2]! - r[0]!, height: r[3]! - r[1]! });
const near = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance;

describe('GET .../pages: one PageModel per page', () => {
  test('sizes, rotations and boxes are what pdfinfo (poppler) reads', () => {
    const info = pdfinfoPages(pdf);
    assert.equal(pages.length, info.length);
    for (const [i, page] of pages.entries()) {
      const expected = info[i]!;
      assert.equal(page.pageIndex, i);
      assert.equal(page.rotation, expected.rotation, `page ${i} rotation`);
      assert.deepEqual(page.mediaBox, asBox(expected.mediaBox), `page ${i} media box`);
      assert.deepEqual(page.cropBox, asBox(expected.cropBox), `page ${i} crop box`);
      // pdfinfo's size is the crop box unrotated; ours is as displayed.
      const turned = page.rotation % 180 !== 0;
      assert.deepEqual([page.width, page.height], turned ? [expected.size[1], expected.size[0]] : expected.size, `page ${i} size`);
    }
  });

  test('the values the fixture sets: /Rotate -90 is 270, 540 is 180, the crop box is in user space, inherited media box', () => {
    assert.deepEqual(pages.map((p) => p.rotation), [0, 90, 270, 180, 0, 0]);
    assert.deepEqual(pages[CROPPED_PAGE], {
      pageIndex: 2, width: 590, height: 400, rotation: 270,
      mediaBox: { x: 0, y: 0, width: 500, height: 700 }, cropBox: { x: 50, y: 60, width: 400, height: 590 }, annotationCount: 0,
    });
    assert.deepEqual(pages[3]!.cropBox, { x: 100, y: 100, width: 400, height: 300 });
    assert.deepEqual([pages[ROTATED_PAGE]!.width, pages[ROTATED_PAGE]!.height], [841.89, 595.28]);
    assert.deepEqual(pages[EMPTY_PAGE]!.mediaBox, { x: 0, y: 0, width: 612, height: 792 }, 'inherited from the page tree');
  });

  test('annotationCount counts every /Annots entry (the Popup too) as qpdf and the annotation listing do', async () => {
    const independent = qpdfAnnotations(pdf);
    const listed = (await get('pages/fixture.pdf/annotations')).json().annotations as { pageIndex: number }[];
    for (const page of pages) {
      assert.equal(page.annotationCount, independent.filter((a) => a.pageIndex === page.pageIndex).length, `page ${page.pageIndex}`);
      assert.equal(page.annotationCount, listed.filter((a) => a.pageIndex === page.pageIndex).length);
    }
    assert.equal(pages[LETTER_PAGE]!.annotationCount, 6, 'Text, its Popup, FreeText, Square, hidden FreeText, Link');
  });

  test('XML: <Pages> with one <page> each; ETag and 304', async () => {
    const xml = await get('pages/fixture.pdf/pages', { accept: 'application/xml' });
    assert.equal(xml.status, 200);
    assert.match(xml.headers.get('content-type')!, /^application\/xml/);
    assert.equal(xml.text.match(/<page>/g)?.length, 6);
    assert.match(xml.text, /<Pages>\s*<page>\s*<pageIndex>0<\/pageIndex>\s*<width>612<\/width>\s*<height>792<\/height>\s*<rotation>0<\/rotation>\s*<mediaBox>\s*<x>0<\/x>/);
    const json = await get('pages/fixture.pdf/pages');
    const etag = json.headers.get('etag')!;
    assert.notEqual(etag, xml.headers.get('etag'), 'each format has its own ETag');
    assert.equal((await get('pages/fixture.pdf/pages', { 'if-none-match': etag })).status, 304);
  });

  test('a page list answers for a document of many pages of one size', async () => {
    await putPdf(server, 'pages/many.pdf', makePdf({ pages: 40, width: 300, height: 500 }));
    const list = (await get('pages/many.pdf/pages')).json().pages as Page[];
    assert.equal(list.length, 40);
    assert.ok(list.every((p, i) => p.pageIndex === i && p.width === 300 && p.height === 500 && p.annotationCount === 0));
  });
});

describe('GET .../pages/{pageIndex}/text', () => {
  test("each page's text has pdftotext's words in pdftotext's order (the crop box aside: see the next test)", async () => {
    const poppler = popplerPages(pdf);
    for (const page of pages) {
      if (page.pageIndex === CROPPED_PAGE) continue;
      const ours = await pageText(page.pageIndex);
      assert.deepEqual(words(ours.text), words(poppler[page.pageIndex]!), `page ${page.pageIndex}`);
    }
    assert.equal((await pageText(EMPTY_PAGE)).text, '');
    assert.equal((await pageText(LETTER_PAGE)).text, `${PARAGRAPH.join('\n')}\n\nVisible note\n\n`, 'lines end with \\n, each block with one more');
  });

  test('the text as displayed: what an annotation shows is in it (a FreeText), a hidden annotation\'s is not, as with pdftotext', async () => {
    const { text, words: boxes } = await pageText(LETTER_PAGE, '?detail=words');
    assert.match(text, /Visible note/);
    assert.doesNotMatch(text, /Hidden/);
    assert.match(popplerPages(pdf)[LETTER_PAGE]!, /Visible note/);
    const note = boxes!.find((w) => w.text === 'Visible')!.rectangle;
    assert.ok(note.y > 20 && note.y + note.height < 40, `inside the annotation's /Rect: ${JSON.stringify(note)}`);
  });

  test('text outside the crop box is not on the page: left out, where pdftotext (reading the media box) keeps it', async () => {
    const ours = words((await pageText(CROPPED_PAGE)).text);
    const poppler = words(popplerPages(pdf)[CROPPED_PAGE]!);
    assert.deepEqual(ours, words('Inside the crop box, first line. Inside the crop box, second line.'));
    assert.ok(poppler.includes('Hidden') && !ours.includes('Hidden'));
    assert.deepEqual(words(poppler.join(' ').replace('Hidden below the crop box', '')), ours);
    // pdftotext -cropbox, which limits its word boxes to the crop box, agrees with us.
    assert.deepEqual(popplerWords(pdf, CROPPED_PAGE, pages[CROPPED_PAGE]!).map((w) => w.text), ours);
  });

  test('word boxes are where pdftotext -bbox puts them (within 2 pt), on every rotation, crop and offset', async () => {
    for (const page of pages) {
      const ours = (await pageText(page.pageIndex, '?detail=words')).words!;
      const poppler = popplerWords(pdf, page.pageIndex, page);
      assert.deepEqual(ours.map((w) => w.text), poppler.map((w) => w.text), `page ${page.pageIndex} words`);
      for (const [i, word] of ours.entries()) {
        const reference = poppler[i]!;
        const r = word.rectangle;
        const close = near(r.x, reference.x, 2) && near(r.y, reference.y, 2) && near(r.x + r.width, reference.x + reference.width, 2) && near(r.y + r.height, reference.y + reference.height, 2);
        assert.ok(close, `page ${page.pageIndex} "${word.text}": ours ${JSON.stringify(r)}, pdftotext ${JSON.stringify(reference)}`);
      }
    }
  });

  test('detail=words: runs of non-whitespace within a line; together they are the text', async () => {
    const page = await pageText(COLUMNS_PAGE, '?detail=words');
    assert.deepEqual(page.words!.map((w) => w.text), words(page.text));
    assert.equal(page.lines, undefined);
    // Helvetica at 24 pt: the box spans the glyph body, 0.18 em below the baseline (y = 700) to 0.78 em above.
    const heading = page.words![0]!.rectangle;
    assert.ok(near(heading.y, 700 - 0.18 * 24, 0.01) && near(heading.height, 0.96 * 24, 0.01), JSON.stringify(heading));
    assert.equal(heading.x, 72);
  });

  test('detail=lines and detail=blocks: the text by line and by block, each box holding its words', async () => {
    const withWords = (await pageText(LETTER_PAGE, '?detail=words')).words!;
    const { lines, text } = await pageText(LETTER_PAGE, '?detail=lines');
    assert.deepEqual(lines!.map((l) => l.text), [...PARAGRAPH, 'Visible note']);
    assert.deepEqual(lines!.map((l) => l.text), text.split('\n').filter((l) => l !== ''));
    const inside = (inner: Rect, outer: Rect) =>
      inner.x >= outer.x - 0.01 && inner.y >= outer.y - 0.01 && inner.x + inner.width <= outer.x + outer.width + 0.01 && inner.y + inner.height <= outer.y + outer.height + 0.01;
    for (const word of withWords) assert.ok(lines!.some((l) => l.text.includes(word.text) && inside(word.rectangle, l.rectangle)), word.text);
    assert.ok(lines![0]!.rectangle.y > lines![1]!.rectangle.y, 'the first line is higher up (PDF space, y up)');
    const { blocks } = await pageText(LETTER_PAGE, '?detail=blocks');
    assert.deepEqual(blocks!.map((b) => b.text), [PARAGRAPH.join('\n'), 'Visible note']);
    for (const line of lines!.slice(0, 3)) assert.ok(inside(line.rectangle, blocks![0]!.rectangle));
    const columns = (await pageText(COLUMNS_PAGE, '?detail=blocks')).blocks!;
    assert.deepEqual(columns.map((b) => b.text), ['Large heading', 'small print under it\na second column']);
  });

  test('text/plain, JSON and XML carry the same text', async () => {
    const json = await pageText(ROTATED_PAGE);
    const plain = await get(`pages/fixture.pdf/pages/${ROTATED_PAGE}/text`, { accept: 'text/plain' });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(plain.text, json.text);
    assert.equal((await get(`pages/fixture.pdf/pages/${ROTATED_PAGE}/text`, { accept: 'text/*' })).text, json.text, 'text/* is text/plain');
    const xml = await get(`pages/fixture.pdf/pages/${ROTATED_PAGE}/text?detail=words`, { accept: 'application/xml' });
    assert.match(xml.text, /<PageText>\s*<pageIndex>1<\/pageIndex>\s*<text>Rotated page: reading across the long side.\nSecond line of the turned page.\n\n<\/text>\s*<words>\s*<word>\s*<text>Rotated<\/text>\s*<rectangle>\s*<x>72<\/x>/);
    assert.equal(xml.text.match(/<word>/g)?.length, words(json.text).length);
  });

  test('ETag per page, detail and format; 304 with If-None-Match', async () => {
    const a = await get('pages/fixture.pdf/pages/0/text');
    const b = await get('pages/fixture.pdf/pages/0/text?detail=words');
    const c = await get('pages/fixture.pdf/pages/1/text');
    const d = await get('pages/fixture.pdf/pages/0/text', { accept: 'text/plain' });
    const tags = [a, b, c, d].map((r) => r.headers.get('etag'));
    assert.equal(new Set(tags).size, 4);
    assert.equal((await get('pages/fixture.pdf/pages/0/text', { 'if-none-match': tags[0]! })).status, 304);
  });
});

describe('GET .../text: the whole document', () => {
  /**
   * A text field whose appearance is empty but whose form asks for appearances to be made (NeedAppearances), beside a
   * Square whose appearance draws no text: the extraction leaves out annotations whose appearance cannot draw text
   * before MuPDF loads the page, and must keep the widget, whose appearance MuPDF makes anew from its value.
   */
  function needAppearancesPdf(): Buffer {
    const doc = new PdfObjects();
    const [catalog, pageTree, page] = [doc.reserve(), doc.reserve(), doc.reserve()];
    const font = doc.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
    const content = doc.stream('', 'BT /F1 12 Tf 72 720 Td (Body text of the page) Tj ET');
    const squareAp = doc.stream('/Type /XObject /Subtype /Form /BBox [0 0 100 50]', '1 0 0 RG 2 w 1 1 98 48 re S');
    const square = doc.add(`<< /Type /Annot /Subtype /Square /Rect [72 600 172 650] /P ${page} 0 R /F 4 /C [1 0 0] /AP << /N ${squareAp} 0 R >> >>`);
    const emptyAp = doc.stream('/Type /XObject /Subtype /Form /BBox [0 0 200 20]', '/Tx BMC EMC');
    const field = doc.add(`<< /Type /Annot /Subtype /Widget /Rect [72 500 272 520] /P ${page} 0 R /F 4 /FT /Tx /T (total) /V (Quarterly figure 1234) /DA (/Helv 12 Tf 0 g) /AP << /N ${emptyAp} 0 R >> >>`);
    doc.set(page, `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R /Annots [${square} 0 R ${field} 0 R] >>`);
    doc.set(catalog, `<< /Type /Catalog /Pages ${pageTree} 0 R /AcroForm << /Fields [${field} 0 R] /NeedAppearances true /DR << /Font << /Helv ${font} 0 R >> >> /DA (/Helv 0 Tf 0 g) >> >>`);
    doc.set(pageTree, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
    return doc.finish(`/Root ${catalog} 0 R`);
  }

  test("a form field's value shown by an appearance made anew (NeedAppearances) is in the text, as with pdftotext", async () => {
    const form = needAppearancesPdf();
    assert.equal((await putPdf(server, 'pages/need-appearances.pdf', form)).status, 201);
    const poppler = popplerPages(form);
    assert.match(poppler[0]!, /Quarterly figure 1234/);
    const whole = await get('pages/need-appearances.pdf/text', { accept: 'text/plain' });
    assert.equal(whole.status, 200);
    assert.deepEqual(words(whole.text.split('\f')[0]!), words(poppler[0]!));
    const page = await get('pages/need-appearances.pdf/pages/0/text?detail=words');
    assert.equal(page.status, 200);
    assert.deepEqual(words(page.json().text), words(poppler[0]!));
    assert.ok(page.json().words.some((w: Unit) => w.text === 'Quarterly'));
  });

  const book = makePdf({ pages: 12, text: (i) => `Chapter ${i + 1} begins here, with words of page ${i + 1}.` });
  before(async () => {
    assert.equal((await putPdf(server, 'pages/book.pdf', book)).status, 201);
  });

  test('text/plain: every page followed by a form feed, as pdftotext writes it, with the same words page by page', async () => {
    const reply = await get('pages/book.pdf/text', { accept: 'text/plain' });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('content-type'), 'text/plain; charset=utf-8');
    const ours = reply.text.split('\f');
    assert.equal(ours.pop(), '', 'the last page ends with a form feed too');
    const poppler = popplerPages(book);
    assert.equal(ours.length, poppler.length);
    for (const [i, text] of ours.entries()) assert.deepEqual(words(text), words(poppler[i]!), `page ${i}`);
  });

  test('JSON: an entry per page, the same text as each page alone (also after the whole document was extracted)', async () => {
    const whole = (await get('pages/book.pdf/text')).json().pages as { pageIndex: number; text: string }[];
    assert.deepEqual(whole.map((p) => p.pageIndex), [...Array(12).keys()]);
    for (const page of whole) {
      const alone = await get(`pages/book.pdf/pages/${page.pageIndex}/text`);
      assert.deepEqual(alone.json(), page);
    }
    const past = await get('pages/book.pdf/pages/12/text');
    assert.equal(past.status, 404, 'the page count known from the whole-document text answers past the end');
    assert.equal(past.json().code, 'PAGE_OUT_OF_RANGE');
  });

  test('XML: <DocumentText> with a <page> each; the fixture with its empty page', async () => {
    const xml = await get('pages/fixture.pdf/text', { accept: 'text/xml' });
    assert.match(xml.text, /<DocumentText>\s*<page>\s*<pageIndex>0<\/pageIndex>\s*<text>The quick brown fox/);
    assert.equal(xml.text.match(/<page>/g)?.length, 6);
    const plain = (await get('pages/fixture.pdf/text', { accept: 'text/plain' })).text.split('\f');
    assert.equal(plain[EMPTY_PAGE], '');
    const etag = (await get('pages/fixture.pdf/text', { accept: 'text/plain' })).headers.get('etag')!;
    assert.equal((await get('pages/fixture.pdf/text', { accept: 'text/plain', 'if-none-match': etag })).status, 304);
  });

  test('text extracted ahead after a write (prefetch) is never served for another version, and a request during it gets the right text', async () => {
    for (let round = 1; round <= 5; round++) {
      // Each write starts a prefetch; the read right after it may wait for that prefetch or find it done.
      await putPdf(server, 'pages/prefetch.pdf', makePdf({ pages: 3, text: (i) => `Round ${round} page ${i + 1}` }));
      const text = (await get('pages/prefetch.pdf/text', { accept: 'text/plain' })).text.split('\f');
      assert.deepEqual(text.slice(0, 3).map((t) => t.trim()), [1, 2, 3].map((p) => `Round ${round} page ${p}`));
      const page = await get('pages/prefetch.pdf/pages/1/text', { accept: 'application/json' });
      assert.equal(page.json().text.trim(), `Round ${round} page 2`);
    }
    // An action's write is announced too: after a deletion the text is still that of the new version.
    const deleted = await call(server, 'POST', '/documents/pages/prefetch.pdf/pages', { body: { DeletePagesAction: { pageRange: '1' } } });
    assert.equal(deleted.status, 200, deleted.text);
    const after = (await get('pages/prefetch.pdf/text', { accept: 'text/plain' })).text.split('\f');
    assert.deepEqual(after.slice(0, 2).map((t) => t.trim()), ['Round 5 page 2', 'Round 5 page 3']);
  });
});

describe('text extracted ahead', () => {
  /**
   * The engine's counters from GET /health once it has been idle for a while: no task running or waiting and
   * no count moving over three polls, so that a prefetch about to be queued after a write is waited for too.
   */
  const idleEngine = async () => {
    let last = '';
    let steady = 0;
    for (let i = 0; i < 300; i++) {
      const engine = (await call(server, 'GET', '/health')).json().engine;
      const now = JSON.stringify(engine);
      steady = engine.busy === 0 && engine.queued === 0 && now === last ? steady + 1 : 0;
      if (steady === 3) return engine as { completed: number; failed: number };
      last = now;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the engine did not become idle');
  };

  test('after an upload and after an action, the text is ready before it is asked for: reading it runs no engine task', async () => {
    // Text is extracted ahead only while a worker is free (docs/pages.md): earlier tests' work must be over.
    await idleEngine();
    await putPdf(server, 'pages/ahead.pdf', makePdf({ pages: 4, text: (i) => `Ahead page ${i + 1}` }));
    const idle = await idleEngine();
    const text = (await get('pages/ahead.pdf/text', { accept: 'text/plain' })).text.split('\f');
    assert.deepEqual(text.slice(0, 4).map((t) => t.trim()), [1, 2, 3, 4].map((p) => `Ahead page ${p}`));
    const page = await get('pages/ahead.pdf/pages/2/text', { accept: 'application/json' });
    assert.equal(page.json().text.trim(), 'Ahead page 3');
    const after = await idleEngine();
    assert.equal(after.completed + after.failed, idle.completed + idle.failed, 'served from the text extracted after the upload');

    await idleEngine();
    const rotated = await call(server, 'POST', '/documents/pages/ahead.pdf/pages', { body: { RotatePagesAction: { pageRange: '1', rotation: 90 } } });
    assert.equal(rotated.status, 200, rotated.text);
    const idleAgain = await idleEngine();
    assert.equal((await get('pages/ahead.pdf/text', { accept: 'text/plain' })).text.split('\f')[3]!.trim(), 'Ahead page 4');
    const last = await idleEngine();
    assert.equal(last.completed + last.failed, idleAgain.completed + idleAgain.failed, 'the action\'s new version was extracted ahead too');
  });
});

describe('GET .../pages/{pageIndex}/image', () => {
  const image = async (page: number, query = '') => {
    const reply = await get(`pages/fixture.pdf/pages/${page}/image${query}`);
    assert.equal(reply.status, 200, reply.text);
    return reply;
  };
  /** A point of user space in the page image, by the table in docs/pages.md. */
  const toPixel = (page: Page, x: number, y: number, dpi: number): [number, number] => {
    const s = dpi / 72;
    const { x: cx, y: cy, width: cw, height: ch } = page.cropBox;
    switch (page.rotation) {
      case 90: return [(y - cy) * s, (x - cx) * s];
      case 180: return [(cx + cw - x) * s, (y - cy) * s];
      case 270: return [(cy + ch - y) * s, (cx + cw - x) * s];
      default: return [(x - cx) * s, (cy + ch - y) * s];
    }
  };
  /** Pixels darker than mid-grey in a box of user space. */
  const darkIn = (raster: Raster, page: Page, box: Rect, dpi: number) => {
    const [ax, ay] = toPixel(page, box.x, box.y, dpi);
    const [bx, by] = toPixel(page, box.x + box.width, box.y + box.height, dpi);
    let dark = 0;
    for (let y = Math.floor(Math.min(ay, by)); y < Math.ceil(Math.max(ay, by)); y++) {
      for (let x = Math.floor(Math.min(ax, bx)); x < Math.ceil(Math.max(ax, bx)); x++) if (raster.gray(x, y) < 128) dark++;
    }
    return dark;
  };

  test('PNG by default at 96 dpi: the page as displayed, width and height × dpi / 72 rounded up', async () => {
    for (const page of pages) {
      const reply = await image(page.pageIndex);
      assert.equal(reply.headers.get('content-type'), 'image/png');
      const raster = decodePng(reply.bytes);
      assert.deepEqual([raster.width, raster.height], [Math.ceil((page.width * 96) / 72 - 0.001), Math.ceil((page.height * 96) / 72 - 0.001)], `page ${page.pageIndex}`);
    }
    const small = decodePng((await image(ROTATED_PAGE, '?dpi=10')).bytes);
    assert.deepEqual([small.width, small.height], [117, 83], 'A4 turned: 841.89 x 595.28 pt at 10 dpi');
  });

  test('dark pixels where the words are (placed by the formulas of docs/pages.md, every rotation), white where the page is empty', async () => {
    const dpi = 100;
    for (const page of pages.filter((p) => p.pageIndex !== EMPTY_PAGE)) {
      const raster = decodePng((await image(page.pageIndex, `?dpi=${dpi}`)).bytes);
      for (const word of (await pageText(page.pageIndex, '?detail=words')).words!) {
        assert.ok(darkIn(raster, page, word.rectangle, dpi) > 5, `page ${page.pageIndex} (rotation ${page.rotation}): ink under "${word.text}"`);
      }
    }
    const raster = decodePng((await image(LETTER_PAGE, `?dpi=${dpi}`)).bytes);
    assert.equal(darkIn(raster, pages[LETTER_PAGE]!, { x: 72, y: 300, width: 400, height: 300 }, dpi), 0, 'nothing drawn where the page is empty');
    const turned = decodePng((await image(ROTATED_PAGE, `?dpi=${dpi}`)).bytes);
    assert.equal(darkIn(turned, pages[ROTATED_PAGE]!, { x: 72, y: 100, width: 400, height: 500 }, dpi), 0, 'nor on the turned page');
  });

  test('the same picture as pdftoppm (poppler) draws: equal size, ink in the same places', async () => {
    for (const pageIndex of [ROTATED_PAGE, CROPPED_PAGE, COLUMNS_PAGE]) {
      const ours = decodePng((await image(pageIndex, '?dpi=72')).bytes);
      const theirs = renderPage(pdf, pageIndex + 1, 72, { cropBox: true });
      assert.deepEqual([ours.width, ours.height], [theirs.width, theirs.height], `page ${pageIndex} size`);
      // Glyph shapes differ with the fonts each renderer substitutes for Helvetica: compare ink in 6-pixel cells.
      const theirGray = grayOf(theirs.rgb);
      const cell = 6;
      let both = 0;
      let either = 0;
      for (let cy = 0; cy + cell <= ours.height; cy += cell) {
        for (let cx = 0; cx + cell <= ours.width; cx += cell) {
          let a = false;
          let b = false;
          for (let y = cy; y < cy + cell; y++) {
            for (let x = cx; x < cx + cell; x++) {
              a ||= ours.gray(x, y) < 128;
              b ||= theirGray(x, y) < 128;
            }
          }
          if (a && b) both++;
          if (a || b) either++;
        }
      }
      assert.ok(either > 20, `page ${pageIndex} has ink`);
      assert.ok(both / either > 0.8, `page ${pageIndex}: ink agrees in ${both} of ${either} cells`);
    }
  });

  test('format=jpeg: image/jpeg of the same size', async () => {
    const reply = await image(LETTER_PAGE, '?format=jpeg&dpi=50');
    assert.equal(reply.headers.get('content-type'), 'image/jpeg');
    assert.deepEqual(jpegSize(reply.bytes), { width: 425, height: 550 });
  });

  test('ETag per page, dpi and format; 304 with If-None-Match', async () => {
    const first = await image(LETTER_PAGE, '?dpi=20');
    const etag = first.headers.get('etag')!;
    assert.notEqual(etag, (await image(LETTER_PAGE, '?dpi=21')).headers.get('etag'));
    assert.notEqual(etag, (await image(LETTER_PAGE, '?dpi=20&format=jpeg')).headers.get('etag'));
    const again = await get(`pages/fixture.pdf/pages/${LETTER_PAGE}/image?dpi=20`, { 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
  });
});

describe('bad input: a clear 4xx, nothing changes, nothing crashes', () => {
  const problem = (reply: Awaited<ReturnType<typeof get>>, status: number, code: string) => {
    assert.equal(reply.status, status, reply.text);
    assert.match(reply.headers.get('content-type')!, /^application\/problem\+json/);
    const body = reply.json();
    assert.equal(body.code, code);
    assert.equal(body.status, status);
    assert.equal(body.type, `urn:pdfservice:error:${code}`);
    assert.ok(body.title && body.detail, 'title and detail');
    assert.ok(!leaksInternals(reply.text, server.dataDir), reply.text);
  };

  test('a page index in the path that names no page (-1, 6, 99, abc, 1.5, 1e2, empty) is 404 PAGE_OUT_OF_RANGE, for text and images', async () => {
    const original = sha256(await storedBytes(server, 'pages/fixture.pdf'));
    for (const index of ['-1', '6', '99', 'abc', '1.5', '1e2', '%20', '99999999999999999999']) {
      for (const resource of ['text', 'text?detail=words', 'image']) {
        problem(await get(`pages/fixture.pdf/pages/${index}/${resource}`), 404, 'PAGE_OUT_OF_RANGE');
      }
    }
    assert.match((await get('pages/fixture.pdf/pages/99/text')).json().detail, /pages 0 to 5/);
    assert.equal(sha256(await storedBytes(server, 'pages/fixture.pdf')), original);
  });

  test('the same code in a query is 400 (the annotation filter), as before', async () => {
    problem(await get('pages/fixture.pdf/annotations?pageIndex=6'), 400, 'PAGE_OUT_OF_RANGE');
  });

  test('unknown detail, dpi outside 10..300 or not a number, unknown format: 400 VALIDATION_FAILED', async () => {
    problem(await get('pages/fixture.pdf/pages/0/text?detail=chars'), 400, 'VALIDATION_FAILED');
    for (const dpi of ['0', '9', '301', '5000', 'abc', '72.5', '-96']) problem(await get(`pages/fixture.pdf/pages/0/image?dpi=${dpi}`), 400, 'VALIDATION_FAILED');
    problem(await get('pages/fixture.pdf/pages/0/image?format=gif'), 400, 'VALIDATION_FAILED');
  });

  test('a page too large for the pixel limit at that dpi: 400, naming the largest dpi that fits', async () => {
    await putPdf(server, 'pages/poster.pdf', makePdf({ width: 14400, height: 14400 }));
    const refused = await get('pages/poster.pdf/pages/0/image?dpi=300');
    problem(refused, 400, 'VALIDATION_FAILED');
    assert.match(refused.json().detail, /at most 25 dpi/);
    const fits = await get('pages/poster.pdf/pages/0/image?dpi=25');
    assert.equal(fits.status, 200);
    assert.deepEqual([decodePng(fits.bytes).width, decodePng(fits.bytes).height], [5000, 5000]);
  });

  test('media types the resource does not have: 406 before any work', async () => {
    problem(await get('pages/fixture.pdf/pages/0/text', { accept: 'image/png' }), 406, 'NOT_ACCEPTABLE');
    problem(await get('pages/fixture.pdf/pages', { accept: 'text/plain' }), 406, 'NOT_ACCEPTABLE');
    problem(await get('pages/fixture.pdf/pages/0/image', { accept: 'application/json' }), 406, 'NOT_ACCEPTABLE');
    problem(await get('pages/fixture.pdf/pages/0/image?format=jpeg', { accept: 'image/png' }), 406, 'NOT_ACCEPTABLE');
  });

  test('no such document: 404 DOCUMENT_NOT_FOUND; a bad path: 400 INVALID_PATH', async () => {
    for (const resource of ['pages', 'pages/0/text', 'text', 'pages/0/image']) problem(await get(`pages/missing.pdf/${resource}`), 404, 'DOCUMENT_NOT_FOUND');
    problem(await get('pages/%252e%252e/x.pdf/pages'), 400, 'INVALID_PATH');
  });

  test('a file that is not a readable PDF any more: 422, and the service stays up', async () => {
    await putPdf(server, 'pages/broken.pdf', pdf);
    // Damage the stored bytes behind the service's back: the page tree is gone.
    const broken = Buffer.from(pdf.toString('latin1').replace('/Type /Pages', '/Type /Nothing').replace(/\/Kids \[[^\]]*\]/, '/Kids []'), 'latin1');
    withTempFile(broken, (file) => execFileSync('cp', [file, `${server.documentsDir}/pages/broken.pdf`]));
    for (const resource of ['pages', 'pages/0/text', 'text', 'pages/0/image']) {
      const reply = await get(`pages/broken.pdf/${resource}`);
      assert.equal(reply.status, 422, `${resource}: ${reply.text}`);
      assert.ok(['MALFORMED_PDF', 'PROCESSING_FAILED'].includes(reply.json().code));
      assert.ok(!leaksInternals(reply.text, server.dataDir));
    }
  });
});

describe('document passwords and the text-extraction permission', () => {
  const protect = (bytes: Buffer, extract: 'y' | 'n') =>
    withTempFile(bytes, (input) => {
      execFileSync('qpdf', ['--encrypt', 'user-pw', 'owner-pw', '256', `--extract=${extract}`, '--', input, `${input}.enc`]);
      return execFileSync('cat', [`${input}.enc`]);
    });
  const as = (password: string): Record<string, string> => ({ 'x-service-documentpassword': password });

  test('encrypted, no password: 403 DOCUMENT_PASSWORD_REQUIRED everywhere; a wrong one: DOCUMENT_PASSWORD_INVALID', async () => {
    await putPdf(server, 'pages/locked.pdf', protect(pdf, 'y'));
    for (const resource of ['pages', 'pages/0/text', 'text', 'pages/0/image']) {
      const none = await get(`pages/locked.pdf/${resource}`);
      assert.equal(none.status, 403, `${resource}: ${none.text}`);
      assert.equal(none.json().code, 'DOCUMENT_PASSWORD_REQUIRED');
      assert.equal((await get(`pages/locked.pdf/${resource}`, as('nope'))).json().code, 'DOCUMENT_PASSWORD_INVALID');
      assert.equal((await get(`pages/locked.pdf/${resource}`, as('user-pw'))).status, 200, resource);
    }
    const text = (await get('pages/locked.pdf/pages/0/text', as('user-pw'))).json().text;
    assert.deepEqual(words(text), words(popplerPages(protect(pdf, 'y'), 'user-pw')[0]!));
  });

  test('text extraction forbidden (qpdf --extract=n): the user password gets 403 DOCUMENT_PERMISSION_DENIED for text, not for pages and images; the owner password reads it', async () => {
    const locked = protect(pdf, 'n');
    await putPdf(server, 'pages/no-copy.pdf', locked);
    const original = sha256(await storedBytes(server, 'pages/no-copy.pdf'));
    // The owner reads first, so a cached text would be there to leak.
    assert.equal((await get('pages/no-copy.pdf/text', as('owner-pw'))).status, 200);
    assert.equal((await get('pages/no-copy.pdf/pages/0/text', as('owner-pw'))).status, 200);
    for (const resource of ['pages/0/text', 'pages/0/text?detail=words', 'text']) {
      const refused = await get(`pages/no-copy.pdf/${resource}`, as('user-pw'));
      assert.equal(refused.status, 403, `${resource}: ${refused.text}`);
      assert.equal(refused.json().code, 'DOCUMENT_PERMISSION_DENIED');
      assert.equal(refused.json().permission, 'extractTextAllowed');
    }
    assert.equal((await get('pages/no-copy.pdf/pages', as('user-pw'))).status, 200);
    assert.equal((await get('pages/no-copy.pdf/pages/0/image?dpi=20', as('user-pw'))).status, 200);
    assert.equal(sha256(await storedBytes(server, 'pages/no-copy.pdf')), original);
  });
});

test('the server process survived every request', async () => {
  assert.equal(server.child.exitCode, null);
  assert.equal((await fetch(`${server.api}/health`)).status, 200);
});
