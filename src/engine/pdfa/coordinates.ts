import type * as mupdf from 'mupdf';
import { deref, loadedObjects, name } from '../core/mupdf-objects.js';
import { trimmedNumber } from '../syntax/numbers.js';

/** PDF 1.4's largest real (ISO 19005-1, 6.1.12: PDF/A-1 keeps the implementation limits of PDF 1.4). */
const LIMIT = 32767;

/**
 * PDF/A-1: content streams whose numbers go beyond 32767 are rewritten in
 * units k times larger (k a power of ten), drawing the same: drawings made
 * under a tiny matrix in huge coordinates (pdfjs/text-extraction/
 * tracemonkey.pdf: paths at 5,000,000 under a 0.00008 scale) otherwise fail
 * 6.1.12, and Ghostscript keeps their numbers. Each q ... Q holding such
 * numbers (or the whole stream, when one is outside any q) starts with
 * `k 0 0 k 0 0 cm`, and inside it
 *
 * - path coordinates (m l c v y re), line width (w) and dashes (d) are
 *   divided by k; `cm` keeps its linear part and divides its translation
 *   (the same matrix in the new units);
 * - text keeps its own units: each BT sets the text matrix to 1/k, and Tm's
 *   six numbers are divided by k (text space is then what it was);
 * - images, forms (Do), inline images and shadings (sh) are drawn inside
 *   `q 1/k 0 0 1/k 0 0 cm ... Q`, in the units they had.
 *
 * A page's several content streams are joined into one first (they share
 * their graphics state). Line widths and dashes set by an ExtGState (LW, D)
 * are not rescaled: a stream using them is left as it is. Type 3 glyphs are
 * left as they are. Answers what was done, as report lines.
 */
export function scaleLargeCoordinates(doc: mupdf.PDFDocument): string[] {
  const done: string[] = [];
  const tryStream = (stream: mupdf.PDFObject, resources: mupdf.PDFObject): void => {
    const result = rescale(stream.readStream().asUint8Array(), resources);
    if (result) {
      stream.writeStream(result);
      done.push('content in coordinates beyond PDF/A-1 limits rewritten in larger units');
    }
  };
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.findPage(i);
    const resources = deref(page.getInheritable('Resources'));
    const contents = deref(page.get('Contents'));
    if (contents.isArray()) {
      const parts: Uint8Array[] = [];
      contents.forEach((c) => {
        if (c.isStream()) parts.push(c.readStream().asUint8Array());
      });
      const joined = Buffer.concat(parts.flatMap((p) => [Buffer.from(p), Buffer.from('\n')]));
      if (!needsScaling(joined)) continue;
      const stream = doc.addStream(joined, {});
      page.put('Contents', stream);
      tryStream(stream, resources);
    } else if (page.get('Contents').isStream()) {
      tryStream(page.get('Contents'), resources);
    }
  }
  for (const { ref, obj } of loadedObjects(doc, { streams: true })) {
    if (name(obj.get('Subtype')) === 'Form' || (name(obj.get('Type')) === 'Pattern' && deref(obj.get('PatternType')).isNumber() && deref(obj.get('PatternType')).asNumber() === 1)) {
      tryStream(ref, deref(obj.get('Resources')));
    }
  }
  return done;
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const regular = (b: number) => !WHITESPACE.has(b) && !DELIMITERS.has(b);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A cheap first look: any number token beyond the limit at all. */
function needsScaling(s: Uint8Array): boolean {
  const text = Buffer.from(s).toString('latin1');
  const pattern = /[+-]?\d{5,}(\.\d*)?/g;
  let m: RegExpExecArray | null;
  while ((m = pattern.exec(text))) if (Math.abs(Number(m[0])) > LIMIT) return true;
  return false;
}

interface Token {
  start: number;
  end: number;
  value?: number;
  /** Inside an array (d's dash array). */
  inArray: boolean;
}

const PATH_OPERATORS = new Set(['m', 'l', 'c', 'v', 'y', 're']);
const DRAWN_IN_PLACE = new Set(['Do', 'sh']);

