/**
 * A bare CFF (Type1C) font program built in code, for fixtures that need an
 * embedded font with glyph names of their own: subsetters name glyphs g1,
 * g2... (names that say nothing of Unicode), and only the font's ToUnicode
 * map tells what they are. Each glyph is a box of its advance width, so
 * pages render something and widths agree with the PDF's /Widths.
 */
export interface CffGlyph {
  name: string;
  width: number;
}

/** The CFF program (header, Name, Top DICT, String, Global Subr INDEX, charset, CharStrings, Private DICT) of `glyphs` after .notdef. */
export function cffFont(fontName: string, glyphs: readonly CffGlyph[]): Buffer {
  // Custom strings get SIDs from 391 (the standard strings take 0-390).
  const strings = glyphs.map((g) => g.name);
  const charStrings = [charString(250, false), ...glyphs.map((g) => charString(g.width, true))];
  const charset = Buffer.concat([Buffer.from([0]), ...glyphs.map((_, i) => card16(391 + i))]);
  const privateDict = Buffer.concat([dictInt(0), Buffer.from([20]), dictInt(0), Buffer.from([21])]); // defaultWidthX 0, nominalWidthX 0
  const header = Buffer.from([1, 0, 4, 4]);
  const nameIndex = index([Buffer.from(fontName, 'latin1')]);
  const stringIndex = index(strings.map((s) => Buffer.from(s, 'latin1')));
  const globalSubrs = index([]);
  // The Top DICT's offsets are written as 5-byte integers, so its size does not depend on their values.
  const topDict = (charsetAt: number, charStringsAt: number, privateAt: number) =>
    Buffer.concat([
      dictInt(0), dictInt(-250), dictInt(1000), dictInt(1000), Buffer.from([5]), // FontBBox
      int32(charsetAt), Buffer.from([15]),
      int32(charStringsAt), Buffer.from([17]),
      int32(privateDict.length), int32(privateAt), Buffer.from([18]),
    ]);
  const topSize = index([topDict(0, 0, 0)]).length;
  const charsetAt = header.length + nameIndex.length + topSize + stringIndex.length + globalSubrs.length;
  const charStringsIndex = index(charStrings);
  const charStringsAt = charsetAt + charset.length;
  const privateAt = charStringsAt + charStringsIndex.length;
  return Buffer.concat([header, nameIndex, index([topDict(charsetAt, charStringsAt, privateAt)]), stringIndex, globalSubrs, charset, charStringsIndex, privateDict]);
}

/** A Type 2 charstring: the width, then a box 50 units in from each side (none for .notdef). */
function charString(width: number, box: boolean): Buffer {
  const ops: Buffer[] = [csNumber(width)];
  if (box) {
    const w = Math.max(width - 100, 10);
    ops.push(csNumber(50), csNumber(0), Buffer.from([21])); // rmoveto
    ops.push(csNumber(w), csNumber(0), Buffer.from([5])); // rlineto
    ops.push(csNumber(0), csNumber(700), Buffer.from([5]));
    ops.push(csNumber(-w), csNumber(0), Buffer.from([5]));
  }
  ops.push(Buffer.from([14])); // endchar
  return Buffer.concat(ops);
}

function index(items: readonly Buffer[]): Buffer {
  if (!items.length) return card16(0);
  const offsets = [1];
  for (const item of items) offsets.push(offsets[offsets.length - 1]! + item.length);
  const out = [card16(items.length), Buffer.from([4])];
  for (const offset of offsets) out.push(int32raw(offset));
  return Buffer.concat([...out, ...items]);
}

function card16(v: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(v);
  return b;
}

function int32raw(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return b;
}

function int32(v: number): Buffer {
  const b = Buffer.alloc(5);
  b[0] = 29;
  b.writeInt32BE(v, 1);
  return b;
}

function dictInt(v: number): Buffer {
  if (v >= -107 && v <= 107) return Buffer.from([v + 139]);
  const b = Buffer.alloc(3);
  b[0] = 28;
  b.writeInt16BE(v, 1);
  return b;
}

function csNumber(v: number): Buffer {
  if (v >= -107 && v <= 107) return Buffer.from([v + 139]);
  if (v >= 108 && v <= 1131) return Buffer.from([((v - 108) >> 8) + 247, (v - 108) & 0xff]);
  if (v <= -108 && v >= -1131) return Buffer.from([((-v - 108) >> 8) + 251, (-v - 108) & 0xff]);
  const b = Buffer.alloc(3);
  b[0] = 28;
  b.writeInt16BE(v, 1);
  return b;
}
