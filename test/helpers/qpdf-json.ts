/**
 * An annotation reader independent of the service: it walks every page's
 * /Annots in `qpdf --json=2` output, so tests can compare what the API says
 * with what another PDF library sees.
 *
 * qpdf JSON v2 encodes PDF objects as JSON values: names as "/Name" (already
 * #-decoded), text strings as "u:<text>", other strings as "b:<hex>",
 * indirect references as "N G R", streams as { stream: { dict } } and other
 * objects as { value }, all under "obj:N G R" keys of the second "qpdf" entry.
 */
import { spawnSync } from 'node:child_process';
import { withTempFile } from './pdf.js';

export interface QpdfAnnotation {
  /** Zero-based page index. */
  pageIndex: number;
  /** /Subtype without the slash ('' when missing). */
  subtype: string;
  /** /NM decoded to text; absent when the annotation has none. */
  name?: string;
  rect: number[];
  /** Object number for indirect annotations; absent for a direct dictionary in /Annots. */
  objectNumber?: number;
  /** The annotation dictionary in qpdf's JSON form (keys like "/NM", references unresolved). */
  dict: Record<string, unknown>;
}

/** The objects of a document, with references resolved through qpdf's object table. */
export class QpdfDocument {
  readonly pages: string[];
  private readonly objects: Record<string, { value?: unknown; stream?: { dict: Record<string, unknown> } }>;

  constructor(pdf: Buffer | Uint8Array, password?: string) {
    const json = withTempFile(pdf, (file) => {
      const args = ['--json=2', '--json-key=pages', '--json-key=qpdf', ...(password === undefined ? [] : [`--password=${password}`]), file];
      const run = spawnSync('qpdf', args, { encoding: 'utf8', maxBuffer: 1 << 30 });
      // Exit 3 means warnings only (common in real files); the JSON is still complete.
      if (run.status !== 0 && run.status !== 3) throw new Error(`qpdf --json failed (${run.status}): ${run.stderr}`);
      return JSON.parse(run.stdout) as { pages: { object: string; pageposfrom1: number }[]; qpdf: [unknown, QpdfDocument['objects']] };
    });
    this.pages = [...json.pages].sort((a, b) => a.pageposfrom1 - b.pageposfrom1).map((p) => p.object);
    this.objects = json.qpdf[1];
  }

  /** Follows an indirect reference (a stream yields its dictionary); other values come back as they are. */
  resolve(value: unknown): unknown {
    for (let hops = 0; typeof value === 'string' && isRef(value); hops++) {
      if (hops > 32) throw new Error('reference loop');
      const entry = this.objects[`obj:${value}`];
      // A reference to a missing object is the null object (PDF 32000 §7.3.10).
      if (!entry) return null;
      value = entry.stream ? entry.stream.dict : entry.value;
    }
    return value;
  }

  /** The document catalog (the trailer's /Root), resolved. */
  catalog(): Record<string, unknown> {
    const trailer = this.objects['trailer']?.value as Record<string, unknown>;
    return this.resolve(trailer['/Root']) as Record<string, unknown>;
  }

  /** A dictionary entry, resolved. */
  get(dict: Record<string, unknown>, key: string): unknown {
    return this.resolve(dict[key]);
  }
}

/** Every entry of every page's /Annots that is a dictionary, in page order then array order. */
export function qpdfAnnotations(pdf: Buffer | Uint8Array, password?: string): QpdfAnnotation[] {
  const doc = new QpdfDocument(pdf, password);
  const result: QpdfAnnotation[] = [];
  doc.pages.forEach((pageRef, pageIndex) => {
    const page = doc.resolve(pageRef) as Record<string, unknown>;
    const annots = doc.get(page, '/Annots');
    if (!Array.isArray(annots)) return;
    for (const entry of annots) {
      const dict = doc.resolve(entry);
      if (!isDict(dict)) continue; // null or junk entries are not annotations
      const subtype = doc.get(dict, '/Subtype');
      const name = doc.get(dict, '/NM');
      const rect = doc.get(dict, '/Rect');
      const annotation: QpdfAnnotation = {
        pageIndex,
        subtype: typeof subtype === 'string' && subtype.startsWith('/') ? subtype.slice(1) : '',
        rect: Array.isArray(rect) ? rect.map((n) => Number(doc.resolve(n))) : [],
        dict,
      };
      if (typeof name === 'string') annotation.name = pdfTextFromJson(name);
      if (typeof entry === 'string' && isRef(entry)) annotation.objectNumber = Number(entry.split(' ')[0]);
      result.push(annotation);
    }
  });
  return result;
}

export function countBySubtype(list: { subtype: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { subtype } of list) counts[subtype] = (counts[subtype] ?? 0) + 1;
  return counts;
}

