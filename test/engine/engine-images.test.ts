/**
 * imageToPdf, checked with tools that do not share code with MuPDF: ImageMagick makes the
 * images, qpdf and poppler (pdfinfo, pdftoppm) judge the PDFs.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError } from '../../src/engine/errors.js';
import { imageToPdf, isImageMediaType, type ImageMediaType } from '../../src/engine/images/to-pdf.js';

const CONVERT = '/usr/bin/convert'; // /usr/local/bin/convert is a stand-in, not ImageMagick
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'engine-images-'));
  const im = (...args: string[]) => execFileSync(CONVERT, args);
  im('-size', '300x200', 'gradient:red-blue', '-density', '150', '-units', 'PixelsPerInch', path('dpi150.jpg'));
  im('-size', '300x200', 'gradient:red-blue', '-strip', path('nodpi.jpg'));
  im('-size', '300x200', 'gradient:green-yellow', '-density', '150', '-units', 'PixelsPerInch', path('dpi150.png'));
  im('-size', '300x200', 'gradient:green-yellow', '-strip', path('nodpi.png'));
  // A half-transparent red disc on a fully transparent background.
  im('-size', '120x80', 'xc:none', '-fill', 'rgba(255,0,0,0.5)', '-draw', 'circle 60,40 60,10', path('alpha.png'));
  // Three frames of different sizes and colours, all declaring 200 dpi.
  im('-density', '200', '-units', 'PixelsPerInch', '-depth', '8',
    '-size', '400x200', 'xc:red', '-size', '200x400', 'xc:lime', '-size', '100x100', 'xc:blue', path('three.tif'));
  im('-size', '50x40', 'xc:orange', path('plain.gif'));
  im('-size', '50x40', 'xc:orange', 'xc:blue', path('animated.gif'));
});

after(() => rmSync(dir, { recursive: true, force: true }));

function path(name: string): string {
  return join(dir, name);
}

/** Converts a generated image and checks the PDF with qpdf; returns the PDF's path. */
function convert(name: string, type: ImageMediaType): string {
  const pdf = imageToPdf(readFileSync(path(name)), type);
  assert.ok(pdf instanceof Uint8Array);
  const out = path(`${name}.pdf`);
  writeFileSync(out, pdf);
  execFileSync('qpdf', ['--check', out]); // throws unless the exit code is 0
  return out;
}

/** Page sizes in points as pdfinfo reports them, e.g. ["144 x 96"]. */
function pageSizes(pdf: string): string[] {
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '9999', pdf], { encoding: 'utf8' });
  assert.match(info, /^Pages:\s+\d+$/m);
  const pages = Number(/^Pages:\s+(\d+)$/m.exec(info)![1]);
  const sizes = [...info.matchAll(/^Page\s+\d+ size:\s+([\d.]+ x [\d.]+) pts/gm)].map((m) => m[1]!);
  assert.equal(sizes.length, pages);
  return sizes;
}

/** Image XObjects as qpdf sees them: object number and stream dictionary. */
function imageObjects(pdf: string): { num: number; dict: Record<string, unknown> }[] {
  const json = JSON.parse(execFileSync('qpdf', ['--json=2', '--json-stream-data=none', pdf], { encoding: 'utf8' }));
  const objects = json.qpdf[1] as Record<string, { stream?: { dict: Record<string, unknown> } }>;
  return Object.entries(objects)
    .filter(([, v]) => v.stream?.dict['/Subtype'] === '/Image')
    .map(([key, v]) => ({ num: Number(/^obj:(\d+) /.exec(key)![1]), dict: v.stream!.dict }));
}

/** One page rendered by poppler at 72 dpi: pixel reader over the RGB raster. */
function render(pdf: string, page: number): { width: number; height: number; rgb: (x: number, y: number) => number[] } {
  const base = path(`render-${page}`);
  execFileSync('pdftoppm', ['-r', '72', '-f', String(page), '-l', String(page), '-singlefile', pdf, base]);
  const ppm = readFileSync(`${base}.ppm`);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 32).toString('latin1'))!;
  const [width, height, offset] = [Number(header[1]), Number(header[2]), header[0].length];
  const rgb = (x: number, y: number) => [...ppm.subarray(offset + (y * width + x) * 3, offset + (y * width + x) * 3 + 3)];
  return { width, height, rgb };
}

function assertEngineError(fn: () => unknown, code: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof EngineError, `expected EngineError, got ${String(err)}`);
    assert.equal(err.code, code);
    assert.ok(!err.message.includes(dir), 'message must not leak paths');
    return true;
  });
}

test('isImageMediaType accepts exactly the four types', () => {
  for (const t of ['image/jpeg', 'image/png', 'image/tiff', 'image/gif']) assert.ok(isImageMediaType(t));
  for (const t of ['image/jpg', 'image/webp', 'application/pdf', '']) assert.ok(!isImageMediaType(t));
});

