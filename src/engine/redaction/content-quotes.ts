/**
 * Rewrites the `'` and `"` text operators of a content stream into their
 * equivalents (`T* … Tj`, and `aw Tw ac Tc T* … Tj`). MuPDF's redaction
 * filter mangles text shown with these two operators instead of removing it
 * (measured: the string stays in the stream, moved off the page), so content
 * is normalised before redacting. Pure, no MuPDF.
 */

import { contentTokens } from '../syntax/content-tokens.js';

/**
 * The stream rewritten, or undefined when it uses neither operator (the usual
 * case: nothing is copied then).
 */
export function rewriteQuoteOperators(content: Uint8Array): Uint8Array | undefined {
  // Cheap test first: no quote byte at all means nothing to do.
  if (!content.includes(0x27) && !content.includes(0x22)) return undefined;
  const out: string[] = [];
  const latin1 = (a: number, b: number) => Buffer.from(content.buffer, content.byteOffset + a, b - a).toString('latin1');
  // Operands since the last operator: [start, end) of each top-level token.
  let operands: [number, number][] = [];
  let copiedTo = 0;
  let depth = 0; // inside [ ] or << >>
  let groupStart = 0;
  let changed = false;
  for (const t of contentTokens(content)) {
    if (t.kind === 'array-open' || t.kind === 'dict-open') {
      if (depth++ === 0) groupStart = t.start;
      continue;
    }
    if (t.kind === 'array-close' || t.kind === 'dict-close') {
      if (depth > 0 && --depth === 0) operands.push([groupStart, t.end]);
      continue;
    }
    if (t.kind === 'stray' || depth > 0) continue;
    if (t.kind !== 'operator' && t.kind !== 'inline-image') {
      operands.push([t.start, t.end]);
      continue;
    }
    const token = t.kind === 'operator' ? t.value : '';
    if ((token === "'" && operands.length >= 1) || (token === '"' && operands.length >= 3)) {
      const text = operands[operands.length - 1]!;
      const opStart = token === '"' ? operands[operands.length - 3]![0] : text[0];
      out.push(latin1(copiedTo, opStart));
      if (token === '"') {
        const [aw, ac] = [operands[operands.length - 3]!, operands[operands.length - 2]!];
        out.push(`${latin1(aw[0], aw[1])} Tw ${latin1(ac[0], ac[1])} Tc `);
      }
      out.push(`T* ${latin1(text[0], text[1])} Tj`);
      copiedTo = t.end;
      changed = true;
    }
    operands = [];
  }
  if (!changed) return undefined;
  out.push(latin1(copiedTo, content.length));
  return Buffer.from(out.join(''), 'latin1');
}
