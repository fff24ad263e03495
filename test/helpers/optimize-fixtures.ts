import { execFileSync } from 'node:child_process';
import { deflateSync } from 'node:zlib';
import { withTempFile } from './pdf.js';
import { PdfObjects } from './pdf-writer.js';

/** A reproducible pseudo-random sequence (xorshift), so the fixtures are the same bytes every run. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

/** Photo-like samples: smooth colour fields with grain, which Flate compresses badly and JPEG well. */
export function photoSamples(width: number, height: number, components: 1 | 3, seed: number): Buffer {
  const next = random(seed);
  const out = Buffer.alloc(width * height * components);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < components; c++) {
        const wave = 128 + 90 * Math.sin((x / width) * Math.PI * (2 + c) + (y / height) * Math.PI * (1 + c));
        out[(y * width + x) * components + c] = Math.max(0, Math.min(255, Math.round(wave + (next() - 0.5) * 40)));
      }
    }
  }
  return out;
}

/** A bi-level "scan": text-like bars on white, 1 bit per pixel, rows padded to bytes. */
function bilevelSamples(width: number, height: number): Buffer {
  const stride = Math.ceil(width / 8);
  const out = Buffer.alloc(stride * height, 0xff);
  for (let y = 0; y < height; y++) {
    if (y % 40 >= 24) continue;
    for (let x = 0; x < width; x++) {
      if ((x * 7 + Math.floor(y / 40) * 13) % 50 < 30) out[y * stride + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
  }
  return out;
}

export const OPT_TEXT = (page: number) => `Optimize page ${page + 1} alpha bravo charlie`;

/**
 * The image-heavy test document, built in code (not with the engine under test):
 * 1. a photo-like RGB image 1500x1000 drawn 5x3.33 in (300 dpi);
 * 2. a gray scan 1200x1500 drawn 4x5 in (300 dpi);
 * 3. a bi-level page 1200x1500 drawn 4x5 in (300 dpi);
 * 4. an RGB image 600x600 with a gray soft mask, drawn 2x2 in (300 dpi);
 * 5 and 6. one RGB image 900x900 drawn 3 in wide on page 5 (300 dpi) and 6 in on page 6 (150 dpi);
 * 7. an RGB image 400x400 drawn 4x4 in (100 dpi).
 * Every image is Flate-compressed; each page has a line of Helvetica text.
 */
export function imageHeavyPdf(): Buffer {
  const pdf = new PdfObjects();
  const image = (width: number, height: number, cs: string, bpc: number, data: Buffer, extra = '') =>
    pdf.stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace ${cs} /BitsPerComponent ${bpc} /Filter /FlateDecode${extra}`, deflateSync(data));
  const catalog = pdf.reserve();
  const pagesObj = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const photo = image(1500, 1000, '/DeviceRGB', 8, photoSamples(1500, 1000, 3, 1));
  const gray = image(1200, 1500, '/DeviceGray', 8, photoSamples(1200, 1500, 1, 2));
  const bw = image(1200, 1500, '/DeviceGray', 1, bilevelSamples(1200, 1500));
  const maskData = Buffer.alloc(600 * 600);
  for (let y = 0; y < 600; y++) for (let x = 0; x < 600; x++) maskData[y * 600 + x] = Math.hypot(x - 300, y - 300) < 280 ? 255 : 0;
  const mask = image(600, 600, '/DeviceGray', 8, maskData);
  const masked = image(600, 600, '/DeviceRGB', 8, photoSamples(600, 600, 3, 3), ` /SMask ${mask} 0 R`);
  const shared = image(900, 900, '/DeviceRGB', 8, photoSamples(900, 900, 3, 4));
  const small = image(400, 400, '/DeviceRGB', 8, photoSamples(400, 400, 3, 5));
  const draws: [number, string][] = [
    [photo, '360 0 0 240 72 400 cm'],
    [gray, '288 0 0 360 72 300 cm'],
    [bw, '288 0 0 360 72 300 cm'],
    [masked, '144 0 0 144 72 500 cm'],
    [shared, '216 0 0 216 72 400 cm'],
    [shared, '432 0 0 432 72 200 cm'],
    [small, '288 0 0 288 72 300 cm'],
  ];
  const kids = draws.map(([img, cm], i) => {
    const content = `q ${cm} /Im0 Do Q BT /F1 18 Tf 72 740 Td (${OPT_TEXT(i)}) Tj ET`;
    const contents = pdf.stream('', Buffer.from(content, 'latin1'));
    return pdf.add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> /XObject << /Im0 ${img} 0 R >> >> /Contents ${contents} 0 R >>`);
  });
  pdf.setPageTree(catalog, pagesObj, kids);
  return pdf.finish(`/Root ${catalog} 0 R`);
}

