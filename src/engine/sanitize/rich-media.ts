/**
 * JavaScript of rich media and 3D annotations (SanitizeAction's `javascript`): a RichMedia annotation's scripts are
 * file specifications of its assets, listed under /RichMediaSettings /Activation (and /Deactivation) /Scripts and
 * run when it is activated; a 3D stream's /OnInstantiate is a script run when it is instantiated (ISO 32000-2 13.6,
 * 13.7). Pure over MuPDF objects.
 */
import type * as mupdf from 'mupdf';
import { deref, name } from '../core/mupdf-objects.js';

/** Keys that hold only scripts: RichMediaActivation/Deactivation /Scripts, a 3D stream's /OnInstantiate. */
export const SCRIPT_KEYS = ['Scripts', 'OnInstantiate'] as const;

/** The object numbers of the file specifications an array lists. */
function refsOf(list: mupdf.PDFObject): Set<number> {
  const refs = new Set<number>();
  const array = deref(list);
  if (array.isArray()) for (let i = 0; i < array.length; i++) if (array.get(i).isIndirect()) refs.add(array.get(i).asIndirect());
  return refs;
}

/** Removes the entries of a name tree (its /Names pairs, through /Kids) whose value is one of `refs`. */
function dropNames(tree: mupdf.PDFObject, refs: ReadonlySet<number>, depth = 0): void {
  const node = deref(tree);
  if (!node.isDictionary() || depth > 32) return;
  const names = deref(node.get('Names'));
  if (names.isArray()) {
    for (let i = names.length - 2; i >= 0; i -= 2) {
      const value = names.get(i + 1);
      if (value.isIndirect() && refs.has(value.asIndirect())) {
        names.delete(i + 1);
        names.delete(i);
      }
    }
  }
  const kids = deref(node.get('Kids'));
  if (kids.isArray()) for (let i = 0; i < kids.length; i++) dropNames(kids.get(i), refs, depth + 1);
}

/**
 * A RichMedia annotation's scripts: how many its activation and deactivation list; with `remove`, the lists go and so
 * do the assets they name (the scripts' own files, in /RichMediaContent /Assets), so that the saved file drops them.
 */
export function richMediaScripts(annot: mupdf.PDFObject, remove: boolean): number {
  if (!annot.isDictionary() || name(annot.get('Subtype')) !== 'RichMedia') return 0;
  const settings = deref(annot.get('RichMediaSettings'));
  if (!settings.isDictionary()) return 0;
  const scripts = new Set<number>();
  let found = 0;
  for (const key of ['Activation', 'Deactivation']) {
    const dict = deref(settings.get(key));
    if (!dict.isDictionary() || dict.get('Scripts').isNull()) continue;
    const list = deref(dict.get('Scripts'));
    found += list.isArray() ? Math.max(1, list.length) : 1;
    for (const r of refsOf(list)) scripts.add(r);
    if (remove) dict.delete('Scripts');
  }
  const content = deref(annot.get('RichMediaContent'));
  if (remove && scripts.size && content.isDictionary()) dropNames(content.get('Assets'), scripts);
  return found;
}
