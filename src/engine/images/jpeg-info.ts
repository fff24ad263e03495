/** JPEG headers: the frame size, the JFIF or EXIF resolution and orientation, and a walk of the whole marker structure. */
import { completes, Reader, resolution, type ImageInfo, type Resolution } from './header-reader.js';
import { readTiffResolution, TAG_ORIENTATION, TiffReader } from './tiff-info.js';

/**
 * JPEG data goes into the PDF as it is, and MuPDF's decoder forgives almost anything, so a
 * broken JPEG would only show up later, in a reader (qpdf --check reports such streams as
 * corrupt). Hence the whole marker structure is walked here, with the rules libjpeg applies
 * when it decodes: known markers with exact lengths, baseline or progressive 8-bit frames
 * of 1, 3 or 4 components, sound tables, scans that name defined tables, and an end marker
 * (a file cut short has none). Errors inside the entropy-coded data are left alone: decoders
 * treat those as warnings and draw what they can.
 */
interface JpegState {
  components?: Map<number, number>; // component id -> quantization table
  progressive: boolean;
  scans: number;
  quant: Set<number>;
  huffman: Set<number>; // class << 4 | id
}

export function readJpeg(r: Reader): ImageInfo {
  let size: { width: number; height: number } | undefined;
  let jfif: Resolution | undefined;
  let exif: Resolution | undefined;
  let orientation: number | undefined;
  const state: JpegState = { progressive: false, scans: 0, quant: new Set(), huffman: new Set() };
  const complete = completes(() => {
    for (let pos = 2; ; ) {
      if (r.u8(pos) !== 0xff) throw r.fail();
      const marker = r.u8(pos + 1);
      if (marker === 0xff) {
        pos += 1; // fill byte before a marker
        continue;
      }
      if (marker === 0xd9) {
        if (state.scans === 0) throw r.fail(); // end of image before any scan
        return;
      }
      const len = r.u16(pos + 2);
      const body = pos + 4;
      const end = pos + 2 + len;
      if (len < 2 || end > r.length) throw r.fail();
      if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
        if (size) throw r.fail();
        size = readFrameHeader(r, body, end, state);
        state.progressive = marker === 0xc2;
      } else if (marker === 0xc4) {
        readHuffmanTables(r, body, end, state);
      } else if (marker === 0xdb) {
        readQuantTables(r, body, end, state);
      } else if (marker === 0xda) {
        if (!size) throw r.fail();
        checkScanHeader(r, body, end, state);
        state.scans += 1;
        pos = skipEntropyData(r, end);
        continue;
      } else if (marker === 0xe0 && len >= 14 && r.ascii(body, 5) === 'JFIF\0') {
        jfif = jfifResolution(r, body + 7);
      } else if (marker === 0xe1 && len >= 16 && r.ascii(body, 6) === 'Exif\0\0') {
        // A broken EXIF block is common and harmless to the image: ignore the block, not the file.
        completes(() => {
          const t = new TiffReader(r, body + 6);
          const { entries } = t.readIfd(t.firstIfd());
          exif = readTiffResolution(t, entries);
          const value = t.integer(entries, TAG_ORIENTATION);
          if (value !== undefined && value >= 2 && value <= 8) orientation = value;
        });
      } else if (marker === 0xdd || marker === 0xdc) {
        if (len !== 4) throw r.fail(); // DRI, DNL
      } else if (!(marker >= 0xe0 && marker <= 0xef) && marker !== 0xfe) {
        throw r.fail(); // not APPn or COM either: another coding process, or junk
      }
      pos = end;
    }
  });
  if (!size) throw r.fail();
  // EXIF first, as MuPDF and most viewers do: cameras write it, JFIF often holds a default.
  const resolution = exif ?? jfif;
  return { frames: [{ ...size, ...(resolution ? { resolution } : {}), ...(orientation ? { orientation } : {}) }], frameCount: 1, complete };
}

/** SOF0/1/2: 8-bit samples; 1, 3 or 4 components (what PDF's DCTDecode carries). */
function readFrameHeader(r: Reader, pos: number, end: number, state: JpegState): { width: number; height: number } {
  const count = r.u8(pos + 5);
  if (r.u8(pos) !== 8 || ![1, 3, 4].includes(count) || end !== pos + 6 + 3 * count) throw r.fail();
  state.components = new Map();
  for (let i = 0; i < count; i++) {
    const c = pos + 6 + i * 3;
    const sampling = r.u8(c + 1);
    const h = sampling >> 4;
    const v = sampling & 0x0f;
    if (h < 1 || h > 4 || v < 1 || v > 4 || r.u8(c + 2) > 3) throw r.fail();
    state.components.set(r.u8(c), r.u8(c + 2));
  }
  return { height: r.u16(pos + 1), width: r.u16(pos + 3) };
}

