/**
 * Fixtures and measures for the OCR tests (test/tools/ocr.test.ts), made with tools
 * other than the service: text PDFs written by LibreOffice, pages rendered by
 * poppler (pdftoppm), images turned and degraded by ImageMagick, wrapped into
 * image-only PDFs by a small writer here (ImageMagick may not write PDF on
 * this machine), and read back with qpdf.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { serializePdf, withTempFile } from './pdf.js';

/** 8-bit gray pixels, row by row, 0 black. */
export interface GrayImage {
  width: number;
  height: number;
  pixels: Buffer;
}

function inTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-ocr-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Text PDFs from plain text by LibreOffice (one run for all; its own profile
 * folder, so that another soffice on the machine does not collide). It embeds
 * fonts that show Cyrillic, which Helvetica cannot.
 */
export function textPdfs(texts: Record<string, string>): Record<string, Buffer> {
  return inTempDir((dir) => {
    const files = Object.entries(texts).map(([name, text]) => {
      writeFileSync(path.join(dir, `${name}.txt`), text);
      return `${name}.txt`;
    });
    execFileSync('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--convert-to', 'pdf', '--outdir', dir, ...files], { cwd: dir, stdio: 'ignore', timeout: 120_000 });
    return Object.fromEntries(Object.keys(texts).map((name) => [name, readFileSync(path.join(dir, `${name}.pdf`))]));
  });
}

function parsePgm(pgm: Buffer): GrayImage {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('not an 8-bit PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: Buffer.from(pgm.subarray(header[0].length, header[0].length + width * height)) };
}

function pgmOf(image: GrayImage): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1'), image.pixels]);
}

/** One page of a PDF rendered by poppler in gray at `dpi` (its media box). */
export function renderGray(pdf: Buffer | Uint8Array, pageIndex: number, dpi: number): GrayImage {
  const page = String(pageIndex + 1);
  return parsePgm(withTempFile(pdf, (file) => execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-f', page, '-l', page, file], { maxBuffer: 1 << 30 })));
}

/** The image turned 90 degrees clockwise (a page scanned sideways). */
export function turnClockwise(image: GrayImage): GrayImage {
  const { width, height, pixels } = image;
  const out = Buffer.alloc(width * height);
  // Source (x, y) lands at (height - 1 - y, x) in an image `height` wide.
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) out[x * height + (height - 1 - y)] = pixels[y * width + x]!;
  }
  return { width: height, height: width, pixels: out };
}

/** The image turned 90 degrees counter-clockwise (a page scanned sideways the other way: Tesseract alone reads it as junk). */
export function turnCounterClockwise(image: GrayImage): GrayImage {
  return turnClockwise(turnClockwise(turnClockwise(image)));
}

/** The top `rows` rows of the image (half a page: Tesseract's time grows with the pixels). */
export function topRows(image: GrayImage, rows: number): GrayImage {
  const height = Math.min(rows, image.height);
  return { width: image.width, height, pixels: Buffer.from(image.pixels.subarray(0, image.width * height)) };
}

/**
 * A photograph-like gray image without text: a tiled roof under a spotlight (ImageMagick's fish-scale pattern at three
 * times its size, multiplied by a radial gradient, softened). Measured with tesseract 5.3 at 150 dpi: 71 "words" of junk
 * at a mean confidence of 8.7 at 1200 x 900 pixels, 31 at 9.4 at 800 x 600, as the issue's photo (71 words at 19).
 * Patterns and gradients are drawn the same on every run (unlike plasma, which is random).
 */
export function photo(width: number, height: number): GrayImage {
  const tiles = ['(', '-size', `${Math.ceil(width / 3)}x${Math.ceil(height / 3)}`, 'pattern:smallfishscales', '-scale', '300%', '-crop', `${width}x${height}+0+0`, '+repage', ')'];
  const light = ['(', '-size', `${width}x${height}`, 'radial-gradient:gray90-gray20', ')'];
  const out = execFileSync('convert', [...tiles, ...light, '-compose', 'multiply', '-composite', '-blur', '0x0.8', '-colorspace', 'Gray', '-depth', '8', 'pgm:-'], { maxBuffer: 1 << 30 });
  return parsePgm(out);
}

