import { createHash } from 'node:crypto';
import type * as mupdf from 'mupdf';
import { deref, name } from '../core/mupdf-objects.js';

/** Stored (compressed) bytes by category, for the report. */
export interface SizeCategories {
  images: { count: number; bytes: number };
  fonts: { count: number; bytes: number };
  /** Image and font program streams that have an identical twin (the same stored bytes and decoding entries); 0 unless asked for. */
  duplicates: number;
  /** The image XObjects' object numbers (soft masks included). */
  imageObjects: number[];
}

/** The dictionary entries that decide what an image's or font program's stored bytes decode to. */
const DECODING_KEYS = ['Subtype', 'Filter', 'DecodeParms', 'Width', 'Height', 'BitsPerComponent', 'ColorSpace', 'Decode', 'ImageMask', 'SMask', 'Mask', 'Length1', 'Length2', 'Length3'];

// isName and asName look through a reference themselves.
const isName = (obj: mupdf.PDFObject, value: string) => obj.isName() && obj.asName() === value;

/**
 * Image XObject and embedded font program streams and their stored bytes (the rest of the file is "other objects").
 * `duplicates`: also count identical twins (hashing the streams whose length another one has). `trustLength`: a file MuPDF has
 * just written, whose /Length entries are exact, so streams need not be read to be measured. `only`: just these
 * objects (the images of a document without font programs), not a walk over all.
 */
export function sizeCategories(doc: mupdf.PDFDocument, options: { freed?: ReadonlySet<number>; duplicates?: boolean; trustLength?: boolean; only?: readonly number[] } = {}): SizeCategories {
  const { freed = new Set<number>(), duplicates = false, trustLength = false, only } = options;
  const out: SizeCategories = { images: { count: 0, bytes: 0 }, fonts: { count: 0, bytes: 0 }, duplicates: 0, imageObjects: [] };
  const seen = new Set<string>();
  const fontFiles = new Set<number>();
  const count = doc.countObjects();
  const candidates: { obj: mupdf.PDFObject; length: number }[] = [];
  const measure = (obj: mupdf.PDFObject, category: { count: number; bytes: number }) => {
    category.count++;
    const length = obj.get('Length');
    if (trustLength && !duplicates && length.isNumber()) {
      category.bytes += length.asNumber();
      return;
    }
    const raw = obj.readRawStream();
    category.bytes += raw.getLength();
    // Only streams of a length some other stream has can be twins: the rest are not hashed.
    if (duplicates) candidates.push({ obj, length: raw.getLength() });
    raw.destroy();
  };
  // One walk over the objects: image streams measured as found, font descriptors' programs after.
  const numbers = only ?? Array.from({ length: Math.max(0, count - 1) }, (_, i) => i + 1);
  for (const num of numbers) {
    if (freed.has(num)) continue;
    // Not resolve()d: resolving every object of the file made MuPDF 1.28 write a stream it had not loaded yet
    // (an image with a soft mask) as a bare dictionary, losing its data (measured); get() and isDictionary() on the reference do not.
    // Kept indirect: MuPDF knows an object is a stream only through its reference.
    const obj = doc.newIndirect(num);
    if (obj.isStream()) {
      if (isName(obj.get('Subtype'), 'Image')) {
        out.imageObjects.push(num);
        measure(obj, out.images);
      }
    } else if (obj.isDictionary() && isName(obj.get('Type'), 'FontDescriptor')) {
      for (const key of ['FontFile', 'FontFile2', 'FontFile3']) {
        const file = obj.get(key);
        if (file.isIndirect()) fontFiles.add(file.asIndirect());
      }
    }
  }
  const images = new Set(out.imageObjects);
  for (const num of [...fontFiles].sort((a, b) => a - b)) {
    if (freed.has(num) || images.has(num)) continue;
    const obj = doc.newIndirect(num);
    if (obj.isStream()) measure(obj, out.fonts);
  }
  const lengths = new Map<number, number>();
  for (const { length } of candidates) lengths.set(length, (lengths.get(length) ?? 0) + 1);
  for (const { obj, length } of candidates) {
    if (lengths.get(length)! < 2) continue;
    const raw = obj.readRawStream();
    const key = createHash('sha256').update(raw.asUint8Array()).update(DECODING_KEYS.map((k) => obj.get(k).toString()).join(' ')).digest('hex');
    raw.destroy();
    if (seen.has(key)) out.duplicates++;
    seen.add(key);
  }
  return out;
}

