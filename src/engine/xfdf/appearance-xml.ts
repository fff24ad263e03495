import { EngineError } from '../errors.js';
import { PdfName, PdfString } from '../syntax/parser.js';
import { parseSafeXml, type XfdfElement } from './parse.js';
import { writeXml, type XmlNode } from '../syntax/xml-writer.js';

/**
 * Acrobat's XFDF <appearance>: an annotation's /AP dictionary as an XML
 * document, base64-encoded. The XML (decoded) looks like
 *
 *   <DICT KEY="AP">
 *     <STREAM KEY="N">
 *       <ARRAY KEY="BBox"><FIXED VAL="0"/>...</ARRAY>
 *       <INT KEY="Length" VAL="35"/>
 *       <DICT KEY="Resources">...</DICT>
 *       <DATA MODE="RAW" ENCODING="HEX">...</DATA>
 *     </STREAM>
 *   </DICT>
 *
 * DICT, STREAM (its dictionary's entries, then one DATA child), ARRAY (items
 * without KEY), INT, FIXED (a real), NAME, STRING, BOOL and NULL. Written:
 * entries sorted by key, so that the same appearance always gives the same
 * text; numbers in arrays as FIXED (Acrobat writes BBox and Matrix so, and
 * PDFBox reads only FIXED items); a stream's bytes as stored (MODE="RAW",
 * still filtered, its /Filter kept) in upper-case hex, /Length being the
 * number of those bytes; strings in VAL as the XFDF specification's "string
 * encoding conventions" have them: printable ASCII as is, a backslash doubled,
 * every other byte as \ddd (octal). Read liberally: element and attribute
 * names in any case, MODE RAW or FILTERED (decoded data: the stream's filters
 * are dropped), ENCODING HEX, BASE64 or ASCII, white space anywhere in hex or
 * base64, a STRING's VAL also as ENCODING="HEX"/"BASE64", /Length ignored.
 *
 * No MuPDF here: appearance-objects.ts reads and writes the PDF objects.
 */

/** A stream inlined in an appearance: its dictionary (without /Length) and its bytes. */
export class ApStream {
  /** raw: `data` is as stored (filtered, /Filter applies); otherwise decoded data, with no /Filter. */
  constructor(readonly dict: ApDict, readonly data: Uint8Array, readonly raw = true) {}
}
export type ApDict = Map<string, ApValue>;
export type ApValue = number | boolean | null | PdfName | PdfString | ApValue[] | ApDict | ApStream;

export const APPEARANCE_LIMITS = {
  /** Nesting of DICT, ARRAY and STREAM, the /AP dictionary itself being level 1. */
  depth: 32,
  /** Values (elements) in one appearance. */
  values: 50_000,
  /** Bytes of one appearance's XML, decoded from base64. */
  xmlBytes: 64 * 1024 * 1024,
};

// ---------------------------------------------------------------- writing

/** Numbers as XFDF writes them: plain decimals, no exponent. */
function decimal(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const r = Math.round(n * 1e6) / 1e6;
  return Object.is(r, -0) ? '0' : String(r);
}

