import { createHash } from 'node:crypto';
import * as mupdf from 'mupdf';
import { contentHolders, deref } from '../core/mupdf-objects.js';
import { contentTokens } from '../syntax/content-tokens.js';

/**
 * Inline images (BI ... ID ... EI) drawn above 1.5 times their handler's
 * target become image XObjects, so that the image pass can downsample them
 * (docs/optimize.md, "Inline images"); the rest stay in their content stream.
 * The data of an inline image has no length, and where it ends is a guess
 * (the first EI after whitespace), so a conversion is kept only when the new
 * XObject decodes to exactly the pixels MuPDF drew for the inline image; the
 * content stream is then cut there, and nothing else in it changes.
 */

/** A draw the survey could not attribute to an image XObject: an inline image, or (rarely) a fresh load of one. */
export interface UnmatchedDraw {
  width: number;
  height: number;
  dpi: number;
  /** Large enough and above the lowest target: an inline image here would be converted (or noted). */
  candidate: boolean;
  /** SHA-1 of the decoded pixels, for candidates small enough to hash. */
  hash?: string;
}

/** Largest inline image (in pixels) hashed in the survey, and so converted: 64 Mpx, a 600 dpi A3 page. */
const MAX_HASHED_PIXELS = 64 << 20;
/**
 * Smallest one considered: 128 x 128 pixels. Below, downsampling gains next to
 * nothing, and bitmap fonts (Type 3 glyphs drawn as inline image masks, often
 * at 600 dpi) would have every glyph hashed.
 */
const MIN_INLINE_PIXELS = 128 * 128;

/** The draw's record: size, resolution and, when it could be converted (`hashAbove` dpi or more), the pixels' hash. */
export function unmatchedDraw(image: mupdf.Image, dpi: number, hashAbove: number): UnmatchedDraw {
  const pixels = image.getWidth() * image.getHeight();
  const draw: UnmatchedDraw = { width: image.getWidth(), height: image.getHeight(), dpi, candidate: dpi > hashAbove && pixels >= MIN_INLINE_PIXELS };
  if (draw.candidate && pixels <= MAX_HASHED_PIXELS) {
    try {
      draw.hash = pixelHash(image);
    } catch {
      // Not decodable: not converted.
    }
  }
  return draw;
}

function pixelHash(image: mupdf.Image): string {
  const pixmap = image.toPixmap();
  try {
    return createHash('sha1').update(pixmap.getPixels()).digest('hex');
  } finally {
    pixmap.destroy();
  }
}

type Kind = 'color' | 'gray' | 'bw';

/** An inline image's entries, read from the text between BI and ID (abbreviated or full keys). */
function entries(header: string): { width?: number; height?: number; kind: Kind } {
  const int = (short: string, long: string) => {
    const m = new RegExp(`/(?:${short}|${long})\\s+(\\d+)`).exec(header);
    return m ? Number(m[1]) : undefined;
  };
  const mask = /\/(?:IM|ImageMask)\s+true/.test(header);
  const bpc = int('BPC', 'BitsPerComponent');
  const cs = /\/(?:CS|ColorSpace)\s*\/(\w+)/.exec(header)?.[1];
  const gray = cs === 'G' || cs === 'DeviceGray' || cs === 'CalGray';
  const kind: Kind = mask || (gray && bpc === 1) ? 'bw' : gray ? 'gray' : 'color';
  return { width: int('W', 'Width'), height: int('H', 'Height'), kind };
}

/** Abbreviated keys and values of inline images (ISO 32000-1, tables 93 and 94). */
const KEYS: Record<string, string> = { BPC: 'BitsPerComponent', CS: 'ColorSpace', D: 'Decode', DP: 'DecodeParms', F: 'Filter', H: 'Height', IM: 'ImageMask', I: 'Interpolate', W: 'Width' };
const NAMES: Record<string, string> = {
  G: 'DeviceGray',
  RGB: 'DeviceRGB',
  CMYK: 'DeviceCMYK',
  I: 'Indexed',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
  LZW: 'LZWDecode',
  Fl: 'FlateDecode',
  RL: 'RunLengthDecode',
  CCF: 'CCITTFaxDecode',
  DCT: 'DCTDecode',
};
const DEVICE_SPACES = new Set(['DeviceGray', 'DeviceRGB', 'DeviceCMYK', 'Indexed', 'Pattern']);