/** Removes annotations other than links and form fields (MuPDF lists neither among a page's annotations); answers how many. */
export function discardAnnotations(doc: mupdf.PDFDocument): number {
  let removed = 0;
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.loadPage(i);
    try {
      for (const annot of page.getAnnotations()) {
        // A popup goes with its parent annotation.
        if (annot.getType() === 'Popup') continue;
        page.deleteAnnotation(annot);
        removed++;
      }
    } finally {
      page.destroy();
    }
  }
  return removed;
}

const RESOURCE_KINDS = ['Font', 'XObject', 'ExtGState', 'Pattern', 'Shading', 'ColorSpace', 'Properties'];

/** The decoded bytes of a page's content streams, as text in which resource names can be looked for. */
function contentText(page: mupdf.PDFObject): string {
  const contents = page.get('Contents');
  if (contents.isNull()) return '';
  const streams: mupdf.PDFObject[] = [];
  // Streams are read through their references: MuPDF knows an object is a stream only through them.
  if (contents.isArray()) for (let i = 0; i < contents.length; i++) streams.push(contents.get(i));
  else streams.push(contents);
  let text = '';
  for (const stream of streams) {
    if (!stream.isStream()) continue;
    const buffer = stream.readStream();
    text += Buffer.from(buffer.asUint8Array()).toString('latin1') + '\n';
    buffer.destroy();
  }
  return text;
}

/** Whether `/name` occurs in the content as a whole name token. */
function usesName(content: string, resourceName: string): boolean {
  const escaped = [...resourceName].map((ch) => (/[A-Za-z0-9]/.test(ch) ? ch : `#${ch.charCodeAt(0).toString(16).padStart(2, '0')}`)).join('');
  for (const spelled of new Set([resourceName, escaped])) {
    let at = content.indexOf(`/${spelled}`);
    while (at >= 0) {
      const next = content.charAt(at + 1 + spelled.length);
      if (next === '' || /[\s/[\]<>(){}%]/.test(next)) return true;
      at = content.indexOf(`/${spelled}`, at + 1);
    }
  }
  return false;
}

/**
 * The objects of the form's default resources (the AcroForm's /DR and its indirect sub-dictionaries): fields name
 * their fonts there in /DA strings, which no content stream mentions. A page resource dictionary that is one of them
 * is left alone. Found on the corpus: LibreOffice shares one dictionary as the page tree's /Resources and the /DR
 * (pypdf's libreoffice-form.pdf lost the fonts its fields are drawn with).
 */
function formDefaultResources(doc: mupdf.PDFDocument): Set<number> {
  const found = new Set<number>();
  const root = deref(doc.getTrailer().get('Root'));
  const acroForm = root.isDictionary() ? deref(root.get('AcroForm')) : root;
  if (!acroForm.isDictionary()) return found;
  const dr = acroForm.get('DR');
  if (dr.isIndirect()) found.add(dr.asIndirect());
  const dict = deref(dr);
  if (dict.isDictionary()) {
    dict.forEach((value) => {
      if (value.isIndirect()) found.add(value.asIndirect());
    });
  }
  return found;
}

/**
 * Whether a form XObject of these resources has no /Resources of its own: it then draws with the page's (PDF 1.1,
 * still read by every viewer), so names its content uses are used by the page too. Such a dictionary is left as it
 * is. Found on the corpus: verapdf's 6-2-2-t04-fail-e.pdf lost the colour space its form draws with.
 */
function lendsToForms(resources: mupdf.PDFObject): boolean {
  const xobjects = deref(resources.get('XObject'));
  if (!xobjects.isDictionary()) return false;
  let lends = false;
  xobjects.forEach((value) => {
    // Read through the reference (MuPDF resolves it), not a resolved copy: a stream resolved here lost its data at
    // the save (measured: pdf-lib's with_annots.pdf came out with an image without its stream).
    if (value.isIndirect() && name(value.get('Subtype')) === 'Form' && value.get('Resources').isNull()) lends = true;
  });
  return lends;
}

