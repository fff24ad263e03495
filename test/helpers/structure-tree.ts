import { QpdfDocument } from './qpdf-json.js';

/**
 * A tagged PDF's structure tree as qpdf reads it (an independent parser), with what a write must keep consistent:
 * every /Pg names a page of the document, every marked-content id of an element is the parent-tree entry of its page
 * at that id, every page's /StructParents has its entry.
 */
export interface StructureTree {
  /** StructTreeRoot present. */
  tagged: boolean;
  /** Element types (/S) in tree order. */
  types: string[];
  /** /Pg references (of elements and marked-content references) that name no page of the document. */
  danglingPages: string[];
  /** Marked-content ids whose parent-tree entry does not name their element ("page/mcid"). */
  parentTreeMismatches: string[];
  /** Pages whose /StructParents key has no parent-tree entry (1-based page numbers). */
  pagesWithoutEntry: number[];
  /** The strings of /Alt, /ActualText and /E, in tree order. */
  texts: string[];
  /** /Lang of elements, in tree order. */
  langs: string[];
}

const isRef = (v: unknown): v is string => typeof v === 'string' && / R$/.test(v);

export function structureTree(pdf: Buffer | Uint8Array): StructureTree {
  const doc = new QpdfDocument(pdf);
  const result: StructureTree = { tagged: false, types: [], danglingPages: [], parentTreeMismatches: [], pagesWithoutEntry: [], texts: [], langs: [] };
  const root = doc.get(doc.catalog(), '/StructTreeRoot') as Record<string, unknown> | null;
  if (!root) return result;
  result.tagged = true;
  const pages = new Set(doc.pages);
  const str = (v: unknown) => (typeof v === 'string' ? v.replace(/^u:/, '') : undefined);

  // The parent tree as key -> array of element references.
  const parentTree = new Map<number, unknown>();
  const nodes: unknown[] = [root['/ParentTree']];
  for (let n = 0; nodes.length && n < 10_000; n++) {
    const node = doc.resolve(nodes.pop()) as Record<string, unknown> | null;
    if (!node) continue;
    const nums = doc.resolve(node['/Nums']) as unknown[] | null;
    if (Array.isArray(nums)) for (let i = 0; i + 1 < nums.length; i += 2) parentTree.set(nums[i] as number, nums[i + 1]);
    const kids = doc.resolve(node['/Kids']);
    if (Array.isArray(kids)) nodes.push(...kids);
  }
  doc.pages.forEach((page, i) => {
    const key = (doc.resolve(page) as Record<string, unknown>)['/StructParents'];
    if (typeof key === 'number' && !parentTree.has(key)) result.pagesWithoutEntry.push(i + 1);
  });

  const seen = new Set<string>();
  const stack: unknown[] = [];
  const pushKids = (k: unknown) => {
    const kids = doc.resolve(k);
    if (Array.isArray(kids)) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    else if (kids !== null && kids !== undefined) stack.push(k);
  };
  pushKids(root['/K']);
  while (stack.length && seen.size < 1_000_000) {
    const ref = stack.pop();
    if (isRef(ref)) {
      if (seen.has(ref)) continue;
      seen.add(ref);
    }
    const element = doc.resolve(ref) as Record<string, unknown> | null;
    if (!element || typeof element !== 'object' || Array.isArray(element) || element['/S'] === undefined) continue;
    result.types.push(String(element['/S']).slice(1));
    for (const key of ['/Alt', '/ActualText', '/E']) {
      const text = str(doc.resolve(element[key]));
      if (text !== undefined) result.texts.push(text);
    }
    const lang = str(doc.resolve(element['/Lang']));
    if (lang !== undefined) result.langs.push(lang);
    const pg = element['/Pg'];
    if (isRef(pg) && !pages.has(pg)) result.danglingPages.push(pg);
    const kids = doc.resolve(element['/K']);
    const children: unknown[] = [];
    for (const kid of Array.isArray(kids) ? kids : kids === undefined || kids === null ? [] : [element['/K']]) {
      const value = doc.resolve(kid);
      if (typeof value === 'number' && isRef(pg) && isRef(ref)) {
        const key = (doc.resolve(pg) as Record<string, unknown> | null)?.['/StructParents'];
        const entry = typeof key === 'number' ? doc.resolve(parentTree.get(key)) : undefined;
        if (!Array.isArray(entry) || entry[value] !== ref) result.parentTreeMismatches.push(`${pg}/${value}`);
      } else if (value && typeof value === 'object' && !Array.isArray(value)) {
        const dict = value as Record<string, unknown>;
        if (dict['/Type'] === '/MCR' || dict['/Type'] === '/OBJR') {
          if (isRef(dict['/Pg']) && !pages.has(dict['/Pg'] as string)) result.danglingPages.push(dict['/Pg'] as string);
        } else children.push(kid);
      }
    }
    // Pushed in reverse, so that the walk keeps tree order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return result;
}
