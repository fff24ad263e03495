import { existsSync, readFileSync } from 'node:fs';
import * as mupdf from 'mupdf';
import { deref, name } from '../core/mupdf-objects.js';
import { macRoman, standard, unicodeOfName, winAnsi } from './encodings.js';

/**
 * Embeds metric-compatible substitutes for the standard 14 fonts a document
 * names without their programs (docs/pdfa.md, the pipeline), so that PDF/A
 * (ISO 19005-1 6.3.4, 19005-2 6.2.11.4: every font embedded) is reached by
 * the MuPDF path instead of Ghostscript's rewrite. The substitutes are
 * Debian's URW base35 Type 1 programs (fonts-urw-base35), the ones
 * Ghostscript and poppler draw these fonts with anyway: Nimbus Sans for
 * Helvetica and Arial, Nimbus Sans Narrow for Helvetica-Narrow, Nimbus Roman
 * for Times and Times New Roman, Nimbus Mono PS for Courier and Courier New,
 * Standard Symbols PS for Symbol, D050000L for ZapfDingbats.
 *
 * A TrueType-subtype font (Arial, Times New Roman, Courier New as Word
 * names them) gets Debian's Liberation 2 instead (fonts-liberation2, metric
 * compatible with those three), as FontFile2: a Type 1 program cannot stand
 * in a TrueType dictionary. Only a nonsymbolic one with WinAnsi or MacRoman
 * encoding: PDF/A-2 (6.2.11.6) requires one of those for a nonsymbolic
 * TrueType font, and its glyphs are then found by Unicode in the program's
 * (3,1) cmap.
 *
 * The font dictionary keeps its Encoding, and the content its codes, so the
 * same glyphs are drawn at the same places. Widths the dictionary has must
 * agree with the program's (6.2.11.5 / 6.3.6), else the font is left to
 * Ghostscript; missing ones are written from the program's metrics. A CID
 * font, a symbolic TrueType font or an unknown name is left too (Ghostscript
 * embeds or converts those).
 */
export class StandardFontEmbedder {
  /** Each program is embedded once per document, shared by the fonts it stands for. */
  private readonly programs = new Map<string, mupdf.PDFObject>();

  constructor(private readonly doc: mupdf.PDFDocument) {}

  /** Embeds a substitute into the font dictionary `font` (without a program); answers the substitute's name, or undefined when it left the font as it was. */
  embed(font: mupdf.PDFObject): string | undefined {
    const subtype = name(font.get('Subtype'));
    if (subtype === 'TrueType') return this.embedTrueType(font);
    if (subtype !== 'Type1' && subtype !== 'MMType1') return undefined;
    const baseFont = name(font.get('BaseFont'));
    const file = baseFont !== undefined ? substituteFor(baseFont) : undefined;
    if (!file || !installed(`${URW}/${file}.afm`) || !installed(`${URW}/${file}.t1`)) return undefined;
    const metrics = afm(file);
    const names = glyphNames(font, metrics.builtIn);
    // A glyph a Differences array names was put there to be drawn: one the program lacks would be drawn as .notdef,
    // which PDF/A forbids (6.2.11.8 / 6.3.4).
    if (!names || differences(font).some((glyph) => !metrics.widths.has(glyph))) return undefined;
    const widths = this.widths(font, names, metrics);
    if (!widths) return undefined;

    const symbolic = metrics.fontSpecific;
    const stripped = baseFont!.replace(/^[A-Z]{6}\+/, '');
    // A subset prefix says the program is a subset, which PDF/A-1 (6.3.5) then wants a CharSet for: the whole program goes in.
    if (stripped !== baseFont) font.put('BaseFont', this.doc.newName(stripped));
    const descriptor = this.doc.addObject(this.doc.newDictionary());
    descriptor.put('Type', this.doc.newName('FontDescriptor'));
    descriptor.put('FontName', this.doc.newName(stripped));
    // ISO 32000-1, 9.8.2: Symbolic (4) for Symbol and Dingbats, whose glyphs are outside the standard Latin set; Nonsymbolic (32) otherwise.
    const flags = (metrics.fixedPitch ? 1 : 0) | (file.startsWith('NimbusRoman') ? 2 : 0) | (symbolic ? 4 : 32) | (metrics.italicAngle !== 0 ? 64 : 0);
    descriptor.put('Flags', flags);
    descriptor.put('FontBBox', arrayOf(this.doc, metrics.bbox));
    descriptor.put('ItalicAngle', metrics.italicAngle);
    descriptor.put('Ascent', metrics.ascent);
    descriptor.put('Descent', metrics.descent);
    descriptor.put('CapHeight', metrics.capHeight);
    if (metrics.xHeight) descriptor.put('XHeight', metrics.xHeight);
    descriptor.put('StemV', metrics.stemV);
    descriptor.put('MissingWidth', metrics.widths.get('.notdef') ?? 0);
    descriptor.put('FontFile', this.program(file, () => {
      const p = typeOneProgram(file);
      return this.doc.addStream(p.bytes, { Length1: p.length1, Length2: p.length2, Length3: p.length3 });
    }));
    font.put('FontDescriptor', descriptor);
    if (widths !== 'kept') {
      font.put('FirstChar', widths.first);
      font.put('LastChar', widths.first + widths.values.length - 1);
      font.put('Widths', this.doc.addObject(arrayOf(this.doc, widths.values)));
    }
    return file;
  }

