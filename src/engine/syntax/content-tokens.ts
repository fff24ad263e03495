/**
 * The one lexer of content streams (ISO 32000-1, 7.8.2) for the code that
 * rewrites them in place (PDF/A repairs, redaction's quote operators): tokens
 * in order with their byte offsets, so a caller can copy the stream and
 * replace only what it changes. It never throws on damaged content: a byte it
 * cannot read is a `stray` token. Comments are skipped. Strings are located,
 * and decoded only when asked (`stringBytes`), since most callers only step
 * over them. An inline image, `BI <entries> ID <data> EI`, is one token: its
 * data is binary and must never be read as tokens. (Preflight's scanner in
 * preflight/content.ts builds operand values instead of offsets.)
 */

export type ContentToken =
  | { kind: 'number'; start: number; end: number; value: number }
  /** A name, its #xx escapes decoded (latin1, as MuPDF gives resource keys). */
  | { kind: 'name'; start: number; end: number; value: string }
  | { kind: 'string'; start: number; end: number; hex: boolean }
  | { kind: 'keyword'; start: number; end: number; value: 'true' | 'false' | 'null' }
  | { kind: 'operator'; start: number; end: number; value: string }
  | { kind: 'inline-image' | 'array-open' | 'array-close' | 'dict-open' | 'dict-close' | 'stray'; start: number; end: number };

const WHITE = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITE[c] = 1;
const DELIMITER = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIMITER[c.charCodeAt(0)] = 1;

const isRegular = (b: number): boolean => !WHITE[b] && !DELIMITER[b];

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A name token's #xx escapes decoded. */
function decodeName(raw: string): string {
  return raw.includes('#') ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : raw;
}

const latin1 = (s: Uint8Array, start: number, end: number) => Buffer.from(s.buffer, s.byteOffset + start, end - start).toString('latin1');

/** The end (exclusive) of a literal string opening at `i`: parentheses balance, a backslash escapes the next byte. */
function literalEnd(s: Uint8Array, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const b = s[j]!;
    if (b === 0x5c) j++;
    else if (b === 0x28) depth++;
    else if (b === 0x29 && --depth === 0) return j + 1;
  }
  return s.length;
}

/** Just past the `EI` that ends inline image data starting after the `ID` ending at `i`: the first EI after whitespace and before a non-regular byte or the end. */
function inlineDataEnd(s: Uint8Array, i: number): number {
  for (let j = i + 1; j + 1 < s.length; j++) {
    if (s[j] === 0x45 && s[j + 1] === 0x49 && WHITE[s[j - 1]!] && (j + 2 >= s.length || !isRegular(s[j + 2]!))) return j + 2;
  }
  return s.length;
}

/** The tokens of a content stream, in order. */
export function* contentTokens(s: Uint8Array): Generator<ContentToken> {
  let i = 0;
  /** Where the inline image being read began (its BI), while its entries are read up to ID. */
  let inlineStart: number | undefined;
  while (i < s.length) {
    const b = s[i]!;
    if (WHITE[b]) {
      i++;
      continue;
    }
    if (b === 0x25) {
      while (i < s.length && s[i] !== 0x0a && s[i] !== 0x0d) i++;
      continue;
    }
    const start = i;
    let token: ContentToken;
    if (b === 0x28) {
      i = literalEnd(s, i);
      token = { kind: 'string', start, end: i, hex: false };
    } else if ((b === 0x3c || b === 0x3e) && s[i + 1] === b) {
      i += 2;
      token = { kind: b === 0x3c ? 'dict-open' : 'dict-close', start, end: i };
    } else if (b === 0x3c) {
      const close = s.indexOf(0x3e, i);
      i = close < 0 ? s.length : close + 1;
      token = { kind: 'string', start, end: i, hex: true };
    } else if (b === 0x5b || b === 0x5d) {
      i++;
      token = { kind: b === 0x5b ? 'array-open' : 'array-close', start, end: i };
    } else if (b === 0x2f) {
      for (i++; i < s.length && isRegular(s[i]!); i++);
      token = { kind: 'name', start, end: i, value: decodeName(latin1(s, start + 1, i)) };
    } else if (!isRegular(b)) {
      i++;
      token = { kind: 'stray', start, end: i };
    } else {
      while (i < s.length && isRegular(s[i]!)) i++;
      const word = latin1(s, start, i);
      if (NUMBER.test(word)) token = { kind: 'number', start, end: i, value: Number(word) };
      else if (word === 'true' || word === 'false' || word === 'null') token = { kind: 'keyword', start, end: i, value: word };
      else if (word === 'BI') {
        inlineStart = start;
        continue;
      } else if (word === 'ID') {
        i = inlineDataEnd(s, i);
        token = { kind: 'inline-image', start: inlineStart ?? start, end: i };
        inlineStart = undefined;
      } else token = { kind: 'operator', start, end: i, value: word };
    }
    // The entries of an inline image's dictionary belong to its token.
    if (inlineStart === undefined) yield token;
  }
  if (inlineStart !== undefined) yield { kind: 'inline-image', start: inlineStart, end: s.length };
}

