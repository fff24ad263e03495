import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call } from '../helpers/http.js';
import { pdfinfo, qpdfCheck, renderPage, withTempFile } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let dir: string;
before(async () => {
  server = await startServer();
  dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-images-'));
});
after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Makes an image with ImageMagick (`/usr/bin/convert`; `/usr/local/bin/convert` may be a stand-in). */
function image(name: string, args: string[]): Buffer {
  const file = path.join(dir, name);
  execFileSync('/usr/bin/convert', [...args, file]);
  return readFileSync(file);
}

/** Page sizes in points from pdfinfo -f 1 -l N. */
function pageSizes(pdf: Buffer, pages: number): [number, number][] {
  return withTempFile(pdf, (file) => {
    const out = execFileSync('pdfinfo', ['-f', '1', '-l', String(pages), file], { encoding: 'utf8' });
    return [...out.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/g)].map((m) => [Number(m[1]), Number(m[2])] as [number, number]);
  });
}

async function upload(name: string, bytes: Buffer, type: string) {
  const reply = await call(server, 'PUT', `/documents/images/${name}.pdf`, { body: bytes, headers: { 'content-type': type } });
  assert.equal(reply.status, 201, reply.text);
  const pdf = (await call(server, 'GET', `/documents/images/${name}.pdf`)).bytes;
  assert.ok(qpdfCheck(pdf).ok, `${name}: qpdf --check`);
  return { model: reply.json(), pdf };
}

test('a JPEG becomes a one-page PDF sized from its resolution, its bytes embedded unchanged', async () => {
  const jpeg = image('photo.jpg', ['-size', '300x200', 'gradient:red-blue', '-density', '150', '-units', 'PixelsPerInch']);
  const { model, pdf } = await upload('photo', jpeg, 'image/jpeg');
  assert.equal(model.pageCount, 1);
  assert.deepEqual(pageSizes(pdf, 1), [[144, 96]]);
  assert.ok(pdf.includes(jpeg), 'the JPEG data appears byte for byte in the PDF (no recompression)');
  assert.equal(pdfinfo(pdf)['Pages'], '1');
});

test('an image without a declared resolution is laid out at 72 dpi', async () => {
  const jpeg = image('nores.jpg', ['-size', '144x72', 'xc:green', '-strip']);
  const { pdf } = await upload('nores', jpeg, 'image/jpeg');
  assert.deepEqual(pageSizes(pdf, 1), [[144, 72]]);
});

test('PNG (with alpha) and GIF uploads become PDFs', async () => {
  const png = image('alpha.png', ['-size', '200x100', 'xc:none', '-fill', 'blue', '-draw', 'circle 100,50 100,10', '-density', '200', '-units', 'PixelsPerInch']);
  const { pdf } = await upload('alpha', png, 'image/png');
  assert.deepEqual(pageSizes(pdf, 1), [[72, 36]]);
  assert.match(pdf.toString('latin1'), /\/SMask/, 'transparency is kept as a soft mask');
  const gif = image('dot.gif', ['-size', '64x64', 'xc:white', '-fill', 'black', '-draw', 'circle 32,32 10,10']);
  const gifPdf = await upload('dot', gif, 'image/gif');
  assert.deepEqual(pageSizes(gifPdf.pdf, 1), [[64, 64]]);
});

test('every frame of a multi-page TIFF becomes a page, each with its own size', async () => {
  const tiff = image('frames.tif', ['-density', '100', '-units', 'PixelsPerInch', '-size', '100x50', 'xc:red', '-size', '200x100', 'xc:green', '-size', '50x50', 'xc:blue']);
  const { model, pdf } = await upload('frames', tiff, 'image/tiff');
  assert.equal(model.pageCount, 3);
  assert.deepEqual(pageSizes(pdf, 3), [[72, 36], [144, 72], [36, 36]]);
});

test('a corrupt image is 422 MALFORMED_IMAGE and nothing is stored', async () => {
  const jpeg = image('cut.jpg', ['-size', '300x200', 'gradient:red-blue']);
  const reply = await call(server, 'PUT', '/documents/images/cut.pdf', { body: Buffer.concat([jpeg.subarray(0, 3), Buffer.from('garbage garbage')]), headers: { 'content-type': 'image/jpeg' } });
  assert.equal(reply.status, 422);
  assert.equal(reply.json().code, 'MALFORMED_IMAGE');
  assert.equal((await call(server, 'GET', '/documents/images/cut.pdf')).status, 404);
});

test('an image declaring 100,000 x 100,000 pixels is refused before decoding (422 IMAGE_TOO_LARGE)', async () => {
  // A PNG header that declares the size, and nothing else worth decoding.
  const header = Buffer.from('89504e470d0a1a0a0000000d49484452000186a0000186a00802000000', 'hex');
  const crc = Buffer.alloc(4);
  const zlib = await import('node:zlib');
  crc.writeUInt32BE(zlib.crc32(header.subarray(12)) >>> 0);
  const bomb = Buffer.concat([header, crc, Buffer.from('0000000049454e44ae426082', 'hex')]);
  const started = Date.now();
  const reply = await call(server, 'PUT', '/documents/images/bomb.pdf', { body: bomb, headers: { 'content-type': 'image/png' } });
  assert.equal(reply.status, 422);
  assert.equal(reply.json().code, 'IMAGE_TOO_LARGE');
  assert.ok(Date.now() - started < 5000);
  assert.equal((await fetch(`${server.api}/health`)).status, 200);
});

