/**
 * The OCR benchmark's input: pages of known English text, written as a text
 * PDF by hand, rendered by poppler (`pdftoppm -r 300 -gray`, not MuPDF, the
 * engine under test) and wrapped as image-only pages, as a scanner would
 * deliver them. Deterministic: the same page count gives the same text and,
 * with the same poppler and fonts, the same images.
 */
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serializePdf } from '../test/helpers/pdf.js';

const WORDS = (
  'the of and to in is was for that with as on by at from his her they which this be are were an have has had not but ' +
  'or all their one there been more when who will would about into than other some could these time only after first also ' +
  'new people year years work world state school family between during under water report market system program ' +
  'question government company number group problem point house country place service business office council ' +
  'history morning evening village river mountain garden window letter answer reason picture journey station ' +
  'kitchen library hospital factory harbour railway bridge engine weather summer winter autumn spring north south ' +
  'measure balance silver copper timber cotton leather marble orange yellow purple careful simple modern ancient ' +
  'quiet narrow gentle honest famous private public early later often never always almost perhaps together ' +
  'against without within behind beyond across toward around before because although however therefore ' +
  'committee agreement decision evidence interest knowledge language material pressure quality research ' +
  'standard surface student teacher theory treatment variety minister merchant captain doctor farmer painter ' +
  'printed counted opened closed carried followed returned remained described considered developed received'
).split(' ');

/** A small deterministic generator (mulberry32): the text must not change between runs. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const LINES_PER_PAGE = 42;
/** Characters a line holds at most: Times 11 pt over 6.5 inches holds about 95. */
const LINE_CHARS = 78;

/**
 * The known text: `pages` pages of LINES_PER_PAGE lines each, sentences of
 * common words with capitals, commas, full stops and numbers (ASCII only, so
 * that no quote or dash style can differ between the text and what OCR gives).
 */
export function knownText(pages: number): string[][] {
  const next = random(19);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const result: string[][] = [];
  let capital = true;
  for (let p = 0; p < pages; p++) {
    const lines: string[] = [];
    let line = '';
    while (lines.length < LINES_PER_PAGE) {
      let word = next() < 0.06 ? String(Math.floor(next() * 1990) + 10) : pick(WORDS);
      if (capital) word = word[0]!.toUpperCase() + word.slice(1);
      capital = false;
      const end = next();
      if (end < 0.08) {
        word += '.';
        capital = true;
      } else if (end < 0.14) word += ',';
      if (line && line.length + 1 + word.length > LINE_CHARS) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    result.push(lines);
  }
  return result;
}

/** Typefaces and sizes the pages cycle through (a serif and a sans; 7 and 8 pt are small print, where OCR starts to miss). */
const FACES = [
  { font: 'Times-Roman', size: 11 },
  { font: 'Helvetica', size: 9 },
  { font: 'Times-Roman', size: 8 },
  { font: 'Helvetica', size: 10 },
  { font: 'Times-Roman', size: 7 },
] as const;

/** The known text as a PDF of Letter pages on 14 pt leading, one-inch margins, each page in the next of FACES. */
export function textPdf(pages: string[][]): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  const catalog = add('');
  const tree = add('');
  const fonts = new Map<string, number>();
  for (const { font } of FACES) if (!fonts.has(font)) fonts.set(font, add(`<< /Type /Font /Subtype /Type1 /BaseFont /${font} /Encoding /WinAnsiEncoding >>`));
  const kids: number[] = [];
  pages.forEach((lines, p) => {
    const face = FACES[p % FACES.length]!;
    const content = `BT /F1 ${face.size} Tf 14 TL 72 720 Td ${lines.map((l) => `(${l}) Tj`).join(' T* ')} ET`;
    const stream = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${fonts.get(face.font)} 0 R >> >> /Contents ${stream} 0 R >>`));
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${tree} 0 R >>`;
  objects[tree - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  return serializePdf(objects, `/Root ${catalog} 0 R`);
}

/** An 8-bit gray image: pdftoppm's PGM ("P5 width height 255", then the samples). */
export interface GrayImage {
  width: number;
  height: number;
  samples: Buffer;
}

export function readPgm(file: string): GrayImage {
  const bytes = readFileSync(file);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error(`${file} is not an 8-bit PGM`);
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, samples: bytes.subarray(header[0].length, header[0].length + width * height) };
}

/**
 * A page made to look scanned, deterministically (seeded by the page): a
 * slight blur (a 3 x 3 box, as optics and paper give), less contrast (gray
 * paper, ink not quite black) and dust, a speck in about every 500 pixels.
 * No dense noise: it would make the Flate-compressed pages several megabytes
 * each.
 */
export function degrade(image: GrayImage, seed: number): GrayImage {
  const { width, height, samples } = image;
  const out = Buffer.alloc(samples.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          sum += samples[yy * width + xx]!;
          n++;
        }
      }
      out[y * width + x] = 35 + Math.round(((sum / n) * 200) / 255);
    }
  }
  const next = random(1000 + seed);
  for (let i = Math.floor(next() * 500); i < out.length; i += 1 + Math.floor(next() * 1000)) out[i] = 60 + Math.floor(next() * 60);
  return { width, height, samples: out };
}

/** Renders every page of `pdf` (a file) with pdftoppm at `dpi`, 8-bit gray, into `dir`: the PGM files in page order. */
export function renderPages(pdf: string, dir: string, prefix: string, dpi: number): string[] {
  execFileSync('pdftoppm', ['-r', String(dpi), '-gray', pdf, path.join(dir, prefix)]);
  // pdftoppm pads the page number to the width of the page count: sort by the number, not the name.
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.pgm'))
    .sort((a, b) => Number(/-(\d+)\./.exec(a)![1]) - Number(/-(\d+)\./.exec(b)![1]))
    .map((f) => path.join(dir, f));
}

export function writePgm(file: string, image: GrayImage): void {
  writeFileSync(file, Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1'), image.samples]));
}

/**
 * Image-only PDF: each image fills its own page, sized so that the image is
 * `dpi` dots per inch (a scanner's output: no text, one Flate-compressed gray
 * image a page).
 */
export function imageOnlyPdf(images: GrayImage[], dpi: number): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  const catalog = add('');
  const tree = add('');
  const kids: number[] = [];
  for (const image of images) {
    // Samples are binary: latin1 keeps one character per byte through serializePdf.
    const data = zlib.deflateSync(image.samples, { level: 6 }).toString('latin1');
    const xobject = add(`<< /Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>\nstream\n${data}\nendstream`);
    const w = ((image.width * 72) / dpi).toFixed(2);
    const h = ((image.height * 72) / dpi).toFixed(2);
    const content = `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`;
    const stream = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 ${xobject} 0 R >> >> /Contents ${stream} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${tree} 0 R >>`;
  objects[tree - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  return serializePdf(objects, `/Root ${catalog} 0 R`);
}