test('JPEG: page size from the JFIF density, image embedded byte for byte', () => {
  const pdf = convert('dpi150.jpg', 'image/jpeg');
  assert.deepEqual(pageSizes(pdf), ['144 x 96']); // 300 x 200 px at 150 dpi
  const page = render(pdf, 1); // upright: the gradient runs from red at the top to blue
  assert.ok(page.rgb(72, 2)[0]! > 200 && page.rgb(72, 93)[2]! > 200);

  const images = imageObjects(pdf);
  assert.equal(images.length, 1);
  assert.equal(images[0]!.dict['/Filter'], '/DCTDecode');
  const raw = execFileSync('qpdf', [`--show-object=${images[0]!.num}`, '--raw-stream-data', pdf]);
  assert.ok(raw.equals(readFileSync(path('dpi150.jpg'))), 'the XObject stream must be the uploaded JPEG');
});

test('JPEG without a declared resolution is laid out at 72 dpi, not MuPDF’s 96', () => {
  assert.deepEqual(pageSizes(convert('nodpi.jpg', 'image/jpeg')), ['300 x 200']);
});

test('JPEG: an EXIF resolution is used', () => {
  // Splice an APP1 Exif block (big-endian TIFF, IFD0: XResolution = YResolution = 300/1,
  // ResolutionUnit = inch) in after SOI of the JPEG whose JFIF declares aspect ratio only.
  const tiff = Buffer.alloc(8 + 2 + 3 * 12 + 4 + 16);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(3, 8);
  const entry = (i: number, tag: number, type: number, value: number) => {
    const e = 10 + i * 12;
    tiff.writeUInt16BE(tag, e);
    tiff.writeUInt16BE(type, e + 2);
    tiff.writeUInt32BE(1, e + 4);
    if (type === 3) tiff.writeUInt16BE(value, e + 8);
    else tiff.writeUInt32BE(value, e + 8);
  };
  const rationals = 10 + 3 * 12 + 4;
  entry(0, 282, 5, rationals);
  entry(1, 283, 5, rationals + 8);
  entry(2, 296, 3, 2);
  for (const at of [rationals, rationals + 8]) {
    tiff.writeUInt32BE(300, at);
    tiff.writeUInt32BE(1, at + 4);
  }
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const app1 = Buffer.alloc(4);
  app1.writeUInt16BE(0xffe1, 0);
  app1.writeUInt16BE(payload.length + 2, 2);
  const jpeg = readFileSync(path('nodpi.jpg'));
  const withExif = Buffer.concat([jpeg.subarray(0, 2), app1, payload, jpeg.subarray(2)]);
  writeFileSync(path('exif.jpg'), withExif);
  assert.deepEqual(pageSizes(convert('exif.jpg', 'image/jpeg')), ['72 x 48']);
});

test('PNG: pHYs resolution is used, its absence means 72 dpi', () => {
  assert.deepEqual(pageSizes(convert('dpi150.png', 'image/png')), ['144 x 96']);
  assert.deepEqual(pageSizes(convert('nodpi.png', 'image/png')), ['300 x 200']);
});

test('PNG with alpha keeps its transparency as a soft mask', () => {
  const pdf = convert('alpha.png', 'image/png');
  assert.deepEqual(pageSizes(pdf), ['120 x 80']);
  const withMask = imageObjects(pdf).filter((o) => o.dict['/SMask'] !== undefined);
  assert.equal(withMask.length, 1);

  const page = render(pdf, 1);
  assert.deepEqual([page.width, page.height], [120, 80]);
  assert.deepEqual(page.rgb(2, 2), [255, 255, 255], 'transparent corner shows the white page');
  const [r, g, b] = page.rgb(60, 40);
  assert.ok(r! > 240 && g! > 100 && g! < 160 && b! > 100 && b! < 160, `half-transparent red, got ${[r, g, b]}`);
});

test('TIFF: every frame becomes a page, in order, each at its own size', () => {
  const pdf = convert('three.tif', 'image/tiff');
  assert.deepEqual(pageSizes(pdf), ['144 x 72', '72 x 144', '36 x 36']); // 200 dpi
  const expected = [[255, 0, 0], [0, 255, 0], [0, 0, 255]];
  expected.forEach((colour, i) => {
    const page = render(pdf, i + 1);
    const [r, g, b] = page.rgb(Math.floor(page.width / 2), Math.floor(page.height / 2));
    assert.deepEqual([r! > 200, g! > 200, b! > 200], colour.map((c) => c > 200), `page ${i + 1}`);
  });
});

test('GIF: one page at 72 dpi', () => {
  assert.deepEqual(pageSizes(convert('plain.gif', 'image/gif')), ['50 x 40']);
});

test('animated GIF: the page shows the first frame', () => {
  const pdf = convert('animated.gif', 'image/gif');
  assert.deepEqual(pageSizes(pdf), ['50 x 40']);
  const [r, g, b] = render(pdf, 1).rgb(25, 20);
  assert.ok(r! > 200 && g! > 120 && g! < 200 && b! < 80, `orange, got ${[r, g, b]}`);
});

