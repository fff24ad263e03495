/**
 * FDF files (ISO 32000-1 §12.7.8) read and written in JavaScript, without
 * MuPDF: an FDF is a small PDF-syntax file whose trailer's /Root holds an
 * /FDF dictionary (/Fields, /Annots, /F, /ID, ...). Both form field data and
 * annotations travel in it. Reading is tolerant of what real tools write
 * (with or without /Type /Catalog, with or without an xref table, CR or LF
 * line ends, streams whose /Length is indirect) and bounded (object count,
 * nesting). JavaScript is dropped on reading: an FDF's scripts are never run
 * and never imported.
 */
import { EngineError } from '../errors.js';
import { formatPdfValue } from '../syntax/writer.js';
import { Parser, PdfName, PdfRef, PdfString, type PdfDict, type PdfValue } from '../syntax/parser.js';

export interface FdfStream {
  /** The stream dictionary as written (its /Filter still applies to `data`). */
  dict: PdfDict;
  /** The raw (still encoded) bytes between `stream` and `endstream`. */
  data: Uint8Array;
}

export interface FdfFile {
  /** The /FDF dictionary. */
  root: PdfDict;
  /** Every indirect object by number; a stream object appears here as its dictionary. */
  objects: Map<number, PdfValue>;
  /** The stream objects by number. */
  streams: Map<number, FdfStream>;
  /** What was dropped while reading (JavaScript), for the client. */
  warnings: string[];
}

/** Work bounds: a body beyond them is refused rather than parsed. */
const FDF_MAX_OBJECTS = 100_000;

const fail = (message: string): never => {
  throw new EngineError('MALFORMED_FDF', message);
};

const OBJ_HEADER = /(\d+)\s+(\d+)\s+obj(?![^\s/()<>[\]{}%])/y;
const KEYWORD = /(trailer|xref|startxref|endobj)(?![^\s/()<>[\]{}%])/y;

/**
 * Reads an FDF file. Throws EngineError MALFORMED_FDF for anything it cannot
 * read. JavaScript (document scripts, /AA, JavaScript actions, /JS of any
 * action) is removed from the result and reported in `warnings`.
 */
export function parseFdf(bytes: Uint8Array): FdfFile {
  // One character per byte: offsets in the text are offsets in the file, and strings keep their bytes.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const header = /%FDF-1\.\d/.exec(text.slice(0, 1024));
  if (!header) fail('The body is not an FDF file (no %FDF-1.x header)');

  const parser = new Parser(text);
  parser.pos = header!.index + header![0].length;
  const objects = new Map<number, PdfValue>();
  const streams = new Map<number, FdfStream>();
  let trailer: PdfDict | undefined;

  const value = (): PdfValue => {
    try {
      return parser.value();
    } catch (err) {
      if (err instanceof SyntaxError || err instanceof RangeError) return fail(`Broken PDF syntax near byte ${parser.pos}`);
      throw err;
    }
  };

  for (;;) {
    parser.skipSpace();
    if (parser.pos >= text.length) break;
    OBJ_HEADER.lastIndex = parser.pos;
    const obj = OBJ_HEADER.exec(text);
    if (obj) {
      if (objects.size >= FDF_MAX_OBJECTS) fail(`The FDF has more than ${FDF_MAX_OBJECTS} objects`);
      parser.pos = OBJ_HEADER.lastIndex;
      const num = Number(obj[1]);
      const v = value();
      parser.skipSpace();
      if (text.startsWith('stream', parser.pos)) {
        if (!(v instanceof Map)) fail(`Object ${num}: a stream needs a dictionary`);
        const data = readStream(text, bytes, parser, v as PdfDict, num);
        streams.set(num, { dict: v as PdfDict, data });
      }
      objects.set(num, v);
      parser.skipSpace();
      // Tolerated when missing, as PDF readers do.
      if (text.startsWith('endobj', parser.pos)) parser.pos += 6;
      continue;
    }
    KEYWORD.lastIndex = parser.pos;
    const keyword = KEYWORD.exec(text);
    if (!keyword) fail(`Unexpected content near byte ${parser.pos}`);
    parser.pos = KEYWORD.lastIndex;
    switch (keyword![1]) {
      case 'trailer': {
        const t = value();
        if (!(t instanceof Map)) fail('The trailer is not a dictionary');
        trailer = t as PdfDict;
        break;
      }
      case 'xref':
        // A cross-reference table is optional in FDF and not needed: objects are read in order.
        skipXref(text, parser);
        break;
      case 'startxref':
        parser.skipSpace();
        while (parser.pos < text.length && /\d/.test(text[parser.pos]!)) parser.pos++;
        break;
      default: // a stray endobj
        break;
    }
  }

  const root = findRoot(trailer, objects);
  const warnings = dropJavaScript(root, objects, streams);
  return { root, objects, streams, warnings };
}