/**
 * DHT: each table's code counts must fit the segment and form a canonical code (with the
 * all-ones code left unused, as libjpeg requires); DC tables hold only values 0 to 15.
 */
function readHuffmanTables(r: Reader, pos: number, end: number, state: JpegState): void {
  while (pos < end) {
    const classAndId = r.u8(pos);
    const isDc = classAndId >> 4 === 0;
    if (classAndId >> 4 > 1 || (classAndId & 0x0f) > 3) throw r.fail();
    let count = 0;
    let code = 0;
    for (let bits = 1; bits <= 16; bits++) {
      const n = r.u8(pos + bits);
      count += n;
      code += n;
      if (code >= 1 << bits) throw r.fail(); // more codes of this length than fit
      code <<= 1;
    }
    const values = pos + 17;
    pos = values + count;
    if (count > 256 || pos > end) throw r.fail();
    if (isDc && r.bytes.subarray(values, pos).some((v) => v > 15)) throw r.fail();
    state.huffman.add(classAndId);
  }
}

/** DQT: 64 entries of 8 or 16 bits per table, tables 0 to 3, filling the segment exactly. */
function readQuantTables(r: Reader, pos: number, end: number, state: JpegState): void {
  while (pos < end) {
    const precisionAndId = r.u8(pos);
    if (precisionAndId >> 4 > 1 || (precisionAndId & 0x0f) > 3) throw r.fail();
    pos += 1 + (precisionAndId >> 4 ? 128 : 64);
    if (pos > end) throw r.fail();
    state.quant.add(precisionAndId & 0x0f);
  }
}

/** SOS: components of the frame, with their tables defined; valid progression parameters. */
function checkScanHeader(r: Reader, pos: number, end: number, state: JpegState): void {
  const count = r.u8(pos);
  if (count < 1 || count > 4 || end !== pos + 1 + 2 * count + 3) throw r.fail();
  const ss = r.u8(end - 3);
  const se = r.u8(end - 2);
  const ah = r.u8(end - 1) >> 4;
  const al = r.u8(end - 1) & 0x0f;
  // Sequential scans always use both tables; progressive ones, per libjpeg's decoder:
  // the first DC pass needs DC tables, AC passes need AC tables.
  const needsDc = !state.progressive || (ss === 0 && ah === 0);
  const needsAc = !state.progressive || ss > 0;
  for (let i = 0; i < count; i++) {
    const quant = state.components!.get(r.u8(pos + 1 + i * 2));
    const tables = r.u8(pos + 2 + i * 2);
    if (quant === undefined || !state.quant.has(quant)) throw r.fail();
    if (needsDc && !state.huffman.has(tables >> 4)) throw r.fail();
    if (needsAc && !state.huffman.has(0x10 | (tables & 0x0f))) throw r.fail();
  }
  if (state.progressive) {
    const bad =
      (ss === 0 ? se !== 0 : ss > se || se > 63 || count !== 1) || (ah !== 0 && al !== ah - 1) || al > 13;
    if (bad) throw r.fail();
  }
}

/**
 * The position of the marker that ends a scan's entropy-coded data. In that data an FF is
 * followed by 00 (a stuffed byte), a restart marker D0-D7, or more FF fill bytes.
 */
function skipEntropyData(r: Reader, pos: number): number {
  const b = r.bytes;
  for (let i = b.indexOf(0xff, pos); i >= 0 && i + 1 < b.length; i = b.indexOf(0xff, i + 1)) {
    const next = b[i + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
      i += 1;
    } else if (next !== 0xff) {
      return i;
    }
  }
  throw r.fail(); // cut short: no end marker
}

function jfifResolution(r: Reader, o: number): Resolution | undefined {
  const units = r.u8(o);
  const x = r.u16(o + 1);
  const y = r.u16(o + 3);
  if (units === 1) return resolution(x, y);
  if (units === 2) return resolution(x * 2.54, y * 2.54);
  return undefined; // 0: aspect ratio only
}
