import type * as mupdf from 'mupdf';
import { deref, name } from '../core/mupdf-objects.js';
import { elements, kidsOf, roleOf } from './structure.js';

/**
 * The service's own writes keep a tagged document's structure tree whole (docs/accessibility.md, "Writes keep the
 * structure"): pages that leave a document take their structure with them (pruneStructure, run by every page
 * rearrangement: delete, extract, split, and the pruning of a source before its pages are inserted or merged), and
 * pages copied into a document bring theirs (graftStructure: insert and merge). Every walk is bounded and visits each
 * element once (structure.ts `elements`), so a hostile tree (a cycle in /K, a missing /P) ends it.
 */

/** Most parent-tree nodes visited (a number tree of a 10,000-page document has a few hundred). */
const MAX_TREE_NODES = 100_000;
/** Most levels of forms drawing forms followed for their parent-tree keys (a hostile file's nesting ends there). */
const MAX_FORM_DEPTH = 16;

const catalogOf = (doc: mupdf.PDFDocument) => deref(doc.getTrailer().get('Root'));

/** The document's structure tree root, when it has one. */
export function structTreeRoot(doc: mupdf.PDFDocument): mupdf.PDFObject | undefined {
  const root = deref(catalogOf(doc).get('StructTreeRoot'));
  return root.isDictionary() ? root : undefined;
}

/** Whether the document is tagged (has a structure tree): what decides that added drawings are marked as artifacts. */
export function isTagged(doc: mupdf.PDFDocument): boolean {
  return structTreeRoot(doc) !== undefined;
}

/** The leaf nodes (/Nums arrays) of a number tree, each node once. */
function numberTreeLeaves(tree: mupdf.PDFObject): mupdf.PDFObject[] {
  const leaves: mupdf.PDFObject[] = [];
  const seen = new Set<number>();
  const stack = [tree];
  for (let visited = 0; stack.length > 0 && visited < MAX_TREE_NODES; visited++) {
    const ref = stack.pop()!;
    if (ref.isIndirect()) {
      if (seen.has(ref.asIndirect())) continue;
      seen.add(ref.asIndirect());
    }
    const node = deref(ref);
    if (!node.isDictionary()) continue;
    const nums = deref(node.get('Nums'));
    if (nums.isArray()) leaves.push(nums);
    const kids = deref(node.get('Kids'));
    if (kids.isArray()) kids.forEach((kid) => stack.push(kid));
  }
  return leaves;
}

/** The parent-tree keys a page and its annotations use (/StructParents, /StructParent). */
function structParentKeys(page: mupdf.PDFObject): number[] {
  const keys: number[] = [];
  const own = deref(page.get('StructParents'));
  if (own.isNumber()) keys.push(own.asNumber());
  const annots = deref(page.get('Annots'));
  if (annots.isArray()) {
    annots.forEach((a) => {
      const key = deref(deref(a).get('StructParent'));
      if (key.isNumber()) keys.push(key.asNumber());
    });
  }
  return keys;
}

/**
 * Takes the structure of `removedPages` (page objects about to leave the document) out of its tree: marked-content
 * ids and references on those pages, object references to their annotations, elements left with no content, /Pg
 * entries naming them, and the parent-tree entries of the pages and their annotations. Elements whose content is on
 * other pages stay, with what is left of it. Returns how many elements were removed.
 */
