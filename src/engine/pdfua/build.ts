import type * as mupdf from 'mupdf';
import { deref } from '../core/mupdf-objects.js';

/**
 * A structure tree written for content the service drew itself and marked (docs/accessibility.md, "Tagged output
 * from converters"): an image upload's pages (a Figure each) and an OCR text layer (a P each). The caller has put
 * each piece of content in a marked-content sequence `/<type> <</MCID n>> BDC ... EMC` on its page; this writes the
 * elements that own them, under one Document element, with the parent tree that maps each MCID back to its element
 * (ISO 32000-1, 14.7.4.4), and says the document is tagged (/MarkInfo). Only for a document without a tree: one
 * that has its own keeps it (the caller checks isTagged, keep.ts).
 */

/** One marked-content sequence on a page and the element that owns it. */
export interface MarkedContent {
  /** The standard structure type (Figure, P). */
  type: string;
  /** Its MCID on the page, numbered from 0 in content order. */
  mcid: number;
  /** Alternate text (a Figure's description); none given, none written (never invented). */
  alt?: string | undefined;
}

/** Writes the tree for `pages` (page index and its marked content, in reading order); see above. */
export function addStructureTree(doc: mupdf.PDFDocument, pages: ReadonlyArray<{ pageIndex: number; content: readonly MarkedContent[] }>): void {
  const catalog = deref(doc.getTrailer().get('Root'));
  const root = doc.addObject(doc.newDictionary());
  root.put('Type', doc.newName('StructTreeRoot'));
  const document = doc.addObject(doc.newDictionary());
  document.put('Type', doc.newName('StructElem'));
  document.put('S', doc.newName('Document'));
  document.put('P', root);
  const kids = doc.newArray();
  const nums = doc.newArray();
  let key = 0;
  for (const { pageIndex, content } of pages) {
    if (content.length === 0) continue;
    const page = doc.findPage(pageIndex);
    const byMcid = doc.newArray();
    for (const piece of [...content].sort((a, b) => a.mcid - b.mcid)) {
      const element = doc.addObject(doc.newDictionary());
      element.put('Type', doc.newName('StructElem'));
      element.put('S', doc.newName(piece.type));
      element.put('P', document);
      element.put('Pg', page);
      element.put('K', doc.newInteger(piece.mcid));
      if (piece.alt !== undefined) element.put('Alt', doc.newString(piece.alt));
      kids.push(element);
      byMcid.push(element);
    }
    page.put('StructParents', doc.newInteger(key));
    // PDF/UA-1 7.18.3: tab order follows the structure.
    page.put('Tabs', doc.newName('S'));
    nums.push(doc.newInteger(key));
    nums.push(byMcid);
    key++;
  }
  document.put('K', kids);
  root.put('K', document);
  const parentTree = doc.newDictionary();
  parentTree.put('Nums', nums);
  root.put('ParentTree', doc.addObject(parentTree));
  root.put('ParentTreeNextKey', doc.newInteger(key));
  catalog.put('StructTreeRoot', root);
  const markInfo = doc.newDictionary();
  markInfo.put('Marked', doc.newBoolean(true));
  catalog.put('MarkInfo', markInfo);
}