/** The inline image's dictionary as an image XObject's, in `doc`; undefined when some entry cannot be carried over. */
function xobjectDictionary(doc: mupdf.PDFDocument, header: string, resources: mupdf.PDFObject): mupdf.PDFObject | undefined {
  // MuPDF parses the entries: a scratch file holding them as one object (it repairs the missing cross-reference table).
  const scratch = new mupdf.PDFDocument(Buffer.from(`%PDF-1.7\n1 0 obj\n<<${header}\n>>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`, 'latin1'));
  try {
    const parsed = scratch.newIndirect(1).resolve();
    if (!parsed.isDictionary()) return undefined;
    const dict = doc.newDictionary();
    dict.put('Type', doc.newName('XObject'));
    dict.put('Subtype', doc.newName('Image'));
    const expand = (value: mupdf.PDFObject, space: boolean): mupdf.PDFObject | undefined => {
      if (value.isName()) {
        const full = NAMES[value.asName()] ?? value.asName();
        if (space && !DEVICE_SPACES.has(full)) {
          // A colour space named in the resources: the XObject takes the space itself.
          const named = deref(resources).isDictionary() ? deref(deref(resources).get('ColorSpace')) : undefined;
          const found = named?.isDictionary() ? named.get(full) : undefined;
          return found && !found.isNull() ? found : undefined;
        }
        return doc.newName(full);
      }
      if (value.isArray()) {
        const array = doc.newArray();
        for (let i = 0; i < value.length; i++) {
          const item = expand(value.get(i), space && i < 2);
          if (!item) return undefined;
          array.push(item);
        }
        return array;
      }
      return doc.graftObject(value);
    };
    let ok = true;
    parsed.forEach((value, key) => {
      const full = KEYS[key] ?? key;
      if (full === 'L' || full === 'Length') return;
      const expanded = expand(value, full === 'ColorSpace');
      if (!expanded) ok = false;
      else dict.put(full, expanded);
    });
    return ok ? dict : undefined;
  } finally {
    scratch.destroy();
  }
}

/** An inline image turned into an image XObject: its object, and the resolution it is drawn at. */
export interface ConvertedInline {
  ref: mupdf.PDFObject;
  dpi: number;
}

/**
 * Turns each inline image on a page that is drawn above 1.5 times its
 * handler's target into an image XObject (verified as above) drawn with Do;
 * answers the new objects and notes for those kept. Only pages' own content
 * streams are cut (a stream two pages share, or a form's, is left, noted).
 * Content streams are read only when the survey saw a large draw above the
 * lowest target that no image XObject accounts for.
 */