/** Text-like 1-bit samples: lines of "glyphs" (blocks with counters and stems, about `cell` pixels) on white, rows padded to bytes; 0 is black. */
export function textScanBits(width: number, height: number, cell: number): Buffer {
  const stride = Math.ceil(width / 8);
  const out = Buffer.alloc(stride * height, 0xff);
  const next = random(7);
  const line = cell * 2;
  for (let top = cell; top + cell <= height; top += line) {
    for (let left = cell; left + cell <= width; ) {
      const glyph = Math.max(2, Math.round(cell * (0.4 + next() * 0.6)));
      const stem = Math.max(1, Math.round(cell / 8));
      const shape = Math.floor(next() * 4);
      for (let y = top; y < top + cell; y++) {
        // Edges that wander by a pixel from row to row, as a scanner's do (and what makes real scans hard for Flate).
        const jitter = Math.floor(next() * 3) - 1;
        for (let x = left; x < Math.min(width, left + glyph); x++) {
          const dx = x - left + jitter;
          const dy = y - top;
          // Stems, bars and bowls: thin strokes, so a reduction that drops them shows.
          const ink = dx < stem || (shape > 0 && dy < stem) || (shape > 1 && dx >= glyph - stem) || (shape > 2 && Math.abs(dy - cell / 2) < stem / 2 + 0.5);
          if (ink) out[y * stride + (x >> 3)]! &= ~(0x80 >> (x & 7));
        }
      }
      left += glyph + Math.round(cell / 4) + (next() < 0.15 ? cell : 0);
    }
  }
  return out;
}

export const BILEVEL_TEXT = (page: number) => `Bilevel page ${page + 1} delta echo foxtrot`;

/**
 * Bi-level and inline images, built in code:
 * 1. a 1-bit DeviceGray scan 2400x3000 drawn 4x5 in (600 dpi), Flate;
 * 2. a stencil mask (ImageMask, /Decode [1 0]) 2400x3000 at 600 dpi, painting red;
 * 3. a 1-bit DeviceGray image 1200x1500 with /Decode [1 0] at 300 dpi, stored without a filter;
 * 4. an inline gray image 300x300 (Flate, binary data in the content stream) drawn 1 in square (300 dpi).
 * Each page has a line of Helvetica text.
 */
