import type * as mupdf from 'mupdf';
import { deref, name } from '../core/mupdf-objects.js';

/**
 * The structure tree of a tagged PDF made fit for PDF/UA-1 where the repair is certain (docs/html.md, "Tagged output
 * (PDF/UA)"), and what is left that only a person can give (alt text) counted. Chromium writes some PDF 2.0 types
 * (Strong, Em) in a PDF 1.4 file, and list items without LBody; both are fixed here. The walk visits each element
 * once (a cycle in a hostile tree ends it) and at most MAX_ELEMENTS of them.
 */

/** The standard structure types of ISO 32000-1, 14.8.4 (the set PDF/UA-1 knows). */
const STANDARD = new Set([
  'Document', 'Part', 'Art', 'Sect', 'Div', 'BlockQuote', 'Caption', 'TOC', 'TOCI', 'Index', 'NonStruct', 'Private',
  'P', 'H', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'L', 'LI', 'Lbl', 'LBody', 'Table', 'TR', 'TH', 'TD', 'THead', 'TBody',
  'TFoot', 'Span', 'Quote', 'Note', 'Reference', 'BibEntry', 'Code', 'Link', 'Annot', 'Ruby', 'RB', 'RT', 'RP',
  'Warichu', 'WT', 'WP', 'Figure', 'Formula', 'Form',
]);

/**
 * PDF 2.0's types (ISO 32000-2, 14.8.4) that PDF 1.7 lacks, and the PDF 1.7 type each is role-mapped to: the nearest
 * one in meaning, as the PDF Association's "Tagged PDF Best Practice Guide: Syntax" maps them for PDF 1.7 readers.
 */
const PDF2_ROLES: Record<string, string> = {
  Strong: 'Span',
  Em: 'Span',
  Sub: 'Span',
  Title: 'P',
  FENote: 'Note',
  DocumentFragment: 'Div',
  Aside: 'Div',
};

/** Most structure elements visited (a tree of a 1,000-page HTML document has some 100,000). */
const MAX_ELEMENTS = 500_000;

export interface StructureReport {
  /** Non-standard types given a role mapping, e.g. Strong -> Span. */
  roleMapped: Record<string, string>;
  /** List items whose content other than Lbl was put into an LBody. */
  listItemsFixed: number;
  /** Figure elements with neither Alt nor ActualText: they need a person to describe them (never invented here). */
  figuresWithoutAlt: number;
  /** Non-standard types without a role mapping that are left as they are (veraPDF reports them). */
  unmappedTypes: string[];
}

export interface Element {
  obj: mupdf.PDFObject;
  type: string;
  /** The index (in the list `elements` answers) of the element whose /K holds this one; -1 for the root's kids. */
  parent: number;
}

/**
 * The structure elements of the tree below `root`, each once, in tree order (a parent before its children, so in
 * reverse every child comes before its parent). A cycle or an element shared by two parents is visited once.
 */
export function elements(root: mupdf.PDFObject): Element[] {
  const out: Element[] = [];
  const seen = new Set<number>();
  const stack: { kid: mupdf.PDFObject; parent: number }[] = [];
  const pushKids = (k: mupdf.PDFObject, parent: number) => {
    const kids = deref(k);
    if (kids.isArray()) {
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ kid: kids.get(i), parent });
    } else if (!kids.isNull()) stack.push({ kid: k, parent });
  };
  pushKids(root.get('K'), -1);
  while (stack.length > 0 && out.length < MAX_ELEMENTS) {
    const { kid, parent } = stack.pop()!;
    if (kid.isIndirect()) {
      if (seen.has(kid.asIndirect())) continue;
      seen.add(kid.asIndirect());
    }
    const obj = deref(kid);
    // Marked-content ids (integers), marked-content and object references (MCR, OBJR) are leaves, not elements.
    if (!obj.isDictionary()) continue;
    const s = obj.get('S');
    if (s.isNull()) continue;
    const leaf = name(obj.get('Type'));
    if (leaf === 'MCR' || leaf === 'OBJR') continue;
    out.push({ obj: kid, type: name(s) ?? '', parent });
    pushKids(obj.get('K'), out.length - 1);
  }
  return out;
}

