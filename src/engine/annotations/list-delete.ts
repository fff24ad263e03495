import { EngineError } from '../errors.js';
import type { AnnotationModel } from './model.js';
import { annotationEntries, entryObject, readAnnotations, type AnnotationEntry } from './read.js';
import { name, ref } from '../syntax/readers.js';
import { editPdf, withPdf } from '../core/document-task.js';
import { checkPageIndex } from '../core/open.js';
import { deref } from '../core/mupdf-objects.js';
import type { PdfSource } from '../core/pdf-source.js';

export interface AnnotationList {
  annotations: AnnotationModel[];
  pageCount: number;
}

/** The `listAnnotations` task. */
export function listAnnotations(input: { pdf: PdfSource; password?: string | undefined }): AnnotationList {
  return withPdf(input, 'view', (doc) => ({ annotations: readAnnotations(doc), pageCount: doc.countPages() }));
}

/** What to delete: named annotations, or all of a page's or the document's (form widgets excepted). */
export type DeleteSelection = { names: string[] } | { pageIndex?: number | undefined };

/**
 * The annotations to remove for a selection, with what goes along: an
 * annotation's popup, and its replies (and theirs), as Acrobat does. Form
 * widgets are left out of "all" deletions: they belong to the form.
 */
function closure(entries: AnnotationEntry[], selection: DeleteSelection): Set<AnnotationEntry> {
  const selected = new Set<AnnotationEntry>();
  if ('names' in selection) {
    const byName = new Map(entries.map((e) => [e.name, e]));
    for (const n of selection.names) {
      const e = byName.get(n);
      if (!e) throw new EngineError('ANNOTATION_NOT_FOUND', `No annotation named ${JSON.stringify(n)}`);
      selected.add(e);
    }
  } else {
    for (const e of entries) {
      if (name(e.dict.get('Subtype')) === 'Widget') continue;
      if (selection.pageIndex === undefined || e.pageIndex === selection.pageIndex) selected.add(e);
    }
  }
  const byObject = new Map(entries.filter((e) => e.objectNumber !== undefined).map((e) => [e.objectNumber!, e]));
  const refersTo = (e: AnnotationEntry, key: string) => {
    const num = ref(e.dict.get(key));
    return num !== undefined ? byObject.get(num) : undefined;
  };
  // Replies and popups of anything selected, until nothing new is added.
  for (let changed = true; changed; ) {
    changed = false;
    for (const e of entries) {
      if (selected.has(e)) continue;
      const parent = refersTo(e, 'IRT') ?? (name(e.dict.get('Subtype')) === 'Popup' ? refersTo(e, 'Parent') : undefined);
      if (parent && selected.has(parent)) {
        selected.add(e);
        changed = true;
      }
    }
  }
  return selected;
}

/**
 * The `deleteAnnotations` task: removes the selection from the pages' /Annots
 * (and a deleted popup from its parent's /Popup), gives every remaining
 * annotation that lacked one its name in /NM, and saves.
 */
export function deleteAnnotations(input: { pdf: PdfSource; password?: string | undefined; selection: DeleteSelection }): AnnotationList & { bytes: Uint8Array; deleted: string[] } {
  return editPdf(input, 'annotate', (doc, { signed, save }) => {
    const pageIndex = 'pageIndex' in input.selection ? input.selection.pageIndex : undefined;
    checkPageIndex(doc, pageIndex);
    const entries = annotationEntries(doc);
    const doomed = closure(entries, input.selection);
    const doomedObjects = new Set([...doomed].flatMap((e) => (e.objectNumber !== undefined ? [e.objectNumber] : [])));
    // Remove from the end of each array so earlier indexes stay valid.
    for (const e of [...doomed].sort((a, b) => b.pageIndex - a.pageIndex || b.index - a.index)) {
      deref(doc.findPage(e.pageIndex).get('Annots')).delete(e.index);
    }
    for (const e of entries) {
      if (doomed.has(e)) continue;
      const popup = ref(e.dict.get('Popup'));
      if (popup !== undefined && doomedObjects.has(popup)) {
        entryObject(doc, e).delete('Popup');
        e.dict.delete('Popup');
      }
    }
    if (!signed) {
      for (const e of entries) if (!doomed.has(e) && !e.hasOwnName) entryObject(doc, e).put('NM', doc.newString(e.name));
    }
    const bytes = save();
    const remaining = entries.filter((e) => !doomed.has(e));
    return { bytes, deleted: [...doomed].map((e) => e.name), annotations: readAnnotations(doc, remaining), pageCount: doc.countPages() };
  });
}