/** Path construction operators: a path is painted by the operator that ends it, and marked content may not begin inside it. */
const PATH_CONSTRUCTION = new Set(['m', 'l', 'c', 'v', 'y', 'h', 're', 'W', 'W*']);

/** One operation of a content stream, as contentOperations reads it. */
export interface ContentOperation {
  /** The operator; an inline image is `BI`. */
  op: string;
  /** Where its operands begin (its own start when it has none), and its end. */
  start: number;
  end: number;
  /** Where what it draws begins: for a path-painting operator, the path's first construction operand; else `start`. */
  begin: number;
  /** Its number and name operands at the top level, in order (arrays, dictionaries and strings are stepped over). */
  args: (number | string)[];
}

/**
 * The operations of a content stream, in order, for the code that marks content (engine/pdfua: artifacts.ts and
 * marking.ts): every operator but path construction, which is folded into the operator that ends the path.
 */
export function* contentOperations(content: Uint8Array): Generator<ContentOperation> {
  let nested = 0;
  let operandsStart = -1;
  let pathStart = -1;
  let args: (number | string)[] = [];
  for (const t of contentTokens(content)) {
    if (t.kind === 'array-open' || t.kind === 'dict-open') {
      if (nested++ === 0 && operandsStart < 0) operandsStart = t.start;
      continue;
    }
    if (t.kind === 'array-close' || t.kind === 'dict-close') {
      if (nested > 0) nested--;
      continue;
    }
    if (nested > 0 || t.kind === 'stray') continue;
    if (t.kind !== 'operator' && t.kind !== 'inline-image') {
      if (operandsStart < 0) operandsStart = t.start;
      if (t.kind === 'number' || t.kind === 'name') args.push(t.value);
      continue;
    }
    const start = operandsStart < 0 ? t.start : operandsStart;
    const operands = args;
    operandsStart = -1;
    args = [];
    const op = t.kind === 'operator' ? t.value : 'BI';
    if (PATH_CONSTRUCTION.has(op)) {
      if (pathStart < 0) pathStart = start;
      continue;
    }
    const begin = pathStart >= 0 ? pathStart : start;
    pathStart = -1;
    yield { op, start, end: t.end, begin, args: operands };
  }
}

const ESCAPES: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c };

/** The bytes a string token stands for: hex digits paired (an odd last one padded with 0), literal escapes and line ends read as ISO 32000-1, 7.3.4.2 says. */
export function stringBytes(s: Uint8Array, token: { start: number; end: number; hex: boolean }): number[] {
  const bytes: number[] = [];
  if (token.hex) {
    let digits = '';
    for (let i = token.start + 1; i < token.end && s[i] !== 0x3e; i++) if (!WHITE[s[i]!]) digits += String.fromCharCode(s[i]!);
    if (digits.length % 2) digits += '0';
    for (let k = 0; k < digits.length; k += 2) bytes.push(parseInt(digits.slice(k, k + 2), 16) || 0);
    return bytes;
  }
  let depth = 0;
  for (let i = token.start; i < token.end; i++) {
    const b = s[i]!;
    if (b === 0x5c) {
      const n = s[++i];
      if (n === undefined) break;
      if (ESCAPES[n] !== undefined) bytes.push(ESCAPES[n]!);
      else if (n >= 0x30 && n <= 0x37) {
        let octal = n - 0x30;
        for (let k = 0; k < 2 && s[i + 1]! >= 0x30 && s[i + 1]! <= 0x37; k++) octal = octal * 8 + (s[++i]! - 0x30);
        bytes.push(octal & 0xff);
      } else if (n === 0x0d) {
        if (s[i + 1] === 0x0a) i++; // a line continuation
      } else if (n !== 0x0a) bytes.push(n);
      continue;
    }
    if (b === 0x28 && depth++ === 0) continue;
    if (b === 0x29 && --depth === 0) break;
    // An end-of-line in a literal string is read as a line feed.
    if (b === 0x0d) {
      if (s[i + 1] === 0x0a) i++;
      bytes.push(0x0a);
      continue;
    }
    bytes.push(b);
  }
  return bytes;
}