  /**
   * The Widths to write (from the AFM, for the codes the encoding maps), 'kept' when the dictionary's agree with the
   * program's, or undefined when they do not (drawn with these widths, the program's glyphs would not fit them).
   */
  private widths(font: mupdf.PDFObject, names: readonly string[], metrics: Afm): { first: number; values: number[] } | 'kept' | undefined {
    return checkedWidths(font, (code) => (names[code] ? metrics.widths.get(names[code]!) : undefined), metrics.widths.get('.notdef') ?? 0);
  }

  /** The document's one stream of a substitute's program, added on first use. Stored as read: the prepared document is saved with compression, which deflates it. */
  private program(file: string, add: () => mupdf.PDFObject): mupdf.PDFObject {
    let stream = this.programs.get(file);
    if (!stream) {
      stream = add();
      this.programs.set(file, stream);
    }
    return stream;
  }

  /** A Liberation 2 program for a nonsymbolic TrueType standard-14 alias in WinAnsi or MacRoman; undefined when none fits. */
  private embedTrueType(font: mupdf.PDFObject): string | undefined {
    const baseFont = name(font.get('BaseFont'));
    const urw = baseFont !== undefined ? substituteFor(baseFont) : undefined;
    const [family, variant] = urw?.split('-') ?? [];
    const file = family && variant && LIBERATION[family] ? `${LIBERATION[family]}-${variant}` : undefined;
    if (!file || !installed(`${LIBERATION_DIR}/${file}.ttf`)) return undefined;
    const encoding = deref(font.get('Encoding'));
    const base = name(encoding) ?? (encoding.isDictionary() ? name(encoding.get('BaseEncoding')) : undefined);
    if (base !== 'WinAnsiEncoding' && base !== 'MacRomanEncoding') return undefined;
    const old = deref(font.get('FontDescriptor'));
    if (old.isDictionary() && old.get('Flags').isNumber() && (old.get('Flags').asNumber() & 4) !== 0) return undefined;
    // Its encoding is WinAnsi or MacRoman (above): no built-in one is needed.
    const names = glyphNames(font, []);
    if (!names) return undefined;
    const program = trueTypeProgram(file);
    const glyphOf = (glyph: string) => {
      const unicode = unicodeOfName.get(glyph) ?? uniName(glyph);
      return unicode !== undefined ? program.font.encodeCharacter(unicode) : 0;
    };
    if (differences(font).some((glyph) => glyphOf(glyph) <= 0)) return undefined;
    const widthOf = (code: number) => {
      const gid = names[code] ? glyphOf(names[code]!) : 0;
      return gid > 0 ? Math.round(program.font.advanceGlyph(gid) * 1000) : undefined;
    };
    const widths = checkedWidths(font, widthOf, Math.round(program.font.advanceGlyph(0) * 1000));
    if (!widths) return undefined;
    const stripped = baseFont!.replace(/^[A-Z]{6}\+/, '');
    if (stripped !== baseFont) font.put('BaseFont', this.doc.newName(stripped));
    const m = program.metrics;
    const descriptor = this.doc.addObject(this.doc.newDictionary());
    descriptor.put('Type', this.doc.newName('FontDescriptor'));
    descriptor.put('FontName', this.doc.newName(stripped));
    descriptor.put('Flags', (file.startsWith('LiberationMono') ? 1 : 0) | (file.startsWith('LiberationSerif') ? 2 : 0) | 32 | (m.italicAngle !== 0 ? 64 : 0));
    descriptor.put('FontBBox', arrayOf(this.doc, m.bbox));
    descriptor.put('ItalicAngle', m.italicAngle);
    descriptor.put('Ascent', m.ascent);
    descriptor.put('Descent', m.descent);
    descriptor.put('CapHeight', m.capHeight);
    descriptor.put('StemV', /Bold/.test(file) ? 140 : 85);
    descriptor.put('FontFile2', this.program(file, () => this.doc.addStream(program.bytes, { Length1: program.bytes.length })));
    font.put('FontDescriptor', descriptor);
    if (widths !== 'kept') {
      font.put('FirstChar', widths.first);
      font.put('LastChar', widths.first + widths.values.length - 1);
      font.put('Widths', this.doc.addObject(arrayOf(this.doc, widths.values)));
    }
    return file;
  }
}

