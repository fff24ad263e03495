import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { call, expectUnchanged, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { differingShare, encryptPdf, makePdf, qpdfCheck, renderPage, serializePdf, withTempFile } from '../helpers/pdf.js';
import { QpdfDocument, qpdfAnnotations } from '../helpers/qpdf-json.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

const pageAction = (doc: string, body: object, headers: Record<string, string> = {}) => call(server, 'POST', `/documents/${doc}/pages`, { body, headers: { accept: 'application/json', ...headers } });

/** Page count and each page's size, as pdfinfo reads them (rotation applied). */
function sizes(bytes: Buffer): { pages: number; sizes: [number, number][] } {
  const out = withTempFile(bytes, (f) => execFileSync('pdfinfo', ['-f', '1', '-l', '1000', f], { encoding: 'utf8' }));
  const pages = Number(/^Pages:\s+(\d+)/m.exec(out)![1]);
  const found = [...out.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m) => [Math.round(Number(m[1])), Math.round(Number(m[2]))] as [number, number]);
  return { pages, sizes: found };
}

/** One page's text with pdftotext -layout: lines with their words in the order they stand on the sheet, blank lines dropped. */
function layoutLines(bytes: Buffer, page: number): string[] {
  const text = withTempFile(bytes, (f) => execFileSync('pdftotext', ['-layout', '-f', String(page), '-l', String(page), f, '-'], { encoding: 'utf8' }));
  return text.split('\n').map((l) => l.trim().replace(/\s{2,}/g, ' | ')).filter((l) => l !== '' && l !== '\f');
}

/** A page box of every page, per qpdf (inherited or absent: null). */
function boxes(bytes: Buffer, name: string): (number[] | null)[] {
  const doc = new QpdfDocument(bytes);
  return doc.pages.map((ref) => {
    const value = doc.get(doc.resolve(ref) as Record<string, unknown>, `/${name}`) as unknown[] | null;
    return value ? value.map((n) => Math.round(Number(doc.resolve(n)))) : null;
  });
}

/** A stream object with its /Length. */
const stream = (dict: string, content: string) => `<< ${dict} /Length ${content.length} >>\nstream\n${content}\nendstream`;

const marked = (pages: number, width = 612, height = 792) => makePdf({ pages, width, height, text: (i) => `Marker ${i + 1}` });

function checked(bytes: Buffer): Buffer {
  const check = qpdfCheck(bytes);
  assert.ok(check.ok, check.output);
  return bytes;
}

/**
 * One Letter page with text, a square annotation whose appearance writes "Noted" (drawn onto sheets), a link
 * (not drawn), and optionally a signed signature field.
 */
function annotated(signed = false): Buffer {
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R${signed ? ' /AcroForm << /Fields [8 0 R] /SigFlags 3 >>' : ''} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R /Annots [6 0 R 7 0 R${signed ? ' 8 0 R' : ''}] >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    stream('', 'BT /F1 24 Tf 72 692 Td (Body text) Tj ET'),
    '<< /Type /Annot /Subtype /Square /Rect [72 400 272 450] /F 4 /AP << /N 9 0 R >> >>',
    '<< /Type /Annot /Subtype /Link /Rect [72 300 272 320] /A << /S /URI /URI (https://example.com/) >> >>',
    '<< /Type /Annot /Subtype /Widget /FT /Sig /T (sig) /Rect [0 0 0 0] /F 4 /V << /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /Contents <00> /ByteRange [0 0 0 0] >> >>',
    stream('/Type /XObject /Subtype /Form /BBox [0 0 200 50] /Resources << /Font << /F1 4 0 R >> >>', 'BT /F1 18 Tf 10 20 Td (Noted) Tj ET'),
  ];
  return serializePdf(objects, '/Root 1 0 R');
}

