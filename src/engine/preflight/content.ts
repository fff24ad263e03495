/**
 * A tolerant scanner of content streams (ISO 32000-1 §7.8.2) for preflight:
 * it reports each operator with its operands and never throws on damaged
 * content (a byte it cannot read is skipped), so that a broken page cannot
 * stop the check of the others. Strings are read past, not decoded: no rule
 * looks at text. Inline images are reported as the operator `BI` with their
 * dictionary; their data is skipped.
 */
import { PdfName } from '../syntax/parser.js';

export type Operand = number | boolean | null | PdfName | StringOperand | Operand[] | Map<string, Operand>;
/** A string operand (its bytes are of no interest to the rules). */
export class StringOperand {}
const STRING = new StringOperand();

/** Nesting of arrays and dictionaries kept before an operand is given up (bounds the recursion). */
const MAX_NESTING = 32;

const WHITE = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITE[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;

export interface ScanResult {
  operators: number;
  /** True when the scan stopped at the operator limit, or because the visitor asked it to. */
  stopped: boolean;
}

/**
 * Calls `visit` for each operator of `data` in order, with at most
 * `maxOperators` calls; `visit` answers false to stop early.
 */
export function scanContent(data: Uint8Array, maxOperators: number, visit: (op: string, operands: Operand[]) => boolean | void): ScanResult {
  const s = new Scanner(data);
  let operators = 0;
  let operands: Operand[] = [];
  while (s.pos < data.length) {
    s.skipSpace();
    if (s.pos >= data.length) break;
    const c = data[s.pos]!;
    if (DELIM[c] && c !== 0x25) {
      const v = s.value(0);
      if (v !== undefined) operands.push(v);
      // Unbalanced delimiters are skipped one byte at a time.
      continue;
    }
    const word = s.word();
    if (word === '') {
      s.pos++;
      continue;
    }
    const n = numberOf(word);
    if (n !== undefined) {
      operands.push(n);
      continue;
    }
    if (word === 'true' || word === 'false') {
      operands.push(word === 'true');
      continue;
    }
    if (word === 'null') {
      operands.push(null);
      continue;
    }
    if (++operators > maxOperators) return { operators: operators - 1, stopped: true };
    if (word === 'BI') {
      const dict = s.inlineImage();
      if (visit('BI', [dict]) === false) return { operators, stopped: true };
    } else if (visit(word, operands) === false) {
      return { operators, stopped: true };
    }
    operands = [];
  }
  return { operators, stopped: false };
}

function numberOf(word: string): number | undefined {
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(word)) return undefined;
  const n = Number(word);
  return Number.isFinite(n) ? n : undefined;
}

class Scanner {
  pos = 0;
  constructor(private readonly d: Uint8Array) {}

  skipSpace(): void {
    const d = this.d;
    while (this.pos < d.length) {
      const c = d[this.pos]!;
      if (c === 0x25) {
        while (this.pos < d.length && d[this.pos] !== 0x0a && d[this.pos] !== 0x0d) this.pos++;
      } else if (WHITE[c]) this.pos++;
      else return;
    }
  }

  /** A run of regular characters (an operator, number or keyword). */
  word(): string {
    const d = this.d;
    const start = this.pos;
    while (this.pos < d.length && !WHITE[d[this.pos]!] && !DELIM[d[this.pos]!]) this.pos++;
    return latin1(d, start, this.pos);
  }

  /** One operand starting at a delimiter; undefined (one byte consumed) for a stray one. */
  value(depth: number): Operand | undefined {
    const d = this.d;
    const c = d[this.pos]!;
    if (c === 0x2f) return this.name();
    if (c === 0x28) {
      this.literal();
      return STRING;
    }
    if (c === 0x3c && d[this.pos + 1] === 0x3c) return this.dict(depth);
    if (c === 0x3c) {
      while (this.pos < d.length && d[this.pos] !== 0x3e) this.pos++;
      this.pos++;
      return STRING;
    }
    if (c === 0x5b) {
      this.pos++;
      const items: Operand[] = [];
      for (;;) {
        this.skipSpace();
        if (this.pos >= d.length) return items;
        if (d[this.pos] === 0x5d) {
          this.pos++;
          return items;
        }
        const item = this.operand(depth + 1);
        if (item !== undefined && depth < MAX_NESTING) items.push(item);
      }
    }
    this.pos++;
    return undefined;
  }

  /** An operand inside an array or dictionary: a delimited value or a number/keyword. */
  private operand(depth: number): Operand | undefined {
    const c = this.d[this.pos]!;
    if (DELIM[c]) return this.value(depth);
    const word = this.word();
    if (word === '') {
      this.pos++;
      return undefined;
    }
    if (word === 'true' || word === 'false') return word === 'true';
    return numberOf(word) ?? null;
  }

  name(): PdfName {
    const d = this.d;
    this.pos++;
    const start = this.pos;
    while (this.pos < d.length && !WHITE[d[this.pos]!] && !DELIM[d[this.pos]!]) this.pos++;
    const raw = latin1(d, start, this.pos);
    return new PdfName(raw.includes('#') ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : raw);
  }

  literal(): void {
    const d = this.d;
    let level = 0;
    while (this.pos < d.length) {
      const c = d[this.pos++]!;
      if (c === 0x5c) this.pos++;
      else if (c === 0x28) level++;
      else if (c === 0x29 && --level === 0) return;
    }
  }

  dict(depth: number): Map<string, Operand> {
    const d = this.d;
    this.pos += 2;
    const out = new Map<string, Operand>();
    for (;;) {
      this.skipSpace();
      if (this.pos >= d.length) return out;
      if (d[this.pos] === 0x3e && d[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return out;
      }
      if (d[this.pos] !== 0x2f) {
        // Not a key: skip one value's worth and go on.
        this.operand(depth + 1);
        continue;
      }
      const key = this.name().name;
      this.skipSpace();
      if (this.pos >= d.length) return out;
      const v = this.operand(depth + 1);
      if (v !== undefined && depth < MAX_NESTING) out.set(key, v);
    }
  }

  /** The dictionary of an inline image (after BI); moves past its data and EI. */
  inlineImage(): Map<string, Operand> {
    const d = this.d;
    const out = new Map<string, Operand>();
    for (;;) {
      this.skipSpace();
      if (this.pos >= d.length) return out;
      if (d[this.pos] === 0x2f) {
        const key = this.name().name;
        this.skipSpace();
        if (this.pos >= d.length) return out;
        const v = this.operand(1);
        if (v !== undefined) out.set(key, v);
        continue;
      }
      const word = this.word();
      if (word === 'ID') break;
      if (word === '') this.pos++;
    }
    // One white-space byte follows ID; the data ends at EI between white space (or at the end).
    this.pos++;
    while (this.pos < d.length) {
      if (d[this.pos] === 0x45 && d[this.pos + 1] === 0x49 && WHITE[d[this.pos - 1]!] && (this.pos + 2 >= d.length || WHITE[d[this.pos + 2]!] || DELIM[d[this.pos + 2]!])) {
        this.pos += 2;
        return out;
      }
      this.pos++;
    }
    return out;
  }
}

function latin1(d: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(d[i]!);
  return s;
}
