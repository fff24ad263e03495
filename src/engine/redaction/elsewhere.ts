import type * as mupdf from 'mupdf';
import { literalPattern } from '../text/match.js';
import { deref } from '../core/mupdf-objects.js';
import { nameTreeRoot, walkNameTree } from '../core/name-tree.js';
import { visitStructureTexts } from '../pdfua/keep.js';

/** A place outside page content where redacted text still occurs. */
export interface ElsewhereHit {
  where: 'info' | 'xmp' | 'bookmark' | 'annotation' | 'field' | 'embeddedFile';
  /** Which entry: the info key, bookmark title, annotation key and page, field name, or file name. */
  detail: string;
}

/** Shorter fragments (a box over part of a word) would match everywhere and say nothing. */
const MIN_LENGTH = 3;
const MAX_WALK = 100_000;

function normalise(s: string): string {
  return s.replace(/\s+/gu, ' ').toLowerCase();
}

function matcher(strings: string[]): (s: string) => boolean {
  const needles = strings.map(normalise).map((s) => s.trim()).filter((s) => s.length >= MIN_LENGTH);
  return (s: string) => {
    const hay = normalise(s);
    return needles.some((n) => hay.includes(n));
  };
}

function replacer(strings: string[]): (s: string) => string {
  const needles = strings.map((s) => s.replace(/\s+/gu, ' ').trim()).filter((s) => s.length >= MIN_LENGTH);
  const pattern = needles.length
    ? new RegExp(needles.map(literalPattern).join('|'), 'giu')
    : undefined;
  return (s: string) => (pattern ? s.replace(pattern, '') : s);
}

/** Visits every string this module looks at, with a way to replace it. */
function visitStrings(doc: mupdf.PDFDocument, visit: (hit: ElsewhereHit, value: string, set: (v: string) => void) => void): void {
  const trailer = doc.getTrailer();
  const str = (obj: mupdf.PDFObject) => (obj.isString() ? obj.asString() : undefined);

  const info = deref(trailer.get('Info'));
  if (info.isDictionary()) {
    info.forEach((value, key) => {
      const v = str(deref(value));
      if (v !== undefined) visit({ where: 'info', detail: String(key) }, v, (nv) => info.put(String(key), doc.newString(nv)));
    });
  }

  const root = deref(trailer.get('Root'));
  const metadata = root.get('Metadata');
  if (metadata.isIndirect() && metadata.isStream()) {
    const xml = metadata.readStream().asString();
    // XMP repeats the document information; a hit removes the whole packet rather than editing XML in place.
    visit({ where: 'xmp', detail: 'XMP metadata' }, xml, () => root.delete('Metadata'));
  }

  // Bookmarks: depth-first over First/Next, each node once.
  const seen = new Set<number>();
  const walkOutline = (node: mupdf.PDFObject, guard: { n: number }) => {
    for (let n = node; n.isIndirect() && !seen.has(n.asIndirect()) && guard.n++ < MAX_WALK; n = n.get('Next')) {
      seen.add(n.asIndirect());
      const item = deref(n);
      const title = str(deref(item.get('Title')));
      if (title !== undefined) visit({ where: 'bookmark', detail: title }, title, (nv) => item.put('Title', doc.newString(nv)));
      walkOutline(item.get('First'), guard);
    }
  };
  const outlines = deref(root.get('Outlines'));
  if (outlines.isDictionary()) walkOutline(outlines.get('First'), { n: 0 });

  const pageCount = doc.countPages();
  for (let p = 0; p < pageCount; p++) {
    const annots = deref(doc.findPage(p).get('Annots'));
    if (!annots.isArray()) continue;
    for (let i = 0; i < annots.length; i++) {
      const a = deref(annots.get(i));
      if (!a.isDictionary()) continue;
      for (const key of ['Contents', 'RC', 'T', 'Subj']) {
        const v = str(deref(a.get(key)));
        if (v !== undefined) visit({ where: 'annotation', detail: `page ${p}, /${key}` }, v, (nv) => a.put(key, doc.newString(nv)));
      }
    }
  }

  const acroform = deref(root.get('AcroForm'));
  const visitField = (field: mupdf.PDFObject, prefix: string, guard: { n: number }) => {
    if (guard.n++ > MAX_WALK) return;
    const f = deref(field);
    if (!f.isDictionary()) return;
    const partial = str(deref(f.get('T')));
    const fullName = partial === undefined ? prefix : prefix ? `${prefix}.${partial}` : partial;
    const value = str(deref(f.get('V')));
    if (value !== undefined) visit({ where: 'field', detail: fullName }, value, (nv) => f.put('V', doc.newString(nv)));
    const kids = deref(f.get('Kids'));
    if (kids.isArray()) for (let i = 0; i < kids.length; i++) visitField(kids.get(i), fullName, guard);
  };
  const fields = acroform.isDictionary() ? deref(acroform.get('Fields')) : undefined;
  if (fields?.isArray()) {
    const guard = { n: 0 };
    for (let i = 0; i < fields.length; i++) visitField(fields.get(i), '', guard);
  }

  // Embedded files: the name tree's keys (every one, a name met twice too) and each file specification's names and
  // description.
  const embedded = nameTreeRoot(doc, 'EmbeddedFiles');
  if (embedded) walkNameTree(embedded, ({ name: key, value, leaf, index }) => {
    if (key !== undefined) visit({ where: 'embeddedFile', detail: key }, key, (nv) => leaf.put(index, doc.newString(nv)));
    const spec = deref(value);
    for (const k of spec.isDictionary() ? ['F', 'UF', 'Desc'] : []) {
      const v = str(deref(spec.get(k)));
      if (v !== undefined) visit({ where: 'embeddedFile', detail: key ?? v }, v, (nv) => spec.put(k, doc.newString(nv)));
    }
  });
}

/** Where the strings occur outside page content (case and whitespace aside). */
export function findElsewhere(doc: mupdf.PDFDocument, strings: string[]): ElsewhereHit[] {
  const hits: ElsewhereHit[] = [];
  const contains = matcher(strings);
  visitStrings(doc, (hit, value) => {
    if (contains(value)) hits.push(hit);
  });
  return hits;
}

/** Removes the strings wherever findElsewhere finds them (the XMP packet as a whole). */
export function scrubElsewhere(doc: mupdf.PDFDocument, strings: string[]): void {
  const contains = matcher(strings);
  const replace = replacer(strings);
  visitStrings(doc, (_hit, value, set) => {
    if (contains(value)) set(replace(value));
  });
}

/**
 * Removes the strings from the structure tree's texts (alternate and actual text, expansion, title): they stand for
 * the content that was removed, and a screen reader would read them in its place. Done on every apply, not only with
 * scrubElsewhere (docs/accessibility.md, "Writes keep the structure"). Returns how many texts changed.
 */
export function scrubStructure(doc: mupdf.PDFDocument, strings: string[]): number {
  const contains = matcher(strings);
  const replace = replacer(strings);
  let changed = 0;
  visitStructureTexts(doc, (_detail, value, set) => {
    if (!contains(value)) return;
    set(replace(value));
    changed++;
  });
  return changed;
}
