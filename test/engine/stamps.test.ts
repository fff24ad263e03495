import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, leaksInternals, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { encryptPdf, makePdf, pdftotext, qpdfCheck, renderPage, serializePdf, withTempFile } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let dir: string;
before(async () => {
  server = await startServer();
  dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-stamps-'));
});
after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Pages with nothing drawn on them, so every dark pixel after a stamp is the stamp's. */
const blankPdf = (pages = 1) => makePdf({ pages, text: () => '' });

const textStamp = (p: string, params: object, headers: Record<string, string> = {}) =>
  call(server, 'POST', `/documents/${p}/pages`, { body: { TextStampAction: params }, headers });

interface Upload {
  bytes: Buffer;
  type: string;
  name?: string;
  field?: string;
}

function imageStamp(p: string, params: object, upload?: Upload): Promise<Reply> {
  const form = new FormData();
  form.append('pageAction', JSON.stringify({ ImageStampAction: params }));
  if (upload) form.append(upload.field ?? 'file', new Blob([new Uint8Array(upload.bytes)], { type: upload.type }), upload.name ?? 'stamp');
  return call(server, 'POST', `/documents/${p}/pages`, { body: form });
}

/** Makes an image with ImageMagick (`/usr/bin/convert`; `/usr/local/bin/convert` may be a stand-in). */
function image(name: string, args: string[]): Buffer {
  const file = path.join(dir, name);
  execFileSync('/usr/bin/convert', [...args, file]);
  return readFileSync(file);
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The box around every pixel that is not white on a page rendered by poppler
 * at 72 dpi, in PDF points with y up (one pixel is one point), or undefined
 * for a blank page. `isInk` decides what counts.
 */
function inkBox(pdf: Buffer, page = 1, isInk = (r: number, g: number, b: number) => r + g + b < 720): Box | undefined {
  const { width, height, rgb } = renderPage(pdf, page);
  let box: Box | undefined;
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      if (!isInk(...rgb(px, py))) continue;
      const y = height - py;
      box = box ? { x0: Math.min(box.x0, px), y0: Math.min(box.y0, y - 1), x1: Math.max(box.x1, px + 1), y1: Math.max(box.y1, y) } : { x0: px, y0: y - 1, x1: px + 1, y1: y };
    }
  }
  return box;
}

/** The colour at a PDF point of a page rendered at 72 dpi. */
function colourAt(pdf: Buffer, x: number, y: number, page = 1): [number, number, number] {
  const r = renderPage(pdf, page);
  return r.rgb(Math.round(x), r.height - Math.round(y));
}

