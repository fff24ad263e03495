/** MuPDF drawing annotation and widget appearances, and the repair of the symbolic fonts it writes into them. */
import type * as mupdf from 'mupdf';
import { deref } from '../core/mupdf-objects.js';

/**
 * Has MuPDF draw an annotation's (or widget's) appearance. It only draws for
 * an annotation it sees as changed: a no-op set marks it so. False when MuPDF
 * cannot draw this kind (3D, Movie, ...): it keeps no appearance, and viewers
 * draw their own.
 */
export function redraw(annot: mupdf.PDFAnnotation): boolean {
  try {
    annot.setFlags(annot.getFlags());
    annot.update();
    fixSymbolicFonts(annot.getObject());
    return true;
  } catch {
    return false;
  }
}

/**
 * Has MuPDF draw the appearances of several annotations (or widgets) in one
 * pass. Its update walks every annotation of every loaded page and draws the
 * ones marked as changed, so one update per annotation costs quadratic time:
 * 1,000 annotations on one page took 13 s that way, 0.2 s in one pass.
 */
export function redrawAll(annots: mupdf.PDFAnnotation[], subtypes?: (string | undefined)[]): void {
  if (annots.length === 0) return;
  for (const annot of annots) annot.setFlags(annot.getFlags());
  try {
    annots[0]!.update();
  } catch {
    // An annotation MuPDF cannot draw stops the pass: draw them one by one, so that only that one goes without.
    for (const annot of annots) redraw(annot);
    return;
  }
  annots.forEach((annot, i) => {
    const subtype = subtypes?.[i];
    if (subtype === undefined || !DRAWN_WITHOUT_TEXT.has(subtype)) fixSymbolicFonts(annot.getObject());
  });
}

/**
 * Subtypes MuPDF draws with paths alone, no font: fixSymbolicFonts has nothing to repair in them. Walking an
 * appearance's resources through MuPDF's object API is a handful of JS wrappers per annotation: a fifth of an import's
 * drawing when done for every one. Callers that know the subtypes pass them to redrawAll. Text: MuPDF 1.28 draws every
 * note icon (the standard names, an unknown one, none) as paths, with no /Resources (checked 2026-11-30).
 */
const DRAWN_WITHOUT_TEXT = new Set(['Square', 'Circle', 'Ink', 'Highlight', 'Underline', 'StrikeOut', 'Squiggly', 'Polygon', 'PolyLine', 'Text']);

/** The standard fonts whose glyphs are not letters: MuPDF draws check marks with ZapfDingbats. */
const SYMBOLIC_FONTS = new Set(['ZapfDingbats', 'Symbol']);

/**
 * MuPDF gives the ZapfDingbats font of the appearances it draws (the check
 * of a check box) /Encoding /WinAnsiEncoding. By that encoding the check's
 * code ("3") names the glyph "three", which ZapfDingbats does not have:
 * poppler, which follows the encoding, draws nothing, so a checked box
 * looked empty once flattened (MuPDF ignores the entry). The built-in
 * encoding of these fonts is the one meant, so the entry is removed from
 * the symbolic fonts of the annotation's appearance streams. Call after
 * MuPDF has drawn an appearance.
 */
function fixSymbolicFonts(annot: mupdf.PDFObject): void {
  const ap = deref(deref(annot).get('AP'));
  if (!ap.isDictionary()) return;
  const fix = (stream: mupdf.PDFObject) => {
    if (!stream.isStream()) return;
    const resources = deref(deref(stream).get('Resources'));
    const fonts = resources.isDictionary() ? deref(resources.get('Font')) : undefined;
    if (!fonts?.isDictionary()) return;
    fonts.forEach((value) => {
      const font = deref(value);
      if (!font.isDictionary()) return;
      const base = deref(font.get('BaseFont'));
      const encoding = deref(font.get('Encoding'));
      if (base.isName() && SYMBOLIC_FONTS.has(base.asName()) && encoding.isName() && encoding.asName() === 'WinAnsiEncoding') font.delete('Encoding');
    });
  };
  for (const key of ['N', 'D', 'R']) {
    const entry = ap.get(key);
    if (entry.isStream()) fix(entry);
    else if (deref(entry).isDictionary()) deref(entry).forEach((state) => fix(state));
  }
}