/**
 * The Widths to write for a font whose program gives `widthOf(code)` (undefined: no glyph), 'kept' when the
 * dictionary's agree with the program's, or undefined when they do not (drawn with these widths, the program's
 * glyphs would not fit them).
 */
function checkedWidths(font: mupdf.PDFObject, widthOf: (code: number) => number | undefined, missing: number): { first: number; values: number[] } | 'kept' | undefined {
  const existing = deref(font.get('Widths'));
  if (existing.isArray() && font.get('FirstChar').isNumber()) {
    const first = font.get('FirstChar').asNumber();
    for (let i = 0; i < existing.length; i++) {
      const program = widthOf(first + i);
      const stated = deref(existing.get(i));
      if (program === undefined || !stated.isNumber()) continue;
      // veraPDF allows a difference of one unit (rounding); zero is what many writers put for codes they never draw.
      // Only the codes a page draws are judged, which are not known here: a difference on ASCII (text) means other
      // metrics, and Ghostscript; one on a rarer sign (Times' macron, mu, plusminus from another Times) is left to
      // veraPDF, whose refusal sends the document to Ghostscript as well (Seige_of_Vicksburg_Sample_OCR.pdf: its fonts pass).
      if (Math.abs(stated.asNumber() - program) > 1 && stated.asNumber() !== 0 && first + i >= 0x20 && first + i < 0x7f) return undefined;
    }
    return 'kept';
  }
  let first = -1;
  let last = -1;
  for (let code = 0; code < 256; code++) {
    if (widthOf(code) !== undefined) {
      if (first < 0) first = code;
      last = code;
    }
  }
  if (first < 0) return undefined;
  const values: number[] = [];
  for (let code = first; code <= last; code++) values.push(widthOf(code) ?? missing);
  return { first, values };
}

/** A glyph name of the uniXXXX form as its Unicode value. */
function uniName(glyph: string): number | undefined {
  const m = /^uni([0-9A-F]{4})$/.exec(glyph);
  return m ? parseInt(m[1]!, 16) : undefined;
}

/** Liberation 2 families standing in where the URW one would (no narrow, symbol or dingbat face among them). */
const LIBERATION: Record<string, string> = { NimbusSans: 'LiberationSans', NimbusRoman: 'LiberationSerif', NimbusMonoPS: 'LiberationMono' };
const LIBERATION_DIR = '/usr/share/fonts/truetype/liberation2';

interface TrueTypeProgram {
  bytes: Uint8Array;
  /** MuPDF's reading of the program: glyph by Unicode (its cmap) and advance widths. */
  font: mupdf.Font;
  metrics: { bbox: number[]; italicAngle: number; ascent: number; descent: number; capHeight: number };
}

/** A Liberation file (the variant names follow URW's: Regular, Bold, Italic, BoldItalic) and its metrics in 1/1000 em from head, hhea, OS/2 and post. */
const trueTypeProgram = cachedByFile((file: string): TrueTypeProgram => {
  const bytes = new Uint8Array(readFileSync(`${LIBERATION_DIR}/${file}.ttf`));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = new Map<string, number>();
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    tables.set(String.fromCharCode(...bytes.subarray(at, at + 4)), view.getUint32(at + 8));
  }
  const head = tables.get('head')!;
  const hhea = tables.get('hhea')!;
  const os2 = tables.get('OS/2');
  const post = tables.get('post')!;
  const unitsPerEm = view.getUint16(head + 18);
  const scale = (v: number) => Math.round((v * 1000) / unitsPerEm);
  const bbox = [view.getInt16(head + 36), view.getInt16(head + 38), view.getInt16(head + 40), view.getInt16(head + 42)].map(scale);
  const capHeight = os2 !== undefined && view.getUint16(os2) >= 2 ? scale(view.getInt16(os2 + 88)) : bbox[3]!;
  return {
    bytes,
    font: new mupdf.Font(file, bytes),
    metrics: { bbox, italicAngle: view.getInt32(post + 4) / 65536, ascent: scale(view.getInt16(hhea + 4)), descent: scale(view.getInt16(hhea + 6)), capHeight },
  };
});

const URW = '/usr/share/fonts/type1/urw-base35';

