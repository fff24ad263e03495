import type * as mupdf from 'mupdf';
import { contentHolders, deref, name } from '../core/mupdf-objects.js';
import { contentTokens, stringBytes } from '../syntax/content-tokens.js';

/**
 * PDF/A forbids showing the .notdef glyph (ISO 19005-2, 6.2.11.8; veraPDF
 * checks it for part 1 too once the font is embedded). A non-symbolic simple
 * font with a standard encoding (WinAnsi, MacRoman, Standard; not embedded,
 * or a Type 1 font that names the encoding) has no glyph for the control
 * codes 0-31 unless its Differences name one: text
 * that shows them (a newline inside a string: pdfbox/attachments/
 * embedded_zip.pdf) draws nothing in viewers, but once a font is embedded for
 * PDF/A it refers to .notdef. Those bytes are taken out of the strings; where
 * the font gives the code a width, a TJ adjustment keeps the next glyphs
 * where they were (character spacing, Tc, on the removed codes is not kept).
 * The same for CID 0 in composite fonts with the Identity encodings, embedded
 * or not: it is .notdef in every CIDFont (us_constitution.pdf draws its spaces
 * with it; text extraction then finds the word gaps from the kept widths).
 * Answers what was done, as report lines.
 */
export function dropNotdefCodes(doc: mupdf.PDFDocument): string[] {
  const done: string[] = [];
  const fontCache = new Map<number, FontFacts | null>();
  const factsOf = (ref: mupdf.PDFObject): FontFacts | null => {
    const num = ref.isIndirect() ? ref.asIndirect() : undefined;
    if (num !== undefined && fontCache.has(num)) return fontCache.get(num)!;
    const facts = fontFacts(deref(ref));
    if (num !== undefined) fontCache.set(num, facts);
    return facts;
  };
  const visit = (resources: mupdf.PDFObject, streams: mupdf.PDFObject[]) => {
    const fonts = resources.isDictionary() ? deref(resources.get('Font')) : undefined;
    if (!fonts?.isDictionary()) return;
    const affected = new Map<string, FontFacts>();
    fonts.forEach((ref, key) => {
      const facts = factsOf(ref);
      if (facts) affected.set(String(key), facts);
    });
    if (!affected.size) return;
    for (const stream of streams) {
      if (!stream.isStream()) continue;
      const result = rewriteText(stream.readStream().asUint8Array(), affected);
      if (result) {
        stream.writeStream(result.content);
        for (let i = 0; i < result.removed; i++) done.push('undefined character codes (shown as .notdef) removed from text');
      }
    }
  };
  for (const holder of contentHolders(doc, ['page', 'form'])) visit(holder.resources, holder.streams);
  return done;
}

interface FontFacts {
  /** Codes without a glyph. */
  undefinedCodes: Set<number>;
  /** 1 for simple fonts, 2 for Identity-H/V composite fonts. */
  bytesPerCode: 1 | 2;
  /** A code's width in glyph space (thousandths of text space), 0 when the font gives none. */
  width(code: number): number;
}

const STANDARD_ENCODINGS = new Set(['WinAnsiEncoding', 'MacRomanEncoding', 'StandardEncoding']);
const SYMBOLIC = 4;

