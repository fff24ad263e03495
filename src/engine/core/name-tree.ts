import type * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { deref } from './mupdf-objects.js';

/**
 * The one walker of the catalog's name trees (ISO 32000-1 7.9.6: /Names /EmbeddedFiles, /Dests, /JavaScript...):
 * listed, searched, added to, removed from, written, by attachments, outline and merge, PDF/A preparation and
 * redaction. A hostile file's tree may loop, share nodes or nest without end, and MuPDF.js's own walkers
 * (getEmbeddedFiles, loadNameTree) recurse without a bound, so every walk here visits each node at most once (by
 * object number), at most MAX_NAME_TREE_NODES nodes and MAX_NAME_TREE_DEPTH levels (then it is `cut`: a rewrite would
 * lose what was not read, so writes refuse it). /Limits are not trusted: every node is read.
 */

/** Nodes visited in one walk. */
export const MAX_NAME_TREE_NODES = 100_000;
/** Deepest level walked; real trees have one to four. */
export const MAX_NAME_TREE_DEPTH = 32;
/** Warnings kept per read. */
const MAX_WARNINGS = 20;

/** One key and value of a leaf, where they are (for callers that change them in place). */
export interface NameTreePair {
  /** The key as stored (a string, in a sound tree). */
  key: mupdf.PDFObject;
  /** The key's text; undefined when the key is not a string. */
  name: string | undefined;
  /** The value as stored (a reference, usually). */
  value: mupdf.PDFObject;
  /** The leaf's /Names array and the key's index in it (the value is at index + 1). */
  leaf: mupdf.PDFObject;
  index: number;
}

export interface NameTreeWalk {
  /** The walk stopped at a bound: some nodes were not read. */
  cut: boolean;
  /** A node was met again (a cycle, or a node shared by two parents): read once. */
  cycle: boolean;
}

/** Visits every key/value pair of the tree under `top` in tree order, within the bounds above. */
export function walkNameTree(top: mupdf.PDFObject, visit: (pair: NameTreePair) => void): NameTreeWalk {
  const seen = new Set<number>();
  const state: NameTreeWalk = { cut: false, cycle: false };
  let nodes = 0;
  const walk = (ref: mupdf.PDFObject, depth: number) => {
    if (state.cut) return;
    if (ref.isIndirect()) {
      if (seen.has(ref.asIndirect())) {
        state.cycle = true;
        return;
      }
      seen.add(ref.asIndirect());
    }
    if (nodes++ >= MAX_NAME_TREE_NODES || depth > MAX_NAME_TREE_DEPTH) {
      state.cut = true;
      return;
    }
    const node = deref(ref);
    if (!node.isDictionary()) return;
    const leaf = deref(node.get('Names'));
    if (leaf.isArray()) {
      for (let i = 0; i + 1 < leaf.length; i += 2) {
        const key = deref(leaf.get(i));
        visit({ key, name: key.isString() ? key.asString() : undefined, value: leaf.get(i + 1), leaf, index: i });
      }
    }
    const kids = deref(node.get('Kids'));
    if (kids.isArray()) for (let i = 0; i < kids.length && !state.cut; i++) walk(kids.get(i), depth + 1);
  };
  if (!top.isNull()) walk(top, 0);
  return state;
}

function catalogOf(doc: mupdf.PDFDocument): mupdf.PDFObject {
  return deref(doc.getTrailer().get('Root'));
}

/** The catalog's name tree `tree` as stored (its reference, usually), or undefined when there is none. */
export function nameTreeRoot(doc: mupdf.PDFDocument, tree: string): mupdf.PDFObject | undefined {
  const root = catalogOf(doc);
  // MuPDF's shared Null object (a missing key) has no get(): each step is taken on a dictionary only.
  const names = root.isDictionary() ? deref(root.get('Names')) : undefined;
  const top = names?.isDictionary() ? names.get(tree) : undefined;
  return top && !top.isNull() ? top : undefined;
}

export interface NameTreeEntry {
  name: string;
  /** The value as stored: what a rewritten tree keeps (and /AF lists, for embedded files). */
  value: mupdf.PDFObject;
}

export interface NameTree {
  /** The entries in tree order, each name once (the first met). */
  entries: NameTreeEntry[];
  /** The walk stopped at a bound: a write would lose what was not read (writes refuse it). */
  cut: boolean;
  /** What was left out, and why. */
  warnings: string[];
}

