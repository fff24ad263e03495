import type * as mupdf from 'mupdf';
import { deref, name, pageContents } from '../core/mupdf-objects.js';
import { contentTokens, stringBytes } from '../syntax/content-tokens.js';
import { PAINTING } from './artifacts.js';
import { parentTreeEntries, removeContent, structTreeRoot } from './keep.js';

/**
 * Redaction on a tagged document (docs/accessibility.md, "Writes keep the structure"): MuPDF takes the redacted glyphs,
 * images and paths out of the content streams but leaves the marked-content sequences that held them, and the
 * structure elements that name them. A sequence that drew something before the redaction and draws nothing after it
 * was emptied by it: its opening operator becomes `/Artifact BMC` (its body may still set graphics or text state that
 * later content depends on, so the body stays; an empty artifact is nothing a reader announces), its parent-tree slot
 * becomes null, and the marked-content id leaves the element naming it; an element left with no content leaves the
 * tree, and so do ancestors left empty. An element keeping some content keeps it. Sequences that were empty before
 * are not touched: the redaction did not empty them.
 */

/** Operators read per content stream (a hostile page of a million operators is read that far, and no further). */
const MAX_TOKENS = 20_000_000;

/** A content holder with marked content of its own: a page, or a form XObject with /StructParents. */
interface Holder {
  obj: mupdf.PDFObject;
  /** Its object number (pages and forms are indirect). */
  num: number;
  page: boolean;
}

/** What a holder's content marks: the MCIDs whose sequences paint something, and where each MCID's opening operators are. */
interface Marked {
  painted: Set<number>;
  openers: Map<number, [number, number][]>;
  content: Uint8Array;
}

/** The holders a page's content reaches: the page, and the forms it draws (through forms too) that carry /StructParents. */
function holdersOf(page: mupdf.PDFObject): Holder[] {
  const holders: Holder[] = page.isIndirect() ? [{ obj: page, num: page.asIndirect(), page: true }] : [];
  const seen = new Set<number>();
  const visit = (resources: mupdf.PDFObject, depth: number) => {
    const xobjects = deref(deref(resources).get('XObject'));
    if (depth > 16 || !xobjects.isDictionary()) return;
    xobjects.forEach((x) => {
      if (!x.isIndirect() || seen.has(x.asIndirect()) || name(deref(x).get('Subtype')) !== 'Form') return;
      seen.add(x.asIndirect());
      if (deref(deref(x).get('StructParents')).isNumber()) holders.push({ obj: x, num: x.asIndirect(), page: false });
      visit(deref(x).get('Resources'), depth + 1);
    });
  };
  visit(page.getInheritable('Resources'), 0);
  return holders;
}

function contentOf(holder: Holder): Uint8Array {
  if (!holder.page) return holder.obj.readStream().asUint8Array();
  const parts = pageContents(holder.obj).filter((s) => s.isStream()).map((s) => s.readStream().asUint8Array());
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts.flatMap((p) => [p, Buffer.from('\n')]));
}

/**
 * The marked content of `content`: which MCIDs' sequences paint (a show operator with a glyph, an image, a form, a
 * shading, a painted path; nested sequences paint for every sequence around them), and the byte ranges of the
 * `BDC` operations (operands included) that open each MCID's sequences. `properties` resolves `/Tag /Name BDC`.
 */
function readMarked(content: Uint8Array, properties: mupdf.PDFObject): Marked {
  const painted = new Set<number>();
  const openers = new Map<number, [number, number][]>();
  const open: (number | undefined)[] = [];
  let depth = 0;
  let operandsStart = -1;
  let names: string[] = [];
  let mcid: number | undefined;
  let mcidNext = false;
  let glyphs = false;
  let tokens = 0;
  for (const t of contentTokens(content)) {
    if (++tokens > MAX_TOKENS) break;
    if (t.kind === 'stray') continue;
    if (t.kind !== 'operator' && t.kind !== 'inline-image') {
      if (operandsStart < 0) operandsStart = t.start;
      if (t.kind === 'array-open' || t.kind === 'dict-open') depth++;
      else if (t.kind === 'array-close' || t.kind === 'dict-close') depth = Math.max(0, depth - 1);
      else if (t.kind === 'string') glyphs ||= stringBytes(content, t).length > 0;
      else if (t.kind === 'name' && depth === 0) names.push(t.value);
      else if (t.kind === 'number' && mcidNext) mcid = t.value;
      mcidNext = t.kind === 'name' && depth === 1 && t.value === 'MCID';
      continue;
    }
    const op = t.kind === 'operator' ? t.value : 'BI';
    if (op === 'BDC') {
      let id = mcid;
      if (id === undefined && names.length >= 2 && properties.isDictionary()) {
        const value = deref(deref(properties.get(names[1]!)).get('MCID'));
        if (value.isNumber()) id = value.asNumber();
      }
      open.push(id);
      if (id !== undefined) {
        const list = openers.get(id) ?? [];
        list.push([operandsStart < 0 ? t.start : operandsStart, t.end]);
        openers.set(id, list);
      }
    } else if (op === 'BMC') open.push(undefined);
    else if (op === 'EMC') open.pop();
    else if (op === 'BI' || (PAINTING.has(op) && (!['Tj', 'TJ', "'", '"'].includes(op) || glyphs))) {
      for (const id of open) if (id !== undefined) painted.add(id);
    }
    operandsStart = -1;
    names = [];
    mcid = undefined;
    mcidNext = false;
    glyphs = false;
  }
  return { painted, openers, content };
}