/** The codes 0-31 a simple, not embedded, non-symbolic font has no glyph for; null when there are none or the font is not such a font. */
function fontFacts(font: mupdf.PDFObject): FontFacts | null {
  if (!font.isDictionary()) return null;
  const subtype = name(font.get('Subtype'));
  if (subtype === 'Type0') return identityFontFacts(font);
  if (subtype !== 'Type1' && subtype !== 'TrueType' && subtype !== 'MMType1') return null;
  const descriptor = deref(font.get('FontDescriptor'));
  // An embedded Type 1 font with a standard encoding named in the font dictionary has no glyph for codes the encoding
  // leaves unnamed either (a substitute the service embedded keeps the encoding: this step may run after that); one
  // without an Encoding uses its built-in encoding, and an embedded TrueType font may map codes through its cmap.
  const explicitEncoding = !font.get('Encoding').isNull();
  if (descriptor.isDictionary()) {
    const embedded = ['FontFile', 'FontFile2', 'FontFile3'].some((key) => !descriptor.get(key).isNull());
    if (embedded && (subtype === 'TrueType' || !explicitEncoding)) return null;
    const flags = deref(descriptor.get('Flags'));
    if (flags.isNumber() && flags.asNumber() & SYMBOLIC) return null;
  } else if (['Symbol', 'ZapfDingbats'].includes(name(font.get('BaseFont')) ?? '')) {
    return null;
  }
  const encoding = deref(font.get('Encoding'));
  const base = encoding.isName() ? encoding.asName() : encoding.isDictionary() ? (name(encoding.get('BaseEncoding')) ?? 'StandardEncoding') : 'StandardEncoding';
  if (!STANDARD_ENCODINGS.has(base)) return null;
  const undefinedCodes = new Set<number>(Array.from({ length: 32 }, (_, i) => i));
  const differences = encoding.isDictionary() ? deref(encoding.get('Differences')) : undefined;
  if (differences?.isArray()) {
    let code = 0;
    differences.forEach((item) => {
      const v = deref(item);
      if (v.isNumber()) code = v.asNumber();
      else if (v.isName()) undefinedCodes.delete(code++);
    });
  }
  if (!undefinedCodes.size) return null;
  const widths = deref(font.get('Widths'));
  const first = deref(font.get('FirstChar'));
  const missing = descriptor.isDictionary() ? deref(descriptor.get('MissingWidth')) : undefined;
  return {
    undefinedCodes,
    bytesPerCode: 1,
    width(code) {
      const index = code - (first.isNumber() ? first.asNumber() : 0);
      if (widths.isArray() && index >= 0 && index < widths.length) {
        const w = deref(widths.get(index));
        return w.isNumber() ? w.asNumber() : 0;
      }
      return missing?.isNumber() ? missing.asNumber() : 0;
    },
  };
}

/**
 * A composite font with the Identity-H or -V encoding: the two-byte code is the CID, and CID 0 is .notdef in
 * every CIDFont (pdf-lib/optimization/us_constitution.pdf shows it between words, as a space).
 */
function identityFontFacts(font: mupdf.PDFObject): FontFacts | null {
  const encoding = name(font.get('Encoding'));
  if (encoding !== 'Identity-H' && encoding !== 'Identity-V') return null;
  const descendants = deref(font.get('DescendantFonts'));
  const cidFont = descendants.isArray() && descendants.length > 0 ? deref(descendants.get(0)) : undefined;
  if (!cidFont?.isDictionary()) return null;
  // A TrueType CIDFont's CIDToGIDMap stream may send CID 0 to a real glyph: only the identity map is sure to give .notdef.
  const map = cidFont.get('CIDToGIDMap');
  if (name(cidFont.get('Subtype')) === 'CIDFontType2' && !map.isNull() && name(map) !== 'Identity') return null;
  // CID 0's horizontal width: W's entry for it, else DW (1000 by default). Vertical fonts advance by W2: no adjustment kept.
  let width = deref(cidFont.get('DW')).isNumber() ? deref(cidFont.get('DW')).asNumber() : 1000;
  const w = deref(cidFont.get('W'));
  if (w.isArray() && w.length >= 2) {
    const first = deref(w.get(0));
    const second = deref(w.get(1));
    if (first.isNumber() && first.asNumber() === 0) {
      if (second.isArray() && second.length > 0 && deref(second.get(0)).isNumber()) width = deref(second.get(0)).asNumber();
      else if (second.isNumber() && w.length >= 3 && deref(w.get(2)).isNumber()) width = deref(w.get(2)).asNumber();
    }
  }
  const advance = encoding === 'Identity-H' ? width : 0;
  return { undefinedCodes: new Set([0]), bytesPerCode: 2, width: () => advance };
}

/** A string shown, located in the stream; its bytes are decoded only for fonts with undefined codes. */
interface StringToken {
  start: number;
  end: number;
  hex: boolean;
}

/**
 * The content with undefined codes taken out of the strings shown in the
 * affected fonts, or undefined when none was there. The font is followed
 * through Tf, q and Q; strings, arrays and inline images are read as the
 * content syntax has them.
 */