/** Whether a substitute's file is there (fonts-urw-base35 and fonts-liberation2, scripts/setup.sh): without it, Ghostscript's path as before. */
const installed = cachedByFile((file: string): boolean => existsSync(file));

/** Families by the name a document gives them (spaces removed, lower case) and the URW family that stands in. */
const FAMILIES: Record<string, string> = {
  helvetica: 'NimbusSans',
  arial: 'NimbusSans',
  arialmt: 'NimbusSans',
  helveticanarrow: 'NimbusSansNarrow',
  arialnarrow: 'NimbusSansNarrow',
  times: 'NimbusRoman',
  timesroman: 'NimbusRoman',
  timesnewroman: 'NimbusRoman',
  timesnewromanps: 'NimbusRoman',
  timesnewromanpsmt: 'NimbusRoman',
  courier: 'NimbusMonoPS',
  couriernew: 'NimbusMonoPS',
  couriernewps: 'NimbusMonoPS',
  couriernewpsmt: 'NimbusMonoPS',
  symbol: 'StandardSymbolsPS',
  symbolmt: 'StandardSymbolsPS',
  zapfdingbats: 'D050000L',
  dingbats: 'D050000L',
};

/** Style suffix words that say nothing beyond regular (MT and PS are Monotype's and Adobe's naming). */
const PLAIN_WORDS = /roman|regular|normal|book|medium|psmt|mt|ps/g;

/**
 * The URW file standing in for a standard-14 name or a common alias:
 * Helvetica-BoldOblique, Arial,Bold, Arial-BoldItalicMT, TimesNewRoman,Italic,
 * TimesNewRomanPS-BoldMT, CourierNewPSMT, Helvetica-Narrow-Bold, a subset
 * prefix removed. Undefined for other fonts or styles (Light, Black...).
 */
function substituteFor(baseFont: string): string | undefined {
  const plain = baseFont.replace(/^[A-Z]{6}\+/, '').replace(/\s+/g, '').toLowerCase();
  const cut = plain.search(/[-,]/);
  let family = cut < 0 ? plain : plain.slice(0, cut);
  let style = cut < 0 ? '' : plain.slice(cut + 1).replace(/[-,]/g, '');
  if (style.startsWith('narrow') && (family === 'helvetica' || family === 'arial')) {
    family += 'narrow';
    style = style.slice('narrow'.length);
  }
  const urw = FAMILIES[family];
  if (!urw) return undefined;
  const bold = style.includes('bold');
  const italic = style.includes('italic') || style.includes('oblique');
  if (style.replace(/bold|italic|oblique/g, '').replace(PLAIN_WORDS, '') !== '') return undefined;
  if (urw === 'StandardSymbolsPS' || urw === 'D050000L') return bold || italic ? undefined : urw;
  const slanted = urw === 'NimbusSansNarrow' ? 'Oblique' : 'Italic';
  const variant = bold && italic ? `Bold${slanted}` : bold ? 'Bold' : italic ? slanted : 'Regular';
  return `${urw}-${variant}`;
}

/**
 * The glyph name each code draws (ISO 32000-1, 9.6.6): the named encoding, or
 * the dictionary's BaseEncoding (else the program's built-in one) with its
 * Differences. Undefined for an encoding without a table here (MacExpert).
 */
function glyphNames(font: mupdf.PDFObject, builtIn: readonly string[]): string[] | undefined {
  const tables: Record<string, readonly string[]> = { StandardEncoding: standard, WinAnsiEncoding: winAnsi, MacRomanEncoding: macRoman };
  const encoding = deref(font.get('Encoding'));
  const named = name(encoding);
  if (named !== undefined) return tables[named] ? [...tables[named]] : undefined;
  if (!encoding.isDictionary()) return [...builtIn];
  const base = name(encoding.get('BaseEncoding'));
  if (base !== undefined && !tables[base]) return undefined;
  const names = [...(base !== undefined ? tables[base]! : builtIn)];
  const differences = deref(encoding.get('Differences'));
  if (differences.isArray()) {
    let code = 0;
    for (let i = 0; i < differences.length; i++) {
      const item = deref(differences.get(i));
      if (item.isNumber()) code = item.asNumber();
      else if (item.isName()) {
        if (code >= 0 && code < 256) names[code] = item.asName();
        code++;
      }
    }
  }
  return names;
}

/** The glyph names of the font's Differences array. */
function differences(font: mupdf.PDFObject): string[] {
  const encoding = deref(font.get('Encoding'));
  const list = encoding.isDictionary() ? deref(encoding.get('Differences')) : undefined;
  const names: string[] = [];
  if (list?.isArray()) list.forEach((item) => item.isName() && names.push(item.asName()));
  return names;
}