/** The stream's bytes; `parser.pos` is at the `stream` keyword and is left after `endstream`. */
function readStream(text: string, bytes: Uint8Array, parser: Parser, dict: PdfDict, num: number): Uint8Array {
  let start = parser.pos + 6;
  // The keyword is followed by CRLF or LF (§7.3.8.1); a lone CR is tolerated.
  if (text[start] === '\r') start++;
  if (text[start] === '\n') start++;
  const length = dict.get('Length');
  if (typeof length === 'number' && Number.isInteger(length) && length >= 0 && start + length <= text.length) {
    const after = /\s*endstream/y;
    after.lastIndex = start + length;
    if (after.exec(text)) {
      parser.pos = after.lastIndex;
      return bytes.slice(start, start + length);
    }
  }
  // /Length indirect or wrong: the data ends before the end-of-line that precedes `endstream`.
  const end = text.indexOf('endstream', start);
  if (end < 0) return fail(`Object ${num}: stream without endstream`);
  let dataEnd = end;
  if (text[dataEnd - 1] === '\n') dataEnd--;
  if (text[dataEnd - 1] === '\r') dataEnd--;
  parser.pos = end + 9;
  return bytes.slice(start, Math.max(start, dataEnd));
}

/** Moves past the subsections of an xref table ("0 3" then 20-byte entries). */
function skipXref(text: string, parser: Parser): void {
  const line = /\s*(\d+)\s+(\d+)[ \t]*\r?\n?/y;
  for (;;) {
    line.lastIndex = parser.pos;
    const m = line.exec(text);
    if (!m) return;
    parser.pos = line.lastIndex;
    const entries = /\s*\d{10}\s+\d{5}\s+[nf]/y;
    for (let i = 0; i < Number(m[2]); i++) {
      entries.lastIndex = parser.pos;
      if (!entries.exec(text)) return;
      parser.pos = entries.lastIndex;
    }
  }
}

/** The /FDF dictionary: from the trailer's /Root, or failing that from the first object that has one. */
function findRoot(trailer: PdfDict | undefined, objects: Map<number, PdfValue>): PdfDict {
  const deref = (v: PdfValue | undefined) => (v instanceof PdfRef ? objects.get(v.num) : v);
  const fdfOf = (catalog: PdfValue | undefined) => {
    const c = deref(catalog);
    const fdf = c instanceof Map ? deref(c.get('FDF')) : undefined;
    return fdf instanceof Map ? fdf : undefined;
  };
  const fromTrailer = fdfOf(trailer?.get('Root'));
  if (fromTrailer) return fromTrailer;
  // Some writers leave out the trailer; the catalog is still the object holding /FDF.
  for (const v of objects.values()) {
    const fdf = fdfOf(v);
    if (fdf) return fdf;
  }
  return fail('The FDF has no /FDF dictionary (trailer /Root)');
}

const isJavaScriptAction = (v: PdfValue | undefined): boolean =>
  v instanceof Map && v.get('S') instanceof PdfName && (v.get('S') as PdfName).name === 'JavaScript';

/**
 * Removes every script: /JavaScript entries (the /FDF's document scripts), /AA (additional actions, which
 * run on events) wherever they occur, JavaScript actions wherever they are
 * referred to (their reference is removed, and their objects emptied), and the
 * /JS of other actions (Rendition actions may carry one).
 */
function dropJavaScript(root: PdfDict, objects: Map<number, PdfValue>, streams: Map<number, FdfStream>): string[] {
  const found = new Map<string, number>();
  const note = (what: string) => found.set(what, (found.get(what) ?? 0) + 1);
  const scriptObjects = new Set<number>();
  for (const [num, v] of objects) {
    if (isJavaScriptAction(v)) scriptObjects.add(num);
  }
  const isScript = (v: PdfValue | undefined) => isJavaScriptAction(v) || (v instanceof PdfRef && scriptObjects.has(v.num));

  // Direct values only, so no loop is possible; indirect objects are each visited once below.
  const clean = (v: PdfValue, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        if (isScript(v[i])) {
          v.splice(i, 1);
          note('a JavaScript action');
        } else clean(v[i]!, depth + 1);
      }
    } else if (v instanceof Map) {
      for (const [key, item] of [...v]) {
        if (key === 'JavaScript') {
          v.delete(key);
          note('document scripts (/JavaScript)');
        } else if (key === 'AA') {
          v.delete(key);
          note('additional actions (/AA)');
        } else if (key === 'JS' && v.has('S')) {
          v.delete(key);
          note('a script (/JS) of an action');
        } else if (isScript(item)) {
          v.delete(key);
          note(`a JavaScript action (/${key})`);
        } else {
          clean(item, depth + 1);
        }
      }
    }
  };
  clean(root, 0);
  for (const [num, v] of objects) {
    if (scriptObjects.has(num)) {
      // Emptied, not removed: a reference to it now reads as null (§7.3.10).
      objects.set(num, null);
      streams.delete(num);
    } else if (v !== root) {
      clean(v, 0);
    }
  }
  return [...found].map(([what, count]) => `Dropped ${what} from the FDF${count > 1 ? ` (${count} times)` : ''}: scripts are never run or imported`);
}

