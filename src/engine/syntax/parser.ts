/**
 * PDF object syntax (ISO 32000-1 §7.3) parsed in JavaScript. Reading an
 * annotation through MuPDF's object API creates one JS wrapper per value, each
 * registered with a FinalizationRegistry; for thousands of annotations that
 * registration and the garbage it makes cost more than the reading. So a
 * dictionary is printed once by MuPDF (PDFObject.toString, already decrypted)
 * and parsed here into plain values. FDF files (xfdf/fdf.ts) are read with the same
 * parser. No MuPDF here: the module may be loaded on any thread.
 */
export class PdfName {
  constructor(readonly name: string) {}
}
export class PdfString {
  constructor(readonly bytes: Uint8Array) {}
}
export class PdfRef {
  constructor(readonly num: number, readonly gen: number) {}
}
export type PdfDict = Map<string, PdfValue>;
export type PdfValue = number | boolean | null | PdfName | PdfString | PdfRef | PdfValue[] | PdfDict;

/**
 * A reader of PDF values from text in which each character is one byte
 * (Latin-1). `pos` is where the next value starts; xfdf/fdf.ts moves it past the
 * file-level keywords (obj, stream, trailer) that are not values.
 */
export class Parser {
  pos = 0;
  /** Told of every string read, with where its token starts and ends (core/encrypt-file.ts rewrites them in place). */
  onString: ((string: PdfString, start: number, end: number) => void) | undefined;
  constructor(private readonly s: string) {}

  private fail(): never {
    throw new SyntaxError(`PDF syntax at ${this.pos}`);
  }

