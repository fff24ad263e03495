/**
 * A PDF encrypted in node (issue 38; docs/permissions.md, "Encryption keys"): MuPDF writes the document unencrypted in
 * full (core/save.ts, garbage=1: object numbers kept, no object streams, one cross-reference table), and every string
 * and stream of that file is encrypted here with a file key from the operating system's random source, the standard
 * security handler's dictionary computed by standard-security.ts. MuPDF's own encryption drew its keys, salts and IVs
 * from a 48-bit generator (core/wasm.ts, reseedRandom). Objects are rewritten where they are, in the same order and
 * with their text as MuPDF printed it: only strings (as hex) and stream data change, and a stream's /Length. Not
 * encrypted, as ISO 32000-2 7.6.2 says: the trailer (its /ID), the encryption dictionary, the /Contents of signature
 * dictionaries, and metadata streams when /EncryptMetadata is false. No MuPDF here: pure bytes in, bytes out.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { EngineError } from '../errors.js';
import { Parser, PdfName, PdfRef, PdfString, type PdfDict, type PdfValue } from '../syntax/parser.js';
import { formatPdfValue } from '../syntax/writer.js';
import { newStandardKeys, objectKey, rc4, type StandardKeys } from './standard-security.js';

/** The handler to write: revision 2 RC4-40, 3 RC4-128, 4 AES-128, 6 AES-256. */
export interface FileEncryption {
  revision: 2 | 3 | 4 | 6;
  /** Encoded as the revision takes them (passwords.ts, encodePassword). */
  userPassword: Uint8Array;
  ownerPassword: Uint8Array;
  permissionBits: number;
  encryptMetadata: boolean;
}

/** Random bytes drawn from the OS a block at a time: an AES string or stream takes a 16-byte IV each. */
class RandomPool {
  private block: Uint8Array = new Uint8Array(0);
  private at = 0;
  constructor(private readonly source: (n: number) => Uint8Array) {}
  take = (n: number): Uint8Array => {
    if (this.at + n > this.block.length) {
      this.block = this.source(Math.max(4096, n));
      this.at = 0;
    }
    const out = this.block.slice(this.at, this.at + n);
    this.at += n;
    return out;
  };
}

function osRandom(n: number): Uint8Array {
  return new Uint8Array(randomBytes(n));
}

function failed(why: string): EngineError {
  return new EngineError('PROCESSING_FAILED', `The document could not be encrypted: ${why}`);
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}

const hexOf = (bytes: Uint8Array) => `<${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase()}>`;

interface XrefEntry {
  offset: number;
  gen: number;
  inUse: boolean;
}

/** The cross-reference table and trailer a full save ends with. */
function readXref(bytes: Uint8Array): { at: number; entries: Map<number, XrefEntry>; trailer: PdfDict } {
  const tailFrom = Math.max(0, bytes.length - 1024);
  const tail = latin1(bytes, tailFrom, bytes.length);
  const startxref = tail.lastIndexOf('startxref');
  if (startxref < 0) throw failed('no startxref in the saved file');
  const at = Number(/^startxref\s+(\d+)/.exec(tail.slice(startxref))?.[1] ?? NaN);
  const trailerAt = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf('trailer', at, 'latin1');
  if (!Number.isInteger(at) || trailerAt < 0 || latin1(bytes, at, at + 4) !== 'xref') throw failed('the saved file has no cross-reference table');
  const tokens = latin1(bytes, at + 4, trailerAt).trim().split(/\s+/);
  const entries = new Map<number, XrefEntry>();
  for (let i = 0; i + 1 < tokens.length;) {
    const first = Number(tokens[i++]);
    const count = Number(tokens[i++]);
    for (let n = 0; n < count; n++, i += 3) {
      entries.set(first + n, { offset: Number(tokens[i]), gen: Number(tokens[i + 1]), inUse: tokens[i + 2] === 'n' });
    }
  }
  const trailer = new Parser(latin1(bytes, trailerAt + 7, tailFrom + startxref)).value();
  if (!(trailer instanceof Map)) throw failed('the saved file has no trailer dictionary');
  return { at, entries, trailer };
}