/** The entries of the catalog's name tree `tree`, each name once; a key that is not a string, or met again, is left out with a warning. */
export function readNameTree(doc: mupdf.PDFDocument, tree: string): NameTree {
  const warnings: string[] = [];
  const warn = (message: string) => {
    if (warnings.length < MAX_WARNINGS) warnings.push(message);
  };
  const entries: NameTreeEntry[] = [];
  const names = new Set<string>();
  const top = nameTreeRoot(doc, tree);
  const walked = top ? walkNameTree(top, ({ name, value }) => {
    if (name === undefined) return warn(`A key of the ${tree} tree is not a string: left out`);
    if (names.has(name)) return warn(`The ${tree} tree has the name ${JSON.stringify(name.slice(0, 100))} twice: the first is read`);
    names.add(name);
    entries.push({ name, value });
  }) : { cut: false, cycle: false };
  if (walked.cycle) warn(`The ${tree} tree refers to a node twice (a cycle): read once`);
  if (walked.cut) warn(`The ${tree} tree is too large or too deep: some entries were not read`);
  return { entries, cut: walked.cut, warnings };
}

/** The value of `name` in the catalog's name tree `tree` (the first met), or undefined. */
export function findInNameTree(doc: mupdf.PDFDocument, tree: string, name: string): mupdf.PDFObject | undefined {
  return readNameTree(doc, tree).entries.find((e) => e.name === name)?.value;
}

/**
 * Writes the catalog's name tree `tree` as one node whose /Names are sorted by the keys' bytes as written (ISO 32000-1
 * 7.9.6: "ordered lexically", the order readers' binary searches assume); no entries: the tree goes, and the catalog's
 * /Names when it held nothing else.
 */
export function writeNameTree(doc: mupdf.PDFDocument, tree: string, entries: readonly NameTreeEntry[]): void {
  const root = catalogOf(doc);
  if (entries.length === 0) {
    dropNameTree(doc, tree);
    return;
  }
  let names = deref(root.get('Names'));
  if (!names.isDictionary()) {
    names = doc.newDictionary();
    root.put('Names', names);
  }
  const keyed = entries.map((e) => ({ key: doc.newString(e.name), value: e.value }));
  keyed.sort((a, b) => Buffer.compare(Buffer.from(a.key.asByteString()), Buffer.from(b.key.asByteString())));
  const array = doc.newArray();
  for (const { key, value } of keyed) {
    array.push(key);
    array.push(value);
  }
  const node = doc.addObject(doc.newDictionary());
  node.put('Names', array);
  names.put(tree, node);
}

/** Removes the catalog's name tree `tree` whole (and /Names when it held nothing else); answers whether there was one. */
export function dropNameTree(doc: mupdf.PDFDocument, tree: string): boolean {
  const root = catalogOf(doc);
  const names = root.isDictionary() ? deref(root.get('Names')) : undefined;
  if (!names?.isDictionary() || names.get(tree).isNull()) return false;
  names.delete(tree);
  let empty = true;
  names.forEach(() => (empty = false));
  if (empty) root.delete('Names');
  return true;
}

/** Refuses (422 PROCESSING_FAILED) the rewrite of a tree that was not read whole. */
export function checkWhole(tree: string, read: NameTree): void {
  if (read.cut) throw new EngineError('PROCESSING_FAILED', `The document's ${tree} tree is too large or too deep to be rewritten whole`);
}

/**
 * Sets `name` to `value` in the catalog's name tree `tree` (`read`: the tree as read before, when the caller read it),
 * rewritten sorted; answers the entry it replaced. A tree that was cut is refused.
 */
export function putInNameTree(doc: mupdf.PDFDocument, tree: string, name: string, value: mupdf.PDFObject, read = readNameTree(doc, tree)): NameTreeEntry | undefined {
  checkWhole(tree, read);
  const existing = read.entries.find((e) => e.name === name);
  writeNameTree(doc, tree, [...read.entries.filter((e) => e !== existing), { name, value }]);
  return existing;
}

/**
 * Removes `name` from the catalog's name tree `tree`, rewritten sorted (no entries left: the tree goes); answers the
 * entry removed, or undefined (nothing changed) when there was none. A tree that was cut is refused.
 */
export function removeFromNameTree(doc: mupdf.PDFDocument, tree: string, name: string, read = readNameTree(doc, tree)): NameTreeEntry | undefined {
  const existing = read.entries.find((e) => e.name === name);
  if (!existing) return undefined;
  checkWhole(tree, read);
  writeNameTree(doc, tree, read.entries.filter((e) => e !== existing));
  return existing;
}