describe('N-up and booklets', () => {
  test('NUpAction 4: two sheets the size of the pages, four pages each, left to right then top to bottom', async () => {
    await putPdf(server, 'layout/nup4.pdf', marked(8));
    const reply = await pageAction('layout/nup4.pdf', { NUpAction: { perSheet: 4, border: true } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json().pageCount, 2);
    const bytes = checked(await storedBytes(server, 'layout/nup4.pdf'));
    assert.deepEqual(sizes(bytes), { pages: 2, sizes: [[612, 792], [612, 792]] });
    assert.deepEqual(layoutLines(bytes, 1), ['Marker 1 | Marker 2', 'Marker 3 | Marker 4']);
    assert.deepEqual(layoutLines(bytes, 2), ['Marker 5 | Marker 6', 'Marker 7 | Marker 8']);
    // Each source page is one Form XObject, drawn once.
    const doc = new QpdfDocument(bytes);
    const xobjects = doc.get(doc.get(doc.resolve(doc.pages[0]) as Record<string, unknown>, '/Resources') as Record<string, unknown>, '/XObject') as Record<string, unknown>;
    assert.equal(Object.keys(xobjects).length, 4);
  });

  test('NUpAction orders, paper and orientation: downRight on A4; 2-up turns the sheet landscape; 6-up leaves a short last sheet', async () => {
    await putPdf(server, 'layout/nup-order.pdf', marked(4));
    assert.equal((await pageAction('layout/nup-order.pdf', { NUpAction: { perSheet: 4, order: 'downRight', paperSize: 'A4', margin: 10, savePath: 'layout/nup-down.pdf' } })).status, 201);
    const down = checked(await storedBytes(server, 'layout/nup-down.pdf'));
    assert.deepEqual(sizes(down), { pages: 1, sizes: [[595, 842]] });
    assert.deepEqual(layoutLines(down, 1), ['Marker 1 | Marker 3', 'Marker 2 | Marker 4']);

    assert.equal((await pageAction('layout/nup-order.pdf', { NUpAction: { perSheet: 2, order: 'leftDown', savePath: 'layout/nup-two.pdf' } })).status, 201);
    const two = checked(await storedBytes(server, 'layout/nup-two.pdf'));
    assert.deepEqual(sizes(two), { pages: 2, sizes: [[792, 612], [792, 612]] }, 'two portrait pages side by side on a landscape sheet');
    assert.deepEqual(layoutLines(two, 1), ['Marker 2 | Marker 1'], 'right to left');

    await putPdf(server, 'layout/nup-six.pdf', marked(7));
    assert.equal((await pageAction('layout/nup-six.pdf', { NUpAction: { perSheet: 6, pageRange: '2-7' } })).status, 200);
    const six = checked(await storedBytes(server, 'layout/nup-six.pdf'));
    assert.deepEqual(sizes(six), { pages: 1, sizes: [[792, 612]] });
    assert.deepEqual(layoutLines(six, 1), ['Marker 2 | Marker 3 | Marker 4', 'Marker 5 | Marker 6 | Marker 7']);
    for (const n of [9, 16]) {
      await putPdf(server, `layout/nup-${n}.pdf`, marked(n + 1));
      assert.equal((await pageAction(`layout/nup-${n}.pdf`, { NUpAction: { perSheet: n } })).status, 200);
      const out = checked(await storedBytes(server, `layout/nup-${n}.pdf`));
      assert.equal(sizes(out).pages, 2);
      assert.deepEqual(layoutLines(out, 2), [`Marker ${n + 1}`]);
    }
  });

  test('BookletAction: padded to a multiple of 4, sides in duplex order, binding right swaps the halves', async () => {
    await putPdf(server, 'layout/booklet.pdf', marked(6));
    const reply = await pageAction('layout/booklet.pdf', { BookletAction: { savePath: 'layout/booklet-out.pdf' } });
    assert.equal(reply.status, 201, reply.text);
    const bytes = checked(await storedBytes(server, 'layout/booklet-out.pdf'));
    assert.deepEqual(sizes(bytes), { pages: 4, sizes: [[1224, 792], [1224, 792], [1224, 792], [1224, 792]] });
    // 8 page positions: pages 7 and 8 are blanks. Sheet 1: [8, 1] then [2, 7]; sheet 2: [6, 3] then [4, 5].
    assert.deepEqual([1, 2, 3, 4].map((p) => layoutLines(bytes, p)), [['Marker 1'], ['Marker 2'], ['Marker 6 | Marker 3'], ['Marker 4 | Marker 5']]);

    assert.equal((await pageAction('layout/booklet.pdf', { BookletAction: { binding: 'right', paperSize: 'A4', border: true, savePath: 'layout/booklet-right.pdf' } })).status, 201);
    const right = checked(await storedBytes(server, 'layout/booklet-right.pdf'));
    assert.deepEqual(sizes(right).sizes[0], [842, 595], 'A4 landscape');
    assert.deepEqual(layoutLines(right, 3), ['Marker 3 | Marker 6']);
  });

  test('annotations are drawn from their appearances; the sheets have none, links included', async () => {
    await putPdf(server, 'layout/annotated.pdf', annotated());
    assert.equal((await pageAction('layout/annotated.pdf', { NUpAction: { perSheet: 2 } })).status, 200);
    const bytes = checked(await storedBytes(server, 'layout/annotated.pdf'));
    assert.deepEqual(layoutLines(bytes, 1).map((l) => l.replace(/ \| /g, ' ')), ['Body text', 'Noted']);
    assert.deepEqual(qpdfAnnotations(bytes), []);
  });
});

describe('posters', () => {
  test('PosterAction cuts a large page into tiles of the paper, top left first; overlap adds tiles; scale enlarges', async () => {
    const big = serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1190 1684] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      stream('', 'BT /F1 20 Tf 50 1600 Td (TopLeft) Tj ET BT /F1 20 Tf 700 1600 Td (TopRight) Tj ET BT /F1 20 Tf 50 50 Td (BottomLeft) Tj ET BT /F1 20 Tf 700 50 Td (BottomRight) Tj ET'),
    ], '/Root 1 0 R');
    await putPdf(server, 'layout/poster.pdf', big);
    assert.equal((await pageAction('layout/poster.pdf', { PosterAction: { paperSize: 'A4', savePath: 'layout/poster-a4.pdf' } })).status, 201);
    const tiles = checked(await storedBytes(server, 'layout/poster-a4.pdf'));
    assert.deepEqual(sizes(tiles), { pages: 4, sizes: [[595, 842], [595, 842], [595, 842], [595, 842]] });
    assert.deepEqual([1, 2, 3, 4].map((p) => layoutLines(tiles, p)), [['TopLeft'], ['TopRight'], ['BottomLeft'], ['BottomRight']]);

    assert.equal((await pageAction('layout/poster.pdf', { PosterAction: { paperSize: 'A4', orientation: 'portrait', overlap: 20, savePath: 'layout/poster-overlap.pdf' } })).status, 201);
    assert.equal(sizes(checked(await storedBytes(server, 'layout/poster-overlap.pdf'))).pages, 9, '3 x 3 tiles once they overlap');

    assert.equal((await pageAction('layout/poster.pdf', { PosterAction: { width: 595, height: 842, scale: 2, savePath: 'layout/poster-scaled.pdf' } })).status, 201);
    const scaled = checked(await storedBytes(server, 'layout/poster-scaled.pdf'));
    assert.equal(sizes(scaled).pages, 16);
    assert.deepEqual(layoutLines(scaled, 1), ['TopLeft']);
    assert.deepEqual(layoutLines(scaled, 15), ['BottomRight'], 'x 1400 of 2380: the third of four columns');
  });
});