function arrayOf(doc: mupdf.PDFDocument, values: readonly number[]): mupdf.PDFObject {
  const array = doc.newArray();
  for (const value of values) array.push(value);
  return array;
}

interface Afm {
  widths: Map<string, number>;
  /** The program's own encoding (AFM C codes): StandardEncoding for the text fonts, its own for Symbol and Dingbats. */
  builtIn: string[];
  fontSpecific: boolean;
  fixedPitch: boolean;
  bbox: number[];
  italicAngle: number;
  ascent: number;
  descent: number;
  capHeight: number;
  xHeight: number;
  stemV: number;
}

/** The AFM's metrics. URW's AFMs give Ascender and Descender as 0: they are taken from the glyphs (d and p) instead. */
const afm = cachedByFile((file: string): Afm => {
  const text = readFileSync(`${URW}/${file}.afm`, 'latin1');
  const header = (key: string) => new RegExp(`^${key}\\s+(.+)$`, 'm').exec(text)?.[1]?.trim();
  const widths = new Map<string, number>();
  const builtIn: string[] = new Array<string>(256).fill('');
  const boxes = new Map<string, number[]>();
  for (const m of text.matchAll(/^C\s+(-?\d+)\s*;\s*WX\s+(-?[\d.]+)\s*;\s*N\s+(\S+)\s*;\s*B\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)/gm)) {
    const code = Number(m[1]);
    widths.set(m[3]!, Math.round(Number(m[2])));
    boxes.set(m[3]!, [m[4], m[5], m[6], m[7]].map(Number));
    if (code >= 0 && code < 256) builtIn[code] = m[3]!;
  }
  const bbox = (header('FontBBox') ?? '0 0 1000 1000').split(/\s+/).map(Number);
  const bold = /bold|demi/i.test(header('Weight') ?? '') || /Bold/.test(file);
  return {
    widths,
    builtIn,
    fontSpecific: header('EncodingScheme') === 'FontSpecific',
    fixedPitch: header('IsFixedPitch') === 'true',
    bbox,
    italicAngle: Number(header('ItalicAngle') ?? 0),
    ascent: boxes.get('d')?.[3] ?? bbox[3]!,
    descent: boxes.get('p')?.[1] ?? bbox[1]!,
    capHeight: Number(header('CapHeight') ?? bbox[3]),
    xHeight: Number(header('XHeight') ?? 0),
    // The AFMs give no StdVW; a typical stem for the weight (the value only guides hinting).
    stemV: bold ? 140 : 85,
  };
});

interface TypeOneProgram {
  bytes: Uint8Array;
  length1: number;
  length2: number;
  length3: number;
}

/**
 * A URW .t1 file as a FontFile stream (ISO 32000-1, 9.9): the files are Type 1
 * in binary form without PFB segment headers (clear text up to `eexec`, the
 * encrypted part in binary, then 512 zeros and cleartomark), so the three
 * lengths are found by those markers.
 */
const typeOneProgram = cachedByFile((file: string): TypeOneProgram => {
  const bytes = readFileSync(`${URW}/${file}.t1`);
  const eexec = bytes.indexOf('eexec');
  if (eexec < 0 || bytes[0] === 0x80) throw new Error(`${file}.t1: not a Type 1 program in binary form`);
  let length1 = eexec + 'eexec'.length;
  while (bytes[length1] === 0x0d || bytes[length1] === 0x0a || bytes[length1] === 0x20 || bytes[length1] === 0x09) length1++;
  // The trailer: 512 zeros (with line breaks among them) and cleartomark. Counting the zeros back from cleartomark keeps
  // a last encrypted byte that happens to be an ASCII 0 in the encrypted part.
  let at = bytes.lastIndexOf('cleartomark');
  let zeros = 0;
  while (at > length1 && zeros < 512) {
    const byte = bytes[at - 1]!;
    if (byte === 0x30) zeros++;
    else if (byte !== 0x0d && byte !== 0x0a && byte !== 0x20) break;
    at--;
  }
  if (zeros !== 512) throw new Error(`${file}.t1: no trailer of 512 zeros`);
  return { bytes: new Uint8Array(bytes), length1, length2: at - length1, length3: bytes.length - at };
});

/** A per-process cache of what is read from a substitute's files (they do not change while the service runs). */
function cachedByFile<T>(read: (file: string) => T): (file: string) => T {
  const cache = new Map<string, T>();
  return (file) => {
    if (!cache.has(file)) cache.set(file, read(file));
    return cache.get(file)!;
  };
}