  /** Moves past white space and comments. */
  skipSpace(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 0x25) {
        while (this.pos < s.length && s[this.pos] !== '\n' && s[this.pos] !== '\r') this.pos++;
      } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00) {
        this.pos++;
      } else {
        return;
      }
    }
  }

  value(depth = 0): PdfValue {
    if (depth > 64) this.fail();
    this.skipSpace();
    const s = this.s;
    const c = s[this.pos];
    if (c === '/') return this.name();
    if (c === '(') return this.literal();
    if (c === '[') {
      this.pos++;
      const items: PdfValue[] = [];
      for (;;) {
        this.skipSpace();
        if (s[this.pos] === ']') {
          this.pos++;
          return items;
        }
        if (this.pos >= s.length) this.fail();
        items.push(this.value(depth + 1));
      }
    }
    if (c === '<') {
      if (s[this.pos + 1] === '<') {
        this.pos += 2;
        const dict: PdfDict = new Map();
        for (;;) {
          this.skipSpace();
          if (s.startsWith('>>', this.pos)) {
            this.pos += 2;
            return dict;
          }
          if (s[this.pos] !== '/') this.fail();
          const key = this.name().name;
          dict.set(key, this.value(depth + 1));
        }
      }
      return this.hex();
    }
    if (s.startsWith('true', this.pos)) return (this.pos += 4), true;
    if (s.startsWith('false', this.pos)) return (this.pos += 5), false;
    if (s.startsWith('null', this.pos)) return (this.pos += 4), null;
    return this.numberOrRef();
  }

  private name(): PdfName {
    this.pos++; // '/'
    const start = this.pos;
    const s = this.s;
    while (this.pos < s.length && !DELIMITER[s.charCodeAt(this.pos)]) this.pos++;
    const raw = s.slice(start, this.pos);
    return new PdfName(raw.includes('#') ? Buffer.from(raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8') : raw);
  }

  private literal(): PdfString {
    const s = this.s;
    const start = this.pos;
    this.pos++; // '('
    const out: number[] = [];
    let depth = 1;
    while (this.pos < s.length) {
      const ch = s[this.pos++]!;
      if (ch === '\\') {
        const e = s[this.pos++]!;
        const simple: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
        if (e in simple) out.push(simple[e]!);
        else if (/[0-7]/.test(e)) {
          let oct = e;
          while (oct.length < 3 && /[0-7]/.test(s[this.pos] ?? '')) oct += s[this.pos++];
          out.push(parseInt(oct, 8) & 0xff);
        } else if (e === '\r') {
          if (s[this.pos] === '\n') this.pos++;
        } else if (e !== '\n') out.push(e.charCodeAt(0) & 0xff);
      } else if (ch === '(') {
        depth++;
        out.push(40);
      } else if (ch === ')') {
        if (--depth === 0) return this.told(new PdfString(Uint8Array.from(out)), start);
        out.push(41);
      } else {
        out.push(ch.charCodeAt(0) & 0xff);
      }
    }
    this.fail();
  }

  private hex(): PdfString {
    const start = this.pos;
    const end = this.s.indexOf('>', this.pos);
    if (end < 0) this.fail();
    let digits = this.s.slice(this.pos + 1, end).replace(/\s+/g, '');
    this.pos = end + 1;
    if (digits.length % 2) digits += '0';
    return this.told(new PdfString(Uint8Array.from(Buffer.from(digits, 'hex'))), start);
  }

  private told(string: PdfString, start: number): PdfString {
    this.onString?.(string, start, this.pos);
    return string;
  }

  /**
   * A number, or a reference "12 0 R" (an integer, an integer and R). Scanned by hand: this runs for every number of
   * every annotation listed, and the regular expressions it replaced (and the strings they matched) were a tenth of
   * a cold listing's time. Accepts exactly what `[+-]?(\d+(\.\d*)?|\.\d+)` does, and the same references.
   */
  private numberOrRef(): number | PdfRef {
    const s = this.s;
    const start = this.pos;
    let pos = start;
    const sign = s.charCodeAt(pos);
    if (sign === 0x2b || sign === 0x2d) pos++;
    const digitsStart = pos;
    let value = 0;
    while (isDigit(s.charCodeAt(pos))) value = value * 10 + (s.charCodeAt(pos++) - 0x30);
    const intDigits = pos - digitsStart;
    let real = false;
    if (s.charCodeAt(pos) === 0x2e) {
      let frac = pos + 1;
      while (isDigit(s.charCodeAt(frac))) frac++;
      // "5." is a real; "." needs a digit after it.
      if (intDigits > 0 || frac > pos + 1) {
        real = true;
        pos = frac;
      }
    }
    if (intDigits === 0 && !real) this.fail();
    this.pos = pos;
    // Past 15 digits the running value may round differently from Number(): let Number() read it.
    const n = real || intDigits > 15 ? Number(s.slice(start, pos)) : sign === 0x2d ? -value : value;
    if (real) return n;
    const ref = this.referenceAfter(pos);
    if (ref === undefined) return n;
    this.pos = ref.end;
    return new PdfRef(n, ref.gen);
  }

  /** "<space>gen<space>R" at `pos`, not followed by a regular character: the rest of a reference. */
  private referenceAfter(pos: number): { gen: number; end: number } | undefined {
    const s = this.s;
    if (!isSpace(s, pos)) return undefined;
    while (isSpace(s, pos)) pos++;
    const genStart = pos;
    while (isDigit(s.charCodeAt(pos))) pos++;
    if (pos === genStart || !isSpace(s, pos)) return undefined;
    const gen = Number(s.slice(genStart, pos));
    while (isSpace(s, pos)) pos++;
    if (s.charCodeAt(pos) !== 0x52) return undefined;
    pos++;
    if (pos < s.length && !isSpace(s, pos) && !REF_END.has(s.charCodeAt(pos))) return undefined;
    return { gen, end: pos };
  }
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** JavaScript's \s, which the reference syntax was first read with: a table below 256, the expression above. */
const SPACE: boolean[] = [];
for (let c = 0; c < 256; c++) SPACE[c] = /\s/.test(String.fromCharCode(c));
function isSpace(s: string, pos: number): boolean {
  const c = s.charCodeAt(pos);
  return c < 256 ? SPACE[c] === true : /\s/.test(s[pos]!);
}
/** Delimiters that may follow the R of a reference. */
const REF_END = new Set([...'/()<>[]{}%'].map((c) => c.charCodeAt(0)));

/** Whitespace and delimiters end a name (§7.2.2). */
const DELIMITER: boolean[] = [];
for (const c of ' \t\r\n\f\0/()<>[]{}%') DELIMITER[c.charCodeAt(0)] = true;

/** Parses the text MuPDF prints for one object. */
export function parsePdfObject(text: string): PdfValue {
  return new Parser(text).value();
}

/** PDFDocEncoding's code points for 0x18-0x1F and 0x80-0x9F (the rest is Latin-1). */
const PDF_DOC: Record<number, number> = {
  0x18: 0x02d8, 0x19: 0x02c7, 0x1a: 0x02c6, 0x1b: 0x02d9, 0x1c: 0x02dd, 0x1d: 0x02db, 0x1e: 0x02da, 0x1f: 0x02dc,
  0x80: 0x2022, 0x81: 0x2020, 0x82: 0x2021, 0x83: 0x2026, 0x84: 0x2014, 0x85: 0x2013, 0x86: 0x0192, 0x87: 0x2044,
  0x88: 0x2039, 0x89: 0x203a, 0x8a: 0x2212, 0x8b: 0x2030, 0x8c: 0x201e, 0x8d: 0x201c, 0x8e: 0x201d, 0x8f: 0x2018,
  0x90: 0x2019, 0x91: 0x201a, 0x92: 0x2122, 0x93: 0xfb01, 0x94: 0xfb02, 0x95: 0x0141, 0x96: 0x0152, 0x97: 0x0160,
  0x98: 0x0178, 0x99: 0x017d, 0x9a: 0x0131, 0x9b: 0x0142, 0x9c: 0x0153, 0x9d: 0x0161, 0x9e: 0x017e, 0xa0: 0x20ac,
};

/** A PDF text string (§7.9.2.2): UTF-16BE or UTF-8 with a byte order mark, else PDFDocEncoding. */
export function decodeTextString(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1)));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return Buffer.from(bytes.subarray(3)).toString('utf8');
  let out = '';
  for (const b of bytes) out += String.fromCharCode(PDF_DOC[b] ?? b);
  return out;
}
