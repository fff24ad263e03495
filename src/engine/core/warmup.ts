/**
 * What a worker runs once when it starts, before it says it is ready: a one-page document made here searched, marked,
 * redacted, verified and saved a few times (the redaction tasks themselves), and opened as an upload is.
 *
 * Why: MuPDF's WebAssembly is compiled as it is first used, each function by V8's baseline compiler when first called
 * (on the worker's thread) and again by its optimising compiler once it has run enough (on V8's helper threads). A
 * fresh service's first request paid all of it: the bench's one-page search-and-redact pair took 0.23 s idle and about
 * 1 s at load 10 where later pairs take 45 ms and 100 ms, and the next dozen pairs still shared the cores with that
 * compilation (V8's helper threads: 310 ms of CPU in the first pair, 50 ms a pair in the next two, 17 ms in the four
 * after, 4 ms once warm; bench/results/issue38-redaction-s17-2026-11-30.md). Here it is paid before the pool counts
 * the worker ready: at the service's start (it awaits the pool's readiness before it listens) and when a worker is replaced, so no request waits
 * for it. Failures are ignored: the warm-up changes nothing a task sees.
 */
import * as mupdf from 'mupdf';
import { validateUpload } from './inspect.js';
import { applyRedactions } from '../redaction/apply.js';
import { createRedactions } from '../redaction/mark.js';

/** The word the warm-up document holds on each line and redacts. */
const WORD = 'confidential';

/**
 * A one-page document as the service's documents look: lines of Helvetica text holding WORD beside an image, and
 * annotations with appearances, text (FreeText) and vector art (Square, Ink), so that the redaction's image filter and
 * annotation passes run too; saved as MuPDF saves.
 */
function warmUpDocument(): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const font = doc.addSimpleFont(new mupdf.Font('Helvetica'), 'Latin');
    const pixels = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 32, 32], false);
    pixels.clear(160);
    const image = doc.addImage(new mupdf.Image(pixels));
    pixels.destroy();
    const resources = doc.addObject({ Font: { F1: font }, XObject: { Im0: image } });
    const lines = Array.from({ length: 30 }, (_, i) => `(Line ${i + 1}: the ${WORD} figures stay with the board until review.) Tj`);
    const content = `q 120 0 0 90 470 660 cm /Im0 Do Q BT /F1 10 Tf 12 TL 56 760 Td ${lines.join(' T* ')} ET`;
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, resources, content));
    const page = doc.loadPage(0);
    const note = page.createAnnotation('FreeText');
    note.setRect([56, 300, 300, 330]);
    note.setContents(`A ${WORD} note`);
    const square = page.createAnnotation('Square');
    square.setRect([320, 300, 400, 360]);
    const ink = page.createAnnotation('Ink');
    ink.setInkList([[[420, 300], [450, 340], [480, 310]]]);
    for (const annot of [note, square, ink]) annot.update();
    page.destroy();
    const buffer = doc.saveToBuffer('compress');
    try {
      return buffer.asUint8Array().slice();
    } finally {
      buffer.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/** Runs the warm-up `rounds` times (0: none); answers whether every round ran through (the worker goes on either way). */
export function warmUp(rounds: number): boolean {
  try {
    const pdf = rounds > 0 ? warmUpDocument() : undefined;
    for (let i = 0; i < rounds; i++) {
      if (validateUpload({ pdf: pdf! }).pageCount !== 1) return false;
      const marked = createRedactions({ pdf: pdf!, request: { searchText: WORD } });
      if (!marked.bytes || !applyRedactions({ pdf: marked.bytes, request: {} }).bytes) return false;
    }
    return true;
  } catch {
    // A warm-up that fails leaves the worker as it was: the code it did not reach is compiled when a task first uses it.
    return false;
  }
}