export function pruneStructure(doc: mupdf.PDFDocument, removedPages: readonly mupdf.PDFObject[]): number {
  const root = structTreeRoot(doc);
  if (!root || removedPages.length === 0) return 0;
  const gone = new Set<number>();
  const goneAnnots = new Set<number>();
  const goneKeys = new Set<number>();
  for (const ref of removedPages) {
    if (ref.isIndirect()) gone.add(ref.asIndirect());
    const page = deref(ref);
    for (const key of structParentKeys(page)) goneKeys.add(key);
    const annots = deref(page.get('Annots'));
    if (annots.isArray()) annots.forEach((a) => a.isIndirect() && goneAnnots.add(a.asIndirect()));
  }
  const onGonePage = (pg: mupdf.PDFObject) => pg.isIndirect() && gone.has(pg.asIndirect());
  const removed = removeContent(doc, root, (k, elementPage) => {
    // An integer is a marked-content id on the element's own page.
    if (k.isNumber()) return onGonePage(elementPage);
    const type = name(k.get('Type'));
    const pg = k.get('Pg').isNull() ? elementPage : k.get('Pg');
    if (onGonePage(pg)) return true;
    const target = k.get('Obj');
    return type === 'OBJR' && target.isIndirect() && goneAnnots.has(target.asIndirect());
  }, (element) => {
    if (onGonePage(element.get('Pg'))) element.delete('Pg');
  });
  const tree = root.get('ParentTree');
  if (goneKeys.size > 0 && !tree.isNull()) {
    for (const nums of numberTreeLeaves(tree)) {
      for (let i = nums.length - 2; i >= 0; i -= 2) {
        const key = deref(nums.get(i));
        if (key.isNumber() && goneKeys.has(key.asNumber())) {
          nums.delete(i + 1);
          nums.delete(i);
        }
      }
    }
  }
  return removed;
}

/**
 * Takes content out of the tree below `root`: each element's marked-content ids and references (MCR, OBJR) for which
 * `gone(kid, the element's /Pg)` holds, then the elements left with no kids by that, up to the top (an element that
 * had no kids before is left as it is). `visit` sees every element. Returns how many elements were removed.
 */
export function removeContent(doc: mupdf.PDFDocument, root: mupdf.PDFObject, gone: (kid: mupdf.PDFObject, elementPage: mupdf.PDFObject) => boolean, visit?: (element: mupdf.PDFObject) => void): number {
  const emptied = new Set<number>();
  const keepKid = (kid: mupdf.PDFObject, elementPage: mupdf.PDFObject) => {
    const k = deref(kid);
    if (k.isNumber()) return !gone(k, elementPage);
    if (!k.isDictionary()) return true;
    const type = name(k.get('Type'));
    if (type === 'MCR' || type === 'OBJR') return !gone(k, elementPage);
    return !(kid.isIndirect() && emptied.has(kid.asIndirect()));
  };
  const all = elements(root);
  // In reverse tree order every child is settled before its parent, so emptiness climbs up in one pass.
  for (let i = all.length - 1; i >= 0; i--) {
    const ref = all[i]!.obj;
    const element = deref(ref);
    const kids = kidsOf(element);
    const kept = kids.filter((kid) => keepKid(kid, element.get('Pg')));
    visit?.(element);
    if (kept.length === kids.length) continue;
    if (kept.length === 0 && ref.isIndirect()) {
      emptied.add(ref.asIndirect());
      element.delete('K');
      continue;
    }
    setKids(doc, element, kept);
  }
  const top = kidsOf(root);
  const keptTop = top.filter((kid) => !(kid.isIndirect() && emptied.has(kid.asIndirect())));
  if (keptTop.length !== top.length) setKids(doc, root, keptTop);
  return emptied.size;
}

function setKids(doc: mupdf.PDFDocument, element: mupdf.PDFObject, kids: readonly mupdf.PDFObject[]): void {
  const array = doc.newArray();
  for (const kid of kids) array.push(kid);
  element.put('K', array);
}

/** The source's parent tree as key -> value. */
export function parentTreeEntries(root: mupdf.PDFObject): Map<number, mupdf.PDFObject> {
  const entries = new Map<number, mupdf.PDFObject>();
  const tree = root.get('ParentTree');
  if (tree.isNull()) return entries;
  for (const nums of numberTreeLeaves(tree)) {
    for (let i = 0; i + 1 < nums.length; i += 2) {
      const key = deref(nums.get(i));
      if (key.isNumber()) entries.set(key.asNumber(), nums.get(i + 1));
    }
  }
  return entries;
}

/** The first key the target's parent tree does not use: ParentTreeNextKey, or past the largest key. */
function nextParentKey(root: mupdf.PDFObject): number {
  let next = 0;
  const stated = deref(root.get('ParentTreeNextKey'));
  if (stated.isNumber()) next = stated.asNumber();
  for (const key of parentTreeEntries(root).keys()) next = Math.max(next, key + 1);
  return next;
}

/** Catalog entries a tagged document's accessibility rests on, given to a new document by its first tagged source. */
const ACCESSIBILITY_ENTRIES = ['MarkInfo', 'Lang', 'ViewerPreferences', 'Metadata'];

