import { contentOperations } from '../syntax/content-tokens.js';

/**
 * PDF/UA-1 7.1 (veraPDF 7.1-3): all content is either real content in marked-content sequences the structure tree
 * refers to, or an artifact. Chromium draws some things outside any marked content: an image with alt="" (which HTML
 * means as decorative) is painted bare. Such content is, by the tree's own account, no part of the document's logical
 * content, so it is marked as what it is: an /Artifact sequence around each painting operation found outside every
 * marked-content sequence. Nothing else in the stream changes.
 */

/** Operators that paint, and so must be tagged or artifacts. */
export const PAINTING = new Set(['Tj', 'TJ', "'", '"', 'Do', 'sh', 'f', 'F', 'f*', 'S', 's', 'B', 'B*', 'b', 'b*']);

/**
 * The content stream with every painting operation outside marked content enclosed in `/Artifact BMC ... EMC` (a
 * path from its first construction operator), and how many were; `bytes` undefined when there were none. A `Do` of
 * a form that `tagged(name)` says holds tagged content of its own (its stream's MCIDs, /StructParents) is left bare:
 * an artifact around it would hold tagged content (veraPDF 7.1-2), and its content is marked where it is drawn.
 */
export function markUntaggedAsArtifacts(content: Uint8Array, tagged?: (xobjectName: string) => boolean): { bytes?: Uint8Array; wrapped: number } {
  const latin1 = (a: number, b: number) => Buffer.from(content.buffer, content.byteOffset + a, b - a).toString('latin1');
  const out: string[] = [];
  let copiedTo = 0;
  let wrapped = 0;
  let marked = 0; // marked-content nesting
  for (const { op, begin, end, args } of contentOperations(content)) {
    if (op === 'BDC' || op === 'BMC') marked++;
    else if (op === 'EMC') marked = Math.max(0, marked - 1);
    // `n` ends a path that only clips: nothing painted.
    if (marked > 0 || !(PAINTING.has(op) || op === 'BI')) continue;
    if (op === 'Do' && typeof args[0] === 'string' && tagged?.(args[0])) continue;
    out.push(latin1(copiedTo, begin), '/Artifact BMC\n', latin1(begin, end), '\nEMC');
    copiedTo = end;
    wrapped++;
  }
  if (wrapped === 0) return { wrapped };
  out.push(latin1(copiedTo, content.length));
  return { bytes: Buffer.from(out.join(''), 'latin1'), wrapped };
}