/** One object as parsed: its value, the spans of its strings and top-level values, and where its stream's data is. */
interface ParsedObject {
  num: number;
  gen: number;
  text: string;
  valueStart: number;
  valueEnd: number;
  value: PdfValue;
  strings: { string: PdfString; start: number; end: number }[];
  /** Top-level dictionary entries' value spans (a stream's /Length is rewritten). */
  spans: Map<string, [number, number]>;
  /** Offsets in the file of the stream's data. */
  stream?: { start: number; end: number };
}

/**
 * An object's header is read from its first bytes; the rest of its region (stream data) is not decoded as text. Most
 * dictionaries fit; a longer one is read again whole (a 64 KB first read was a third of a 1 MB document's time).
 */
const HEAD_BYTES = 2048;

function parseObject(bytes: Uint8Array, offset: number, end: number, lengthOf: (ref: PdfRef) => number): ParsedObject {
  const headEnd = Math.min(end, offset + HEAD_BYTES);
  try {
    const parsed = parseObjectText(bytes, offset, headEnd, lengthOf);
    if (parsed) return parsed;
  } catch (err) {
    if (headEnd === end) throw err;
  }
  let parsed: ParsedObject | undefined;
  try {
    parsed = parseObjectText(bytes, offset, end, lengthOf);
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw failed(`the object at ${offset} could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!parsed) throw failed(`the object at ${offset} does not end`);
  return parsed;
}

/** The object in bytes [offset, end), or undefined when its value or stream keyword may go on past `end`. */
function parseObjectText(bytes: Uint8Array, offset: number, end: number, lengthOf: (ref: PdfRef) => number): ParsedObject | undefined {
  const text = latin1(bytes, offset, end);
  const header = /^(\d+)\s+(\d+)\s+obj\b/.exec(text);
  if (!header) throw failed(`no object at ${offset}`);
  const parser = new Parser(text);
  parser.pos = header[0].length;
  const strings: ParsedObject['strings'] = [];
  parser.onString = (string, start, stop) => strings.push({ string, start, end: stop });
  parser.skipSpace();
  const valueStart = parser.pos;
  const spans = new Map<string, [number, number]>();
  let value: PdfValue;
  if (text.startsWith('<<', parser.pos)) {
    // The top level read entry by entry, to know where each value is.
    parser.pos += 2;
    const dict: PdfDict = new Map();
    for (;;) {
      parser.skipSpace();
      if (parser.pos >= text.length) return undefined;
      if (text.startsWith('>>', parser.pos)) break;
      const key = parser.value(1);
      if (!(key instanceof PdfName)) throw failed(`object ${header[1]} has a dictionary key that is not a name`);
      parser.skipSpace();
      const start = parser.pos;
      dict.set(key.name, parser.value(1));
      spans.set(key.name, [start, parser.pos]);
    }
    parser.pos += 2;
    value = dict;
  } else {
    value = parser.value();
  }
  const valueEnd = parser.pos;
  parser.skipSpace();
  if (parser.pos + 'endstream'.length > text.length && end - offset > text.length) return undefined;
  const parsed: ParsedObject = { num: Number(header[1]), gen: Number(header[2]), text, valueStart, valueEnd, value, strings, spans };
  if (value instanceof Map && text.startsWith('stream', parser.pos)) {
    let start = parser.pos + 6;
    if (text[start] === '\r') start++;
    if (text[start] === '\n') start++;
    const length = value.get('Length');
    const n = length instanceof PdfRef ? lengthOf(length) : length;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || offset + start + n > bytes.length) throw failed(`object ${parsed.num}'s stream has no usable /Length`);
    parsed.stream = { start: offset + start, end: offset + start + n };
  }
  return parsed;
}

/**
 * The /Contents of signature dictionaries anywhere in a value: not encrypted (ISO 32000-2, 7.6.2). A signature
 * dictionary as qpdf knows one when it decrypts: /Type /Sig (or /DocTimeStamp) with a /ByteRange.
 */
function signatureContents(value: PdfValue, out: Set<PdfString>): void {
  if (value instanceof Map) {
    const type = value.get('Type');
    const contents = value.get('Contents');
    if (type instanceof PdfName && (type.name === 'Sig' || type.name === 'DocTimeStamp') && value.has('ByteRange') && contents instanceof PdfString) out.add(contents);
    for (const v of value.values()) if (v instanceof Map || Array.isArray(v)) signatureContents(v, out);
  } else if (Array.isArray(value)) {
    for (const v of value) if (v instanceof Map || Array.isArray(v)) signatureContents(v, out);
  }
}

/** The cipher of one object's strings and streams (Algorithm 1; AES-256 with the file key itself). */
function objectCipher(keys: StandardKeys, revision: FileEncryption['revision'], num: number, gen: number, random: (n: number) => Uint8Array): (data: Uint8Array) => Uint8Array {
  if (revision === 6) return (data) => aesCbc('aes-256-cbc', keys.fileKey, data, random(16));
  // Derived on first use: most objects have neither strings nor a stream.
  let key: Uint8Array | undefined;
  const keyed = () => (key ??= objectKey(keys.fileKey, num, gen, revision === 4));
  if (revision === 4) return (data) => aesCbc('aes-128-cbc', keyed(), data, random(16));
  return (data) => rc4(keyed(), data);
}

/** The IV, then the data in CBC with PKCS#5 padding (ISO 32000-2, 7.6.3). */
function aesCbc(algorithm: 'aes-128-cbc' | 'aes-256-cbc', key: Uint8Array, data: Uint8Array, iv: Uint8Array): Uint8Array {
  const cipher = createCipheriv(algorithm, key, iv);
  return new Uint8Array(Buffer.concat([iv, cipher.update(data), cipher.final()]));
}

/** The encryption dictionary's text. */
function encryptDictionary(spec: FileEncryption, keys: StandardKeys): string {
  const common = `/Filter /Standard /P ${spec.permissionBits | 0} /O ${hexOf(keys.owner)} /U ${hexOf(keys.user)}`;
  const metadata = spec.encryptMetadata ? '' : ' /EncryptMetadata false';
  switch (spec.revision) {
    case 2:
      return `<< ${common} /V 1 /R 2 /Length 40 >>`;
    case 3:
      return `<< ${common} /V 2 /R 3 /Length 128 >>`;
    case 4:
      return `<< ${common} /V 4 /R 4 /Length 128 /CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV2 /Length 16 >> >> /StmF /StdCF /StrF /StdCF${metadata} >>`;
    case 6:
      return `<< ${common} /V 5 /R 6 /Length 256 /CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >> >> /StmF /StdCF /StrF /StdCF /OE ${hexOf(keys.ownerKey!)} /UE ${hexOf(keys.userKey!)} /Perms ${hexOf(keys.perms!)}${metadata} >>`;
  }
}

/** The least version a reader needs for the method: AES-128 came with PDF 1.6, AES-256 with 1.7 (extension level 3) and 2.0. */
const LEAST_MINOR: Partial<Record<FileEncryption['revision'], number>> = { 4: 6, 6: 7 };

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/**
 * `plain`, a file MuPDF saved in full without encryption (one cross-reference table, no object streams), with every
 * string and stream encrypted for `spec`. `random` is the source of the file key, salts and IVs (the OS's, unless a
 * test gives another).
 */
export function encryptPdfFile(plain: Uint8Array, spec: FileEncryption, random: (n: number) => Uint8Array = osRandom): Uint8Array {
  const pool = new RandomPool(random);
  const { at: xrefAt, entries, trailer } = readXref(plain);
  const size = trailer.get('Size');
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) throw failed('the trailer has no /Size');
  let id = trailer.get('ID');
  if (!Array.isArray(id) || !(id[0] instanceof PdfString)) {
    const fresh = new PdfString(pool.take(16));
    id = [fresh, fresh];
    trailer.set('ID', id);
  }
  const id0 = (id[0] as PdfString).bytes;
  const keys = newStandardKeys({ ...spec, id0, random: pool.take });

  const objects = [...entries].filter(([num, e]) => e.inUse && num > 0).sort((a, b) => a[1].offset - b[1].offset);
  const nextOffset = new Map<number, number>();
  objects.forEach(([num], i) => nextOffset.set(num, i + 1 < objects.length ? objects[i + 1]![1].offset : xrefAt));
  // An indirect /Length: the number object it names, parsed on its own.
  const lengthOf = (ref: PdfRef): number => {
    const e = entries.get(ref.num);
    if (!e?.inUse) throw failed(`a stream's /Length names object ${ref.num}, which is not there`);
    const v = parseObject(plain, e.offset, nextOffset.get(ref.num) ?? xrefAt, () => NaN).value;
    return typeof v === 'number' ? v : NaN;
  };

  const first = objects[0]?.[1].offset ?? xrefAt;
  const head = new Uint8Array(plain.subarray(0, first));
  const version = /^%PDF-1\.(\d)/.exec(latin1(head, 0, Math.min(head.length, 8)));
  const least = LEAST_MINOR[spec.revision];
  if (version && least !== undefined && Number(version[1]) < least) head[7] = 0x30 + least;
  const chunks: Uint8Array[] = [head];
  let written = head.length;
  const push = (chunk: Uint8Array) => {
    chunks.push(chunk);
    written += chunk.length;
  };
  const newOffsets = new Map<number, number>();

  for (const [num, entry] of objects) {
    const obj = parseObject(plain, entry.offset, nextOffset.get(num)!, lengthOf);
    if (obj.num !== num || obj.gen !== entry.gen) throw failed(`the cross-reference table puts object ${num} where object ${obj.num} is`);
    const cipher = objectCipher(keys, spec.revision, num, obj.gen, pool.take);
    const kept = new Set<PdfString>();
    signatureContents(obj.value, kept);
    const edits: { start: number; end: number; text: string }[] = [];
    for (const s of obj.strings) if (!kept.has(s.string)) edits.push({ start: s.start, end: s.end, text: hexOf(cipher(s.string.bytes)) });
    let data: Uint8Array | undefined;
    if (obj.stream) {
      const dict = obj.value as PdfDict;
      const type = dict.get('Type');
      const plainMetadata = !spec.encryptMetadata && type instanceof PdfName && type.name === 'Metadata';
      const raw = plain.subarray(obj.stream.start, obj.stream.end);
      data = plainMetadata ? raw : cipher(raw);
      const span = obj.spans.get('Length')!;
      // Strings inside /Length cannot be: its span holds none of the edits.
      edits.push({ start: span[0], end: span[1], text: String(data.length) });
    }
    edits.sort((a, b) => a.start - b.start);
    let text = `${num} ${obj.gen} obj\n`;
    let from = obj.valueStart;
    for (const edit of edits) {
      text += obj.text.slice(from, edit.start) + edit.text;
      from = edit.end;
    }
    text += obj.text.slice(from, obj.valueEnd);
    newOffsets.set(num, written);
    if (data) {
      push(Buffer.from(`${text}\nstream\n`, 'latin1'));
      push(data);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    } else {
      push(Buffer.from(`${text}\nendobj\n`, 'latin1'));
    }
  }

  const xrefOffset = written;
  let xref = `xref\n0 ${size}\n`;
  for (let num = 0; num < size; num++) {
    const offset = newOffsets.get(num);
    const old = entries.get(num);
    if (offset !== undefined) xref += `${pad(offset, 10)} ${pad(old!.gen, 5)} n \n`;
    else xref += `${pad(old?.offset ?? 0, 10)} ${pad(old?.gen ?? 65535, 5)} f \n`;
  }
  // The encryption dictionary direct in the trailer, as MuPDF writes it (its strings are never encrypted, and
  // core/open.ts's check of a new AES-256 file finds it there).
  trailer.delete('Encrypt');
  const dictionary = formatPdfValue(trailer).replace(/ >>$/, ` /Encrypt ${encryptDictionary(spec, keys)} >>`);
  push(Buffer.from(`${xref}trailer\n${dictionary}\nstartxref\n${xrefOffset}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(chunks, written));
}