/**
 * Brings the structure of pages just copied from `source` into `doc` at page index `at` (through `map`, the graft map
 * the pages were copied with, so /Pg and object references name the copies). The source's top-level elements join the
 * target's tree: into its single Document element when both trees have one, else beside its top-level elements, before
 * the first of those whose content starts on a page after the inserted ones (reading order follows the pages); its role and class
 * maps' entries that the target lacks are added; the copied pages and annotations get fresh parent-tree keys with
 * their entries. Elements in another language than the target's get /Lang. A target without a structure tree gets
 * one only when it had no pages (a merge's new document, which also takes the source's MarkInfo, Lang,
 * ViewerPreferences and XMP metadata): pages inserted into an untagged document stay untagged, and their
 * parent-tree keys are dropped. `source` must already hold only the copied pages (insertPages prunes it first).
 */
export function graftStructure(doc: mupdf.PDFDocument, source: mupdf.PDFDocument, map: mupdf.PDFGraftMap, sourcePages: readonly mupdf.PDFObject[], at: number): void {
  const sourceRoot = structTreeRoot(source);
  const copies = sourcePages.map((page) => deref(map.graftObject(page)));
  const hadPages = doc.countPages() > copies.length;
  let root = structTreeRoot(doc);
  if (!sourceRoot || (!root && hadPages)) {
    for (const copy of copies) dropParentKeys(copy);
    return;
  }
  const sourceCatalog = catalogOf(source);
  const catalog = catalogOf(doc);
  if (!root) {
    const made = doc.newDictionary();
    made.put('Type', doc.newName('StructTreeRoot'));
    made.put('K', doc.newArray());
    catalog.put('StructTreeRoot', doc.addObject(made));
    root = structTreeRoot(doc)!;
    for (const key of ACCESSIBILITY_ENTRIES) {
      const value = sourceCatalog.get(key);
      if (!value.isNull() && catalog.get(key).isNull()) catalog.put(key, map.graftObject(value));
    }
  }
  for (const key of ['RoleMap', 'ClassMap']) {
    const from = deref(sourceRoot.get(key));
    if (!from.isDictionary()) continue;
    let to = deref(root.get(key));
    if (!to.isDictionary()) {
      root.put(key, doc.newDictionary());
      to = deref(root.get(key));
    }
    const target = to;
    from.forEach((value, entry) => {
      if (target.get(entry).isNull()) target.put(entry, map.graftObject(value));
    });
  }
  const rootRef = catalog.get('StructTreeRoot');
  const sourceRootRef = sourceCatalog.get('StructTreeRoot');
  const roleMap = deref(root.get('RoleMap'));
  const isDocument = (kid: mupdf.PDFObject) => deref(kid).isDictionary() && roleOf(name(deref(kid).get('S')) ?? '', roleMap) === 'Document';
  // Where the source's elements go: into the target's Document element when both trees are one Document each.
  const targetTop = kidsOf(root);
  let sourceTop = kidsOf(sourceRoot);
  let parentRef = rootRef;
  if (targetTop.length === 1 && targetTop[0]!.isIndirect() && isDocument(targetTop[0]!) && sourceTop.length === 1 && isDocument(sourceTop[0]!)) {
    parentRef = targetTop[0]!;
    sourceTop = kidsOf(deref(sourceTop[0]!));
  }
  // The source elements' links to their old root are cut before copying, so that the graft does not bring the source's
  // whole root (its parent tree, every element) along; the copies then name their new parent.
  for (const element of elements(sourceRoot)) {
    const p = deref(element.obj).get('P');
    if (sourceRootRef.isIndirect() && p.isIndirect() && p.asIndirect() === sourceRootRef.asIndirect()) deref(element.obj).delete('P');
  }
  const sourceLang = deref(sourceCatalog.get('Lang'));
  const targetLang = deref(catalog.get('Lang'));
  const lang = sourceLang.isString() && (!targetLang.isString() || targetLang.asString() !== sourceLang.asString()) ? sourceLang.asString() : undefined;
  const parent = deref(parentRef);
  const parentKids = kidsOf(parent);
  const position = insertionIndex(doc, parentKids, at + copies.length);
  const grafted = sourceTop.map((kid) => {
    const copy = map.graftObject(kid);
    const element = deref(copy);
    if (element.isDictionary() && !element.get('S').isNull()) {
      element.put('P', parentRef);
      if (lang !== undefined && element.get('Lang').isNull()) element.put('Lang', doc.newString(lang));
    }
    return copy;
  });
  setKids(doc, parent, [...parentKids.slice(0, position), ...grafted, ...parentKids.slice(position)]);

  // Parent-tree entries: each copied page and annotation gets a key the target does not use.
  const entries = parentTreeEntries(sourceRoot);
  let next = nextParentKey(root);
  const nums = doc.newArray();
  const renumber = (holder: mupdf.PDFObject, key: string) => {
    const old = deref(holder.get(key));
    if (!old.isNumber()) return;
    const value = entries.get(old.asNumber());
    if (!value) {
      holder.delete(key);
      return;
    }
    holder.put(key, doc.newInteger(next));
    nums.push(doc.newInteger(next));
    nums.push(map.graftObject(value));
    next++;
  };
  // A form marked in its own stream (PDFUAConvertAction marks a form drawn once so) has a key too: each form once.
  const forms = new Set<number>();
  const renumberForms = (resources: mupdf.PDFObject, depth: number) => {
    const xobjects = deref(deref(resources).get('XObject'));
    if (!xobjects.isDictionary() || depth > MAX_FORM_DEPTH) return;
    xobjects.forEach((ref) => {
      if (!ref.isIndirect() || !ref.isStream() || forms.has(ref.asIndirect()) || name(ref.get('Subtype')) !== 'Form') return;
      forms.add(ref.asIndirect());
      renumber(ref, 'StructParents');
      renumberForms(ref.get('Resources'), depth + 1);
    });
  };
  for (const copy of copies) {
    renumber(copy, 'StructParents');
    const annots = deref(copy.get('Annots'));
    if (annots.isArray()) annots.forEach((a) => deref(a).isDictionary() && renumber(deref(a), 'StructParent'));
    renumberForms(copy.getInheritable('Resources'), 0);
  }
  root.put('ParentTreeNextKey', doc.newInteger(next));
  if (nums.length === 0) return;
  let tree = deref(root.get('ParentTree'));
  if (!tree.isDictionary()) {
    root.put('ParentTree', doc.addObject(doc.newDictionary()));
    tree = deref(root.get('ParentTree'));
  }
  const treeKids = deref(tree.get('Kids'));
  if (treeKids.isArray()) {
    // A tree of nodes: the new keys, all above the old ones, go in a last leaf.
    const leaf = doc.newDictionary();
    leaf.put('Nums', nums);
    const limits = doc.newArray();
    limits.push(nums.get(0));
    limits.push(nums.get(nums.length - 2));
    leaf.put('Limits', limits);
    treeKids.push(doc.addObject(leaf));
    return;
  }
  let leafNums = deref(tree.get('Nums'));
  if (!leafNums.isArray()) {
    tree.put('Nums', doc.newArray());
    leafNums = deref(tree.get('Nums'));
  }
  nums.forEach((value) => leafNums.push(value));
}