function format(n: number): string {
  const magnitude = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
  return trimmedNumber(n, Math.min(15, Math.max(0, 9 - magnitude)));
}

/** The rewritten stream, or undefined when it needs none or uses what cannot be rescaled here. */
function rescale(s: Uint8Array, resources: mupdf.PDFObject): Uint8Array | undefined {
  if (!needsScaling(s)) return undefined;
  const tokens: Token[] = [];
  const ops: { word: string; start: number; end: number; operands: Token[] }[] = [];
  let largest = 0;
  let depth = 0;
  let i = 0;
  while (i < s.length) {
    const b = s[i]!;
    if (WHITESPACE.has(b)) {
      i++;
      continue;
    }
    const start = i;
    if (b === 0x25) {
      while (i < s.length && s[i] !== 0x0a && s[i] !== 0x0d) i++;
      continue;
    }
    if (b === 0x28) {
      let nest = 0;
      for (; i < s.length; i++) {
        if (s[i] === 0x5c) i++;
        else if (s[i] === 0x28) nest++;
        else if (s[i] === 0x29 && --nest === 0) break;
      }
      tokens.push({ start, end: ++i, inArray: depth > 0 });
      continue;
    }
    if ((b === 0x3c || b === 0x3e) && s[i + 1] === b) {
      i += 2;
      tokens.push({ start, end: i, inArray: depth > 0 });
      continue;
    }
    if (b === 0x3c) {
      while (i < s.length && s[i] !== 0x3e) i++;
      tokens.push({ start, end: ++i, inArray: depth > 0 });
      continue;
    }
    if (b === 0x5b || b === 0x5d) {
      depth = Math.max(0, depth + (b === 0x5b ? 1 : -1));
      i++;
      continue;
    }
    if (b === 0x2f) {
      for (i++; i < s.length && regular(s[i]!); i++);
      tokens.push({ start, end: i, inArray: depth > 0 });
      continue;
    }
    if (!regular(b)) {
      i++;
      continue;
    }
    while (i < s.length && regular(s[i]!)) i++;
    const word = Buffer.from(s.subarray(start, i)).toString('latin1');
    if (NUMBER.test(word)) {
      const value = Number(word);
      largest = Math.max(largest, Math.abs(value));
      tokens.push({ start, end: i, value, inArray: depth > 0 });
      continue;
    }
    if (word === 'BI') {
      // Inline image: BI ... ID data EI, drawn in place like an image XObject.
      let j = i;
      for (; j + 1 < s.length; j++) if (s[j] === 0x49 && s[j + 1] === 0x44 && WHITESPACE.has(s[j - 1]!) && WHITESPACE.has(s[j + 2] ?? 0x20)) break;
      for (j += 3; j + 1 < s.length; j++) if (s[j] === 0x45 && s[j + 1] === 0x49 && WHITESPACE.has(s[j - 1]!) && (j + 2 >= s.length || !regular(s[j + 2]!))) break;
      i = Math.min(s.length, j + 2);
      ops.push({ word: 'BI', start, end: i, operands: [] });
      tokens.length = 0;
      continue;
    }
    if (word === 'gs') {
      // An ExtGState that sets a line width or dash in user units: not rescaled here, so the stream is left as it is.
      const last = tokens[tokens.length - 1];
      const states = resources.isDictionary() ? deref(resources.get('ExtGState')) : undefined;
      if (last && states?.isDictionary()) {
        const gs = deref(states.get(decodeName(Buffer.from(s.subarray(last.start + 1, last.end)).toString('latin1'))));
        if (gs.isDictionary() && (!gs.get('LW').isNull() || !gs.get('D').isNull())) return undefined;
      }
    }
    if (word === 'd0' || word === 'd1') return undefined;
    ops.push({ word, start, end: i, operands: tokens.splice(0) });
  }
  if (largest <= LIMIT) return undefined;
  const k = 10 ** Math.ceil(Math.log10(largest / (LIMIT / 2)));
  // Where the large numbers are: each inside its innermost q ... Q is rewritten alone (the rest of the stream, text
  // included, keeps its bytes); one outside any q makes the whole stream the range.
  const ranges: [number, number][] = [];
  const stack: number[] = [];
  let whole = false;
  ops.forEach((op, index) => {
    if (op.word === 'q') stack.push(index);
    else if (op.word === 'Q') stack.pop();
    else if (op.operands.some((t) => t.value !== undefined && Math.abs(t.value) > LIMIT)) {
      const from = stack[stack.length - 1];
      if (from === undefined) whole = true;
      else if (!ranges.some(([a, b]) => a <= from && from <= b)) {
        let depth = 0;
        let to = ops.length;
        for (let j = from; j < ops.length; j++) {
          if (ops[j]!.word === 'q') depth++;
          else if (ops[j]!.word === 'Q' && --depth === 0) {
            to = j;
            break;
          }
        }
        for (let r = ranges.length - 1; r >= 0; r--) if (ranges[r]![0] > from && ranges[r]![1] <= to) ranges.splice(r, 1);
        ranges.push([from, to]);
      }
    }
  });
  const inRange = (index: number) => whole || ranges.some(([a, b]) => a < index && index < b);
  const parts: string[] = whole ? [`${k} 0 0 ${k} 0 0 cm\n`] : [];
  let copied = 0;
  const copy = (to: number) => {
    parts.push(Buffer.from(s.subarray(copied, to)).toString('latin1'));
    copied = to;
  };
  const divided = new Set<Token>();
  const divide = (token: Token) => {
    divided.add(token);
    copy(token.start);
    parts.push(format(token.value! / k));
    copied = token.end;
  };
  const inverse = format(1 / k);
  // Line width and dash set before a range apply inside it, in its new units: they are set again there, divided by k.
  let pen = { width: 1, dash: undefined as number[] | undefined, phase: 0 };
  const pens: (typeof pen)[] = [];
  ops.forEach((op, index) => {
    const values = op.operands.filter((t) => t.value !== undefined).map((t) => t.value!);
    if (op.word === 'q') pens.push({ ...pen });
    else if (op.word === 'Q') pen = pens.pop() ?? pen;
    else if (op.word === 'w' && values.length === 1) pen.width = values[0]!;
    else if (op.word === 'd') pen = { ...pen, dash: op.operands.filter((t) => t.inArray && t.value !== undefined).map((t) => t.value!), phase: op.operands.filter((t) => !t.inArray && t.value !== undefined).map((t) => t.value!)[0] ?? 0 };
    if (!whole && op.word === 'q' && ranges.some(([a]) => a === index)) {
      copy(op.end);
      parts.push(` ${k} 0 0 ${k} 0 0 cm ${format(pen.width / k)} w`);
      if (pen.dash?.length) parts.push(` [${pen.dash.map((v) => format(v / k)).join(' ')}] ${format(pen.phase / k)} d`);
      return;
    }
    if (!inRange(index)) return;
    const numbers = op.operands.filter((t) => t.value !== undefined);
    if (PATH_OPERATORS.has(op.word) || op.word === 'w' || op.word === 'd' || op.word === 'Tm') {
      numbers.forEach(divide);
    } else if (op.word === 'cm' && numbers.length === 6) {
      divide(numbers[4]!);
      divide(numbers[5]!);
    } else if (op.word === 'BT') {
      copy(op.end);
      parts.push(` ${inverse} 0 0 ${inverse} 0 0 Tm`);
    } else if (DRAWN_IN_PLACE.has(op.word) || op.word === 'BI') {
      const from = op.word === 'BI' ? op.start : (op.operands[op.operands.length - 1]?.start ?? op.start);
      copy(from);
      parts.push(`q ${inverse} 0 0 ${inverse} 0 0 cm `);
      copy(op.end);
      parts.push(' Q');
    }
  });
  // Numbers in text space (Td, TJ...) keep their units: where one of them is beyond the limit, nothing is gained.
  if (ops.some((op) => op.operands.some((t) => t.value !== undefined && !divided.has(t) && Math.abs(t.value) > LIMIT))) return undefined;
  copy(s.length);
  return new Uint8Array(Buffer.from(parts.join(''), 'latin1'));
}

function decodeName(raw: string): string {
  return raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