test('form upload of an image stores "<name>.pdf"', async () => {
  const jpeg = image('form.jpg', ['-size', '100x100', 'xc:yellow']);
  const data = new FormData();
  data.append('file', new Blob([jpeg as BlobPart], { type: 'image/jpeg' }), 'holiday photo.jpg');
  await call(server, 'PUT', '/documents/inbox');
  const reply = await call(server, 'POST', '/documents/inbox', { body: data });
  assert.equal(reply.status, 201, reply.text);
  assert.equal(reply.headers.get('location'), '/pdfservice/v1/documents/inbox/holiday%20photo.pdf');
  assert.equal(reply.json().pageCount, 1);
});

test('an image sent as application/octet-stream (body, or a form file with no telling name) is recognised by its content', async () => {
  const png = image('sniffed.png', ['-size', '30x20', 'xc:blue']);
  const { model, pdf } = await upload('sniffed', png, 'application/octet-stream');
  assert.equal(model.pageCount, 1);
  assert.deepEqual(pageSizes(pdf, 1), [[30, 20]]);
  const data = new FormData();
  data.append('file', new Blob([png as BlobPart], { type: 'application/octet-stream' }), 'scan.bin');
  await call(server, 'PUT', '/documents/sniffed-form');
  const reply = await call(server, 'POST', '/documents/sniffed-form', { body: data });
  assert.equal(reply.status, 201, reply.text);
  assert.equal(reply.json().path, '/sniffed-form/scan.pdf');
  assert.equal(reply.json().pageCount, 1);
});

/** A JPEG with an EXIF block holding only Orientation, inserted after SOI (as cameras write it). */
function withOrientation(jpeg: Buffer, orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4); // IFD0 at 8
  tiff.writeUInt16LE(1, 8); // one entry
  tiff.writeUInt16LE(274, 10); // Orientation
  tiff.writeUInt16LE(3, 12); // SHORT
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(orientation, 18);
  tiff.writeUInt32LE(0, 22); // no next IFD
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const app1 = Buffer.alloc(4);
  app1.writeUInt16BE(0xffe1, 0);
  app1.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), app1, body, jpeg.subarray(2)]);
}

const isRed = ([r, g, b]: number[]) => r! > 180 && g! < 80 && b! < 80;
const isBlue = ([r, g, b]: number[]) => b! > 180 && r! < 80 && g! < 80;

test('EXIF orientation is honoured: the page shows the photo upright, the JPEG bytes stay untouched', async () => {
  // Stored 300 x 200: left half red, right half blue.
  const jpeg = image('halves.jpg', ['-size', '150x200', 'xc:red', '-size', '150x200', 'xc:blue', '+append', '-strip']);
  const cases: [number, [number, number], string, string][] = [
    [6, [200, 300], 'top', 'bottom'], // turned clockwise for display: the left half is on top
    [8, [200, 300], 'bottom', 'top'],
    [3, [300, 200], 'right', 'left'],
  ];
  for (const [orientation, size, redAt, blueAt] of cases) {
    const photo = withOrientation(jpeg, orientation);
    const { pdf } = await upload(`oriented-${orientation}`, photo, 'image/jpeg');
    assert.deepEqual(pageSizes(pdf, 1), [size], `orientation ${orientation}: page size`);
    assert.ok(pdf.includes(photo), 'the JPEG is embedded as uploaded');
    const page = renderPage(pdf);
    const at = (where: string) => {
      const x = where === 'left' ? 20 : where === 'right' ? page.width - 20 : Math.floor(page.width / 2);
      const y = where === 'top' ? 20 : where === 'bottom' ? page.height - 20 : Math.floor(page.height / 2);
      return page.rgb(x, y);
    };
    assert.ok(isRed(at(redAt)), `orientation ${orientation}: red at the ${redAt}, got ${at(redAt)}`);
    assert.ok(isBlue(at(blueAt)), `orientation ${orientation}: blue at the ${blueAt}, got ${at(blueAt)}`);
  }
});

test('all eight EXIF orientations put the right corner of the photo at the top left and top right', async () => {
  // Stored 200 x 100 in quadrants: top-left red, top-right blue, bottom-left green, bottom-right yellow.
  const jpeg = image('quadrants.jpg', ['(', '-size', '100x50', 'xc:red', '-size', '100x50', 'xc:blue', '+append', ')',
    '(', '-size', '100x50', 'xc:lime', '-size', '100x50', 'xc:yellow', '+append', ')', '-append', '-strip', '-quality', '95']);
  const colour = ([r, g, b]: number[]) => (r! > 180 && g! < 90 && b! < 90 ? 'red' : b! > 180 && r! < 90 && g! < 90 ? 'blue'
    : g! > 180 && r! < 90 && b! < 90 ? 'green' : r! > 180 && g! > 180 && b! < 90 ? 'yellow' : `?${[r, g, b]}`);
  const expected: Record<number, [string, string]> = {
    1: ['red', 'blue'], 2: ['blue', 'red'], 3: ['yellow', 'green'], 4: ['green', 'yellow'],
    5: ['red', 'green'], 6: ['green', 'red'], 7: ['yellow', 'blue'], 8: ['blue', 'yellow'],
  };
  for (const [orientation, [topLeft, topRight]] of Object.entries(expected)) {
    const { pdf } = await upload(`quadrants-${orientation}`, withOrientation(jpeg, Number(orientation)), 'image/jpeg');
    const page = renderPage(pdf);
    assert.deepEqual([colour(page.rgb(8, 8)), colour(page.rgb(page.width - 9, 8))], [topLeft, topRight], `orientation ${orientation}`);
  }
});