function assertNear(actual: number, expected: number, tolerance: number, label: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${label}: ${actual} is not within ${tolerance} of ${expected}`);
}

/** An image's ink box, to the pixel: poppler may colour one more pixel at an image's edge. */
function assertBox(actual: Box | undefined, expected: Box, label = ''): void {
  assert.ok(actual, `${label}: no ink`);
  for (const k of ['x0', 'y0', 'x1', 'y1'] as const) assertNear(actual[k], expected[k], 1, `${label} ${k} of ${JSON.stringify(actual)}`);
}

/** pdffonts rows: name, type, embedded, subset. */
function fonts(pdf: Buffer): { name: string; type: string; embedded: boolean; subset: boolean }[] {
  const out = withTempFile(pdf, (file) => execFileSync('pdffonts', [file], { encoding: 'utf8' }));
  return out.split('\n').slice(2).filter(Boolean).map((line) => {
    const m = /^(\S+)\s+(.+?)\s+(\S+)\s+(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+$/.exec(line)!;
    return { name: m[1]!, type: m[2]!, embedded: m[4] === 'yes', subset: m[5] === 'yes' };
  });
}

const pageText = (pdf: Buffer, page: number) => withTempFile(pdf, (file) => execFileSync('pdftotext', ['-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' }));

async function stored(p: string): Promise<Buffer> {
  const bytes = await storedBytes(server, p);
  const check = qpdfCheck(bytes);
  assert.ok(check.ok, check.output);
  return bytes;
}

describe('TextStampAction', () => {
  test('Latin text on one page: real text, Helvetica not embedded, other pages untouched; the DocumentModel reports pages and fonts', async () => {
    await putPdf(server, 'st/latin.pdf', makePdf({ pages: 3 }));
    const reply = await textStamp('st/latin.pdf', { text: 'APPROVED – “Größe” €5', x: 72, y: 600, fontSize: 20, pageIndex: 1 });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json().report, { fonts: ['Helvetica'], pages: [1] });
    assert.equal(reply.json().pageCount, 3);
    const pdf = await stored('st/latin.pdf');
    assert.match(pageText(pdf, 2), /APPROVED – “Größe” €5/);
    assert.match(pageText(pdf, 2), /Page 2/);
    for (const page of [1, 3]) assert.doesNotMatch(pageText(pdf, page), /APPROVED/);
    assert.ok(fonts(pdf).some((f) => f.name === 'Helvetica' && !f.embedded));
  });

  test('Greek, Cyrillic and CJK fall back to the shipped fonts, embedded once as subsets, and pdftotext extracts them', async () => {
    await putPdf(server, 'st/unicode.pdf', makePdf({ pages: 3 }));
    const text = 'Καλημέρα κόσμε Здравствуй мир 你好世界 こんにちは 안녕';
    const reply = await textStamp('st/unicode.pdf', { text, x: 40, y: 500, fontSize: 14 });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json().report.fonts, ['DejaVuSans', 'DroidSansFallback']);
    const pdf = await stored('st/unicode.pdf');
    for (let page = 1; page <= 3; page++) {
      const extracted = pageText(pdf, page).replace(/\s+/g, ' ');
      for (const word of text.split(' ')) assert.ok(extracted.includes(word), `${word} on page ${page}: ${extracted}`);
    }
    const embedded = fonts(pdf).filter((f) => f.embedded);
    // Stamped on three pages, stored once: one DejaVu Sans and one CJK font in the whole file.
    assert.equal(embedded.length, 2, JSON.stringify(embedded));
    for (const f of embedded) {
      assert.ok(f.subset, `${f.name} is a subset`);
      assert.match(f.name, /^[A-Z]{6}\+/);
    }
    assert.ok(pdf.length < 200_000, `subset fonts keep the file small (${pdf.length} bytes)`);
  });

  test('styles: fontStyle picks the base-14 face, the name\'s own style adds to it, and the fallback takes the same style', async () => {
    await putPdf(server, 'st/styles.pdf', blankPdf());
    const cases: [object, string[]][] = [
      [{ fontName: 'Times-Roman', fontStyle: 'bolditalic' }, ['Times-BoldItalic', 'DejaVuSerif-BoldItalic']],
      [{ fontName: 'Helvetica-Bold', fontStyle: 'italic' }, ['Helvetica-BoldOblique', 'DejaVuSans-BoldOblique']],
      [{ fontName: 'courier', fontStyle: 'bold' }, ['Courier-Bold', 'DejaVuSansMono-Bold']],
      [{ fontName: 'DejaVuSerif', fontStyle: 'italic' }, ['DejaVuSerif-Italic']],
    ];
    for (const [i, [params, expected]] of cases.entries()) {
      const text = i === 3 ? 'Serif Ελληνικά' : `Style ${i} Ωμέγα Щука`;
      const reply = await textStamp('st/styles.pdf', { ...params, text, x: 40, y: 700 - i * 60, fontSize: 18 });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json().report.fonts, expected, JSON.stringify(params));
    }
    const pdf = await stored('st/styles.pdf');
    const names = fonts(pdf).map((f) => f.name.replace(/^[A-Z]{6}\+/, ''));
    for (const name of ['Times-BoldItalic', 'DejaVuSerif-BoldItalic', 'Helvetica-BoldOblique', 'DejaVuSans-BoldOblique', 'Courier-Bold', 'DejaVuSansMono-Bold', 'DejaVuSerif-Italic']) {
      assert.ok(names.includes(name), `${name} in ${names}`);
    }
    const extracted = pdftotext(pdf).replace(/\s+/g, ' ');
    for (const s of ['Style 0 Ωμέγα Щука', 'Style 1 Ωμέγα Щука', 'Style 2 Ωμέγα Щука', 'Serif Ελληνικά']) assert.ok(extracted.includes(s), `${s} in ${extracted}`);
  });

  test('Symbol and ZapfDingbats draw their own characters (by Unicode) and fall back for the rest', async () => {
    await putPdf(server, 'st/symbol.pdf', blankPdf());
    const symbol = await textStamp('st/symbol.pdf', { text: 'αβγ ∑∞ ok', x: 40, y: 700, fontName: 'Symbol', fontSize: 24 });
    assert.deepEqual(symbol.json().report.fonts, ['Symbol', 'DejaVuSans'], symbol.text);
    const dingbats = await textStamp('st/symbol.pdf', { text: '✓✔❤ done', x: 40, y: 600, fontName: 'ZapfDingbats', fontSize: 24 });
    assert.deepEqual(dingbats.json().report.fonts, ['ZapfDingbats', 'DejaVuSans'], dingbats.text);
    const extracted = pdftotext(await stored('st/symbol.pdf'));
    assert.match(extracted, /αβγ ∑∞ ok/);
    assert.match(extracted, /✓✔❤ done/);
  });

  test('placement: the first baseline starts at (x, y); rotation 90 turns the text upwards about that point; lines go down', async () => {
    await putPdf(server, 'st/place.pdf', blankPdf());
    // Helvetica H: advance 0.722 em, ink from 0.079 to 0.643 em, cap height 0.718 em.
    await textStamp('st/place.pdf', { text: 'HH', x: 100, y: 200, fontSize: 100, savePath: 'st/place-0.pdf' });
    const flat = inkBox(await stored('st/place-0.pdf'))!;
    assertNear(flat.x0, 100 + 7.9, 3, 'left');
    assertNear(flat.x1, 100 + 72.2 + 64.3, 3, 'right');
    assertNear(flat.y0, 200, 2, 'baseline');
    assertNear(flat.y1, 200 + 71.8, 3, 'cap height');

    await textStamp('st/place.pdf', { text: 'HH', x: 300, y: 200, fontSize: 100, rotation: 90, savePath: 'st/place-90.pdf' });
    const turned = inkBox(await stored('st/place-90.pdf'))!;
    // Counter-clockwise: the baseline runs up from (300, 200) and the letters stand to its left.
    assertNear(turned.y0, 200 + 7.9, 3, 'bottom');
    assertNear(turned.y1, 200 + 136.5, 3, 'top');
    assertNear(turned.x1, 300, 2, 'baseline');
    assertNear(turned.x0, 300 - 71.8, 3, 'cap height');

    await textStamp('st/place.pdf', { text: 'H\nH', x: 100, y: 500, fontSize: 50, savePath: 'st/place-lines.pdf' });
    const lines = inkBox(await stored('st/place-lines.pdf'))!;
    // The second baseline is 1.2 font sizes (60 pt) below the first.
    assertNear(lines.y1, 500 + 35.9, 2, 'first line top');
    assertNear(lines.y0, 500 - 60, 2, 'second baseline');
    assertNear(lines.x1 - lines.x0, (0.643 - 0.079) * 50, 2, 'one letter wide');
  });

  test('x and y are in the unrotated default user space on a /Rotate 90 page', async () => {
    const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Rotate 90 /Resources << >> >>'];
    await putPdf(server, 'st/rotated.pdf', serializePdf(objects, '/Root 1 0 R'));
    const reply = await textStamp('st/rotated.pdf', { text: 'HH', x: 100, y: 200, fontSize: 100 });
    assert.equal(reply.status, 200, reply.text);
    const pdf = await stored('st/rotated.pdf');
    const { width, height, rgb } = renderPage(pdf);
    assert.deepEqual([width, height], [792, 612], 'shown turned');
    // Shown turned a quarter clockwise, the unrotated point (x, y) is at column y, row x from the top.
    let minCol = Infinity;
    let maxCol = -Infinity;
    let minRow = Infinity;
    let maxRow = -Infinity;
    for (let row = 0; row < height; row++) {
      for (let col = 0; col < width; col++) {
        const [r, g, b] = rgb(col, row);
        if (r + g + b >= 720) continue;
        minCol = Math.min(minCol, col);
        maxCol = Math.max(maxCol, col + 1);
        minRow = Math.min(minRow, row);
        maxRow = Math.max(maxRow, row + 1);
      }
    }
    assertNear(minCol, 200, 2, 'baseline column');
    assertNear(maxCol, 200 + 71.8, 3, 'cap height column');
    assertNear(minRow, 100 + 7.9, 3, 'first row');
    assertNear(maxRow, 100 + 136.5, 3, 'last row');
  });

  test('colour and transparency: red is red; black at transparency 0.5 (or opacity 0.5) is mid grey over white, 0.75 light grey', async () => {
    await putPdf(server, 'st/alpha.pdf', blankPdf());
    // U+2588 FULL BLOCK (DejaVu Sans): a solid square of ink.
    const block = { text: '█', fontSize: 100 };
    await textStamp('st/alpha.pdf', { ...block, x: 50, y: 600, color: 0xff0000 });
    await textStamp('st/alpha.pdf', { ...block, x: 200, y: 600, color: 0, transparency: 0.5 });
    await textStamp('st/alpha.pdf', { ...block, x: 350, y: 600, color: 0, opacity: 0.5 });
    await textStamp('st/alpha.pdf', { ...block, x: 50, y: 400, color: 0x000000, transparency: 0.75 });
    const pdf = await stored('st/alpha.pdf');
    assert.deepEqual(colourAt(pdf, 80, 630), [255, 0, 0]);
    for (const x of [230, 380]) for (const c of colourAt(pdf, x, 630)) assertNear(c, 128, 3, `grey at ${x}`);
    for (const c of colourAt(pdf, 80, 430)) assertNear(c, 191, 3, 'light grey');
    assert.deepEqual(colourAt(pdf, 80, 300), [255, 255, 255], 'nothing elsewhere');
  });

  test('every page when pageIndex is absent or -1', async () => {
    for (const [label, extra] of [['absent', {}], ['-1', { pageIndex: -1 }]] as const) {
      const p = `st/every-${label}.pdf`;
      await putPdf(server, p, makePdf({ pages: 3 }));
      const reply = await textStamp(p, { text: `EVERY ${label}`, x: 300, y: 100, ...extra });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json().report.pages, [0, 1, 2]);
      const pdf = await stored(p);
      for (let page = 1; page <= 3; page++) {
        assert.ok(pageText(pdf, page).includes(`EVERY ${label}`), `page ${page}`);
        assert.ok(pageText(pdf, page).includes(`Page ${page}`), `page ${page} keeps its text`);
      }
    }
  });

  test('savePath writes a new document (201, Location) and leaves the source byte for byte', async () => {
    await putPdf(server, 'st/source.pdf', makePdf({ pages: 2 }));
    const before = sha256(await storedBytes(server, 'st/source.pdf'));
    const reply = await textStamp('st/source.pdf', { text: 'COPY', x: 72, y: 72, savePath: 'st/out/stamped.pdf' });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.headers.get('location'), '/pdfservice/v1/documents/st/out/stamped.pdf');
    assert.equal(sha256(await storedBytes(server, 'st/source.pdf')), before);
    assert.match(pdftotext(await stored('st/out/stamped.pdf')), /COPY/);
    const clash = await textStamp('st/source.pdf', { text: 'COPY', x: 72, y: 72, savePath: 'st/out/stamped.pdf' });
    assert.equal(clash.status, 409);
  });

  test('stamping twice keeps both stamps; pages that inherit their resources keep their own text', async () => {
    // Resources on the page tree node, inherited by both pages.
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 /Resources << /Font << /F1 3 0 R >> >> /MediaBox [0 0 612 792] >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Page /Parent 2 0 R /Contents 5 0 R >>',
      '<< /Length 44 >>\nstream\nBT /F1 24 Tf 72 700 Td (Inherited one) Tj ET\nendstream',
      '<< /Type /Page /Parent 2 0 R /Contents 7 0 R >>',
      '<< /Length 44 >>\nstream\nBT /F1 24 Tf 72 700 Td (Inherited two) Tj ET\nendstream',
    ];
    await putPdf(server, 'st/inherit.pdf', serializePdf(objects, '/Root 1 0 R'));
    assert.equal((await textStamp('st/inherit.pdf', { text: 'FIRST', x: 72, y: 300, pageIndex: 0 })).status, 200);
    assert.equal((await textStamp('st/inherit.pdf', { text: 'SECOND Δ', x: 72, y: 200 })).status, 200);
    const pdf = await stored('st/inherit.pdf');
    const one = pageText(pdf, 1);
    const two = pageText(pdf, 2);
    for (const s of ['Inherited one', 'FIRST', 'SECOND Δ']) assert.ok(one.includes(s), `${s} on page 1: ${one}`);
    for (const s of ['Inherited two', 'SECOND Δ']) assert.ok(two.includes(s), `${s} on page 2: ${two}`);
    assert.ok(!two.includes('FIRST'));
  });

  test('an XML body works as well', async () => {
    await putPdf(server, 'st/xml.pdf', blankPdf());
    const reply = await call(server, 'POST', '/documents/st/xml.pdf/pages', {
      body: Buffer.from('<TextStampAction><text>From XML</text><x>72</x><y>500</y><fontSize>30</fontSize><color>255</color></TextStampAction>'),
      headers: { 'content-type': 'application/xml', accept: 'application/xml' },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.text, /<Document>/);
    const pdf = await stored('st/xml.pdf');
    assert.match(pdftotext(pdf), /From XML/);
    assert.deepEqual(inkBox(pdf, 1, (r, g, b) => b > 200 && r < 50 && g < 50) !== undefined, true, 'blue ink');
  });

  test('an encrypted document needs its password and stays encrypted', async () => {
    await putPdf(server, 'st/locked.pdf', encryptPdf(makePdf(), 'user-pw', 'owner-pw'));
    const before = sha256(await storedBytes(server, 'st/locked.pdf'));
    const refused = await textStamp('st/locked.pdf', { text: 'X', x: 1, y: 1 });
    assert.equal(refused.status, 403);
    assert.equal(refused.json().code, 'DOCUMENT_PASSWORD_REQUIRED');
    assert.equal(sha256(await storedBytes(server, 'st/locked.pdf')), before);
    const reply = await textStamp('st/locked.pdf', { text: 'LOCKED STAMP', x: 72, y: 300 }, { 'x-service-documentpassword': 'owner-pw' });
    assert.equal(reply.status, 200, reply.text);
    const pdf = await storedBytes(server, 'st/locked.pdf');
    withTempFile(pdf, (file) => execFileSync('qpdf', ['--password=user-pw', '--check', file]));
    assert.match(pdftotext(pdf, 'user-pw'), /LOCKED STAMP/);
    assert.match(withTempFile(pdf, (file) => execFileSync('qpdf', ['--password=owner-pw', '--show-encryption', file], { encoding: 'utf8' })), /AESv3/);
  });
});

describe('ImageStampAction', () => {
  let jpeg: Buffer;
  let black: Buffer;
  let png: Buffer;
  before(() => {
    jpeg = image('stamp.jpg', ['-size', '100x50', 'xc:blue', '-quality', '90']);
    black = image('black.jpg', ['-size', '40x40', 'xc:black']);
    // Opaque red left half, fully transparent right half.
    png = image('half.png', ['-size', '100x100', 'xc:none', '-fill', 'red', '-draw', 'rectangle 0,0 49,99']);
  });

  test('a JPEG on every page is one image object, its bytes the JPEG\'s (DCTDecode, no recompression)', async () => {
    await putPdf(server, 'st/jpeg.pdf', blankPdf(3));
    const reply = await imageStamp('st/jpeg.pdf', { x: 100, y: 100 }, { bytes: jpeg, type: 'image/jpeg', name: 'stamp.jpg' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json().report, { width: 100, height: 50, pages: [0, 1, 2] });
    const pdf = await stored('st/jpeg.pdf');
    const json = JSON.parse(withTempFile(pdf, (file) => execFileSync('qpdf', ['--json=2', '--json-stream-data=none', file], { encoding: 'utf8' })));
    const objects = json.qpdf[1] as Record<string, { stream?: { dict: Record<string, unknown> } }>;
    const images = Object.entries(objects).filter(([, v]) => v.stream?.dict['/Subtype'] === '/Image');
    assert.equal(images.length, 1, 'stored once');
    const [key, value] = images[0]!;
    assert.equal(value.stream!.dict['/Filter'], '/DCTDecode');
    const num = /^obj:(\d+) /.exec(key)![1]!;
    const raw = withTempFile(pdf, (file) => execFileSync('qpdf', [`--show-object=${num}`, '--raw-stream-data', file]));
    assert.ok(raw.equals(jpeg), 'the JPEG bytes as uploaded');
    for (let page = 1; page <= 3; page++) {
      assertBox(inkBox(pdf, page), { x0: 100, y0: 100, x1: 200, y1: 150 }, `page ${page}`);
    }
  });

  test('width alone keeps the aspect ratio; rotation 90 turns the image up and to the left of (x, y); scale multiplies the natural size', async () => {
    await putPdf(server, 'st/size.pdf', blankPdf());
    const upload = { bytes: jpeg, type: 'image/jpeg' };
    await imageStamp('st/size.pdf', { x: 100, y: 100, width: 200, savePath: 'st/size-w.pdf' }, upload);
    assertBox(inkBox(await stored('st/size-w.pdf')), { x0: 100, y0: 100, x1: 300, y1: 200 });
    const turned = await imageStamp('st/size.pdf', { x: 300, y: 300, height: 25, rotation: 90, savePath: 'st/size-90.pdf' }, upload);
    assert.deepEqual(turned.json().report, { width: 50, height: 25, pages: [0] });
    assertBox(inkBox(await stored('st/size-90.pdf')), { x0: 275, y0: 300, x1: 300, y1: 350 });
    await imageStamp('st/size.pdf', { x: 10, y: 10, scale: 1.5, savePath: 'st/size-s.pdf' }, upload);
    assertBox(inkBox(await stored('st/size-s.pdf')), { x0: 10, y0: 10, x1: 160, y1: 85 });
    await imageStamp('st/size.pdf', { x: 10, y: 10, width: 30, height: 90, pageIndex: 0, savePath: 'st/size-wh.pdf' }, upload);
    assertBox(inkBox(await stored('st/size-wh.pdf')), { x0: 10, y0: 10, x1: 40, y1: 100 });
  });

  test('PNG transparency is kept (an /SMask): the transparent half shows the page; opacity 0.5 of black is mid grey', async () => {
    await putPdf(server, 'st/png.pdf', makePdf({ text: () => '' }));
    const reply = await imageStamp('st/png.pdf', { x: 100, y: 400 }, { bytes: png, type: 'image/png', name: 'half.png' });
    assert.equal(reply.status, 200, reply.text);
    const gray = await imageStamp('st/png.pdf', { x: 300, y: 400, opacity: 0.5 }, { bytes: black, type: 'image/jpeg' });
    assert.equal(gray.status, 200, gray.text);
    const pdf = await stored('st/png.pdf');
    assert.ok(pdf.toString('latin1').includes('/SMask'));
    assert.deepEqual(colourAt(pdf, 125, 450), [255, 0, 0], 'opaque half');
    assert.deepEqual(colourAt(pdf, 175, 450), [255, 255, 255], 'transparent half');
    for (const c of colourAt(pdf, 320, 420)) assertNear(c, 128, 4, 'half black');
  });

  test('the image part may come as application/octet-stream and is recognised by its content', async () => {
    await putPdf(server, 'st/octet.pdf', blankPdf());
    const reply = await imageStamp('st/octet.pdf', { x: 10, y: 10 }, { bytes: png, type: 'application/octet-stream', name: 'blob' });
    assert.equal(reply.status, 200, reply.text);
  });
});

describe('bad stamp requests: 4xx in the error shape, the stored document unchanged', () => {
  test('text stamp parameters', async () => {
    await putPdf(server, 'st/bad.pdf', makePdf({ pages: 3 }));
    const before = sha256(await storedBytes(server, 'st/bad.pdf'));
    const ok = { text: 'x', x: 10, y: 10 };
    const cases: [object, string][] = [
      [{ ...ok, pageIndex: 3 }, 'PAGE_OUT_OF_RANGE'],
      [{ ...ok, pageIndex: -2 }, 'PAGE_OUT_OF_RANGE'],
      [{ ...ok, fontName: 'Arial' }, 'UNKNOWN_FONT'],
      [{ ...ok, color: -1 }, 'VALIDATION_FAILED'],
      [{ ...ok, color: 0x1000000 }, 'VALIDATION_FAILED'],
      [{ ...ok, color: 1.5 }, 'VALIDATION_FAILED'],
      [{ ...ok, transparency: 1.5 }, 'VALIDATION_FAILED'],
      [{ ...ok, transparency: -0.1 }, 'VALIDATION_FAILED'],
      [{ ...ok, opacity: 2 }, 'VALIDATION_FAILED'],
      [{ ...ok, transparency: 0.2, opacity: 0.8 }, 'VALIDATION_FAILED'],
      [{ ...ok, fontStyle: 'heavy' }, 'VALIDATION_FAILED'],
      [{ ...ok, fontSize: 0 }, 'VALIDATION_FAILED'],
      [{ ...ok, x: 1e7 }, 'VALIDATION_FAILED'],
      [{ ...ok, unknown: 1 }, 'VALIDATION_FAILED'],
      [{ x: 10, y: 10 }, 'VALIDATION_FAILED'],
      [{ ...ok, text: '' }, 'VALIDATION_FAILED'],
      [{ text: 'x', y: 10 }, 'VALIDATION_FAILED'],
      [{ ...ok, text: 'Thai ภาษาไทย' }, 'UNSUPPORTED_CHARACTERS'],
      [{ ...ok, text: 'bell \u0007' }, 'UNSUPPORTED_CHARACTERS'],
    ];
    for (const [params, code] of cases) {
      const reply = await textStamp('st/bad.pdf', params);
      assert.equal(reply.status, 400, `${JSON.stringify(params)}: ${reply.text}`);
      assert.equal(reply.headers.get('content-type')?.split(';')[0], 'application/problem+json');
      const problem = reply.json();
      assert.equal(problem.code, code, JSON.stringify(params));
      assert.equal(problem.status, 400);
      assert.ok(problem.title && problem.detail, reply.text);
      assert.ok(!leaksInternals(reply.text, server.dataDir), reply.text);
    }
    const font = (await textStamp('st/bad.pdf', { ...ok, fontName: 'Arial' })).json();
    assert.match(font.detail, /Helvetica.*Times-Roman.*Courier.*Symbol.*ZapfDingbats.*DejaVuSans/);
    assert.ok(font.fonts.includes('DejaVuSerif'));
    const chars = (await textStamp('st/bad.pdf', { ...ok, text: 'Thai ภ' })).json();
    assert.deepEqual(chars.characters, ['U+0E20']);
    assert.equal((await call(server, 'POST', '/documents/st/bad.pdf', { body: { TextStampAction: ok } })).json().code, 'INVALID_ACTION', 'a pages action');
    assert.equal((await textStamp('st/missing.pdf', ok)).status, 404);
    assert.equal(sha256(await storedBytes(server, 'st/bad.pdf')), before);
  });

  test('image stamp uploads', async () => {
    await putPdf(server, 'st/bad-image.pdf', blankPdf());
    const before = sha256(await storedBytes(server, 'st/bad-image.pdf'));
    const png = image('ok.png', ['-size', '20x20', 'xc:green']);
    const gif = image('ok.gif', ['-size', '20x20', 'xc:green']);
    const text = Buffer.from('this is not an image\n');
    const ok = { x: 10, y: 10 };
    const cases: [object, Upload | undefined, number, string][] = [
      [ok, undefined, 400, 'MALFORMED_MULTIPART'],
      [ok, { bytes: png, type: 'image/png', field: 'one' }, 201, ''],
      [ok, { bytes: text, type: 'text/plain', name: 'notes.txt' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [ok, { bytes: text, type: 'image/png', name: 'fake.png' }, 422, 'MALFORMED_IMAGE'],
      [ok, { bytes: text, type: 'application/octet-stream', name: 'blob' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [ok, { bytes: png.subarray(0, png.length - 30), type: 'image/png' }, 422, 'MALFORMED_IMAGE'],
      [ok, { bytes: png.subarray(0, 60), type: 'image/png' }, 422, 'MALFORMED_IMAGE'],
      [ok, { bytes: gif, type: 'image/gif' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [{ ...ok, pageIndex: 1 }, { bytes: png, type: 'image/png' }, 400, 'PAGE_OUT_OF_RANGE'],
      [{ ...ok, scale: 2, width: 10 }, { bytes: png, type: 'image/png' }, 400, 'VALIDATION_FAILED'],
      [{ ...ok, width: 0 }, { bytes: png, type: 'image/png' }, 400, 'VALIDATION_FAILED'],
      [{ ...ok, opacity: 1.01 }, { bytes: png, type: 'image/png' }, 400, 'VALIDATION_FAILED'],
      [{ y: 10 }, { bytes: png, type: 'image/png' }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [params, upload, status, code] of cases) {
      const label = `${JSON.stringify(params)} ${upload?.type ?? 'no file'}`;
      // The one success (a part with another name, the only file) goes elsewhere, so the source stays as it was.
      const reply = await imageStamp('st/bad-image.pdf', status === 201 ? { ...params, savePath: 'st/bad-image-ok.pdf' } : params, upload);
      assert.equal(reply.status, status, `${label}: ${reply.text}`);
      if (status === 201) continue;
      assert.equal(reply.json().code, code, label);
      assert.ok(!leaksInternals(reply.text, server.dataDir), reply.text);
    }
    // Without multipart there is no image at all.
    const json = await call(server, 'POST', '/documents/st/bad-image.pdf/pages', { body: { ImageStampAction: ok } });
    assert.equal(json.status, 400);
    assert.equal(json.json().code, 'MALFORMED_MULTIPART');
    const noAction = new FormData();
    noAction.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png');
    assert.equal((await call(server, 'POST', '/documents/st/bad-image.pdf/pages', { body: noAction })).json().code, 'MALFORMED_MULTIPART');
    assert.equal(sha256(await storedBytes(server, 'st/bad-image.pdf')), before);
  });
});