/**
 * Colour spaces that apply without being named: DeviceGray, DeviceRGB and DeviceCMYK draw in them when the resource
 * dictionary has them (ISO 32000-1, 8.6.5.6). Found on the corpus: verapdf's PDF/A files lost their /DefaultRGB ICC
 * profile and rendered in other colours.
 */
const DEFAULT_COLOR_SPACES: ReadonlySet<string> = new Set(['DefaultGray', 'DefaultRGB', 'DefaultCMYK']);

/**
 * Drops page resources that no content stream using that resource
 * dictionary names: a resource dictionary shared by several pages keeps what
 * any of them uses. Only the pages' own dictionaries are cleaned; those of
 * form XObjects, patterns and annotation appearances are left as they are.
 * The objects the dropped entries pointed to go at the save's garbage
 * collection when nothing else refers to them. Answers how many entries went.
 */
export function discardUnusedResources(doc: mupdf.PDFDocument): number {
  const users = new Map<string, { resources: mupdf.PDFObject; content: string }>();
  for (let i = 0; i < doc.countPages(); i++) {
    const pageObj = doc.findPage(i);
    const resources = pageObj.getInheritable('Resources');
    if (!resources.isDictionary()) continue;
    // A direct dictionary inherited from the page tree is shared with pages this key cannot name: left alone.
    if (!resources.isIndirect() && pageObj.get('Resources').isNull()) continue;
    const key = resources.isIndirect() ? `obj ${resources.asIndirect()}` : `page ${i}`;
    const user = users.get(key) ?? { resources, content: '' };
    user.content += contentText(pageObj);
    users.set(key, user);
  }
  const formDefaults = formDefaultResources(doc);
  let removed = 0;
  for (const { resources, content } of users.values()) {
    if (resources.isIndirect() && formDefaults.has(resources.asIndirect())) continue;
    const dict = resources.resolve();
    if (lendsToForms(dict)) continue;
    for (const kind of RESOURCE_KINDS) {
      const entry = dict.get(kind);
      if (entry.isNull() || (entry.isIndirect() && formDefaults.has(entry.asIndirect()))) continue;
      const entries = entry.resolve();
      if (!entries.isDictionary()) continue;
      const unused: string[] = [];
      entries.forEach((_value, key) => {
        if (typeof key === 'string' && !usesName(content, key) && !(kind === 'ColorSpace' && DEFAULT_COLOR_SPACES.has(key))) unused.push(key);
      });
      for (const key of unused) entries.delete(key);
      removed += unused.length;
    }
  }
  return removed;
}

/**
 * Whether the form or an annotation uses an empty name as an appearance state or value (OpenOffice writes radio
 * buttons so). In an object stream MuPDF prints objects compactly whatever "pretty" says, and writes "/ 5" as "/5",
 * a different name (measured: the corpus's FormTestFromOo.pdf lost its radio button states); such a document is
 * saved without object streams. Looked for where they occur: annotations' /AP, /AS and fields' /V and /DV.
 */