export function bilevelPdf(): Buffer {
  const pdf = new PdfObjects();
  const catalog = pdf.reserve();
  const pagesObj = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const scan = pdf.stream('/Type /XObject /Subtype /Image /Width 2400 /Height 3000 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode', deflateSync(textScanBits(2400, 3000, 40)));
  // Inverted bits with an inverting decode: the stencil paints where the stored bit is 1.
  const inverted = Buffer.from(textScanBits(2400, 3000, 40).map((b) => ~b & 0xff));
  const stencil = pdf.stream('/Type /XObject /Subtype /Image /Width 2400 /Height 3000 /ImageMask true /Decode [1 0] /Filter /FlateDecode', deflateSync(inverted));
  const raw = Buffer.from(textScanBits(1200, 1500, 24).map((b) => ~b & 0xff));
  const decoded = pdf.stream('/Type /XObject /Subtype /Image /Width 1200 /Height 1500 /ColorSpace /DeviceGray /BitsPerComponent 1 /Decode [1 0]', raw);
  const inlineData = deflateSync(photoSamples(300, 300, 1, 11));
  const inline = Buffer.concat([Buffer.from('q 72 0 0 72 72 300 cm BI /W 300 /H 300 /CS /G /BPC 8 /F /Fl ID\n', 'latin1'), inlineData, Buffer.from('\nEI Q', 'latin1')]);
  const draws: [string, Buffer][] = [
    [`/XObject << /Im0 ${scan} 0 R >>`, Buffer.from('q 288 0 0 360 72 300 cm /Im0 Do Q', 'latin1')],
    [`/XObject << /Im0 ${stencil} 0 R >>`, Buffer.from('q 1 0 0 rg 288 0 0 360 72 300 cm /Im0 Do Q', 'latin1')],
    [`/XObject << /Im0 ${decoded} 0 R >>`, Buffer.from('q 288 0 0 360 72 300 cm /Im0 Do Q', 'latin1')],
    ['', inline],
  ];
  const kids = draws.map(([resources, drawing], i) => {
    const content = Buffer.concat([drawing, Buffer.from(` BT /F1 18 Tf 72 740 Td (${BILEVEL_TEXT(i)}) Tj ET`, 'latin1')]);
    const contents = pdf.stream('', content);
    return pdf.add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> ${resources} >> /Contents ${contents} 0 R >>`);
  });
  pdf.setPageTree(catalog, pagesObj, kids);
  return pdf.finish(`/Root ${catalog} 0 R`);
}

/** One fractal field: octaves of smoothly interpolated random grids, each half the cell of the last and `decay` times as strong, scaled to -1..1. */
function fractalField(width: number, height: number, components: number, next: () => number, decay: number): Float32Array {
  const acc = new Float32Array(width * height * components);
  let amplitude = 1;
  let total = 0;
  const xs0 = new Int32Array(width);
  const xs = new Float32Array(width);
  for (let cell = Math.max(width, height) / 2; cell >= 2; cell /= 2) {
    const gw = Math.ceil(width / cell) + 2;
    const grid = new Float32Array(gw * (Math.ceil(height / cell) + 2) * components);
    for (let i = 0; i < grid.length; i++) grid[i] = next() * 2 - 1;
    for (let x = 0; x < width; x++) {
      const t = x / cell - Math.floor(x / cell);
      xs0[x] = Math.floor(x / cell);
      xs[x] = t * t * (3 - 2 * t);
    }
    for (let y = 0; y < height; y++) {
      const y0 = Math.floor(y / cell);
      const t = y / cell - y0;
      const sy = t * t * (3 - 2 * t);
      const r0 = y0 * gw * components;
      const r1 = (y0 + 1) * gw * components;
      let o = y * width * components;
      for (let x = 0; x < width; x++) {
        const i0 = xs0[x]! * components;
        const sx = xs[x]!;
        for (let c = 0; c < components; c++, o++) {
          const a = grid[r0 + i0 + c]!;
          const b = grid[r0 + i0 + components + c]!;
          const d = grid[r1 + i0 + c]!;
          const e = grid[r1 + i0 + components + c]!;
          acc[o]! += amplitude * ((a + (b - a) * sx) * (1 - sy) + (d + (e - d) * sx) * sy);
        }
      }
    }
    total += amplitude;
    amplitude *= decay;
  }
  for (let i = 0; i < acc.length; i++) acc[i]! /= total;
  return acc;
}

/**
 * Photograph-like samples (not flat colours, not the uniform grain of photoSamples): a luminance field whose detail
 * falls off with scale as a natural image's does (1/f-like, down to 2-pixel structure), smoother colour on top, a
 * little sensor noise. At 300 dpi, JPEG at IJG 92 stores such a Letter page in about 1.4 MB, as a camera photo.
 */
export function fractalPhotoSamples(width: number, height: number, seed: number): Buffer {
  const next = random(seed);
  const luminance = fractalField(width, height, 1, next, 0.8);
  const chroma = fractalField(width, height, 2, next, 0.55);
  const out = Buffer.alloc(width * height * 3);
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  for (let i = 0; i < width * height; i++) {
    const l = 128 + 190 * luminance[i]! + (next() - 0.5) * 6;
    const a = 120 * chroma[2 * i]!;
    const b = 120 * chroma[2 * i + 1]!;
    out[3 * i] = clamp(l + a);
    out[3 * i + 1] = clamp(l - 0.5 * a - 0.4 * b);
    out[3 * i + 2] = clamp(l + b);
  }
  return out;
}

/** RGB samples as a JPEG at `quality`, written by ImageMagick (not by MuPDF, the engine under test). */
export function jpegOf(samples: Buffer, width: number, height: number, quality: number): Buffer {
  const ppm = Buffer.concat([Buffer.from(`P6\n${width} ${height}\n255\n`, 'latin1'), samples]);
  return withTempFile(ppm, (file) => execFileSync('convert', [file, '-quality', String(quality), 'jpg:-'], { maxBuffer: 1 << 28 }), 'photo.ppm');
}

/**
 * A photo album: `pages` pages each one photograph (fractalPhotoSamples, `width` x `height`, a JPEG at IJG 92 as a
 * camera writes) drawn full page at `dpi`, with a line of text. What issue 35 measured `ebook` on: 300 dpi photos.
 */
export function photoAlbumPdf(pages: number, width: number, height: number, dpi = 300, seed = 1): Buffer {
  const pdf = new PdfObjects();
  const catalog = pdf.reserve();
  const pagesObj = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const w = (width * 72) / dpi;
  const h = (height * 72) / dpi;
  const kids: number[] = [];
  for (let p = 0; p < pages; p++) {
    const jpeg = jpegOf(fractalPhotoSamples(width, height, seed + p), width, height, 92);
    const image = pdf.stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode`, jpeg);
    const content = `q ${w} 0 0 ${h} 0 24 cm /Im0 Do Q BT /F1 10 Tf 8 8 Td (Photo ${p + 1}) Tj ET`;
    const contents = pdf.stream('', content);
    kids.push(pdf.add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${w} ${h + 24}] /Resources << /Font << /F1 ${font} 0 R >> /XObject << /Im0 ${image} 0 R >> >> /Contents ${contents} 0 R >>`));
  }
  pdf.setPageTree(catalog, pagesObj, kids);
  return pdf.finish(`/Root ${catalog} 0 R`);
}

export const FORM_FIGURE_WORDS = ['Figure', 'caption', 'on', 'the', 'page.', 'State', 'machine', 'label', 'inside', 'the', 'form.', 'Nested', 'form', 'words', 'kept.'];

/**
 * One page as pdfTeX writes an included figure (issue 35: pdf.js's tracemonkey.pdf lost the words of its figures
 * under ebook): a 300 dpi photograph (JPEG at IJG 92) drawn on the page, and a form XObject whose /Resources is an
 * indirect object, drawing a small image with an /SMask, a line of text and a nested form (its own words, its
 * /Resources indirect too). The page's own caption is text of the page. The words, in reading order, are
 * FORM_FIGURE_WORDS.
 */
export function formFigurePdf(): Buffer {
  const pdf = new PdfObjects();
  const catalog = pdf.reserve();
  const pages = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const [width, height] = [900, 600];
  const jpeg = jpegOf(fractalPhotoSamples(width, height, 7), width, height, 92);
  const photo = pdf.stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode`, jpeg);
  const [iw, ih] = [118, 57];
  const mask = pdf.stream(`/Type /XObject /Subtype /Image /Width ${iw} /Height ${ih} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, deflateSync(Buffer.alloc(iw * ih, 255)));
  const box = pdf.stream(`/Type /XObject /Subtype /Image /Width ${iw} /Height ${ih} /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask ${mask} 0 R /Filter /FlateDecode`, deflateSync(photoSamples(iw, ih, 3, 5)));
  const nestedResources = pdf.add(`<< /Font << /F1 ${font} 0 R >> >>`);
  const nested = pdf.stream(`/Type /XObject /Subtype /Form /BBox [0 0 300 40] /Resources ${nestedResources} 0 R`, 'BT /F1 10 Tf 4 20 Td (Nested form words kept.) Tj ET');
  const formResources = pdf.add(`<< /Font << /F1 ${font} 0 R >> /XObject << /Im1 ${box} 0 R /Fm2 ${nested} 0 R >> >>`);
  const form = pdf.stream(`/Type /XObject /Subtype /Form /FormType 1 /BBox [0 0 400 200] /Matrix [1 0 0 1 0 0] /Resources ${formResources} 0 R`,
    'q 118 0 0 57 10 130 cm /Im1 Do Q BT /F1 10 Tf 10 100 Td (State machine label inside the form.) Tj ET q 1 0 0 1 10 40 cm /Fm2 Do Q');
  const content = 'q 216 0 0 144 72 560 cm /Im0 Do Q BT /F1 10 Tf 72 530 Td (Figure caption on the page.) Tj ET q 1 0 0 1 72 250 cm /Fm1 Do Q';
  const contents = pdf.stream('', content);
  const page = pdf.add(`<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> /XObject << /Im0 ${photo} 0 R /Fm1 ${form} 0 R >> >> /Contents ${contents} 0 R >>`);
  pdf.setPageTree(catalog, pages, [page]);
  return pdf.finish(`/Root ${catalog} 0 R`);
}

/**
 * One scanned page's samples (the optimize-large bench's Flate scan, issue 35): paper (a warm off-white with grain of
 * +-12 per sample, what makes a scan's Flate large) and 60 lines of dark words of varying widths, for a 300 dpi
 * Letter page (2550 x 3300), from `seed` (xorshift32, the same bytes on every run); answers the seed to go on with.
 */
export function scanPageSamples(width: number, height: number, components: 1 | 3, seed: number): { samples: Buffer; seed: number } {
  const rowBytes = width * components;
  const samples = Buffer.alloc(rowBytes * height);
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const paper = components === 3 ? [236, 231, 220] : [232];
  for (let i = 0; i < samples.length; i += 4) {
    const r = next();
    for (let k = 0; k < 4 && i + k < samples.length; k++) samples[i + k] = paper[(i + k) % components]! - 12 + (((r >>> (8 * k)) & 0xff) % 25);
  }
  // Lines of words: 60 lines 50 px apart from 1 inch down, words 40 to 200 px wide with 25 px gaps, 1 inch margins.
  for (let line = 0; line < 60; line++) {
    const top = 300 + line * 50;
    let x = 300;
    while (x < width - 300) {
      const wordWidth = 40 + (next() % 160);
      const ink = 30 + (next() % 40);
      for (let y = top; y < top + 28 && y < height; y++) {
        const start = y * rowBytes + x * components;
        samples.fill(ink, start, start + Math.min(wordWidth, width - 300 - x) * components);
      }
      x += wordWidth + 25;
    }
  }
  return { samples, seed };
}

/**
 * A 300 dpi scan of two Letter pages, colour then gray, each one Flate image of scanPageSamples (the first two pages
 * of the optimize-large bench's Flate scan) with a line of text at the foot.
 */
export function grainScanPdf(): Buffer {
  const pdf = new PdfObjects();
  const catalog = pdf.reserve();
  const pagesObj = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  let seed = 0x2545f491;
  for (const components of [3, 1] as const) {
    const page = scanPageSamples(2550, 3300, components, seed);
    seed = page.seed;
    const data = deflateSync(page.samples, { level: 6 });
    const image = pdf.stream(`/Type /XObject /Subtype /Image /Width 2550 /Height 3300 /ColorSpace /${components === 3 ? 'DeviceRGB' : 'DeviceGray'} /BitsPerComponent 8 /Filter /FlateDecode`, data);
    const content = `q 612 0 0 792 0 0 cm /Im0 Do Q BT /F1 9 Tf 72 24 Td (Scanned page ${kids.length + 1}) Tj ET`;
    const contents = pdf.stream('', content);
    kids.push(pdf.add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> /XObject << /Im0 ${image} 0 R >> >> /Contents ${contents} 0 R >>`));
  }
  pdf.setPageTree(catalog, pagesObj, kids);
  return pdf.finish(`/Root ${catalog} 0 R`);
}
