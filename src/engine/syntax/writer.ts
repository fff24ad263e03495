/**
 * Plain PDF values (parser.ts) written as PDF object syntax: FDF files (xfdf/fdf.ts), and many annotation dictionaries
 * handed to MuPDF in one text it parses natively (xfdf/import.ts) instead of built value by value through its object
 * API. No MuPDF here.
 */
import { EngineError } from '../errors.js';
import { exactNumber } from './numbers.js';
import { PdfName, PdfRef, PdfString, type PdfValue } from './parser.js';

/** Bytes a name may hold as they are; anything else is written #XX (§7.3.5). */
function nameChar(b: number): boolean {
  return b > 0x20 && b < 0x7f && !'#/()<>[]{}%'.includes(String.fromCharCode(b));
}

/** Names written so far: an import writes the same few keys (/Type, /Rect...) tens of thousands of times. */
const writtenNames = new Map<string, string>();

function formatName(name: string): string {
  let out = writtenNames.get(name);
  if (out !== undefined) return out;
  out = '/';
  for (const b of Buffer.from(name, 'utf8')) out += nameChar(b) ? String.fromCharCode(b) : `#${b.toString(16).padStart(2, '0').toUpperCase()}`;
  if (writtenNames.size < 10_000) writtenNames.set(name, out);
  return out;
}

/** Literal form for printable ASCII (with escapes), hex otherwise. */
function formatString(bytes: Uint8Array): string {
  // Most strings are plain printable ASCII: written in one piece.
  let plain = true;
  for (const b of bytes) {
    if (b < 0x20 || b >= 0x7f || b === 0x28 || b === 0x29 || b === 0x5c) {
      plain = false;
      break;
    }
  }
  if (plain) return `(${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')})`;
  let literal = '(';
  for (const b of bytes) {
    if (b === 0x28 || b === 0x29 || b === 0x5c) literal += `\\${String.fromCharCode(b)}`;
    else if (b === 0x0a) literal += '\\n';
    else if (b === 0x0d) literal += '\\r';
    else if (b === 0x09) literal += '\\t';
    else if (b >= 0x20 && b < 0x7f) literal += String.fromCharCode(b);
    else return `<${Buffer.from(bytes).toString('hex').toUpperCase()}>`;
  }
  return `${literal})`;
}

/** A value in PDF syntax. Non-ASCII bytes never appear raw (strings go hex, names #XX). */
export function formatPdfValue(value: PdfValue, depth = 0): string {
  if (depth > 64) throw new EngineError('PROCESSING_FAILED', 'A value nests too deeply to be written');
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return exactNumber(value);
  if (value instanceof PdfName) return formatName(value.name);
  if (value instanceof PdfString) return formatString(value.bytes);
  if (value instanceof PdfRef) return `${value.num} ${value.gen} R`;
  if (Array.isArray(value)) return `[${value.map((v) => formatPdfValue(v, depth + 1)).join(' ')}]`;
  let out = '<<';
  for (const [key, v] of value) out += formatPdfEntry(key, v, depth + 1);
  return `${out} >>`;
}

/** One dictionary entry as formatPdfValue writes it inside `<<` and ` >>`: for a writer that picks the entries. */
export function formatPdfEntry(key: string, value: PdfValue, depth = 1): string {
  return ` ${formatName(key)} ${formatPdfValue(value, depth)}`;
}

/**
 * A small PDF file of the given object texts (numbered 1, 2, ... in order) with a cross-reference table and an empty
 * page tree, for MuPDF to open.
 */
export function pdfFileOf(objects: string[]): Uint8Array {
  const all = [...objects, `<< /Type /Catalog /Pages ${objects.length + 2} 0 R >>`, '<< /Type /Pages /Kids [] /Count 0 >>'];
  const parts: string[] = ['%PDF-1.7\n'];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  all.forEach((body, i) => {
    offsets.push(length);
    const part = `${i + 1} 0 obj\n${body}\nendobj\n`;
    parts.push(part);
    length += part.length;
  });
  parts.push(`xref\n0 ${all.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  parts.push(`trailer\n<< /Size ${all.length + 1} /Root ${objects.length + 1} 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  // The Buffer as it is (a Uint8Array): Uint8Array.from copies it element by element.
  return Buffer.from(parts.join(''), 'latin1');
}