/** The image skewed by `degrees` (ImageMagick, white corners), as a sheet fed slightly askew. */
export function skew(image: GrayImage, degrees: number): GrayImage {
  const out = execFileSync('convert', ['pgm:-', '-background', 'white', '-rotate', String(degrees), '-depth', '8', 'pgm:-'], { input: pgmOf(image), maxBuffer: 1 << 30 });
  return parsePgm(out);
}

/** The image as a gray baseline JPEG of low `quality` (ImageMagick): visible block noise. */
export function jpegOf(image: GrayImage, quality: number): Buffer {
  return execFileSync('convert', ['pgm:-', '-quality', String(quality), 'jpg:-'], { input: pgmOf(image), maxBuffer: 1 << 30 });
}

/** Width, height and components of a JPEG, from its first SOF marker. */
export function jpegSize(jpeg: Buffer): { width: number; height: number; components: number } {
  let at = 2;
  while (at < jpeg.length) {
    const marker = jpeg[at + 1]!;
    const length = jpeg.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7), components: jpeg[at + 9]! };
    }
    at += 2 + length;
  }
  throw new Error('no SOF marker in the JPEG');
}

export interface ImagePage {
  /** The scan: gray pixels (stored Flate-compressed) or a JPEG (stored as it is, DCTDecode); none for a blank page. */
  image?: GrayImage | { jpeg: Buffer };
  /** Resolution of the scan: the page is pixels · 72 / dpi points. For a blank page, its size in points is 612 x 792. */
  dpi?: number;
  /** Lower left corner of the MediaBox (default 0,0); the image fills the MediaBox. */
  origin?: [number, number];
  /** CropBox relative to the MediaBox's lower left corner: [x0, y0, x1, y1]. */
  cropInset?: [number, number, number, number];
  rotate?: number;
  /** Store the content stream without a filter (scanners and img2pdf compress it: Flate, the default here). */
  plainContent?: boolean;
}

/**
 * An image-only PDF: each page shows its image filling the MediaBox, drawn
 * by one content stream "q w 0 0 h x y cm /Im0 Do Q" — nothing else.
 * A page without an image has an empty content stream.
 */