/**
 * A page drawn off-centre (text in one corner, a filled square in another), with a CropBox that cuts its margins,
 * turned by `rotate`, its content in two streams: what it shows depends on every part of the page frame.
 */
function framed(rotate: number): Buffer {
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [3 0 R] /Count 1 /Rotate ${rotate} >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /CropBox [20 30 592 762] /Resources << /Font << /F1 4 0 R >> >> /Contents [5 0 R 6 0 R] >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    stream('', 'BT /F1 30 Tf 40 700 Td (Corner) Tj ET'),
    stream('', '0 0 1 rg 450 60 100 150 re f'),
  ], '/Root 1 0 R');
}

describe('the page as shown: CropBox, /Rotate (inherited), several content streams', () => {
  test('a 1-tile poster and a scale to the shown size draw the page exactly as it shows', async () => {
    for (const rotate of [0, 90, 180, 270]) {
      const source = framed(rotate);
      // The page as a viewer shows it: its CropBox, turned.
      const shown = renderPage(source, 1, 72, { cropBox: true });
      const [w, h] = rotate % 180 ? [732, 572] : [572, 732];
      await putPdf(server, `layout/frame-${rotate}.pdf`, source);
      assert.equal((await pageAction(`layout/frame-${rotate}.pdf`, { PosterAction: { width: w, height: h, orientation: w > h ? 'landscape' : 'portrait', savePath: `layout/frame-${rotate}-poster.pdf` } })).status, 201);
      const poster = checked(await storedBytes(server, `layout/frame-${rotate}-poster.pdf`));
      assert.deepEqual(sizes(poster), { pages: 1, sizes: [[w, h]] });
      assert.ok(differingShare(shown, renderPage(poster)) < 0.002, `rotation ${rotate}: the tile shows the page as it shows`);
      assert.equal((await pageAction(`layout/frame-${rotate}.pdf`, { ScalePagesAction: { width: w, height: h } })).status, 200);
      const scaled = checked(await storedBytes(server, `layout/frame-${rotate}.pdf`));
      assert.deepEqual(sizes(scaled).sizes, [[w, h]]);
      assert.ok(differingShare(shown, renderPage(scaled)) < 0.002, `rotation ${rotate}: the scaled page shows what the page showed`);
    }
  });
});

