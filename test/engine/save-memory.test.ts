/**
 * A save makes room in MuPDF's memory first (engine/core/save.ts, issue 35 item 8): MuPDF.js writes its whole output
 * into one buffer, which its allocator copied into a new block each time it filled, so saving a 40 MB image document
 * grew MuPDF's memory by 97 MB (2.5x the output; 237 MB for 100 MB). With room made at the top of the heap first the
 * buffer grows in place: 47 MB. Checked on the WASM memory's size, which only grows: the room itself is address space,
 * not yet written, so the resident memory is lower still (docs/pdfa.md "Memory").
 */
// First: MuPDF's Emscripten module is then this handle (as in a worker), so its memory is visible here.
import { wasmBytes } from '../../src/engine/core/wasm.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPdf } from '../../src/engine/core/open.js';
import { saveFullTo } from '../../src/engine/core/save.js';
import { pdfBytes, streamParts } from '../helpers/pdf-writer.js';

const MiB = 1024 * 1024;

/** A PDF of `pages` pages, each drawing its own image stream of `imageBytes` bytes that are not all alike (kept as they are by a save). */
function imagePdf(pages: number, imageBytes: number): Buffer {
  return pdfBytes((pdf) => {
    const kids = Array.from({ length: pages }, (_, i) => `${3 + 3 * i} 0 R`).join(' ');
    pdf.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
    pdf.object(2, `<< /Type /Pages /Count ${pages} /Kids [${kids}] >>`);
    for (let i = 0; i < pages; i++) {
      const page = 3 + 3 * i;
      pdf.object(page, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 ${page + 2} 0 R >> >> /Contents ${page + 1} 0 R >>`);
      pdf.object(page + 1, ...streamParts('', 'q 612 0 0 792 0 0 cm /Im0 Do Q'));
      const image = Buffer.alloc(imageBytes);
      for (let at = 0; at + 4 <= imageBytes; at += 4) image.writeUInt32LE((Math.imul(at + i * imageBytes, 2654435761) ^ 0x5bd1e995) >>> 0, at);
      pdf.object(page + 2, ...streamParts('/Type /XObject /Subtype /Image /Width 100 /Height 100 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode', image));
    }
    pdf.end('/Root 1 0 R');
  });
}

test('saving a 40 MB image document opened from its file grows MuPDF memory by well under twice the output', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'save-memory-'));
  try {
    const input = path.join(dir, 'in.pdf');
    const output = path.join(dir, 'out.pdf');
    writeFileSync(input, imagePdf(50, 800 * 1024));
    writeFileSync(output, '');
    const fd = openSync(input, 'r');
    const out = openSync(output, 'r+');
    try {
      const opened = openPdf({ fd, size: fstatSync(fd).size }, undefined, 'view');
      assert.ok(wasmBytes() > 0, 'MuPDF was not loaded through the handle');
      const before = wasmBytes();
      const size = saveFullTo(opened.doc, { fd: out });
      const grown = wasmBytes() - before;
      assert.ok(size > 35 * MiB, `the output is ${size} bytes`);
      // Before: 2.5 times the output (97 MB). Now 1.2 (47 MB).
      assert.ok(grown < 1.7 * size, `MuPDF's memory grew by ${(grown / MiB).toFixed(0)} MB for an output of ${(size / MiB).toFixed(0)} MB`);
      opened.doc.destroy();
    } finally {
      closeSync(fd);
      closeSync(out);
    }
    // The output was written to the file.
    assert.match(readFileSync(output).toString('latin1', 0, 16), /^%PDF-/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