function propertiesOf(holder: Holder): mupdf.PDFObject {
  const resources = holder.page ? holder.obj.getInheritable('Resources') : deref(holder.obj).get('Resources');
  return deref(deref(resources).get('Properties'));
}

/** What a page's holders paint before the redaction: the MCIDs, by holder object number. Nothing for an untagged document. */
export function paintedBefore(doc: mupdf.PDFDocument, pageIndex: number): Map<number, Set<number>> {
  const before = new Map<number, Set<number>>();
  if (!structTreeRoot(doc)) return before;
  for (const holder of holdersOf(doc.findPage(pageIndex))) before.set(holder.num, readMarked(contentOf(holder), propertiesOf(holder)).painted);
  return before;
}

/**
 * After the redaction of `pages` (page index -> paintedBefore's answer): the sequences it emptied become artifacts,
 * their parent-tree slots null, and their content leaves the structure tree with the elements it empties. Returns how
 * many elements were removed.
 */
export function pruneRedacted(doc: mupdf.PDFDocument, pages: ReadonlyMap<number, Map<number, Set<number>>>): number {
  const root = structTreeRoot(doc);
  if (!root) return 0;
  /** Emptied MCIDs by holder object number. */
  const emptied = new Map<number, Set<number>>();
  const entries = parentTreeEntries(root);
  for (const [pageIndex, before] of pages) {
    for (const holder of holdersOf(doc.findPage(pageIndex))) {
      const was = before.get(holder.num);
      if (!was?.size) continue;
      const now = readMarked(contentOf(holder), propertiesOf(holder));
      const gone = new Set([...was].filter((id) => !now.painted.has(id)));
      if (gone.size === 0) continue;
      emptied.set(holder.num, gone);
      rewriteOpeners(doc, holder, now, gone);
      const key = deref(deref(holder.obj).get('StructParents'));
      const value = key.isNumber() ? entries.get(key.asNumber()) : undefined;
      const entry = value ? deref(value) : undefined;
      if (entry?.isArray()) for (const id of gone) if (id < entry.length) entry.put(id, doc.newNull());
    }
  }
  if (emptied.size === 0) return 0;
  const num = (o: mupdf.PDFObject) => (o.isIndirect() ? o.asIndirect() : undefined);
  return removeContent(doc, root, (k, elementPage) => {
    let holder: number | undefined;
    let id: number | undefined;
    if (k.isNumber()) [holder, id] = [num(elementPage), k.asNumber()];
    else if (name(k.get('Type')) === 'MCR') {
      const mcid = deref(k.get('MCID'));
      id = mcid.isNumber() ? mcid.asNumber() : undefined;
      holder = num(k.get('Stm').isNull() ? (k.get('Pg').isNull() ? elementPage : k.get('Pg')) : k.get('Stm'));
    }
    return holder !== undefined && id !== undefined && emptied.get(holder)?.has(id) === true;
  });
}

/** `/Artifact BMC` in place of every operation opening one of the `gone` MCIDs' sequences; a page's streams become one. */
function rewriteOpeners(doc: mupdf.PDFDocument, holder: Holder, marked: Marked, gone: Set<number>): void {
  const ranges = [...gone].flatMap((id) => marked.openers.get(id) ?? []).sort((a, b) => a[0] - b[0]);
  if (ranges.length === 0) return;
  const { content } = marked;
  const parts: Buffer[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    parts.push(Buffer.from(content.subarray(at, start)), Buffer.from('/Artifact BMC'));
    at = end;
  }
  parts.push(Buffer.from(content.subarray(at)));
  const bytes = Buffer.concat(parts);
  if (!holder.page) {
    holder.obj.writeStream(bytes);
    return;
  }
  const streams = pageContents(holder.obj).filter((s) => s.isStream());
  if (streams.length === 1 && deref(holder.obj.get('Contents')).isStream()) streams[0]!.writeStream(bytes);
  else holder.obj.put('Contents', doc.addStream(bytes, doc.newDictionary()));
}