describe('crop, scale and page boxes', () => {
  test('CropPagesAction to a box and to the content', async () => {
    await putPdf(server, 'layout/crop.pdf', marked(3));
    assert.equal((await pageAction('layout/crop.pdf', { CropPagesAction: { box: { x: 36, y: 36, width: 500, height: 700 }, pageRange: '1' } })).status, 200);
    assert.equal((await pageAction('layout/crop.pdf', { CropPagesAction: { toContent: true, margin: 10, pageRange: '2-3' } })).status, 200);
    const bytes = checked(await storedBytes(server, 'layout/crop.pdf'));
    const crop = boxes(bytes, 'CropBox');
    assert.deepEqual(crop[0], [36, 36, 536, 736]);
    // makePdf writes "Marker n" in 24-point Helvetica at (72, 692): the content's box is about 100 x 24 points there.
    for (const box of crop.slice(1)) {
      assert.ok(box, 'a CropBox is set');
      const [x0, y0, x1, y1] = box;
      assert.ok(x0! >= 55 && x0! <= 65 && y0! >= 670 && y0! <= 690 && x1! > 150 && x1! < 200 && y1! > 700 && y1! < 730, `content box ${box.join(' ')}`);
    }
    assert.deepEqual(sizes(bytes).sizes[0], [500, 700]);
    assert.ok(layoutLines(bytes, 2).includes('Marker 2'));
  });

  test('ScalePagesAction puts the pages on A4, content and annotations scaled and centred', async () => {
    await putPdf(server, 'layout/scale.pdf', annotated());
    assert.equal((await pageAction('layout/scale.pdf', { ScalePagesAction: { paperSize: 'A4' } })).status, 200);
    const bytes = checked(await storedBytes(server, 'layout/scale.pdf'));
    assert.deepEqual(sizes(bytes).sizes, [[595, 842]]);
    assert.ok(layoutLines(bytes, 1).includes('Body text'));
    // Letter into A4: scale 595/612, centred vertically.
    const s = 595 / 612;
    const dy = (842 - 792 * s) / 2;
    const square = qpdfAnnotations(bytes).find((a) => a.subtype === 'Square')!;
    const rect = (square.dict['/Rect'] as number[]).map(Number);
    assert.deepEqual(rect.map((v) => Math.round(v)), [72 * s, 400 * s + dy, 272 * s, 450 * s + dy].map((v) => Math.round(v)));
  });

  test('SetPageBoxesAction sets the boxes given on the pages of the range', async () => {
    await putPdf(server, 'layout/boxes.pdf', marked(2));
    const reply = await pageAction('layout/boxes.pdf', { SetPageBoxesAction: { pageRange: '2', TrimBox: { x: 20, y: 20, width: 572, height: 752 }, BleedBox: { x: 10, y: 10, width: 592, height: 772 }, ArtBox: { x: 72, y: 72, width: 100, height: 100 } } });
    assert.equal(reply.status, 200, reply.text);
    const bytes = checked(await storedBytes(server, 'layout/boxes.pdf'));
    assert.deepEqual(boxes(bytes, 'TrimBox'), [null, [20, 20, 592, 772]]);
    assert.deepEqual(boxes(bytes, 'BleedBox'), [null, [10, 10, 602, 782]]);
    assert.deepEqual(boxes(bytes, 'ArtBox'), [null, [72, 72, 172, 172]]);
    assert.equal((await pageAction('layout/boxes.pdf', { SetPageBoxesAction: { MediaBox: { x: 0, y: 0, width: 300, height: 300 }, CropBox: { x: 0, y: 0, width: 200, height: 200 } } })).status, 200);
    assert.deepEqual(sizes(checked(await storedBytes(server, 'layout/boxes.pdf'))).sizes, [[200, 200], [200, 200]]);
  });
});