/** Follows a reference through the file's objects (a stream reads as its dictionary); other values come back as they are. */
export function resolveFdf(fdf: Pick<FdfFile, 'objects'>, value: PdfValue | undefined): PdfValue | undefined {
  for (let hops = 0; value instanceof PdfRef; hops++) {
    if (hops > 32) return undefined;
    value = fdf.objects.get(value.num) ?? null;
  }
  return value;
}

// ---------------------------------------------------------------- writing

/** A PDF text string: plain bytes when ASCII, else UTF-16BE with a byte order mark (§7.9.2.2). */
export function textString(s: string): PdfString {
  if (/^[\x00-\x7f]*$/.test(s)) return new PdfString(Uint8Array.from(Buffer.from(s, 'latin1')));
  const utf16 = Buffer.from(`\ufeff${s}`, 'utf16le');
  utf16.swap16();
  return new PdfString(Uint8Array.from(utf16));
}

export interface FdfWriteInput {
  /** The /FDF dictionary (/Fields, /Annots, ...). /F and /ID are set from fileName and ids when given. */
  root: PdfDict;
  /** Further indirect objects, numbered 2 and up (1 is the catalog). */
  objects?: Map<number, PdfValue>;
  /** Stream objects (numbered like objects, not also listed there); /Length is set from the data. */
  streams?: Map<number, FdfStream>;
  /** The PDF the data belongs to: /F. */
  fileName?: string;
  /** The PDF's /ID pair. */
  ids?: [Uint8Array, Uint8Array];
}

/**
 * Writes an FDF file: `%FDF-1.2`, object 1 the catalog `<< /FDF << ... >> >>`,
 * then the other objects in number order, the trailer `<< /Root 1 0 R >>` and
 * `%%EOF`. No xref table: FDF does not need one, and parseFdf reads objects in
 * order. parseFdf(writeFdf(x)) gives back x's values.
 */
export function writeFdf(input: FdfWriteInput): Uint8Array {
  const root: PdfDict = new Map(input.root);
  if (input.fileName !== undefined) root.set('F', textString(input.fileName));
  if (input.ids) root.set('ID', [new PdfString(input.ids[0]), new PdfString(input.ids[1])]);
  const parts: Buffer[] = [Buffer.from('%FDF-1.2\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const ascii = (s: string) => parts.push(Buffer.from(s, 'latin1'));
  ascii(`1 0 obj\n${formatPdfValue(new Map<string, PdfValue>([['FDF', root]]))}\nendobj\n`);
  const numbers = new Set([...(input.objects?.keys() ?? []), ...(input.streams?.keys() ?? [])]);
  for (const num of [...numbers].sort((a, b) => a - b)) {
    if (num === 1 || !Number.isInteger(num) || num < 1) throw new EngineError('PROCESSING_FAILED', `FDF object number ${num} is reserved or invalid`);
    const stream = input.streams?.get(num);
    if (stream) {
      const dict: PdfDict = new Map(stream.dict);
      dict.set('Length', stream.data.length);
      ascii(`${num} 0 obj\n${formatPdfValue(dict)}\nstream\n`);
      parts.push(Buffer.from(stream.data.buffer, stream.data.byteOffset, stream.data.byteLength));
      ascii('\nendstream\nendobj\n');
    } else {
      ascii(`${num} 0 obj\n${formatPdfValue(input.objects!.get(num)!)}\nendobj\n`);
    }
  }
  ascii('trailer\n<< /Root 1 0 R >>\n%%EOF\n');
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * Numbers objects for writeFdf: `add` and `addStream` return the reference to
 * put in the /FDF tree; `write` produces the file.
 */
export class FdfBuilder {
  private next = 2;
  readonly objects = new Map<number, PdfValue>();
  readonly streams = new Map<number, FdfStream>();

  add(value: PdfValue): PdfRef {
    const num = this.next++;
    this.objects.set(num, value);
    return new PdfRef(num, 0);
  }

  addStream(dict: PdfDict, data: Uint8Array): PdfRef {
    const num = this.next++;
    this.streams.set(num, { dict, data });
    return new PdfRef(num, 0);
  }

  write(root: PdfDict, options: { fileName?: string; ids?: [Uint8Array, Uint8Array] } = {}): Uint8Array {
    return writeFdf({ root, objects: this.objects, streams: this.streams, ...options });
  }
}
