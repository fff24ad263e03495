/**
 * The faces a text stamp is drawn with, and the order in which they are tried
 * for each character: the chosen font first, then the shipped DejaVu family
 * of the same kind and style, DejaVu Sans, and MuPDF's built-in CJK font.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import type { FontChoice } from './model.js';
import { deref, name } from '../core/mupdf-objects.js';

export interface Face {
  /** The name reported to the client (the PostScript name of base-14 faces, else the font's own). */
  readonly name: string;
  /** Whether the face can draw the code point. */
  has(codePoint: number): boolean;
  /** The code point as the face's font dictionary takes it in a hex string (after `has`). */
  encode(codePoint: number): string;
  /** Advance width of the code point in em (after `has`). */
  advance(codePoint: number): number;
  /** Whether the font program goes into the document (and so wants subsetting). */
  readonly embedded: boolean;
  /** Adds the face's font dictionary to a document. */
  addTo(doc: mupdf.PDFDocument): mupdf.PDFObject;
}

/**
 * Unicode to WinAnsiEncoding (Windows-1252) for the codes that differ from
 * Latin-1: 0x80 to 0x9F. 0x20-0x7E and 0xA0-0xFF are the code points themselves.
 */
const WIN_ANSI_HIGH: ReadonlyMap<number, number> = new Map([
  [0x20ac, 0x80], [0x201a, 0x82], [0x0192, 0x83], [0x201e, 0x84], [0x2026, 0x85], [0x2020, 0x86], [0x2021, 0x87],
  [0x02c6, 0x88], [0x2030, 0x89], [0x0160, 0x8a], [0x2039, 0x8b], [0x0152, 0x8c], [0x017d, 0x8e], [0x2018, 0x91],
  [0x2019, 0x92], [0x201c, 0x93], [0x201d, 0x94], [0x2022, 0x95], [0x2013, 0x96], [0x2014, 0x97], [0x02dc, 0x98],
  [0x2122, 0x99], [0x0161, 0x9a], [0x203a, 0x9b], [0x0153, 0x9c], [0x017e, 0x9e], [0x0178, 0x9f],
]);

function winAnsi(cp: number): number | undefined {
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return WIN_ANSI_HIGH.get(cp);
}

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');

/**
 * A base-14 text face: not embedded (every reader has it), WinAnsiEncoding,
 * so it draws Western European text only. Widths come from MuPDF's metric
 * twin of the face.
 */
class StandardFace implements Face {
  readonly embedded = false;
  private font: mupdf.Font | undefined;

  constructor(readonly name: string) {}

  private metrics(): mupdf.Font {
    return (this.font ??= new mupdf.Font(this.name));
  }

  has(cp: number): boolean {
    return winAnsi(cp) !== undefined;
  }

  encode(cp: number): string {
    return hex(winAnsi(cp)!, 2);
  }

  advance(cp: number): number {
    const font = this.metrics();
    return font.advanceGlyph(font.encodeCharacter(cp));
  }

  addTo(doc: mupdf.PDFDocument): mupdf.PDFObject {
    return doc.addSimpleFont(this.metrics(), 'Latin');
  }
}

/** An embedded face: a Type0 font (Identity-H, glyph ids as codes) with a ToUnicode map, so its text can be extracted. */
class EmbeddedFace implements Face {
  readonly embedded = true;
  private font: mupdf.Font | undefined;
  private readonly glyphs = new Map<number, number>();

  constructor(
    readonly name: string,
    private readonly load: () => mupdf.Font,
  ) {}

  private loaded(): mupdf.Font {
    return (this.font ??= this.load());
  }

  private glyph(cp: number): number {
    let gid = this.glyphs.get(cp);
    if (gid === undefined) {
      gid = this.loaded().encodeCharacter(cp);
      this.glyphs.set(cp, gid);
    }
    return gid;
  }

  has(cp: number): boolean {
    // Glyph 0 is .notdef: the font has no glyph for the character.
    return this.glyph(cp) !== 0;
  }

  encode(cp: number): string {
    return hex(this.glyph(cp), 4);
  }

  advance(cp: number): number {
    return this.loaded().advanceGlyph(this.glyph(cp));
  }

  addTo(doc: mupdf.PDFDocument): mupdf.PDFObject {
    const font = doc.addFont(this.loaded());
    // Codes are glyph ids: said explicitly, as PDF/UA-1 (7.21.3.2) and PDF/A ask of an embedded CIDFontType2.
    const descendant = deref(deref(deref(font).get('DescendantFonts')).get(0));
    if (descendant.isDictionary() && name(descendant.get('Subtype')) === 'CIDFontType2' && descendant.get('CIDToGIDMap').isNull()) {
      descendant.put('CIDToGIDMap', doc.newName('Identity'));
    }
    return font;
  }
}

let dejaVuFolder: string | undefined;

