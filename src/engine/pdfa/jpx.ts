import { deflateSync } from 'node:zlib';
import * as mupdf from 'mupdf';
import { deref, loadedObjects, name } from '../core/mupdf-objects.js';

/**
 * PDF/A-1 is based on PDF 1.4, which has no JPXDecode (ISO 19005-1, 6.1.4;
 * veraPDF lets it pass, PDFBox Preflight does not: pdfjs/encryption/issue3371.pdf).
 * For part 1 each JPEG 2000 image is decoded (MuPDF) and written again
 * losslessly, Flate over its 8-bit samples, in place: the same object, so
 * every use of it stays, with its colour space and soft mask (docs/pdfa.md,
 * images). An alpha channel in the code stream (SMaskInData) is transparency,
 * which part 1 forbids: it is dropped, as prepare.ts makes other transparency
 * opaque. Answers what was done, as report lines, one per image.
 */
export function reencodeJpxImages(doc: mupdf.PDFDocument): string[] {
  const done: string[] = [];
  for (const { ref, obj } of loadedObjects(doc, { streams: true })) {
    if (name(obj.get('Subtype')) !== 'Image' || !onlyJpx(obj.get('Filter'))) continue;
    done.push(reencode(doc, ref, obj) ? 'JPEG 2000 images re-encoded losslessly (Flate; PDF/A-1 has no JPXDecode)' : 'JPEG 2000 images left as they are (colour space not re-encodable)');
  }
  return done;
}

function onlyJpx(filter: mupdf.PDFObject): boolean {
  const f = deref(filter);
  if (f.isName()) return f.asName() === 'JPXDecode';
  return f.isArray() && f.length === 1 && name(f.get(0)) === 'JPXDecode';
}

/** The device colour space of `components` colours, the form the samples are written in when the dictionary names none. */
function deviceSpace(components: number): { space: mupdf.ColorSpace; pdfName: string } | undefined {
  if (components === 1) return { space: mupdf.ColorSpace.DeviceGray, pdfName: 'DeviceGray' };
  if (components === 3) return { space: mupdf.ColorSpace.DeviceRGB, pdfName: 'DeviceRGB' };
  if (components === 4) return { space: mupdf.ColorSpace.DeviceCMYK, pdfName: 'DeviceCMYK' };
  return undefined;
}

/** How many colour components the dictionary's /ColorSpace has, for the spaces whose samples map one to one; undefined otherwise. */
function componentsOf(colorSpace: mupdf.PDFObject): number | undefined {
  const cs = deref(colorSpace);
  const family = cs.isName() ? cs.asName() : cs.isArray() && cs.length > 0 ? name(cs.get(0)) : undefined;
  switch (family) {
    case 'DeviceGray':
    case 'CalGray':
      return 1;
    case 'DeviceRGB':
    case 'CalRGB':
    case 'Lab':
      return 3;
    case 'DeviceCMYK':
      return 4;
    case 'ICCBased': {
      const n = deref(cs.get(1)).get('N');
      return n.isNumber() ? n.asNumber() : undefined;
    }
    default:
      return undefined;
  }
}

function reencode(doc: mupdf.PDFDocument, ref: mupdf.PDFObject, obj: mupdf.PDFObject): boolean {
  const declared = obj.get('ColorSpace');
  const wanted = declared.isNull() ? undefined : componentsOf(declared);
  if (!declared.isNull() && wanted === undefined) return false; // Indexed, Separation, DeviceN: their samples are not colours to convert
  const image = new mupdf.Image(ref.readRawStream());
  let pixmap = image.toPixmap();
  try {
    const colours = pixmap.getNumberOfComponents() - pixmap.getAlpha();
    const target = deviceSpace(wanted ?? colours);
    if (!target) return false;
    // Samples in the number of components the written colour space has, without alpha (MuPDF converts the colours when they differ).
    if (pixmap.getAlpha() || colours !== target.space.getNumberOfComponents()) {
      const converted = pixmap.convertToColorSpace(target.space, false);
      pixmap.destroy();
      pixmap = converted;
    }
    const width = pixmap.getWidth();
    const height = pixmap.getHeight();
    const n = pixmap.getNumberOfComponents();
    const stride = pixmap.getStride();
    const pixels = pixmap.getPixels();
    const samples = new Uint8Array(width * height * n);
    for (let y = 0; y < height; y++) samples.set(pixels.subarray(y * stride, y * stride + width * n), y * width * n);
    ref.writeRawStream(deflateSync(samples));
    obj.put('Filter', doc.newName('FlateDecode'));
    obj.delete('DecodeParms');
    obj.delete('SMaskInData');
    obj.put('Width', width);
    obj.put('Height', height);
    obj.put('BitsPerComponent', 8);
    if (declared.isNull()) obj.put('ColorSpace', doc.newName(target.pdfName));
    return true;
  } finally {
    pixmap.destroy();
    image.destroy();
  }
}

/**
 * Every part forbids Interpolate true on images (ISO 19005-1, 6.2.4; 19005-2, 6.2.8): it is a rendering hint, so
 * it is removed (the default, false). Ghostscript removes it too; the MuPDF path failed on it (tracemonkey.pdf).
 */
export function dropInterpolation(doc: mupdf.PDFDocument): string[] {
  const done: string[] = [];
  for (const { obj } of loadedObjects(doc, { streams: true })) {
    const interpolate = obj.get('Interpolate');
    if (name(obj.get('Subtype')) !== 'Image' || interpolate.isNull()) continue;
    if (interpolate.isBoolean() && interpolate.asBoolean()) done.push('image interpolation hints removed');
    obj.delete('Interpolate');
  }
  return done;
}