describe('XML bodies', () => {
  test('an action as XML: numbers, booleans and a box read by the schema', async () => {
    await putPdf(server, 'layout/xml.pdf', marked(4));
    const xml = (body: string) => call(server, 'POST', '/documents/layout/xml.pdf/pages', { body, headers: { 'content-type': 'application/xml', accept: 'application/json' } });
    const nup = await xml('<NUpAction><perSheet>4</perSheet><border>true</border><order>downRight</order><savePath>layout/xml-4up.pdf</savePath></NUpAction>');
    assert.equal(nup.status, 201, nup.text);
    assert.deepEqual(layoutLines(checked(await storedBytes(server, 'layout/xml-4up.pdf')), 1), ['Marker 1 | Marker 3', 'Marker 2 | Marker 4']);
    const boxed = await xml('<SetPageBoxesAction><pageRange>2</pageRange><TrimBox><x>20</x><y>20</y><width>500</width><height>700</height></TrimBox></SetPageBoxesAction>');
    assert.equal(boxed.status, 200, boxed.text);
    assert.deepEqual(boxes(checked(await storedBytes(server, 'layout/xml.pdf')), 'TrimBox'), [null, [20, 20, 520, 720], null, null]);
  });
});

describe('bad input', () => {
  test('a clear 4xx and the document byte-for-byte unchanged', async () => {
    await putPdf(server, 'layout/bad.pdf', marked(3));
    const bad = (body: object, status: number, code: string) => expectUnchanged(server, 'layout/bad.pdf', () => pageAction('layout/bad.pdf', body), status, code);
    await bad({ NUpAction: { perSheet: 3 } }, 400, 'VALIDATION_FAILED');
    await bad({ NUpAction: {} }, 400, 'VALIDATION_FAILED');
    await bad({ NUpAction: { perSheet: 4, pageRange: '2-9' } }, 400, 'PAGE_OUT_OF_RANGE');
    await bad({ NUpAction: { perSheet: 4, pageRange: '3-1' } }, 400, 'INVALID_PAGE_RANGE');
    await bad({ NUpAction: { perSheet: 4, margin: 400 } }, 400, 'VALIDATION_FAILED');
    await bad({ NUpAction: { perSheet: 4, paperSize: 'A4', width: 100, height: 100 } }, 400, 'VALIDATION_FAILED');
    await bad({ NUpAction: { perSheet: 4, width: 100 } }, 400, 'VALIDATION_FAILED');
    await bad({ BookletAction: { orientation: 'portrait' } }, 400, 'VALIDATION_FAILED');
    await bad({ PosterAction: { paperSize: 'A5', overlap: 300 } }, 400, 'VALIDATION_FAILED');
    await bad({ PosterAction: { width: 3, height: 3 } }, 400, 'VALIDATION_FAILED');
    await bad({ CropPagesAction: {} }, 400, 'VALIDATION_FAILED');
    await bad({ CropPagesAction: { box: { x: 0, y: 0, width: 5000, height: 100 } } }, 400, 'VALIDATION_FAILED');
    await bad({ CropPagesAction: { box: { x: 0, y: 0, width: 100, height: 100 }, toContent: true } }, 400, 'VALIDATION_FAILED');
    await bad({ SetPageBoxesAction: {} }, 400, 'VALIDATION_FAILED');
    await bad({ SetPageBoxesAction: { TrimBox: { x: -10, y: 0, width: 100, height: 100 } } }, 400, 'VALIDATION_FAILED');
    await bad({ ScalePagesAction: { orientation: 'sideways' } }, 400, 'VALIDATION_FAILED');
  });

  test('opened with the user password, assembly must be allowed; with it the result keeps the encryption', async () => {
    await putPdf(server, 'layout/locked.pdf', encryptPdf(marked(4), 'reader', 'author', '256', ['--assemble=n']));
    const reader = { 'x-service-documentpassword': 'reader' };
    await expectUnchanged(server, 'layout/locked.pdf', () => pageAction('layout/locked.pdf', { NUpAction: { perSheet: 2 } }, reader), 403, 'DOCUMENT_PERMISSION_DENIED');
    await expectUnchanged(server, 'layout/locked.pdf', () => pageAction('layout/locked.pdf', { CropPagesAction: { toContent: true } }, reader), 403, 'DOCUMENT_PERMISSION_DENIED');
    const reply = await pageAction('layout/locked.pdf', { NUpAction: { perSheet: 2 } }, { 'x-service-documentpassword': 'author' });
    assert.equal(reply.status, 200, reply.text);
    const bytes = await storedBytes(server, 'layout/locked.pdf');
    assert.match(withTempFile(bytes, (f) => execFileSync('qpdf', ['--password=reader', '--check', f], { encoding: 'utf8' })), /No syntax or stream encoding errors/);
    const text = withTempFile(bytes, (f) => execFileSync('pdftotext', ['-upw', 'reader', '-layout', f, '-'], { encoding: 'utf8' }));
    assert.match(text, /Marker 1\s+Marker 2/);
    assert.throws(() => withTempFile(bytes, (f) => execFileSync('pdftotext', [f, '-'], { stdio: 'pipe' })), 'still encrypted');
  });

  test('a signed document is imposed only into a new document, its signature value cleared there', async () => {
    await putPdf(server, 'layout/signed.pdf', annotated(true));
    const before = sha256(await storedBytes(server, 'layout/signed.pdf'));
    await expectUnchanged(server, 'layout/signed.pdf', () => pageAction('layout/signed.pdf', { NUpAction: { perSheet: 2 } }), 409, 'DOCUMENT_SIGNED');
    const reply = await pageAction('layout/signed.pdf', { BookletAction: { savePath: 'layout/signed-booklet.pdf' } });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(sha256(await storedBytes(server, 'layout/signed.pdf')), before);
    const bytes = checked(await storedBytes(server, 'layout/signed-booklet.pdf'));
    assert.equal(sizes(bytes).pages, 2);
    assert.ok(!bytes.toString('latin1').includes('/adbe.pkcs7.detached'), 'no signature value is left');
  });
});