/** A PDF string in the XFDF string encoding convention (see above). */
function stringVal(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    if (b === 0x5c) out += '\\\\';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\${b.toString(8).padStart(3, '0')}`;
  }
  return out;
}

const byKey = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

function toNode(v: ApValue, key: string | undefined, inArray: boolean): XmlNode {
  const attrs: [string, string | number][] = key === undefined ? [] : [['KEY', key]];
  const scalar = (tag: string, val: string): XmlNode => ({ tag, attrs: [...attrs, ['VAL', val]] });
  if (v === null) return { tag: 'NULL', attrs };
  if (typeof v === 'boolean') return scalar('BOOL', v ? 'true' : 'false');
  if (typeof v === 'number') return scalar(Number.isInteger(v) && !inArray ? 'INT' : 'FIXED', decimal(v));
  if (v instanceof PdfName) return scalar('NAME', v.name);
  if (v instanceof PdfString) return scalar('STRING', stringVal(v.bytes));
  if (Array.isArray(v)) return { tag: 'ARRAY', attrs, children: v.map((item) => toNode(item, undefined, true)) };
  if (v instanceof ApStream) {
    const entries: [string, ApValue][] = [...v.dict].filter(([k]) => k !== 'Length');
    entries.push(['Length', v.data.length]);
    entries.sort(byKey);
    const children = entries.map(([k, item]) => toNode(item, k, false));
    children.push({ tag: 'DATA', attrs: [['MODE', 'RAW'], ['ENCODING', 'HEX']], text: Buffer.from(v.data).toString('hex').toUpperCase() });
    return { tag: 'STREAM', attrs, children };
  }
  return { tag: 'DICT', attrs, children: [...v].sort(byKey).map(([k, item]) => toNode(item, k, false)) };
}

/** The text of <appearance> for an /AP dictionary; undefined when it would be larger than the import accepts. */
export function encodeAppearance(ap: ApDict): string | undefined {
  const xml = writeXml(toNode(ap, 'AP', false));
  if (xml.length > APPEARANCE_LIMITS.xmlBytes) return undefined;
  return Buffer.from(xml, 'utf8').toString('base64');
}

// ---------------------------------------------------------------- reading

interface ReadContext {
  /** Names the <appearance> in messages: `The <appearance> of <stamp name="x">`. */
  what: string;
  notes: string[];
  values: number;
}

const malformed = (message: string): never => {
  throw new EngineError('MALFORMED_XFDF', message);
};

/** An attribute by name in any case. */
function attr(e: XfdfElement, wanted: string): string | undefined {
  if (e.attrs[wanted] !== undefined) return e.attrs[wanted];
  const lower = wanted.toLowerCase();
  for (const [k, v] of Object.entries(e.attrs)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** Bytes of hex or base64 text (white space ignored); undefined when the text is not that encoding. */
function decodeBinary(text: string, encoding: 'HEX' | 'BASE64'): Uint8Array | undefined {
  const s = text.replace(/\s+/g, '');
  if (encoding === 'HEX') {
    if (!/^[0-9a-fA-F]*$/.test(s)) return undefined;
    return Uint8Array.from(Buffer.from(s.length % 2 ? `${s}0` : s, 'hex')); // an odd digit count ends in 0, as in PDF
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 === 1) return undefined;
  return Uint8Array.from(Buffer.from(s, 'base64'));
}

/** Text as bytes: Latin-1 when every character fits, else UTF-8. */
function textBytes(s: string): Uint8Array {
  return Uint8Array.from(Buffer.from(s, /^[\u0000-\u00ff]*$/.test(s) ? 'latin1' : 'utf8'));
}

const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };

/**
 * A STRING's VAL in the string encoding convention: \ddd and the PDF escapes
 * give bytes, characters up to U+00FF are Latin-1 bytes; a value with wider
 * characters becomes a UTF-16BE text string.
 */
export function stringBytes(val: string): Uint8Array {
  const codes: number[] = [];
  for (let i = 0; i < val.length; i++) {
    const c = val[i]!;
    if (c !== '\\' || i + 1 >= val.length) {
      codes.push(val.charCodeAt(i));
      continue;
    }
    const next = val[++i]!;
    if (/[0-7]/.test(next)) {
      let oct = next;
      while (oct.length < 3 && /[0-7]/.test(val[i + 1] ?? '')) oct += val[++i];
      codes.push(parseInt(oct, 8) & 0xff);
    } else {
      codes.push(ESCAPES[next] ?? next.charCodeAt(0)); // an unknown escape is the character itself, as in PDF
    }
  }
  if (codes.every((c) => c <= 0xff)) return Uint8Array.from(codes);
  const utf16 = new Uint8Array(2 * codes.length + 2);
  utf16[0] = 0xfe;
  utf16[1] = 0xff;
  codes.forEach((c, i) => {
    utf16[2 * i + 2] = c >> 8;
    utf16[2 * i + 3] = c & 0xff;
  });
  return utf16;
}

function scalarVal(e: XfdfElement, ctx: ReadContext): string | undefined {
  const val = attr(e, 'VAL') ?? (e.children.length === 0 && e.text.trim() ? e.text.trim() : undefined);
  if (val === undefined) ctx.notes.push(`${ctx.what}: <${e.tag}> without VAL left out`);
  return val;
}

function toValue(e: XfdfElement, depth: number, ctx: ReadContext): ApValue | undefined {
  if (++ctx.values > APPEARANCE_LIMITS.values) malformed(`${ctx.what} has more than ${APPEARANCE_LIMITS.values} values`);
  const tag = e.tag.toUpperCase();
  if ((tag === 'DICT' || tag === 'STREAM' || tag === 'ARRAY') && depth > APPEARANCE_LIMITS.depth) {
    malformed(`${ctx.what} is nested deeper than ${APPEARANCE_LIMITS.depth} levels`);
  }
  switch (tag) {
    case 'DICT':
      return toDict(e.children, depth, ctx);
    case 'STREAM': {
      const data = e.children.filter((c) => c.tag.toUpperCase() === 'DATA');
      const dict = toDict(e.children.filter((c) => c.tag.toUpperCase() !== 'DATA'), depth, ctx);
      dict.delete('Length');
      if (data.length > 1) ctx.notes.push(`${ctx.what}: a STREAM with ${data.length} DATA elements keeps the first`);
      if (!data[0]) return new ApStream(dict, new Uint8Array(0));
      const mode = (attr(data[0], 'MODE') ?? 'RAW').toUpperCase();
      const encoding = (attr(data[0], 'ENCODING') ?? (mode === 'FILTERED' ? 'ASCII' : 'HEX')).toUpperCase();
      let bytes: Uint8Array | undefined;
      if (encoding === 'HEX' || encoding === 'BASE64') bytes = decodeBinary(data[0].text, encoding);
      else if (encoding === 'ASCII') bytes = textBytes(data[0].text);
      else malformed(`${ctx.what} has DATA in an unknown ENCODING "${encoding.slice(0, 20)}" (HEX, BASE64 or ASCII)`);
      if (!bytes) return malformed(`${ctx.what} has DATA that is not ${encoding === 'HEX' ? 'hex' : 'base64'}`);
      if (mode === 'FILTERED') {
        for (const k of ['Filter', 'DecodeParms', 'DL']) dict.delete(k);
        return new ApStream(dict, bytes, false);
      }
      if (mode !== 'RAW') ctx.notes.push(`${ctx.what}: DATA MODE "${mode.slice(0, 20)}" read as RAW`);
      return new ApStream(dict, bytes);
    }
    case 'ARRAY': {
      const items: ApValue[] = [];
      for (const c of e.children) {
        const v = toValue(c, depth + 1, ctx);
        if (v !== undefined) items.push(v);
      }
      return items;
    }
    case 'INT':
    case 'FIXED':
    case 'REAL':
    case 'NUMBER': {
      const val = scalarVal(e, ctx);
      if (val === undefined) return undefined;
      const n = Number(val.trim());
      if (val.trim() === '' || !Number.isFinite(n)) {
        ctx.notes.push(`${ctx.what}: <${e.tag}> VAL is not a number, left out`);
        return undefined;
      }
      return n;
    }
    case 'NAME': {
      const val = scalarVal(e, ctx);
      return val === undefined ? undefined : new PdfName(val.replace(/^\//, ''));
    }
    case 'STRING': {
      const val = scalarVal(e, ctx);
      if (val === undefined) return undefined;
      const encoding = attr(e, 'ENCODING')?.toUpperCase();
      if (encoding === 'HEX' || encoding === 'BASE64') {
        const bytes = decodeBinary(val, encoding);
        return bytes ? new PdfString(bytes) : malformed(`${ctx.what} has a STRING that is not ${encoding === 'HEX' ? 'hex' : 'base64'}`);
      }
      return new PdfString(stringBytes(val));
    }
    case 'BOOL':
    case 'BOOLEAN': {
      const val = scalarVal(e, ctx)?.trim().toLowerCase();
      if (val === 'true' || val === 'false') return val === 'true';
      if (val !== undefined) ctx.notes.push(`${ctx.what}: <${e.tag}> VAL is neither true nor false, left out`);
      return undefined;
    }
    case 'NULL':
      return null;
    default:
      ctx.notes.push(`${ctx.what}: <${e.tag.slice(0, 40)}> is not an appearance element, left out`);
      return undefined;
  }
}

function toDict(children: XfdfElement[], depth: number, ctx: ReadContext): ApDict {
  const dict: ApDict = new Map();
  for (const c of children) {
    const key = attr(c, 'KEY')?.replace(/^\//, '');
    if (!key) {
      ctx.notes.push(`${ctx.what}: <${c.tag.slice(0, 40)}> without KEY in a dictionary left out`);
      continue;
    }
    const v = toValue(c, depth + 1, ctx);
    if (v !== undefined && v !== null) dict.set(key, v); // a null entry is an absent one
  }
  return dict;
}

/**
 * The /AP dictionary an <appearance> carries. What cannot be decoded (not
 * base64, not well-formed XML, a DOCTYPE or entity, nesting, values or size
 * past APPEARANCE_LIMITS, DATA that is not its ENCODING) is 400
 * MALFORMED_XFDF; an XML document that is not an appearance (its root is not
 * DICT, it has no N entry) gives undefined with a note in `notes`, as do
 * elements inside that are left out.
 */
export function decodeAppearance(text: string, what: string, notes: string[]): ApDict | undefined {
  const b64 = text.replace(/\s+/g, '');
  if (!b64) {
    notes.push(`${what} is empty, left out`);
    return undefined;
  }
  if (b64.length > (APPEARANCE_LIMITS.xmlBytes / 3) * 4 + 4) malformed(`${what} is larger than ${APPEARANCE_LIMITS.xmlBytes} bytes decoded`);
  const bytes = decodeBinary(b64, 'BASE64');
  if (!bytes) return malformed(`${what} is not base64`);
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(Buffer.from(bytes.subarray(0, 200)).toString('latin1'))?.[1]?.toLowerCase();
  let xml = Buffer.from(bytes).toString(declared && /^(iso-8859-1|latin-?1|windows-1252|us-ascii)$/.test(declared) ? 'latin1' : 'utf8');
  if (xml.charCodeAt(0) === 0xfeff) xml = xml.slice(1);
  // Every element costs at least one '<': refuse a flood of them before a tree is built.
  let tags = 0;
  for (let i = xml.indexOf('<'); i >= 0; i = xml.indexOf('<', i + 1)) {
    if (++tags > 4 * APPEARANCE_LIMITS.values) malformed(`${what} has more than ${APPEARANCE_LIMITS.values} values`);
  }
  // DATA sits inside the deepest STREAM: one level more than the values.
  const root = parseSafeXml(xml, what, APPEARANCE_LIMITS.depth + 1, `it is nested deeper than ${APPEARANCE_LIMITS.depth} levels`);
  if (root.tag.toUpperCase() !== 'DICT') {
    notes.push(`${what} does not hold a DICT but <${root.tag.slice(0, 40)}>: left out, an appearance is drawn`);
    return undefined;
  }
  const ap = toValue(root, 1, { what, notes, values: 0 }) as ApDict;
  if (!ap.has('N')) {
    notes.push(`${what} has no normal appearance (N): left out, an appearance is drawn`);
    return undefined;
  }
  return ap;
}
