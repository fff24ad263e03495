import type * as mupdf from 'mupdf';
import { contentHolders, deref } from '../core/mupdf-objects.js';
import { contentTokens } from '../syntax/content-tokens.js';
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
  for (const holder of contentHolders(doc, ['page', 'form', 'tiling'])) {
    if (holder.streams.length === 1) {
      if (holder.streams[0]!.isStream()) tryStream(holder.streams[0]!, holder.resources);
      continue;
    }
    // A page's several streams share their graphics state: joined into one, rewritten only when it needs it.
    const parts: Uint8Array[] = [];
    for (const c of holder.streams) if (c.isStream()) parts.push(c.readStream().asUint8Array());
    const joined = Buffer.concat(parts.flatMap((p) => [Buffer.from(p), Buffer.from('\n')]));
    if (!needsScaling(joined)) continue;
    const stream = doc.addStream(joined, {});
    holder.owner.put('Contents', stream);
    tryStream(stream, holder.resources);
  }
  return done;
}

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
  /** A name operand (gs's), decoded. */
  name?: string;
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
  for (const token of contentTokens(s)) {
    const { start, end } = token;
    switch (token.kind) {
      case 'array-open':
      case 'array-close':
        depth = Math.max(0, depth + (token.kind === 'array-open' ? 1 : -1));
        continue;
      case 'stray':
        continue;
      case 'number':
        largest = Math.max(largest, Math.abs(token.value));
        tokens.push({ start, end, value: token.value, inArray: depth > 0 });
        continue;
      case 'name':
        tokens.push({ start, end, name: token.value, inArray: depth > 0 });
        continue;
      case 'string':
      case 'keyword':
      case 'dict-open':
      case 'dict-close':
        tokens.push({ start, end, inArray: depth > 0 });
        continue;
      case 'inline-image':
        // Drawn in place like an image XObject.
        ops.push({ word: 'BI', start, end, operands: [] });
        tokens.length = 0;
        continue;
      case 'operator': {
        const word = token.value;
        if (word === 'gs') {
          // An ExtGState that sets a line width or dash in user units: not rescaled here, so the stream is left as it is.
          const last = tokens[tokens.length - 1];
          const states = resources.isDictionary() ? deref(resources.get('ExtGState')) : undefined;
          if (last?.name !== undefined && states?.isDictionary()) {
            const gs = deref(states.get(last.name));
            if (gs.isDictionary() && (!gs.get('LW').isNull() || !gs.get('D').isNull())) return undefined;
          }
        }
        if (word === 'd0' || word === 'd1') return undefined;
        ops.push({ word, start, end, operands: tokens.splice(0) });
      }
    }
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