test('content that does not match the declared type is MALFORMED_IMAGE', () => {
  const png = readFileSync(path('nodpi.png'));
  assertEngineError(() => imageToPdf(png, 'image/jpeg'), 'MALFORMED_IMAGE');
  assertEngineError(() => imageToPdf(png, 'image/tiff'), 'MALFORMED_IMAGE');
  assertEngineError(() => imageToPdf(new Uint8Array(0), 'image/gif'), 'MALFORMED_IMAGE');
  assertEngineError(() => imageToPdf(Buffer.from('%PDF-1.7\n'), 'image/png'), 'MALFORMED_IMAGE');
});

test('truncated or garbage image data is MALFORMED_IMAGE, not a crash', () => {
  for (const [name, type] of [
    ['dpi150.png', 'image/png'],
    ['alpha.png', 'image/png'],
    ['dpi150.jpg', 'image/jpeg'],
    ['three.tif', 'image/tiff'],
    ['plain.gif', 'image/gif'],
  ] as const) {
    const bytes = readFileSync(path(name));
    // Cut inside the headers; and, except for JPEG, inside the data too. JPEG data is not
    // decoded (it is embedded as it is), so a JPEG cut after its headers is accepted.
    const cuts = [4, 12, 40, ...(type === 'image/jpeg' ? [] : [Math.floor(bytes.length * 0.6)])];
    for (const length of cuts) {
      assertEngineError(() => imageToPdf(bytes.subarray(0, length), type), 'MALFORMED_IMAGE');
    }
  }
  // Right magic, then junk (small enough as numbers not to read as a pixel bomb).
  const noise = Buffer.alloc(4096, 0x01);
  for (const [magic, type] of [
    [[0xff, 0xd8, 0xff, 0xe0], 'image/jpeg'],
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png'],
    [[0x49, 0x49, 0x2a, 0x00], 'image/tiff'],
    [[0x47, 0x49, 0x46, 0x38, 0x39, 0x61], 'image/gif'],
  ] as const) {
    assertEngineError(() => imageToPdf(Buffer.concat([Buffer.from(magic), noise]), type), 'MALFORMED_IMAGE');
  }
});

test('a PNG header declaring 100000 x 100000 pixels is refused before decoding', () => {
  const png = Buffer.alloc(8 + 25);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
  png.writeUInt32BE(13, 8);
  png.write('IHDR', 12, 'latin1');
  png.writeUInt32BE(100_000, 16);
  png.writeUInt32BE(100_000, 20);
  png.set([8, 6, 0, 0, 0], 24); // 8-bit RGBA; CRC left zero: the check must come first
  const started = performance.now();
  assertEngineError(() => imageToPdf(png, 'image/png'), 'IMAGE_TOO_LARGE');
  assert.ok(performance.now() - started < 200, 'refused without decoding');
});

test('other oversized images are refused from their headers', () => {
  // GIF: 40000 x 10 logical screen and first frame (side limit).
  const gif = Buffer.from('GIF89a\x40\x9c\x0a\x00\x00\x00\x00' + ',\0\0\0\0\x40\x9c\x0a\x00\x00', 'latin1');
  assertEngineError(() => imageToPdf(gif, 'image/gif'), 'IMAGE_TOO_LARGE');

  // JPEG: SOF0 declaring 20000 x 20000 (400 megapixels, under the side limit).
  const sof = [0xff, 0xc0, 0x00, 0x11, 8, 0x4e, 0x20, 0x4e, 0x20, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0];
  const jpeg = Buffer.from([0xff, 0xd8, ...sof, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9]);
  assertEngineError(() => imageToPdf(jpeg, 'image/jpeg'), 'IMAGE_TOO_LARGE');

  // TIFF: a chain of 2001 tiny directories.
  const frames = 2001;
  const ifdSize = 2 + 2 * 12 + 4;
  const tiff = Buffer.alloc(8 + frames * ifdSize);
  tiff.write('II*\0', 0, 'latin1');
  tiff.writeUInt32LE(8, 4);
  for (let i = 0; i < frames; i++) {
    const at = 8 + i * ifdSize;
    tiff.writeUInt16LE(2, at);
    for (const [j, tag] of [256, 257].entries()) {
      tiff.writeUInt16LE(tag, at + 2 + j * 12);
      tiff.writeUInt16LE(3, at + 4 + j * 12); // SHORT
      tiff.writeUInt32LE(1, at + 6 + j * 12);
      tiff.writeUInt16LE(1, at + 10 + j * 12);
    }
    tiff.writeUInt32LE(i + 1 < frames ? at + ifdSize : 0, at + 2 + 2 * 12);
  }
  assertEngineError(() => imageToPdf(tiff, 'image/tiff'), 'IMAGE_TOO_LARGE');
});
