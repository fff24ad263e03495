import { deflateSync } from 'node:zlib';
import { serializePdf } from './pdf.js';

/** The colour of the stamp's image: a green no engine would draw on its own. */
export const STAMP_COLOUR: [number, number, number] = [0x12, 0xc0, 0x34];
export const STAMP_RECT: [number, number, number, number] = [100, 500, 250, 550];

/** A stream object body (latin1) with the given entries, /Length added. */
function stream(entries: string, data: Buffer): string {
  return `<< ${entries} /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream`;
}

/**
 * A one-page Letter PDF with one Stamp ("image-stamp") whose appearance is a
 * custom image, in raw PDF syntax (not built by the engine under test):
 * /AP << /N form /R form /D << /Pressed grey form >> >>, the form drawing a
 * 4×2 RGB image of STAMP_COLOUR (FlateDecode, with a FlateDecode /SMask) over
 * the whole rectangle. The form also has what an export must not follow: a
 * reference back to the annotation (/Annot), one to itself (/Self, a cycle),
 * and a /PieceInfo string with bytes outside ASCII.
 */
export function imageStampPdf(): { pdf: Buffer; image: Buffer; smask: Buffer; content: Buffer } {
  const [x1, y1, x2, y2] = STAMP_RECT;
  const w = x2 - x1;
  const h = y2 - y1;
  const pixels = Buffer.alloc(4 * 2 * 3);
  for (let i = 0; i < 8; i++) pixels.set(STAMP_COLOUR, i * 3);
  const image = deflateSync(pixels);
  const smask = deflateSync(Buffer.alloc(8, 0xff));
  const content = deflateSync(Buffer.from(`q ${w} 0 0 ${h} 0 0 cm /Im1 Do Q`, 'latin1'));
  const pressed = Buffer.from(`0.5 g 0 0 ${w} ${h} re f`, 'latin1');
  const page = Buffer.from('BT /F1 24 Tf 72 692 Td (Page 1) Tj ET', 'latin1');
  const objects = [
    /* 1 */ '<< /Type /Catalog /Pages 2 0 R >>',
    /* 2 */ '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    /* 3 */ '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R /Annots [6 0 R] >>',
    /* 4 */ '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    /* 5 */ stream('', page),
    /* 6 */ `<< /Type /Annot /Subtype /Stamp /Rect [${STAMP_RECT.join(' ')}] /P 3 0 R /F 4 /NM (image-stamp) /T (Carol) /Name /Approved /AP << /N 7 0 R /R 7 0 R /D << /Pressed 10 0 R >> >> >>`,
    /* 7 */ stream(`/Type /XObject /Subtype /Form /BBox [0 0 ${w} ${h}] /Resources << /XObject << /Im1 8 0 R /Self 7 0 R >> >> /Annot 6 0 R /PieceInfo << /pdfservice << /Private (caf\\351 \\\\ \\(x\\)) /LastModified (D:20260101120000Z) >> >> /Filter /FlateDecode`, content),
    /* 8 */ stream('/Type /XObject /Subtype /Image /Width 4 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask 9 0 R /Filter /FlateDecode', image),
    /* 9 */ stream('/Type /XObject /Subtype /Image /Width 4 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', smask),
    /* 10 */ stream(`/Type /XObject /Subtype /Form /BBox [0 0 ${w} ${h}]`, pressed),
  ];
  return { pdf: serializePdf(objects, '/Root 1 0 R'), image, smask, content };
}
