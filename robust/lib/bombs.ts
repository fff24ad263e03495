/**
 * Resource bombs built in code, small on the wire: zlib streams that inflate
 * to gigabytes (made by repeating one flushed deflate block of zeros, so
 * nothing large is ever allocated), PNG files declaring huge sizes, and PDFs
 * wrapping them.
 */
import { deflateRawSync, constants } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(...parts: Buffer[]): number {
  let c = 0xffffffff;
  for (const part of parts) for (const b of part) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zlib stream (RFC 1950) of `total` zero bytes, `total` a multiple of `unit` (default 1 MiB). */
export function zeroZlib(total: number, unit = 1024 * 1024): Buffer {
  if (total % unit !== 0) throw new Error('total must be a multiple of unit');
  // A non-final deflate block sequence for `unit` zeros, ending byte-aligned (sync flush). Its back
  // references reach only zeros, so the same bytes are valid again after any run of zeros.
  const block = deflateRawSync(Buffer.alloc(unit), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const copies = total / unit;
  const out = Buffer.alloc(2 + block.length * copies + 2 + 4);
  out[0] = 0x78;
  out[1] = 0xda;
  for (let i = 0; i < copies; i++) block.copy(out, 2 + i * block.length);
  let at = 2 + block.length * copies;
  out[at++] = 0x03; // final, fixed-Huffman block with only end-of-block
  out[at++] = 0x00;
  // Adler-32 of `total` zeros: a = 1, b = total (mod 65521).
  out.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0, at);
  return out;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(head.subarray(4), data), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG whose header declares width x height (grey, 8 bits) and whose IDAT is `idat` as given. */
export function png(width: number, height: number, idat: Buffer, bitDepth = 8, colourType = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colourType;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** A small valid PNG (w x h grey). */
export function smallPng(width = 4, height = 4): Buffer {
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return png(width, height, zlibOf(rows));
}

function zlibOf(data: Buffer): Buffer {
  const raw = deflateRawSync(data);
  const out = Buffer.alloc(2 + raw.length + 4);
  out[0] = 0x78;
  out[1] = 0x9c;
  raw.copy(out, 2);
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  out.writeUInt32BE(((b << 16) | a) >>> 0, 2 + raw.length);
  return out;
}

// ---- PDFs -------------------------------------------------------------------

import { serializePdf } from '../../test/helpers/pdf.js';

const GiB = 1024 * 1024 * 1024;

function streamObject(entries: string, data: Buffer): string {
  return `<< ${entries} /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream`;
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

/** One Letter page whose content stream inflates to `inflated` bytes of zeros (NUL is white space in content). */
export function contentBombPdf(inflated = 4 * GiB): Buffer {
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents [4 0 R 6 0 R] >>',
      streamObject('/Filter /FlateDecode', zeroZlib(inflated)),
      FONT,
      streamObject('', Buffer.from('BT /F1 24 Tf 72 700 Td (After the bomb) Tj ET')),
    ],
    '/Root 1 0 R',
  );
}

/** An image XObject of width x height (grey, `bits` per pixel) whose data is zeros inflating to `inflated` bytes, drawn over the page. */
export function imageBombPdf(width: number, height: number, bits: number, inflated: number): Buffer {
  const draw = Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q BT /F1 24 Tf 72 700 Td (Image bomb) Tj ET');
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> /Font << /F1 6 0 R >> >> /Contents 5 0 R >>',
      streamObject(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent ${bits} /Filter /FlateDecode`, zeroZlib(inflated)),
      streamObject('', draw),
      FONT,
    ],
    '/Root 1 0 R',
  );
}

/** A FileAttachment annotation whose embedded file inflates to `inflated` bytes (its /Params /Size says so too). */
export function attachmentBombPdf(inflated = 4 * GiB): Buffer {
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] >>',
      '<< /Type /Annot /Subtype /FileAttachment /Rect [72 700 92 720] /NM (bomb) /Contents (A file of zeros) /FS << /Type /Filespec /F (zeros.bin) /UF (zeros.bin) /EF << /F 5 0 R >> >> >>',
      streamObject(`/Type /EmbeddedFile /Subtype /application#2Foctet-stream /Params << /Size ${inflated} >> /Filter /FlateDecode`, zeroZlib(inflated)),
    ],
    '/Root 1 0 R',
  );
}

/** A TrueType font program of zeros inflating to `inflated` bytes, used by the page's text. */
export function fontBombPdf(inflated = 2 * GiB): Buffer {
  const content = Buffer.from('BT /F1 24 Tf 72 700 Td (Font bomb) Tj ET');
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      streamObject('', content),
      '<< /Type /Font /Subtype /TrueType /BaseFont /Bomb /FirstChar 32 /LastChar 126 /Widths [] /FontDescriptor 6 0 R >>',
      '<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>',
      streamObject('/Filter /FlateDecode', zeroZlib(inflated)),
    ],
    '/Root 1 0 R',
  );
}

/** A page tree whose root declares `count` pages but holds one. */
export function declaredPagesPdf(count = 1_000_000): Buffer {
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [3 0 R] /Count ${count} >>`,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      streamObject('', Buffer.from('BT /F1 24 Tf 72 700 Td (One of a million) Tj ET')),
      FONT,
    ],
    '/Root 1 0 R',
  );
}

/**
 * A document that really has `nodes * perNode` pages: every leaf is the same
 * page object, listed perNode times in each of `nodes` intermediate nodes.
 * A million pages in a few megabytes.
 */
export function millionPagesPdf(nodes = 1000, perNode = 1000): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '', // root, below
    '<< /Type /Page /Parent 6 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    streamObject('', Buffer.from('BT /F1 24 Tf 72 700 Td (The same page again) Tj ET')),
    FONT,
  ];
  const kids = ' 3 0 R'.repeat(perNode);
  const first = objects.length + 1;
  for (let i = 0; i < nodes; i++) objects.push(`<< /Type /Pages /Parent 2 0 R /Kids [${kids}] /Count ${perNode} >>`);
  objects[1] = `<< /Type /Pages /Kids [${Array.from({ length: nodes }, (_, i) => `${first + i} 0 R`).join(' ')}] /Count ${nodes * perNode} >>`;
  return serializePdf(objects, '/Root 1 0 R');
}