/** The type an element's /S names once the role map is applied (a chain followed a few steps, as loops are possible). */
export function roleOf(type: string, roleMap: mupdf.PDFObject): string {
  let current = type;
  for (let i = 0; i < 8 && !STANDARD.has(current); i++) {
    const mapped = roleMap.isDictionary() ? name(roleMap.get(current)) : undefined;
    if (!mapped) break;
    current = mapped;
  }
  return current;
}

/** The element's kids as a list of references and values. */
export function kidsOf(element: mupdf.PDFObject): mupdf.PDFObject[] {
  const k = deref(element).get('K');
  const kids = deref(k);
  if (kids.isArray()) {
    const list: mupdf.PDFObject[] = [];
    kids.forEach((kid) => list.push(kid));
    return list;
  }
  return kids.isNull() ? [] : [k];
}

/**
 * PDF/UA-1 7.2 (veraPDF 7.2-20): an LI holds only Lbl and LBody. Chromium puts the item's text (NonStruct, Span)
 * and nested lists straight into the LI; they are moved, in order, into a new LBody after the Lbl. Only structure
 * elements are moved: an LI holding marked content or object references itself is left as it is, since those are
 * also named by the parent tree, which would have to change with them.
 */
function fixListItem(doc: mupdf.PDFDocument, item: mupdf.PDFObject, roleMap: mupdf.PDFObject): boolean {
  if (!item.isIndirect()) return false;
  const kids = kidsOf(item);
  const loose = kids.filter((kid) => {
    const obj = deref(kid);
    return !(obj.isDictionary() && ['Lbl', 'LBody'].includes(roleOf(name(obj.get('S')) ?? '', roleMap)));
  });
  if (loose.length === 0) return false;
  if (!loose.every((kid) => kid.isIndirect() && deref(kid).isDictionary() && !deref(kid).get('S').isNull())) return false;
  const body = doc.addObject(doc.newDictionary());
  body.put('Type', doc.newName('StructElem'));
  body.put('S', doc.newName('LBody'));
  body.put('P', item);
  const bodyKids = doc.newArray();
  for (const kid of loose) {
    bodyKids.push(kid);
    deref(kid).put('P', body);
  }
  body.put('K', bodyKids);
  const kept = doc.newArray();
  let placed = false;
  for (const kid of kids) {
    if (loose.includes(kid)) {
      if (!placed) kept.push(body);
      placed = true;
    } else kept.push(kid);
  }
  deref(item).put('K', kept);
  return true;
}

/** The repairs above on the document's structure tree; an untagged document (no StructTreeRoot) gets none. */
export function repairStructure(doc: mupdf.PDFDocument, catalog: mupdf.PDFObject): StructureReport {
  const report: StructureReport = { roleMapped: {}, listItemsFixed: 0, figuresWithoutAlt: 0, unmappedTypes: [] };
  const root = deref(catalog.get('StructTreeRoot'));
  if (!root.isDictionary()) return report;
  const all = elements(root);
  let roleMap = deref(root.get('RoleMap'));
  for (const type of new Set(all.map((e) => e.type))) {
    if (roleOf(type, roleMap) !== type || STANDARD.has(type)) continue;
    const target = PDF2_ROLES[type];
    if (!target) {
      report.unmappedTypes.push(type);
      continue;
    }
    if (!roleMap.isDictionary()) {
      roleMap = doc.newDictionary();
      root.put('RoleMap', roleMap);
      roleMap = deref(root.get('RoleMap'));
    }
    roleMap.put(type, doc.newName(target));
    report.roleMapped[type] = target;
  }
  for (const element of all) {
    const role = roleOf(element.type, roleMap);
    if (role === 'LI' && fixListItem(doc, element.obj, roleMap)) report.listItemsFixed++;
    if (role === 'Figure') {
      const obj = deref(element.obj);
      if (obj.get('Alt').isNull() && obj.get('ActualText').isNull()) report.figuresWithoutAlt++;
    }
  }
  return report;
}