export function imagePdf(pages: ImagePage[]): Buffer {
  const objects: string[] = ['', ''];
  const add = (body: string) => objects.push(body);
  const kids: number[] = [];
  for (const page of pages) {
    let size: [number, number] = [612, 792];
    let resources = '';
    let content = '';
    const [ox, oy] = page.origin ?? [0, 0];
    if (page.image) {
      const dpi = page.dpi ?? 300;
      let image: number;
      let pixels: [number, number];
      if ('jpeg' in page.image) {
        const { width, height, components } = jpegSize(page.image.jpeg);
        pixels = [width, height];
        const space = components === 1 ? '/DeviceGray' : components === 3 ? '/DeviceRGB' : '/DeviceCMYK';
        image = add(`<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace ${space} /BitsPerComponent 8 /Filter /DCTDecode /Length ${page.image.jpeg.length} >>\nstream\n${page.image.jpeg.toString('latin1')}\nendstream`);
      } else {
        const data = deflateSync(page.image.pixels);
        pixels = [page.image.width, page.image.height];
        image = add(`<< /Type /XObject /Subtype /Image /Width ${page.image.width} /Height ${page.image.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream`);
      }
      size = [round((pixels[0] * 72) / dpi), round((pixels[1] * 72) / dpi)];
      resources = `/Resources << /XObject << /Im0 ${image} 0 R >> >>`;
      content = `q ${size[0]} 0 0 ${size[1]} ${ox} ${oy} cm /Im0 Do Q`;
    }
    const data = page.plainContent ? Buffer.from(content, 'latin1') : deflateSync(content);
    const stream = add(`<< /Length ${data.length}${page.plainContent ? '' : ' /Filter /FlateDecode'} >>\nstream\n${data.toString('latin1')}\nendstream`);
    const crop = page.cropInset ? ` /CropBox [${page.cropInset.map((v, i) => round(v + (i % 2 ? oy : ox))).join(' ')}]` : '';
    const rotate = page.rotate ? ` /Rotate ${page.rotate}` : '';
    kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [${ox} ${oy} ${round(ox + size[0])} ${round(oy + size[1])}]${crop}${rotate} ${resources} /Contents ${stream} 0 R >>`));
  }
  objects[0] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  return serializePdf(objects, '/Root 1 0 R');
}

const round = (v: number) => Math.round(v * 1000) / 1000;

export interface PageStreams {
  /** The bytes of each content stream, in order, base64: as stored (still encoded), or decoded. */
  contents: string[];
  /** Each XObject of the page's resources by name: its dictionary without /Length, and its raw bytes, base64. */
  xobjects: Record<string, { dict: string; data: string }>;
}

/** What qpdf (an independent reader) finds as each page's content streams and XObjects: bytes as stored, or decoded. */
export function pageStreams(pdf: Buffer | Uint8Array, decoded = false): PageStreams[] {
  type Entry = { value?: unknown; stream?: { dict: Record<string, unknown>; data?: string } };
  const json = withTempFile(pdf, (file) => {
    const run = spawnSync('qpdf', ['--json=2', '--json-key=pages', '--json-key=qpdf', '--json-stream-data=inline', `--decode-level=${decoded ? 'generalized' : 'none'}`, file], { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (run.status !== 0 && run.status !== 3) throw new Error(`qpdf --json failed (${run.status}): ${run.stderr}`);
    return JSON.parse(run.stdout) as { pages: { object: string; pageposfrom1: number }[]; qpdf: [unknown, Record<string, Entry>] };
  });
  const objects = json.qpdf[1];
  const entry = (ref: unknown): Entry | undefined => (typeof ref === 'string' && / R$/.test(ref) ? objects[`obj:${ref}`] : undefined);
  const value = (v: unknown): unknown => {
    const e = entry(v);
    return e ? (e.stream ? e.stream.dict : e.value) : v;
  };
  return [...json.pages].sort((a, b) => a.pageposfrom1 - b.pageposfrom1).map((p) => {
    const page = value(p.object) as Record<string, unknown>;
    const contentsValue = value(page['/Contents']);
    const refs = Array.isArray(contentsValue) ? contentsValue : [page['/Contents']];
    const contents = refs.map((r) => entry(r)?.stream?.data ?? '');
    const resources = (value(page['/Resources']) ?? {}) as Record<string, unknown>;
    const xobjectDict = (value(resources['/XObject']) ?? {}) as Record<string, unknown>;
    const xobjects = Object.fromEntries(Object.entries(xobjectDict).map(([name, ref]) => {
      const stream = entry(ref)?.stream;
      const dict = { ...(stream?.dict ?? {}) };
      delete dict['/Length'];
      return [name, { dict: JSON.stringify(dict), data: stream?.data ?? '' }];
    }));
    return { contents, xobjects };
  });
}

/** Text for comparison: Unicode NFKC (ligatures apart), lower case, words of letters and digits only, one space between. */
export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Edit distance (insertions, deletions, substitutions) between two strings, by code point. */
export function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length]!;
}

/**
 * Word recall (share of the known words found, each as often as it occurs)
 * and character error rate (edit distance over the known text's length),
 * both on normalised text.
 */
export function textScores(known: string, found: string): { recall: number; cer: number; words: number } {
  const expected = normalise(known);
  const actual = normalise(found);
  const pool = new Map<string, number>();
  for (const w of actual.split(' ').filter(Boolean)) pool.set(w, (pool.get(w) ?? 0) + 1);
  const wanted = expected.split(' ').filter(Boolean);
  let hits = 0;
  for (const w of wanted) {
    const n = pool.get(w) ?? 0;
    if (n > 0) {
      hits++;
      pool.set(w, n - 1);
    }
  }
  return { recall: wanted.length ? hits / wanted.length : 1, cer: expected.length ? levenshtein(expected, actual) / [...expected].length : 0, words: wanted.length };
}
