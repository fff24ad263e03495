import type * as mupdf from 'mupdf';
import { contentHolders } from '../core/mupdf-objects.js';
import { contentTokens } from '../syntax/content-tokens.js';

/**
 * Inline images (BI ... ID ... EI) are left as they are (docs/optimize.md,
 * "Inline images"); this finds those a handler would have downsampled, for
 * the report's notes. Their resolution comes from the survey's draws that
 * match no image XObject (MuPDF hands the device an inline image as an image
 * of its own), matched by size.
 */

/** A draw the survey could not attribute to an image XObject. */
export interface UnmatchedDraw {
  width: number;
  height: number;
  dpi: number;
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

/**
 * One note per inline image drawn above 1.5 times its handler's target
 * resolution. Content streams are read only when the survey saw a draw that
 * no image XObject accounts for.
 */
export function inlineImages(doc: mupdf.PDFDocument, unmatched: UnmatchedDraw[], handlers: Record<Kind, { dpi?: number } | undefined>): string[] {
  if (unmatched.length === 0) return [];
  const notes: string[] = [];
  const seen = new Set<string>();
  let pageIndex = 0;
  for (const holder of contentHolders(doc, ['page', 'form', 'tiling'])) {
    const where = holder.kind === 'page' ? `page ${++pageIndex}` : `${holder.kind === 'form' ? 'form XObject' : 'pattern'} ${holder.owner.asIndirect()}`;
    for (const stream of holder.streams) {
      if (!stream.isStream()) continue;
      let bytes: Uint8Array;
      try {
        const buffer = stream.readStream();
        // A copy: the buffer's view is into WebAssembly memory, which moves when it grows.
        bytes = buffer.asUint8Array().slice();
        buffer.destroy();
      } catch {
        continue;
      }
      for (const token of contentTokens(bytes)) {
        if (token.kind !== 'inline-image') continue;
        const key = `${stream.isIndirect() ? stream.asIndirect() : where}:${token.start}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const idAt = Buffer.from(bytes.subarray(token.start, Math.min(token.end, token.start + 4096))).toString('latin1');
        const header = idAt.slice(0, Math.max(0, idAt.search(/\sID[\s]/)) || idAt.length);
        const { width, height, kind } = entries(header);
        const target = handlers[kind]?.dpi ?? 0;
        if (width === undefined || height === undefined || target <= 0) continue;
        const dpi = Math.max(0, ...unmatched.filter((d) => d.width === width && d.height === height).map((d) => d.dpi));
        if (dpi > 1.5 * target) {
          notes.push(`${where}: inline image ${width}x${height} drawn at ${Math.round(dpi)} dpi kept (inline images are part of the content stream, which is not rewritten)`);
        }
      }
    }
  }
  return notes;
}
