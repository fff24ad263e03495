import { contentTokens } from '../syntax/content-tokens.js';

/**
 * PDF/UA-1 7.1 (veraPDF 7.1-3): all content is either real content in marked-content sequences the structure tree
 * refers to, or an artifact. Chromium draws some things outside any marked content: an image with alt="" (which HTML
 * means as decorative) is painted bare. Such content is, by the tree's own account, no part of the document's logical
 * content, so it is marked as what it is: an /Artifact sequence around each painting operation found outside every
 * marked-content sequence. Nothing else in the stream changes.
 */

/** Operators that paint, and so must be tagged or artifacts. */
const PAINTING = new Set(['Tj', 'TJ', "'", '"', 'Do', 'sh', 'f', 'F', 'f*', 'S', 's', 'B', 'B*', 'b', 'b*']);
/** Path construction: a path is painted by the operator that ends it, and marked content may not begin inside it. */
const PATH = new Set(['m', 'l', 'c', 'v', 'y', 'h', 're', 'W', 'W*']);

/**
 * The content stream with every painting operation outside marked content enclosed in `/Artifact BMC ... EMC` (a
 * path from its first construction operator), and how many were; `bytes` undefined when there were none.
 */
export function markUntaggedAsArtifacts(content: Uint8Array): { bytes?: Uint8Array; wrapped: number } {
  const latin1 = (a: number, b: number) => Buffer.from(content.buffer, content.byteOffset + a, b - a).toString('latin1');
  const out: string[] = [];
  let copiedTo = 0;
  let wrapped = 0;
  let marked = 0; // marked-content nesting
  let nested = 0; // inside [ ] or << >> operands
  let operandsStart = -1; // where the operands of the next operator begin
  let pathStart = -1; // where the path being built began (its first operand)
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
      continue;
    }
    const start = operandsStart < 0 ? t.start : operandsStart;
    operandsStart = -1;
    const op = t.kind === 'operator' ? t.value : 'BI';
    if (op === 'BDC' || op === 'BMC') marked++;
    else if (op === 'EMC') marked = Math.max(0, marked - 1);
    if (PATH.has(op)) {
      if (pathStart < 0) pathStart = start;
      continue;
    }
    const begin = pathStart >= 0 ? pathStart : start;
    pathStart = -1;
    // `n` ends a path that only clips: nothing painted.
    if (marked > 0 || !(PAINTING.has(op) || op === 'BI')) continue;
    out.push(latin1(copiedTo, begin), '/Artifact BMC\n', latin1(begin, t.end), '\nEMC');
    copiedTo = t.end;
    wrapped++;
  }
  if (wrapped === 0) return { wrapped };
  out.push(latin1(copiedTo, content.length));
  return { bytes: Buffer.from(out.join(''), 'latin1'), wrapped };
}