export function convertInlineImages(
  doc: mupdf.PDFDocument,
  unmatched: UnmatchedDraw[],
  handlers: Record<Kind, { dpi?: number } | undefined>,
): { converted: ConvertedInline[]; notes: string[] } {
  const converted: ConvertedInline[] = [];
  const notes: string[] = [];
  // Content streams are read only when some draw could be an inline image worth converting (not for bitmap glyphs, say).
  if (!unmatched.some((d) => d.candidate)) return { converted, notes };
  const holders = [...contentHolders(doc, ['page', 'form', 'tiling'])];
  // Content streams several pages draw: cutting one would need the name in every page's resources.
  const uses = new Map<number, number>();
  for (const holder of holders) for (const s of holder.streams) if (s.isIndirect()) uses.set(s.asIndirect(), (uses.get(s.asIndirect()) ?? 0) + 1);
  let pageIndex = 0;
  // A stream drawn by several pages is read once (one note for it).
  const read = new Set<number>();
  for (const holder of holders) {
    const where = holder.kind === 'page' ? `page ${++pageIndex}` : `${holder.kind === 'form' ? 'form XObject' : 'pattern'} ${holder.owner.asIndirect()}`;
    for (const stream of holder.streams) {
      if (!stream.isStream()) continue;
      if (stream.isIndirect()) {
        if (read.has(stream.asIndirect())) continue;
        read.add(stream.asIndirect());
      }
      let bytes: Uint8Array;
      try {
        const buffer = stream.readStream();
        // A copy: the buffer's view is into WebAssembly memory, which moves when it grows.
        bytes = buffer.asUint8Array().slice();
        buffer.destroy();
      } catch {
        continue;
      }
      const cuts: { start: number; end: number; name: string }[] = [];
      for (const token of contentTokens(bytes)) {
        if (token.kind !== 'inline-image') continue;
        const text = Buffer.from(bytes.subarray(token.start, token.end)).toString('latin1');
        const id = text.search(/\sID\s/);
        if (id < 0) continue;
        const { width, height, kind } = entries(text.slice(2, id));
        const target = handlers[kind]?.dpi ?? 0;
        if (width === undefined || height === undefined || target <= 0 || width * height < MIN_INLINE_PIXELS) continue;
        const draws = unmatched.filter((d) => d.width === width && d.height === height);
        const dpi = Math.max(0, ...draws.map((d) => d.dpi));
        if (dpi <= 1.5 * target) continue;
        const kept = (why: string) => notes.push(`${where}: inline image ${width}x${height} drawn at ${Math.round(dpi)} dpi kept (${why})`);
        if (holder.kind !== 'page' || !stream.isIndirect() || uses.get(stream.asIndirect()) !== 1) {
          kept('its content stream is not one page\'s own, so it is not cut');
          continue;
        }
        // The data: after ID and one whitespace byte, up to the whitespace before EI (a filter ignores what follows its end).
        const data = bytes.subarray(token.start + id + 4, token.end - 3);
        const dict = xobjectDictionary(doc, text.slice(2, id), holder.resources);
        if (!dict) {
          kept('an entry could not be carried over to an image XObject');
          continue;
        }
        const ref = doc.addRawStream(data, dict);
        let same: UnmatchedDraw[] = [];
        try {
          const image = doc.loadImage(ref);
          try {
            const hash = pixelHash(image);
            same = draws.filter((d) => d.hash === hash);
          } finally {
            image.destroy();
          }
        } catch {
          // Not decodable as an XObject: kept inline.
        }
        if (same.length === 0) {
          doc.deleteObject(ref);
          kept('as an image XObject it would not decode to the pixels drawn');
          continue;
        }
        cuts.push({ start: token.start, end: token.end, name: addXObject(doc, holder, ref) });
        converted.push({ ref, dpi: Math.max(...same.map((d) => d.dpi)) });
      }
      if (cuts.length === 0) continue;
      const parts: Buffer[] = [];
      let at = 0;
      for (const cut of cuts) {
        parts.push(Buffer.from(bytes.subarray(at, cut.start)), Buffer.from(`/${cut.name} Do`, 'latin1'));
        at = cut.end;
      }
      parts.push(Buffer.from(bytes.subarray(at)));
      stream.writeStream(Buffer.concat(parts));
    }
  }
  return { converted, notes };
}

/** `ref` under a new name in the XObject resources the page draws with (its own or inherited; a new dictionary when it has none); the name. */
function addXObject(doc: mupdf.PDFDocument, holder: { owner: mupdf.PDFObject; resources: mupdf.PDFObject }, ref: mupdf.PDFObject): string {
  let resources = holder.resources;
  if (!resources.isDictionary()) {
    resources = doc.newDictionary();
    holder.owner.put('Resources', resources);
    holder.resources = resources;
  }
  let xobjects = deref(resources.get('XObject'));
  if (!xobjects.isDictionary()) {
    xobjects = doc.newDictionary();
    resources.put('XObject', xobjects);
  }
  let serial = 1;
  while (!xobjects.get(`InlineIm${serial}`).isNull()) serial++;
  xobjects.put(`InlineIm${serial}`, ref);
  return `InlineIm${serial}`;
}
