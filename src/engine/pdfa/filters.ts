import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type * as mupdf from 'mupdf';
import { deref, loadedObjects, pageContents, name } from '../core/mupdf-objects.js';

/**
 * Every part forbids the LZWDecode filter (ISO 19005-1, 6.1.10; 19005-2,
 * 6.1.7.2). A stream whose first filter is LZW (pdf-lib/optimization/
 * us_constitution.pdf: [/LZWDecode /DCTDecode] images) has that layer
 * decoded here and replaced by Flate when it was the only filter, or dropped
 * when another filter follows (the JPEG bytes under it are kept as they are).
 * Answers what was done, as report lines.
 */
export function replaceLzw(doc: mupdf.PDFDocument): string[] {
  const done: string[] = [];
  for (const { ref, obj } of loadedObjects(doc, { streams: true })) {
    const filter = deref(obj.get('Filter'));
    const filters = filter.isArray() ? Array.from({ length: filter.length }, (_, i) => name(filter.get(i)) ?? '') : filter.isName() ? [filter.asName()] : [];
    if (filters[0] !== 'LZWDecode' || filters.slice(1).includes('LZWDecode')) continue;
    const params = deref(obj.get('DecodeParms'));
    const first = params.isArray() ? deref(params.get(0)) : params;
    if (first.isDictionary() && !first.get('Predictor').isNull() && deref(first.get('Predictor')).asNumber() > 1) continue; // predictors: left to Ghostscript
    const early = first.isDictionary() && deref(first.get('EarlyChange')).isNumber() ? deref(first.get('EarlyChange')).asNumber() : 1;
    let decoded: Uint8Array;
    try {
      decoded = lzwDecode(ref.readRawStream().asUint8Array(), early !== 0);
    } catch {
      continue;
    }
    const rest = filters.slice(1);
    if (rest.length === 0) {
      ref.writeRawStream(deflateSync(decoded));
      obj.put('Filter', doc.newName('FlateDecode'));
      obj.delete('DecodeParms');
    } else {
      ref.writeRawStream(decoded);
      const next = doc.newArray();
      for (const f of rest) next.push(doc.newName(f));
      obj.put('Filter', rest.length === 1 ? doc.newName(rest[0]!) : next);
      if (params.isArray()) {
        const kept = doc.newArray();
        for (let i = 1; i < params.length; i++) kept.push(params.get(i));
        obj.put('DecodeParms', kept);
      } else {
        obj.delete('DecodeParms');
      }
    }
    done.push('LZW-compressed streams rewritten (every part forbids LZW)');
  }
  return done;
}

/** LZW as PDF has it (ISO 32000-1, 7.4.4): codes of 9 to 12 bits, 256 clears, 257 ends; early change by default. */
function lzwDecode(data: Uint8Array, earlyChange: boolean): Uint8Array {
  const out: number[] = [];
  let table: number[][] = [];
  const reset = () => {
    table = Array.from({ length: 258 }, (_, i) => (i < 256 ? [i] : []));
  };
  reset();
  let width = 9;
  let buffer = 0;
  let bits = 0;
  let previous: number[] | undefined;
  for (let i = 0; i < data.length; i++) {
    buffer = ((buffer << 8) | data[i]!) >>> 0;
    bits += 8;
    while (bits >= width) {
      const code = (buffer >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      buffer &= (1 << bits) - 1;
      if (code === 256) {
        reset();
        width = 9;
        previous = undefined;
        continue;
      }
      if (code === 257) return new Uint8Array(out);
      let entry: number[];
      if (code < table.length && (code < 256 || table[code]!.length)) entry = table[code]!;
      else if (code === table.length && previous) entry = [...previous, previous[0]!];
      else throw new Error('bad LZW code');
      out.push(...entry);
      if (previous) table.push([...previous, entry[0]!]);
      previous = entry;
      const size = table.length + (earlyChange ? 1 : 0);
      if (size >= 1 << width && width < 12) width++;
    }
  }
  return new Uint8Array(out);
}

/** A CMYK profile from Debian's Ghostscript (libgs-common): the default CMYK colour space the MuPDF path gives documents that use DeviceCMYK. */
const CMYK_ICC = '/usr/share/color/icc/ghostscript/default_cmyk.icc';

/**
 * PDF/A-2 and -3: DeviceCMYK needs a CMYK output intent or a device-independent
 * DefaultCMYK (ISO 19005-2, 6.2.4.3); the output intent is sRGB. Where content draws in
 * DeviceCMYK (k, K, or the name), every page, form and tiling pattern gets
 * DefaultCMYK, an ICCBased space with Ghostscript's default CMYK profile: the
 * colours stay CMYK values, read as viewers read plain DeviceCMYK. Ghostscript's
 * path converts them to RGB instead. Answers what was done, as report lines.
 */
export function defaultCmyk(doc: mupdf.PDFDocument): string[] {
  const holders: mupdf.PDFObject[] = [];
  let uses = false;
  const contentUses = (stream: mupdf.PDFObject) => {
    if (uses || !stream.isStream()) return;
    const text = Buffer.from(stream.readStream().asUint8Array()).toString('latin1');
    uses = /(^|[\s\]>)])[kK](?=[\s[</(%]|$)|\/DeviceCMYK\b/.test(text);
  };
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.findPage(i);
    holders.push(page);
    pageContents(page).forEach((stream) => contentUses(stream));
  }
  for (const { ref, obj } of loadedObjects(doc)) {
    if (!obj.isDictionary()) continue;
    if (ref.isStream() && (name(obj.get('Subtype')) === 'Form' || name(obj.get('Type')) === 'Pattern')) {
      holders.push(obj);
      contentUses(ref);
    } else if (!uses && name(obj.get('ColorSpace')) === 'DeviceCMYK') {
      uses = true;
    }
  }
  if (!uses) return [];
  let space: mupdf.PDFObject | undefined;
  for (const holder of holders) {
    let resources = holder.isDictionary() && holder.get('Type').isName() && name(holder.get('Type')) === 'Page' ? deref(holder.getInheritable('Resources')) : deref(holder.get('Resources'));
    if (!resources.isDictionary()) {
      resources = doc.newDictionary();
      holder.put('Resources', resources);
    }
    let spaces = deref(resources.get('ColorSpace'));
    if (!spaces.isDictionary()) {
      spaces = doc.newDictionary();
      resources.put('ColorSpace', spaces);
    }
    if (!spaces.get('DefaultCMYK').isNull()) continue;
    if (!space) {
      space = doc.newArray();
      space.push(doc.newName('ICCBased'));
      space.push(doc.addStream(readFileSync(CMYK_ICC), { N: 4, Alternate: doc.newName('DeviceCMYK') }));
      space = doc.addObject(space);
    }
    spaces.put('DefaultCMYK', space);
  }
  return ['DefaultCMYK (an ICC CMYK space) set where DeviceCMYK is drawn'];
}
