/**
 * The image XObjects of a file MuPDF has just written, found by reading its
 * bytes front to back: streams are never inside object streams, so every
 * image is a top-level "N G obj << ... >> stream" with a direct /Length.
 * Opening the written file again with MuPDF and walking every object cost
 * as much as a fifth of OptimizeAction on the 200-page bench document
 * (measured). Answers undefined as soon as anything is not as MuPDF writes
 * it; the caller then measures the slow way.
 */

/** Character classes by byte: 1 white space, 2 delimiter, 0 regular. */
const CLASS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[c] = 1;
for (const c of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) CLASS[c] = 2;
const WHITE = { has: (c: number) => CLASS[c] === 1 };
const DELIM = { has: (c: number) => CLASS[c] === 2 };

class Unexpected extends Error {}

/** A minimal reader of PDF objects, enough for the dictionaries MuPDF writes. */
class Reader {
  pos: number;
  constructor(
    private readonly bytes: Uint8Array,
    start: number,
  ) {
    this.pos = start;
  }

  skipWhite(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      if (WHITE.has(b[this.pos]!)) this.pos++;
      else if (b[this.pos] === 0x25) while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      else break;
    }
  }

  /** A regular token (a number, a keyword, a name's characters). */
  regular(): string {
    const b = this.bytes;
    const start = this.pos;
    let text = '';
    while (this.pos < b.length && CLASS[b[this.pos]!] === 0) text += String.fromCharCode(b[this.pos++]!);
    if (this.pos - start > 1024) throw new Unexpected();
    return text;
  }

  startsWith(text: string): boolean {
    for (let i = 0; i < text.length; i++) if (this.bytes[this.pos + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  /** Skips one object; answers its top-level entries when it is a dictionary (values as text for names and numbers). */
  value(depth = 0): Map<string, string> | string | undefined {
    if (depth > 64) throw new Unexpected();
    this.skipWhite();
    const b = this.bytes;
    if (this.pos >= b.length) throw new Unexpected();
    const c = b[this.pos]!;
    if (this.startsWith('<<')) {
      this.pos += 2;
      const dict = new Map<string, string>();
      for (;;) {
        this.skipWhite();
        if (this.startsWith('>>')) {
          this.pos += 2;
          return dict;
        }
        if (b[this.pos] !== 0x2f) throw new Unexpected();
        this.pos++;
        const key = this.regular();
        const value = this.value(depth + 1);
        dict.set(key, typeof value === 'string' ? value : '');
      }
    }
    if (c === 0x5b) {
      this.pos++;
      for (;;) {
        this.skipWhite();
        if (b[this.pos] === 0x5d) {
          this.pos++;
          return undefined;
        }
        this.value(depth + 1);
      }
    }
    if (c === 0x28) {
      // A literal string: balanced parentheses, backslash escapes.
      let level = 0;
      for (; this.pos < b.length; this.pos++) {
        const ch = b[this.pos]!;
        if (ch === 0x5c) this.pos++;
        else if (ch === 0x28) level++;
        else if (ch === 0x29 && --level === 0) {
          this.pos++;
          return undefined;
        }
      }
      throw new Unexpected();
    }
    if (c === 0x3c) {
      const end = b.indexOf(0x3e, this.pos);
      if (end < 0) throw new Unexpected();
      this.pos = end + 1;
      return undefined;
    }
    if (c === 0x2f) {
      this.pos++;
      return '/' + this.regular();
    }
    const token = this.regular();
    if (token === '') throw new Unexpected();
    // An indirect reference "N G R" reads as one value.
    if (/^\d+$/.test(token)) {
      const save = this.pos;
      this.skipWhite();
      const generation = this.regular();
      this.skipWhite();
      if (/^\d+$/.test(generation) && this.bytes[this.pos] === 0x52 && (this.pos + 1 >= b.length || WHITE.has(b[this.pos + 1]!) || DELIM.has(b[this.pos + 1]!))) {
        this.pos++;
        return `${token} ${generation} R`;
      }
      this.pos = save;
    }
    return token;
  }
}

/** The count and stored bytes of the image XObject streams in `bytes`, or undefined when the file is not laid out as expected. */
export function writtenImageStreams(bytes: Uint8Array): { count: number; bytes: number } | undefined {
  const out = { count: 0, bytes: 0 };
  const reader = new Reader(bytes, 0);
  try {
    // Past the header line and the binary comment.
    reader.skipWhite();
    for (;;) {
      reader.skipWhite();
      if (reader.pos >= bytes.length) return undefined;
      if (reader.startsWith('xref') || reader.startsWith('startxref') || reader.startsWith('trailer')) return out;
      if (!/^\d+$/.test(reader.regular())) return undefined;
      reader.skipWhite();
      if (!/^\d+$/.test(reader.regular())) return undefined;
      reader.skipWhite();
      if (reader.regular() !== 'obj') return undefined;
      const value = reader.value();
      reader.skipWhite();
      if (reader.startsWith('stream')) {
        if (!(value instanceof Map)) return undefined;
        const length = Number(value.get('Length'));
        if (!Number.isInteger(length) || length < 0) return undefined;
        reader.pos += 'stream'.length;
        if (bytes[reader.pos] === 0x0d) reader.pos++;
        if (bytes[reader.pos] !== 0x0a) return undefined;
        reader.pos += 1 + length;
        reader.skipWhite();
        if (!reader.startsWith('endstream')) return undefined;
        reader.pos += 'endstream'.length;
        reader.skipWhite();
        if (value.get('Subtype') === '/Image') {
          out.count++;
          out.bytes += length;
        }
      }
      if (reader.regular() !== 'endobj') return undefined;
    }
  } catch (err) {
    if (err instanceof Unexpected || err instanceof RangeError) return undefined;
    throw err;
  }
}