/** A TrueType file of the dejavu-fonts-ttf package, read when first needed. */
function dejaVu(file: string): () => mupdf.Font {
  return () => {
    try {
      dejaVuFolder ??= path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
      return new mupdf.Font(file, readFileSync(path.join(dejaVuFolder, `${file}.ttf`)));
    } catch {
      throw new EngineError('COMPONENT_MISSING', 'The DejaVu fonts (npm package dejavu-fonts-ttf) are not installed');
    }
  };
}

type Style = 'regular' | 'bold' | 'italic' | 'bolditalic';

const styleOf = (c: { bold: boolean; italic: boolean }): Style => (c.bold ? (c.italic ? 'bolditalic' : 'bold') : c.italic ? 'italic' : 'regular');

/** Each family's four faces by style; Symbol and ZapfDingbats have one. Faces are made once per worker. */
const FACES = {
  Helvetica: standard('Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique'),
  Times: standard('Times-Roman', 'Times-Bold', 'Times-Italic', 'Times-BoldItalic'),
  Courier: standard('Courier', 'Courier-Bold', 'Courier-Oblique', 'Courier-BoldOblique'),
  DejaVuSans: shipped('DejaVuSans', 'DejaVuSans-Bold', 'DejaVuSans-Oblique', 'DejaVuSans-BoldOblique'),
  DejaVuSerif: shipped('DejaVuSerif', 'DejaVuSerif-Bold', 'DejaVuSerif-Italic', 'DejaVuSerif-BoldItalic'),
  DejaVuSansMono: shipped('DejaVuSansMono', 'DejaVuSansMono-Bold', 'DejaVuSansMono-Oblique', 'DejaVuSansMono-BoldOblique'),
};

function standard(...names: [string, string, string, string]): Record<Style, Face> {
  const [regular, bold, italic, bolditalic] = names.map((n) => new StandardFace(n));
  return { regular: regular!, bold: bold!, italic: italic!, bolditalic: bolditalic! };
}

function shipped(...files: [string, string, string, string]): Record<Style, Face> {
  const [regular, bold, italic, bolditalic] = files.map((f) => new EmbeddedFace(f, dejaVu(f)));
  return { regular: regular!, bold: bold!, italic: italic!, bolditalic: bolditalic! };
}

// MuPDF's own faces: URW's metric clones of Symbol and ZapfDingbats (embedded, so the
// characters map by Unicode and not by the fonts' private encodings), and Droid Sans
// Fallback for Chinese, Japanese and Korean.
const SYMBOL = new EmbeddedFace('Symbol', () => new mupdf.Font('Symbol'));
const DINGBATS = new EmbeddedFace('ZapfDingbats', () => new mupdf.Font('ZapfDingbats'));
const CJK = new EmbeddedFace('DroidSansFallback', () => new mupdf.Font('zh-Hans'));

/**
 * The base-14 text faces as font programs to embed: MuPDF's URW clones, metric-compatible, so text set in them takes
 * the same room. Used where every font must be embedded (a stamp on a tagged document: PDF/UA-1 7.21.4.1).
 */
const EMBEDDED_STANDARD = {
  Helvetica: builtIn('Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique'),
  Times: builtIn('Times-Roman', 'Times-Bold', 'Times-Italic', 'Times-BoldItalic'),
  Courier: builtIn('Courier', 'Courier-Bold', 'Courier-Oblique', 'Courier-BoldOblique'),
};

function builtIn(...names: [string, string, string, string]): Record<Style, Face> {
  const [regular, bold, italic, bolditalic] = names.map((n) => new EmbeddedFace(n, () => new mupdf.Font(n)));
  return { regular: regular!, bold: bold!, italic: italic!, bolditalic: bolditalic! };
}

/** The faces tried for each character, in order, for a family and style; `embed`: only faces whose programs are embedded. */
export function faceChain(choice: FontChoice, options: { embed?: boolean | undefined } = {}): Face[] {
  const style = styleOf(choice);
  const sans = FACES.DejaVuSans;
  const base = options.embed ? EMBEDDED_STANDARD : FACES;
  const own: Face[] = {
    Helvetica: [base.Helvetica[style], sans[style]],
    Times: [base.Times[style], FACES.DejaVuSerif[style], sans[style]],
    Courier: [base.Courier[style], FACES.DejaVuSansMono[style], sans[style]],
    Symbol: [SYMBOL, sans[style]],
    ZapfDingbats: [DINGBATS, sans[style]],
    DejaVuSans: [sans[style]],
    DejaVuSerif: [FACES.DejaVuSerif[style], sans[style]],
    DejaVuSansMono: [FACES.DejaVuSansMono[style], sans[style]],
  }[choice.family];
  // The styled DejaVu Sans faces cover fewer scripts than the regular one (Arabic, for one).
  if (style !== 'regular') own.push(sans.regular);
  own.push(CJK);
  return own;
}