export function hasEmptyStateNames(doc: mupdf.PDFDocument): boolean {
  const isEmptyName = (obj: mupdf.PDFObject) => obj.isName() && obj.asName() === '';
  const stateDictHasEmpty = (dict: mupdf.PDFObject) => {
    // A lookup of the empty key, not forEach: that makes an object for every entry of 4,000 annotations' states.
    return dict.isDictionary() && !dict.get('').isNull();
  };
  const annotHasEmpty = (annot: mupdf.PDFObject) => {
    if (!annot.isDictionary()) return false;
    if (isEmptyName(annot.get('AS')) || isEmptyName(annot.get('V')) || isEmptyName(annot.get('DV'))) return true;
    const ap = annot.get('AP');
    if (!ap.isDictionary()) return false;
    return ['N', 'D', 'R'].some((kind) => stateDictHasEmpty(ap.get(kind)));
  };
  for (let i = 0; i < doc.countPages(); i++) {
    const annots = doc.findPage(i).get('Annots');
    if (!annots.isArray()) continue;
    for (let j = 0; j < annots.length; j++) if (annotHasEmpty(annots.get(j))) return true;
  }
  const seen = new Set<number>();
  const field = (obj: mupdf.PDFObject, depth: number): boolean => {
    if (depth > 32 || !obj.isDictionary()) return false;
    if (obj.isIndirect()) {
      if (seen.has(obj.asIndirect())) return false;
      seen.add(obj.asIndirect());
    }
    if (isEmptyName(obj.get('V')) || isEmptyName(obj.get('DV'))) return true;
    const kids = obj.get('Kids');
    if (kids.isArray()) for (let k = 0; k < kids.length; k++) if (field(kids.get(k), depth + 1)) return true;
    return false;
  };
  // Step by step: get() on a missing entry (MuPDF's shared Null) throws.
  const form = doc.getTrailer().get('Root').get('AcroForm');
  const fields = form.isDictionary() ? form.get('Fields') : form;
  if (fields.isArray()) for (let k = 0; k < fields.length; k++) if (field(fields.get(k), 0)) return true;
  return false;
}

/**
 * Takes note of every simple font's /FirstChar, /LastChar and /Widths and answers a function that puts back those
 * that changed. MuPDF's subsetFonts rewrites them from the subset program, rounding each width to an integer (555.6
 * became 556) and so moving every glyph drawn after it: lossless output rendered differently (found on the corpus:
 * verapdf's 6-2-11-7-2-t01-fail-a.pdf). The widths of glyphs the subset dropped are never used, so the old array
 * is right for the new program.
 */
export function keepFontWidths(doc: mupdf.PDFDocument): () => void {
  const kept: { font: mupdf.PDFObject; first: number; last: number; widths: number[] }[] = [];
  for (const font of simpleFonts(doc)) {
    const widths = font.get('Widths');
    if (!widths.isArray()) continue;
    const values: number[] = [];
    for (let i = 0; i < widths.length; i++) values.push(widths.get(i).asNumber());
    kept.push({ font, first: font.get('FirstChar').asNumber(), last: font.get('LastChar').asNumber(), widths: values });
  }
  return () => {
    for (const { font, first, last, widths } of kept) {
      const now = font.get('Widths');
      const same = now.isArray() && now.length === widths.length && widths.every((w, i) => now.get(i).asNumber() === w) && font.get('FirstChar').asNumber() === first;
      if (same) continue;
      const array = doc.newArray();
      for (const w of widths) array.push(w);
      font.put('Widths', array);
      font.put('FirstChar', first);
      font.put('LastChar', last);
    }
  };
}

/**
 * The fonts with /Widths that pages and the forms they draw use, as references. Everything is read through the
 * references: objects resolved here and still held when subsetFonts ran lost their stream data at the save
 * (measured: pdf-lib's with_annots.pdf came out with an image without its stream).
 */
function simpleFonts(doc: mupdf.PDFDocument): mupdf.PDFObject[] {
  const fonts: mupdf.PDFObject[] = [];
  const seen = new Set<number>();
  const visit = (resources: mupdf.PDFObject, depth: number) => {
    if (!resources.isDictionary() || depth > 8) return;
    const fontDict = resources.get('Font');
    if (fontDict.isDictionary()) {
      fontDict.forEach((font) => {
        if (!font.isIndirect() || seen.has(font.asIndirect())) return;
        seen.add(font.asIndirect());
        if (font.get('Widths').isArray()) fonts.push(font);
      });
    }
    const xobjects = resources.get('XObject');
    if (!xobjects.isDictionary()) return;
    xobjects.forEach((xobject) => {
      if (!xobject.isIndirect() || seen.has(xobject.asIndirect())) return;
      seen.add(xobject.asIndirect());
      if (name(xobject.get('Subtype')) === 'Form') visit(xobject.get('Resources'), depth + 1);
    });
  };
  for (let i = 0; i < doc.countPages(); i++) visit(doc.findPage(i).getInheritable('Resources'), 0);
  return fonts;
}
