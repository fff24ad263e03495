import type * as mupdf from 'mupdf';

/**
 * How an edited document is written. A document with signatures is saved
 * incrementally (appended), so its signatures stay valid; anything else is
 * rewritten with unused objects dropped but object numbers kept (garbage=1),
 * compressed. Encryption is kept as it was.
 */
export function saveEdited(doc: mupdf.PDFDocument, signed: boolean): Uint8Array {
  const buffer = doc.saveToBuffer(signed ? 'incremental' : 'garbage=1,compress=yes');
  try {
    // asUint8Array() is a view into WASM memory: copy it out before the buffer goes.
    return buffer.asUint8Array().slice();
  } finally {
    buffer.destroy();
  }
}