function rewriteText(s: Uint8Array, fonts: Map<string, FontFacts>): { content: Uint8Array; removed: number } | undefined {
  const edits: { start: number; end: number; text: string }[] = [];
  let removed = 0;
  let font: FontFacts | undefined;
  const stack: (FontFacts | undefined)[] = [];
  let operands: (StringToken | { name: string } | number | 'other')[] = [];
  /** The array being read (open), and the last one closed (TJ's operand). */
  let array: { start: number; items: (StringToken | number)[] } | undefined;
  let closed: { start: number; items: (StringToken | number)[] } | undefined;
  /** The pieces of one string with the undefined codes out: strings and (for codes with a width) adjustments. */
  const split = (token: StringToken): (number[] | number)[] | undefined => {
    if (!font) return undefined;
    const size = font.bytesPerCode;
    const bytes = stringBytes(s, token);
    const codes: number[][] = [];
    for (let k = 0; k + size <= bytes.length; k += size) codes.push(bytes.slice(k, k + size));
    const codeOf = (unit: number[]) => (size === 2 ? unit[0]! * 256 + unit[1]! : unit[0]!);
    if (!codes.some((unit) => font!.undefinedCodes.has(codeOf(unit)))) return undefined;
    const pieces: (number[] | number)[] = [[]];
    for (const unit of codes) {
      const b = codeOf(unit);
      if (!font.undefinedCodes.has(b)) {
        const last = pieces[pieces.length - 1];
        if (Array.isArray(last)) last.push(...unit);
        else pieces.push([...unit]);
        continue;
      }
      removed++;
      const w = font.width(b);
      if (w) {
        const last = pieces[pieces.length - 1];
        if (typeof last === 'number') pieces[pieces.length - 1] = last - w;
        else pieces.push(-w);
      }
    }
    return pieces.filter((p) => !(Array.isArray(p) && p.length === 0));
  };
  const write = (pieces: (number[] | number)[]) => pieces.map((p) => (Array.isArray(p) ? hexString(p) : String(p))).join(' ');
  for (const token of contentTokens(s)) {
    switch (token.kind) {
      case 'string':
        (array ? array.items : operands).push(token);
        continue;
      case 'number':
        (array ? array.items : operands).push(token.value);
        continue;
      case 'array-open':
        array = { start: token.start, items: [] };
        continue;
      case 'array-close':
        closed = array;
        array = undefined;
        continue;
      case 'name':
        if (!array) operands.push({ name: token.value });
        continue;
      case 'dict-open':
      case 'dict-close':
        continue;
      case 'stray':
      case 'keyword':
        operands.push('other');
        continue;
      case 'inline-image':
        break;
      case 'operator': {
        const word = token.value;
        if (word === 'q') {
          stack.push(font);
        } else if (word === 'Q') {
          font = stack.pop();
        } else if (word === 'Tf') {
          const named = operands.find((o): o is { name: string } => typeof o === 'object' && 'name' in o);
          font = named ? fonts.get(named.name) : undefined;
        } else if ((word === 'Tj' || word === "'" || word === '"') && font) {
          const shown = operands[operands.length - 1];
          if (shown && typeof shown === 'object' && 'hex' in shown) {
            const pieces = split(shown);
            if (pieces) {
              const strings = pieces.filter((p): p is number[] => Array.isArray(p));
              // Tj with widths to keep becomes TJ; ' and " keep their operator with the codes out.
              if (word === 'Tj' && pieces.some((p) => typeof p === 'number')) edits.push({ start: shown.start, end: token.end, text: `[${write(pieces)}] TJ` });
              else edits.push({ start: shown.start, end: shown.end, text: hexString(strings.flat()) });
            }
          }
        } else if (word === 'TJ' && closed && font) {
          const parts: string[] = [];
          let changed = false;
          for (const item of closed.items) {
            if (typeof item === 'number') {
              parts.push(String(item));
              continue;
            }
            const pieces = split(item);
            if (pieces) changed = true;
            parts.push(pieces ? write(pieces) : Buffer.from(s.subarray(item.start, item.end)).toString('latin1'));
          }
          if (changed) edits.push({ start: closed.start, end: token.end, text: `[${parts.join(' ')}] TJ` });
        }
        break;
      }
    }
    operands = [];
    array = undefined;
    closed = undefined;
  }
  if (!edits.length) return undefined;
  const out: Buffer[] = [];
  let copied = 0;
  for (const edit of edits) {
    out.push(Buffer.from(s.subarray(copied, edit.start)), Buffer.from(edit.text, 'latin1'));
    copied = edit.end;
  }
  out.push(Buffer.from(s.subarray(copied)));
  return { content: new Uint8Array(Buffer.concat(out)), removed };
}

function hexString(bytes: number[]): string {
  return `<${bytes.map((b) => b.toString(16).padStart(2, '0')).join('')}>`;
}