/** Most objects looked at to find where an element's content starts. */
const MAX_FIRST_PAGE_WALK = 10_000;

/**
 * Where among `kids` elements of inserted pages go: before the first kid whose content starts on page `laterPage` or
 * after (a page that followed the insertion point); at the end when none does (always so for pages appended).
 */
function insertionIndex(doc: mupdf.PDFDocument, kids: readonly mupdf.PDFObject[], laterPage: number): number {
  const count = doc.countPages();
  if (laterPage >= count) return kids.length;
  const pageIndex = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const page = doc.findPage(i);
    if (page.isIndirect()) pageIndex.set(page.asIndirect(), i);
  }
  for (let k = 0; k < kids.length; k++) {
    const first = firstPage(kids[k]!, pageIndex);
    if (first !== undefined && first >= laterPage) return k;
  }
  return kids.length;
}

/** The index of the first page an element names (its own /Pg, else its descendants' in tree order). */
function firstPage(element: mupdf.PDFObject, pageIndex: Map<number, number>): number | undefined {
  const stack = [element];
  const seen = new Set<number>();
  for (let n = 0; stack.length > 0 && n < MAX_FIRST_PAGE_WALK; n++) {
    const ref = stack.pop()!;
    if (ref.isIndirect()) {
      if (seen.has(ref.asIndirect())) continue;
      seen.add(ref.asIndirect());
    }
    const obj = deref(ref);
    if (!obj.isDictionary()) continue;
    const pg = obj.get('Pg');
    if (pg.isIndirect() && pageIndex.has(pg.asIndirect())) return pageIndex.get(pg.asIndirect());
    const kids = kidsOf(obj);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return undefined;
}

/** A page and its annotations without parent-tree keys (copied into a document with no structure tree for them). */
function dropParentKeys(page: mupdf.PDFObject): void {
  page.delete('StructParents');
  const annots = deref(page.get('Annots'));
  if (annots.isArray()) annots.forEach((a) => void (deref(a).isDictionary() && deref(a).delete('StructParent')));
}

/** The structure elements' texts that stand for content (alternate and actual text, expansion, title), with setters. */
export function visitStructureTexts(doc: mupdf.PDFDocument, visit: (detail: string, value: string, set: (v: string) => void) => void): void {
  const root = structTreeRoot(doc);
  if (!root) return;
  for (const { obj, type } of elements(root)) {
    const element = deref(obj);
    for (const key of ['Alt', 'ActualText', 'E', 'T']) {
      const value = deref(element.get(key));
      if (value.isString()) visit(`${type} /${key}`, value.asString(), (v) => element.put(key, doc.newString(v)));
    }
  }
}

/**
 * A new element of `type` (a standard type) for one marked-content sequence the caller draws on page `pageIndex` of a
 * tagged document: placed under the tree's one top-level element (a Document), else under the root, before the first
 * element whose content starts on a later page (the structure's order follows the pages), and entered in the parent
 * tree at the next MCID of the page's entry (a new entry, and /StructParents, when the page has none). Answers that
 * MCID, or undefined when the parent tree is one the service does not extend (a page entry that is not an array, a
 * number tree with intermediate nodes and no entry for the page); the caller then draws its content unmarked.
 */
export function addPageElement(doc: mupdf.PDFDocument, pageIndex: number, type: string): number | undefined {
  const root = structTreeRoot(doc);
  if (!root) return undefined;
  const page = doc.findPage(pageIndex);
  let tree = deref(root.get('ParentTree'));
  if (!tree.isDictionary()) {
    tree = doc.addObject(doc.newDictionary());
    tree.put('Nums', doc.newArray());
    root.put('ParentTree', tree);
  }
  const own = deref(page.get('StructParents'));
  let entry: mupdf.PDFObject;
  if (own.isNumber()) {
    const value = parentTreeEntries(root).get(own.asNumber());
    if (!value || !deref(value).isArray()) return undefined;
    entry = deref(value);
  } else {
    const nums = deref(tree.get('Nums'));
    if (!nums.isArray() || !deref(tree.get('Kids')).isNull()) return undefined;
    const key = nextParentKey(root);
    entry = doc.newArray();
    // The largest key so far: appended, /Nums stays sorted.
    nums.push(doc.newInteger(key));
    nums.push(entry);
    entry = deref(nums.get(nums.length - 1));
    page.put('StructParents', doc.newInteger(key));
    root.put('ParentTreeNextKey', doc.newInteger(key + 1));
  }
  const top = kidsOf(root);
  const only = top.length === 1 ? deref(top[0]!) : undefined;
  // The root as its reference: a resolved dictionary put as /P would be copied into the element.
  const parent = only?.isDictionary() ? top[0]! : catalogOf(doc).get('StructTreeRoot');
  const element = doc.addObject(doc.newDictionary());
  element.put('Type', doc.newName('StructElem'));
  element.put('S', doc.newName(type));
  element.put('P', parent);
  element.put('Pg', page);
  const mcid = entry.length;
  element.put('K', doc.newInteger(mcid));
  entry.push(element);
  const kids = kidsOf(deref(parent));
  kids.splice(insertionIndex(doc, kids, pageIndex + 1), 0, element);
  setKids(doc, deref(parent), kids);
  return mcid;
}
