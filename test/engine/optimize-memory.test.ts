/**
 * OptimizeAction's image pass loads each image from the document once (engine/optimize/images.ts, loadForRewrite;
 * issue 35 item 8). Every load of an image through MuPDF (loadImage, or the interpreter drawing it) leaves about the
 * image's stored size in MuPDF's WebAssembly memory for good (MuPDF.js 1.28); the survey loads each image once to
 * find how it is drawn, and the rewrite loaded it a second time, so a scan left twice its images behind (the bench's
 * 297 MB Flate scan peaked at 1329 MB instead of 631). The rewrite now makes plain images from their stored bytes.
 * Checked by counting the loads: MuPDF's memory grows in steps, too coarse to hold to a bound here.
 */
// First: MuPDF's Emscripten module is then this handle (as in a worker), so its memory is visible here.
import { wasmBytes } from '../../src/engine/core/wasm.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import * as mupdf from 'mupdf';
import { rewriteImages } from '../../src/engine/optimize/images.js';
import { BUILT_IN_PROFILES } from '../../src/engine/optimize/model.js';
import { serializePdf } from '../helpers/pdf.js';

const MiB = 1024 * 1024;
const SIDE = 1200;

/** Samples that Flate hardly shrinks (a stored size close to the decoded one), different on every page. */
function noise(page: number): Buffer {
  const samples = Buffer.alloc(SIDE * SIDE * 3);
  let state = (page + 1) * 2654435761;
  for (let i = 0; i < samples.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    samples[i] = state >>> 24;
  }
  return samples;
}

/** `pages` pages each drawing its own 1200 x 1200 Flate RGB image on 3 x 3 inches (400 dpi: ebook downsamples it). */
function flateScan(pages: number): { pdf: Buffer; stored: number } {
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Count ${pages} /Kids [${Array.from({ length: pages }, (_, i) => `${3 + 3 * i} 0 R`).join(' ')}] >>`];
  let stored = 0;
  for (let i = 0; i < pages; i++) {
    const page = 3 + 3 * i;
    const content = 'q 216 0 0 216 36 36 cm /Im0 Do Q';
    const image = deflateSync(noise(i), { level: 1 });
    stored += image.length;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 ${page + 2} 0 R >> >> /Contents ${page + 1} 0 R >>`);
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    objects.push(`<< /Type /XObject /Subtype /Image /Width ${SIDE} /Height ${SIDE} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length ${image.length} >>\nstream\n${image.toString('latin1')}\nendstream`);
  }
  return { pdf: serializePdf(objects, '/Root 1 0 R'), stored };
}

test('the ebook image pass loads each Flate scan image from the document once', () => {
  const { pdf, stored } = flateScan(8);
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf').asPDF()!;
  try {
    assert.ok(wasmBytes() > 0, 'MuPDF was not loaded through the handle');
    // Counted at the one call that loads an image object (the survey's, to match draws to objects by identity; the
    // interpreter then finds it in MuPDF's store). Before: 16, each image loaded again for its rewrite.
    let loads = 0;
    const load = doc.loadImage.bind(doc);
    doc.loadImage = (obj: mupdf.PDFObject) => {
      loads++;
      return load(obj);
    };
    const before = wasmBytes();
    const stats = rewriteImages(doc, BUILT_IN_PROFILES['ebook']!, () => {});
    const grown = wasmBytes() - before;
    assert.equal(stats.downsampled, 8, JSON.stringify(stats));
    // MuPDF's memory grows in steps, a fifth of its size at a time: its size is reported, not held to a bound (here
    // about 123 MB after, 198 MB before, for 33 MB of images).
    assert.equal(loads, 8, `images loaded ${loads} times for 8 images; MuPDF's memory grew by ${(grown / MiB).toFixed(0)} MB over ${(stored / MiB).toFixed(0)} MB of images`);
  } finally {
    doc.destroy();
  }
});
