/**
 * Rewrites the `'` and `"` text operators of a content stream into their
 * equivalents (`T* … Tj`, and `aw Tw ac Tc T* … Tj`). MuPDF's redaction
 * filter mangles text shown with these two operators instead of removing it
 * (measured: the string stays in the stream, moved off the page), so content
 * is normalised before redacting. Pure, no MuPDF.
 */

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

function isRegular(b: number): boolean {
  return !WHITESPACE.has(b) && !DELIMITERS.has(b);
}

/** The end (exclusive) of a literal string starting at `i` (an opening parenthesis). */
function literalEnd(s: Uint8Array, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const b = s[j]!;
    if (b === 0x5c) j++; // backslash: the next byte is escaped
    else if (b === 0x28) depth++;
    else if (b === 0x29 && --depth === 0) return j + 1;
  }
  return s.length;
}

/** The end of inline image data that starts after `ID` at `i`: just past the `EI` that follows whitespace and precedes whitespace or the end. */
function inlineImageEnd(s: Uint8Array, i: number): number {
  for (let j = i + 1; j + 1 < s.length; j++) {
    if (s[j] === 0x45 && s[j + 1] === 0x49 && WHITESPACE.has(s[j - 1]!) && (j + 2 >= s.length || !isRegular(s[j + 2]!))) return j + 2;
  }
  return s.length;
}

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
  let changed = false;
  let i = 0;
  while (i < content.length) {
    const b = content[i]!;
    if (WHITESPACE.has(b)) { i++; continue; }
    if (b === 0x25) { // comment
      while (i < content.length && content[i] !== 0x0a && content[i] !== 0x0d) i++;
      continue;
    }
    const start = i;
    if (b === 0x28) i = literalEnd(content, i);
    else if (b === 0x3c && content[i + 1] === 0x3c) { depth++; i += 2; continue; }
    else if (b === 0x3e && content[i + 1] === 0x3e) { depth--; i += 2; if (depth === 0) operands.push([start, i]); continue; }
    else if (b === 0x3c) { const end = content.indexOf(0x3e, i); i = end < 0 ? content.length : end + 1; }
    else if (b === 0x5b) { depth++; i++; continue; }
    else if (b === 0x5d) { depth--; i++; if (depth === 0) operands.push([start, i]); continue; }
    else if (b === 0x2f) { i++; while (i < content.length && isRegular(content[i]!)) i++; }
    else if (b === 0x7b || b === 0x7d || b === 0x29 || b === 0x3e) { i++; continue; }
    else { while (i < content.length && isRegular(content[i]!)) i++; }
    if (depth > 0) continue;
    const token = latin1(start, i);
    const first = token.charCodeAt(0);
    const isOperand = first === 0x28 || first === 0x3c || first === 0x2f || /^[+\-.\d]/u.test(token) || token === 'true' || token === 'false' || token === 'null';
    if (isOperand) { operands.push([start, i]); continue; }
    // An operator.
    if (token === 'ID') {
      i = inlineImageEnd(content, i);
    } else if ((token === "'" && operands.length >= 1) || (token === '"' && operands.length >= 3)) {
      const text = operands[operands.length - 1]!;
      const opStart = token === '"' ? operands[operands.length - 3]![0] : text[0];
      out.push(latin1(copiedTo, opStart));
      if (token === '"') {
        const [aw, ac] = [operands[operands.length - 3]!, operands[operands.length - 2]!];
        out.push(`${latin1(aw[0], aw[1])} Tw ${latin1(ac[0], ac[1])} Tc `);
      }
      out.push(`T* ${latin1(text[0], text[1])} Tj`);
      copiedTo = i;
      changed = true;
    }
    operands = [];
  }
  if (!changed) return undefined;
  out.push(latin1(copiedTo, content.length));
  return Buffer.from(out.join(''), 'latin1');
}
