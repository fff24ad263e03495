import type * as mupdf from 'mupdf';
import { deref, loadedObjects, pageContents, name } from '../core/mupdf-objects.js';

/**
 * What PDF/A-1 asks of a document's structure that the MuPDF path can give it
 * without changing how it looks (pypdf/annotations/example.pdf failed on
 * both and went to Ghostscript, whose Type 3 fonts PDFBox Preflight refuses):
 *
 * - optional content (6.1.13: no OCProperties) is dropped when every group
 *   is on in the default configuration: the pages look as they did. When a
 *   group is off, it stays for Ghostscript, which draws what the default
 *   configuration shows;
 * - a subset CIDFontType2 font gets the CIDSet its descriptor must have
 *   (6.3.5), read from the font program: every glyph it has (maxp's count;
 *   veraPDF counts empty glyphs as present too: listing only those with an
 *   outline failed), CID = GID (CIDToGIDMap Identity; other maps are left
 *   as they are).
 *
 * Answers what was done, as report lines.
 */
export function part1Structure(doc: mupdf.PDFDocument): string[] {
  const done: string[] = [];
  const catalog = deref(doc.getTrailer().get('Root'));
  const properties = deref(catalog.get('OCProperties'));
  if (properties.isDictionary() && allGroupsOn(properties)) {
    catalog.delete('OCProperties');
    done.push('optional content made plain content (every group was on)');
  }
  for (const { obj: font } of loadedObjects(doc)) {
    if (!font.isDictionary() || name(font.get('Subtype')) !== 'CIDFontType2' || name(font.get('CIDToGIDMap')) !== 'Identity') continue;
    const descriptor = deref(font.get('FontDescriptor'));
    if (!descriptor.isDictionary() || !descriptor.get('CIDSet').isNull()) continue;
    const fontName = name(descriptor.get('FontName')) ?? name(font.get('BaseFont')) ?? '';
    const file = descriptor.get('FontFile2');
    if (!/^[A-Z]{6}\+/.test(fontName) || !file.isStream()) continue;
    let glyphs: number | undefined;
    try {
      glyphs = glyphCount(file.readStream().asUint8Array());
    } catch {
      glyphs = undefined;
    }
    if (!glyphs) continue;
    const bits = new Uint8Array(Math.ceil(glyphs / 8));
    for (let gid = 0; gid < glyphs; gid++) bits[gid >> 3]! |= 0x80 >> (gid & 7);
    descriptor.put('CIDSet', doc.addStream(bits, {}));
    done.push('CIDSet added to subset CID fonts');
  }
  return done;
}

/** Whether the default configuration shows every group (BaseState not OFF, no OFF list): dropping optional content changes nothing seen. */
function allGroupsOn(properties: mupdf.PDFObject): boolean {
  const d = deref(properties.get('D'));
  if (!d.isDictionary()) return true;
  if (name(d.get('BaseState')) === 'OFF' || name(d.get('BaseState')) === 'Unchanged') return false;
  const off = deref(d.get('OFF'));
  if (off.isArray() && off.length > 0) return false;
  // Groups whose visibility depends on usage (AS) are not always on.
  return deref(d.get('AS')).isNull() || (deref(d.get('AS')).isArray() && deref(d.get('AS')).length === 0);
}

/** The number of glyphs of a TrueType font program (its maxp table), or undefined when it has none. */
function glyphCount(font: Uint8Array): number | undefined {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const numTables = view.getUint16(4);
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    if (String.fromCharCode(font[at]!, font[at + 1]!, font[at + 2]!, font[at + 3]!) === 'maxp') return view.getUint16(view.getUint32(at + 8) + 4);
  }
  return undefined;
}

/**
 * Font descriptors without /Type /FontDescriptor (required; tracemonkey.pdf's pdfTeX fonts lack it): PDFBox
 * Preflight refuses them where veraPDF lets them pass. Every part gets the entry.
 */
export function fontDescriptorTypes(doc: mupdf.PDFDocument): string[] {
  const done: string[] = [];
  for (const { obj } of loadedObjects(doc)) {
    if (!obj.isDictionary()) continue;
    const descriptor = deref(obj.get('FontDescriptor'));
    if (!descriptor.isDictionary() || name(descriptor.get('Type')) === 'FontDescriptor') continue;
    descriptor.put('Type', doc.newName('FontDescriptor'));
    done.push('font descriptors given their Type');
  }
  return done;
}

/**
 * PDF/A-1 with the sRGB output intent: named colour spaces built on DeviceCMYK (a Separation's alternate) that no
 * content selects are removed from the resources. veraPDF judges what is drawn; PDFBox Preflight refuses every
 * DeviceCMYK it finds in resources (pdfjs/encryption/bug1782186.pdf). A name selected anywhere (cs, CS, an inline
 * image's CS) is kept everywhere: what is used stays for veraPDF, and Ghostscript's path, to judge.
 */
export function unusedCmykSpaces(doc: mupdf.PDFDocument): string[] {
  const used = new Set<string>();
  const holders: mupdf.PDFObject[] = [];
  const scan = (stream: mupdf.PDFObject) => {
    if (!stream.isStream()) return;
    const text = Buffer.from(stream.readStream().asUint8Array()).toString('latin1');
    for (const m of text.matchAll(/\/([^\s/[\]()<>{}%]+)\s*(?:cs|CS)(?![^\s/[\]()<>{}%])/g)) used.add(m[1]!);
    for (const m of text.matchAll(/\/(?:CS|ColorSpace)\s*\/([^\s/[\]()<>{}%]+)/g)) used.add(m[1]!);
  };
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.findPage(i);
    pageContents(page).forEach((stream) => scan(stream));
  }
  for (const { ref, obj } of loadedObjects(doc)) {
    if (!obj.isDictionary()) continue;
    const resources = deref(obj.get('Resources'));
    if (resources.isDictionary()) holders.push(resources);
    if (ref.isStream() && (name(obj.get('Subtype')) === 'Form' || name(obj.get('Type')) === 'Pattern')) scan(ref);
    const procs = name(obj.get('Subtype')) === 'Type3' ? deref(obj.get('CharProcs')) : undefined;
    if (procs?.isDictionary()) procs.forEach(scan);
  }
  const done: string[] = [];
  for (const resources of holders) {
    const spaces = deref(resources.get('ColorSpace'));
    if (!spaces.isDictionary()) continue;
    const drop: string[] = [];
    spaces.forEach((value, key) => {
      if (!used.has(String(key)) && mentionsCmyk(deref(value))) drop.push(String(key));
    });
    for (const key of drop) {
      spaces.delete(key);
      done.push('unused CMYK-based colour spaces removed from resources');
    }
  }
  return done;
}

function mentionsCmyk(space: mupdf.PDFObject): boolean {
  if (space.isName()) return space.asName() === 'DeviceCMYK';
  if (!space.isArray()) return false;
  for (let i = 0; i < space.length; i++) {
    const item = deref(space.get(i));
    if (item.isName() && item.asName() === 'DeviceCMYK') return true;
    if (item.isArray() && mentionsCmyk(item)) return true;
  }
  return false;
}