/**
 * The text of a string in qpdf JSON v2. "u:" strings are already decoded text
 * (qpdf uses it for UTF-16 with BOM, UTF-8 with BOM and PDFDocEncoding strings
 * it can map); "b:" strings are bytes qpdf would not call text, shown here as
 * Latin-1, which is what a lenient reader shows too.
 */
export function pdfTextFromJson(value: string): string {
  if (value.startsWith('u:')) return value.slice(2);
  if (value.startsWith('b:')) return Buffer.from(value.slice(2), 'hex').toString('latin1');
  throw new Error(`not a qpdf JSON string: ${value}`);
}

function isRef(value: string): boolean {
  return /^\d+ \d+ R$/.test(value);
}

function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** qpdf's stdout for a command; exit 3 (warnings only, common in real files) still has a complete answer. */
function qpdfOutput(args: string[]): string {
  const run = spawnSync('qpdf', args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0 && run.status !== 3) throw new Error(`qpdf ${args.slice(0, -1).join(' ')} failed (${run.status}): ${run.stderr}`);
  return run.stdout;
}

/** The decoded normal appearance stream of the first widget of a field, read by qpdf. */
export function appearanceOf(bytes: Buffer, fieldName: string): string {
  const json = withTempFile(bytes, (file) => qpdfOutput(['--json=2', '--json-key=acroform', '--json-key=qpdf', '--json-stream-data=inline', '--decode-level=generalized', file]));
  const parsed = JSON.parse(json) as {
    acroform: { fields: { fullname: string; annotation: { object: string } }[] };
    qpdf: [unknown, Record<string, { value?: Record<string, unknown>; stream?: { data?: string } }>];
  };
  const objects = parsed.qpdf[1];
  const widget = parsed.acroform.fields.find((f) => f.fullname === fieldName)!.annotation.object;
  const ap = objects[`obj:${widget}`]!.value!['/AP'] as Record<string, string> | undefined;
  if (!ap) return '';
  const normal = typeof ap === 'string' ? (objects[`obj:${ap}`]!.value as Record<string, string>)['/N'] : ap['/N'];
  return Buffer.from(objects[`obj:${normal}`]!.stream!.data ?? '', 'base64').toString('latin1');
}

/** One terminal field as qpdf reports it (`--json-key=acroform`), its widgets merged. */
export interface QpdfField {
  fullname: string;
  /** "/Tx", "/Btn", "/Ch", "/Sig". */
  fieldtype: string;
  /** Text strings as text, names without "/", arrays of either; null when there is none. Indirect values are resolved. */
  value: unknown;
  /** /DV in the same form as `value`. */
  defaultValue: unknown;
  fieldflags: number;
  /** 1-based page of each widget. */
  pages: number[];
}

/** The form fields as qpdf (an independent PDF library) reads them, in qpdf's order. */
export function qpdfFields(pdf: Buffer | Uint8Array, password?: string): QpdfField[] {
  return withTempFile(pdf, (file) => {
    const pw = password ? [`--password=${password}`] : [];
    const parsed = JSON.parse(qpdfOutput(['--json', '--json-key=acroform', '--json-key=qpdf', ...pw, file])) as {
      acroform: { fields: { fullname: string; fieldtype: string; value: unknown; defaultvalue: unknown; fieldflags: number; pageposfrom1: number }[] };
      qpdf: [unknown, Record<string, { value?: unknown; stream?: unknown }>];
    };
    const objects = parsed.qpdf[1];
    // A text stream (a long text field's /V may be one): its decoded data as text (UTF-16BE or UTF-8 with a byte order mark, else Latin-1).
    const streamText = (ref: string): string => {
      const run = spawnSync('qpdf', [`--show-object=${ref.split(' ')[0]}`, '--filtered-stream-data', ...pw, file], { maxBuffer: 1 << 30 });
      const bytes = run.stdout;
      if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
      return bytes.toString('latin1');
    };
    // qpdf reports an indirect /V or /DV as its reference ("12 0 R"): the value is the object's.
    const plain = (v: unknown, hops = 0): unknown => {
      if (Array.isArray(v)) return v.map((x) => plain(x, hops));
      if (typeof v !== 'string') return v;
      if (isRef(v)) {
        const entry = objects[`obj:${v}`];
        if (entry?.stream) return streamText(v);
        return hops > 32 ? null : plain(entry?.value ?? null, hops + 1);
      }
      return v.startsWith('u:') || v.startsWith('b:') ? pdfTextFromJson(v) : v.startsWith('/') ? v.slice(1) : v;
    };
    const byName = new Map<string, QpdfField>();
    for (const f of parsed.acroform.fields) {
      const known = byName.get(f.fullname);
      if (known) known.pages.push(f.pageposfrom1);
      else byName.set(f.fullname, { fullname: f.fullname, fieldtype: f.fieldtype, value: plain(f.value), defaultValue: plain(f.defaultvalue), fieldflags: f.fieldflags, pages: [f.pageposfrom1] });
    }
    return [...byName.values()];
  });
}
