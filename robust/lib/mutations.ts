/**
 * Seeded mutations of valid PDFs: what a fuzzer does to bytes (bit flips,
 * truncation, duplicated, deleted and overwritten runs) and what a hostile
 * author does to structure (broken cross-reference offsets, /Prev loops, huge
 * declared lengths and numbers, deep nesting, page-tree loops, huge /Count,
 * long reference chains, deep page trees). Structural mutations work on the
 * parsed objects and write a correct xref again, so the damage reaches the
 * code behind the parser rather than being repaired away; a second, byte-level
 * mutation is added to some cases.
 */
import { Rng } from './prng.js';
import {
  addEntries,
  cloneObjects,
  dictPart,
  nextNumber,
  objectsMatching,
  serializeObjects,
  setEntry,
  type PdfObjects,
} from './pdf-objects.js';

export interface SeedDocument {
  name: string;
  bytes: Buffer;
  /** The parsed objects when the seed has a classic xref (structural mutations need them). */
  objects: PdfObjects | null;
  /** User password of an encrypted seed, sent with every read. */
  password?: string;
}

export interface Mutation {
  kind: string;
  /** What exactly was done, enough to see the case at a glance. */
  detail: string;
  bytes: Buffer;
}

type Mutator = (seed: SeedDocument, rng: Rng) => Mutation | null;

const BYTE_KINDS: readonly (readonly [number, string])[] = [
  [20, 'bit-flip'],
  [8, 'truncate'],
  [8, 'duplicate-run'],
  [8, 'delete-run'],
  [5, 'overwrite-run'],
];

const STRUCTURE_KINDS: readonly (readonly [number, string])[] = [
  [8, 'xref-offsets'],
  [3, 'startxref'],
  [2, 'xref-subsection'],
  [2, 'xref-prev-loop'],
  [6, 'huge-length'],
  [5, 'huge-number'],
  [7, 'deep-nesting'],
  [7, 'page-tree-loop'],
  [5, 'huge-count'],
  [2, 'deep-page-tree'],
  [2, 'reference-chain'],
];

/** Every kind, for the summary. */
export const MUTATION_KINDS = [...BYTE_KINDS, ...STRUCTURE_KINDS].map(([, k]) => k);

/** One mutation of `seed`, chosen by `rng`; about one case in eight gets a byte-level mutation on top. */
export function mutate(seed: SeedDocument, rng: Rng): Mutation {
  const kinds = rng.chance(0.45) ? BYTE_KINDS : STRUCTURE_KINDS;
  // A structural kind that does not apply to this seed (no parsed objects, no page tree) draws again.
  let result: Mutation | null = null;
  for (let attempt = 0; attempt < 8 && !result; attempt++) result = MUTATORS[rng.weighted(kinds)]!(seed, rng);
  result ??= MUTATORS['bit-flip']!(seed, rng)!;
  if (rng.chance(0.12)) {
    const second = rng.weighted(BYTE_KINDS);
    const more = MUTATORS[second]!({ ...seed, bytes: result.bytes, objects: null }, rng)!;
    result = { kind: `${result.kind}+${second}`, detail: `${result.detail}; ${more.detail}`, bytes: more.bytes };
  }
  return result;
}

// ---- byte level ----------------------------------------------------------

/** A position, a quarter of the time in the last 2 KB (cross-reference table and trailer). */
function position(rng: Rng, length: number): number {
  if (length <= 1) return 0;
  if (rng.chance(0.25)) return rng.int(Math.max(0, length - 2048), length - 1);
  return rng.int(0, length - 1);
}

function runLength(rng: Rng, length: number): number {
  const max = Math.max(1, Math.min(length, rng.weighted([[6, 16], [3, 512], [1, 8192]] as const)));
  return rng.int(1, max);
}

const bitFlip: Mutator = (seed, rng) => {
  const bytes = Buffer.from(seed.bytes);
  const n = rng.weighted([[5, 1], [3, 4], [2, 32]] as const);
  const flips = rng.int(1, n);
  const at: number[] = [];
  for (let i = 0; i < flips; i++) {
    const p = position(rng, bytes.length);
    bytes[p]! ^= 1 << rng.int(0, 7);
    at.push(p);
  }
  return { kind: 'bit-flip', detail: `${flips} flips at ${at.slice(0, 6).join(',')}${at.length > 6 ? ',...' : ''}`, bytes };
};

const truncate: Mutator = (seed, rng) => {
  const keep = position(rng, seed.bytes.length);
  return { kind: 'truncate', detail: `kept ${keep} of ${seed.bytes.length} bytes`, bytes: Buffer.from(seed.bytes.subarray(0, keep)) };
};

const duplicateRun: Mutator = (seed, rng) => {
  const len = runLength(rng, seed.bytes.length);
  const from = rng.int(0, seed.bytes.length - len);
  const to = position(rng, seed.bytes.length);
  const copies = rng.chance(0.2) ? rng.int(2, 50) : 1;
  const run = seed.bytes.subarray(from, from + len);
  const bytes = Buffer.concat([seed.bytes.subarray(0, to), ...Array.from({ length: copies }, () => run), seed.bytes.subarray(to)]);
  return { kind: 'duplicate-run', detail: `${copies}x ${len} bytes from ${from} inserted at ${to}`, bytes };
};

const deleteRun: Mutator = (seed, rng) => {
  const len = runLength(rng, seed.bytes.length);
  const from = position(rng, seed.bytes.length - len + 1);
  const bytes = Buffer.concat([seed.bytes.subarray(0, from), seed.bytes.subarray(from + len)]);
  return { kind: 'delete-run', detail: `${len} bytes deleted at ${from}`, bytes };
};

const overwriteRun: Mutator = (seed, rng) => {
  const len = runLength(rng, seed.bytes.length);
  const from = position(rng, seed.bytes.length - len + 1);
  const fill = rng.pick(['random', '[', '<<', '(', '0', '\0', ' ', 'R ']);
  const run = fill === 'random' ? rng.bytes(len) : Buffer.from(fill.repeat(Math.ceil(len / fill.length)).slice(0, len), 'latin1');
  const bytes = Buffer.from(seed.bytes);
  run.copy(bytes, from);
  return { kind: 'overwrite-run', detail: `${len} bytes at ${from} overwritten with ${JSON.stringify(fill)}`, bytes };
};

// ---- cross-reference table ------------------------------------------------

function xrefBytes(seed: SeedDocument): Buffer {
  return seed.objects ? serializeObjects(seed.objects) : seed.bytes;
}

const xrefOffsets: Mutator = (seed, rng) => {
  const bytes = Buffer.from(xrefBytes(seed));
  const s = bytes.toString('latin1');
  const table = s.lastIndexOf('\nxref');
  if (table < 0) return null;
  const entries = [...s.slice(table).matchAll(/(\d{10}) (\d{5}) n/g)].map((m) => table + m.index!);
  if (entries.length === 0) return null;
  const k = rng.int(1, Math.min(entries.length, rng.pick([1, 1, 2, 5, 1000])));
  const changed: string[] = [];
  for (let i = 0; i < k; i++) {
    const at = rng.pick(entries);
    const old = Number(s.slice(at, at + 10));
    const value = rng.pick([
      () => rng.int(0, bytes.length - 1),
      () => bytes.length + rng.int(0, 1_000_000),
      () => 9_999_999_999,
      () => 0,
      () => Math.max(0, old + rng.int(-20, 20)),
      () => Number(s.slice(rng.pick(entries), rng.pick(entries) + 10)),
    ])();
    bytes.write(String(value).padStart(10, '0').slice(-10), at, 'latin1');
    changed.push(`${old}->${value}`);
  }
  return { kind: 'xref-offsets', detail: `${k} offsets: ${changed.slice(0, 4).join(' ')}`, bytes };
};

const startxref: Mutator = (seed, rng) => {
  const s = xrefBytes(seed).toString('latin1');
  const at = s.lastIndexOf('startxref');
  if (at < 0) return null;
  const m = /startxref\s*(-?\d+)/.exec(s.slice(at));
  if (!m) return null;
  const value = rng.pick(['0', '-1', String(s.length + 100), '99999999999999999999', String(rng.int(0, s.length)), String(Number(m[1]) + rng.int(-3, 3)), 'x']);
  const bytes = Buffer.from(s.slice(0, at) + s.slice(at).replace(/startxref\s*-?\d+/, `startxref\n${value}`), 'latin1');
  return { kind: 'startxref', detail: `startxref ${m[1]} -> ${value}`, bytes };
};

const xrefSubsection: Mutator = (seed, rng) => {
  const s = xrefBytes(seed).toString('latin1');
  const m = /\nxref\s*\n(\d+) (\d+)/.exec(s);
  if (!m) return null;
  const value = rng.pick(['0 2147483647', '0 4294967296', '4294967290 10', '0 0', `0 ${Number(m[2]) + 1000}`, '-5 3', `${rng.int(1, 1000000)} ${m[2]}`]);
  const bytes = Buffer.from(s.replace(/\nxref\s*\n\d+ \d+/, `\nxref\n${value}`), 'latin1');
  return { kind: 'xref-subsection', detail: `subsection "${m[1]} ${m[2]}" -> "${value}"`, bytes };
};

const xrefPrevLoop: Mutator = (seed, rng) => {
  if (!seed.objects) return null;
  const first = serializeObjects(seed.objects);
  const own = Number(/startxref\n(\d+)/.exec(first.toString('latin1').slice(-64))?.[1]);
  const variant = rng.pick(['self', 'beyond', 'middle', 'two-cycle'] as const);
  if (variant === 'two-cycle') {
    // An update section whose /Prev is the original table, whose /Prev is the update.
    const update = first.length;
    const base = serializeObjects(seed.objects, `/Prev ${update}`);
    const tail = `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size ${nextNumber(seed.objects)} ${seed.objects.trailer} /Prev ${own} >>\nstartxref\n${update}\n%%EOF\n`;
    return { kind: 'xref-prev-loop', detail: 'two sections whose /Prev point at each other', bytes: Buffer.concat([base, Buffer.from(tail, 'latin1')]) };
  }
  const prev = variant === 'self' ? own : variant === 'beyond' ? first.length + 12345 : rng.int(0, first.length - 1);
  return { kind: 'xref-prev-loop', detail: `trailer /Prev ${prev} (${variant})`, bytes: serializeObjects(seed.objects, `/Prev ${prev}`) };
};

// ---- structure ------------------------------------------------------------

const HUGE = ['2147483647', '2147483648', '4294967296', '1000000000000000', '99999999999999999999999', '-1', '-2147483648', '0', '3.5', '1e308', '-0'];

function streamObjects(doc: PdfObjects): number[] {
  return [...doc.objects.entries()].filter(([, b]) => /\bstream\r?\n/.test(b) && /\/Length\b/.test(dictPart(b))).map(([n]) => n);
}

const hugeLength: Mutator = (seed, rng) => {
  if (!seed.objects) {
    // A file we cannot parse: change a /Length in place (the offsets after it move too).
    const s = seed.bytes.toString('latin1');
    const all = [...s.matchAll(/\/Length\s+(\d+)(?!\s+\d+\s+R)/g)];
    if (all.length === 0) return null;
    const m = rng.pick(all);
    const value = rng.pick(HUGE);
    const bytes = Buffer.from(s.slice(0, m.index!) + `/Length ${value}` + s.slice(m.index! + m[0].length), 'latin1');
    return { kind: 'huge-length', detail: `/Length ${m[1]} -> ${value} at ${m.index}`, bytes };
  }
  const doc = cloneObjects(seed.objects);
  const streams = streamObjects(doc);
  if (streams.length === 0) return null;
  const n = rng.pick(streams);
  const body = doc.objects.get(n)!;
  const actual = /stream\r?\n([\s\S]*)\r?\nendstream/.exec(body)?.[1]?.length ?? 0;
  const value = rng.pick([...HUGE, String(actual + 1_000_000), String(actual + 1), `${n} 0 R`, `${nextNumber(doc) + 5} 0 R`]);
  doc.objects.set(n, setEntry(body, 'Length', value));
  return { kind: 'huge-length', detail: `object ${n} /Length ${actual} -> ${value}`, bytes: serializeObjects(doc) };
};

const NUMBER_KEYS = ['Width', 'Height', 'BitsPerComponent', 'Rotate', 'Count', 'Size', 'N', 'First', 'Columns', 'Predictor', 'Colors', 'K', 'Length', 'StructParents', 'F', 'Ff', 'P', 'MaxLen', 'Q', 'CA', 'W', 'FirstChar', 'LastChar'];

const hugeNumber: Mutator = (seed, rng) => {
  if (!seed.objects) return null;
  const doc = cloneObjects(seed.objects);
  const candidates: { n: number; key: string }[] = [];
  for (const [n, body] of doc.objects) {
    for (const m of dictPart(body).matchAll(/\/(\w+)\s+-?\d+(?:\.\d+)?(?!\s+\d+\s+R)/g)) if (NUMBER_KEYS.includes(m[1]!)) candidates.push({ n, key: m[1]! });
    if (/\/(MediaBox|CropBox|Rect|BBox|Matrix|Widths)\s*\[/.test(body)) candidates.push({ n, key: 'box' });
  }
  if (candidates.length === 0) return null;
  const { n, key } = rng.pick(candidates);
  const body = doc.objects.get(n)!;
  if (key === 'box') {
    const box = rng.pick(['MediaBox', 'CropBox', 'Rect', 'BBox', 'Matrix', 'Widths'].filter((k) => new RegExp(`/${k}\\s*\\[`).test(body)));
    const value = rng.pick(['[0 0 1e38 1e38]', '[-1e38 -1e38 1e38 1e38]', '[0 0 0 0]', '[0 0 14401 -5]', '[1 2]', '[]', '[0 0 99999999999999999999 1]', '[(a) /b 1 2]', `[${'0 '.repeat(100000)}]`]);
    doc.objects.set(n, body.replace(new RegExp(`/${box}\\s*\\[[^\\]]*\\]`), `/${box} ${value}`));
    return { kind: 'huge-number', detail: `object ${n} /${box} -> ${value.slice(0, 40)}`, bytes: serializeObjects(doc) };
  }
  const value = rng.pick(HUGE);
  doc.objects.set(n, setEntry(body, key, value));
  return { kind: 'huge-number', detail: `object ${n} /${key} -> ${value}`, bytes: serializeObjects(doc) };
};

function nest(rng: Rng, depth: number): { text: string; shape: string } {
  const shape = rng.pick(['array', 'dict', 'mixed', 'unclosed-array', 'unclosed-dict'] as const);
  switch (shape) {
    case 'array':
      return { text: '['.repeat(depth) + ']'.repeat(depth), shape };
    case 'dict':
      return { text: '<< /A '.repeat(depth) + '1' + ' >>'.repeat(depth), shape };
    case 'mixed':
      return { text: '[<< /A '.repeat(depth) + '1' + ' >>]'.repeat(depth), shape };
    case 'unclosed-array':
      return { text: '['.repeat(depth), shape };
    case 'unclosed-dict':
      return { text: '<< /A '.repeat(depth), shape };
  }
}

/** Replaces a stream's data (uncompressed: any /Filter goes) and its /Length. */
function withStreamData(body: string, data: string): string {
  const dict = dictPart(body).replace(/\/Filter\s*(\/\w+|\[[^\]]*\])/, '').replace(/\/DecodeParms\s*<<[^>]*>>/, '');
  return `${setEntry(dict.trimEnd(), 'Length', String(data.length))}\nstream\n${data}\nendstream`;
}

const deepNesting: Mutator = (seed, rng) => {
  const depth = rng.weighted([[4, rng.int(65, 300)], [3, rng.int(300, 5000)], [2, rng.int(5000, 100_000)], [1, rng.int(100_000, 400_000)]] as const);
  const { text, shape } = nest(rng, depth);
  if (!seed.objects) {
    // Inside some dictionary of a file we cannot parse.
    const s = seed.bytes.toString('latin1');
    const opens = [...s.matchAll(/<</g)].map((m) => m.index!);
    if (opens.length === 0) return null;
    const at = rng.pick(opens) + 2;
    return { kind: 'deep-nesting', detail: `${shape} depth ${depth} in the dictionary at ${at - 2}`, bytes: Buffer.from(`${s.slice(0, at)} /RobustDeep ${text} ${s.slice(at)}`, 'latin1') };
  }
  const doc = cloneObjects(seed.objects);
  const catalog = objectsMatching(doc, /\/Type\s*\/Catalog\b/)[0];
  const pagesRoot = objectsMatching(doc, /\/Type\s*\/Pages\b/)[0];
  const pages = objectsMatching(doc, /\/Type\s*\/Page\b/);
  const annots = objectsMatching(doc, /\/Type\s*\/Annot\b|\/Subtype\s*\/(Text|Square|Link|Widget|FreeText|Stamp)\b/);
  const place = rng.pick(['catalog', 'trailer', 'page-key', 'page-resources', 'page-annots', 'kids', 'annotation', 'content', 'content-operators'] as const);
  const page = pages.length ? rng.pick(pages) : undefined;
  switch (place) {
    case 'catalog':
      if (catalog === undefined) return null;
      doc.objects.set(catalog, addEntries(doc.objects.get(catalog)!, `/RobustDeep ${text}`));
      break;
    case 'trailer':
      doc.trailer = `${doc.trailer} /RobustDeep ${text}`;
      break;
    case 'page-key':
    case 'page-resources':
    case 'page-annots':
      if (page === undefined) return null;
      doc.objects.set(page, place === 'page-key' ? addEntries(doc.objects.get(page)!, `/RobustDeep ${text}`) : setEntry(doc.objects.get(page)!, place === 'page-resources' ? 'Resources' : 'Annots', text));
      break;
    case 'kids':
      if (pagesRoot === undefined) return null;
      doc.objects.set(pagesRoot, setEntry(doc.objects.get(pagesRoot)!, 'Kids', text));
      break;
    case 'annotation': {
      if (annots.length === 0) return null;
      const a = rng.pick(annots);
      doc.objects.set(a, setEntry(doc.objects.get(a)!, rng.pick(['Rect', 'AP', 'Contents', 'QuadPoints', 'InkList', 'C']), text));
      break;
    }
    case 'content':
    case 'content-operators': {
      if (page === undefined) return null;
      const ref = /\/Contents\s+(\d+)\s+0\s+R/.exec(doc.objects.get(page)!);
      if (!ref) return null;
      const n = Number(ref[1]);
      const ops = place === 'content' ? text : rng.pick(['q ', 'BT ', '/OC /X BDC ', '1 0 0 1 0 0 cm q ']).repeat(Math.min(depth, 200_000));
      doc.objects.set(n, withStreamData(doc.objects.get(n)!, `${ops}\nBT /F1 12 Tf 72 72 Td (deep) Tj ET`));
      break;
    }
  }
  return { kind: 'deep-nesting', detail: `${shape} depth ${depth} in ${place}`, bytes: serializeObjects(doc) };
};

const pageTreeLoop: Mutator = (seed, rng) => {
  if (!seed.objects) return null;
  const doc = cloneObjects(seed.objects);
  const root = objectsMatching(doc, /\/Type\s*\/Pages\b/)[0];
  const catalog = objectsMatching(doc, /\/Type\s*\/Catalog\b/)[0];
  const pages = objectsMatching(doc, /\/Type\s*\/Page\b/);
  if (root === undefined || catalog === undefined || pages.length === 0) return null;
  const rootBody = doc.objects.get(root)!;
  const kids = /\/Kids\s*\[([^\]]*)\]/.exec(rootBody)?.[1]?.trim() ?? '';
  const variant = rng.pick(['kids-self', 'grandchild-loop', 'page-parent-self', 'first-kid-root', 'kids-catalog', 'page-listed-twice', 'catalog-pages-page', 'two-node-cycle', 'parent-cycle'] as const);
  switch (variant) {
    case 'kids-self':
      doc.objects.set(root, setEntry(rootBody, 'Kids', `[${kids} ${root} 0 R]`));
      break;
    case 'grandchild-loop': {
      const x = nextNumber(doc);
      doc.objects.set(x, `<< /Type /Pages /Parent ${root} 0 R /Kids [${root} 0 R] /Count ${pages.length} >>`);
      doc.objects.set(root, setEntry(rootBody, 'Kids', rng.chance(0.5) ? `[${x} 0 R ${kids}]` : `[${kids} ${x} 0 R]`));
      break;
    }
    case 'page-parent-self': {
      const p = rng.pick(pages);
      doc.objects.set(p, setEntry(doc.objects.get(p)!, 'Parent', `${p} 0 R`));
      break;
    }
    case 'first-kid-root':
      doc.objects.set(root, setEntry(rootBody, 'Kids', `[${root} 0 R${kids.replace(/^\s*\d+\s+\d+\s+R/, '')}]`));
      break;
    case 'kids-catalog':
      doc.objects.set(root, setEntry(rootBody, 'Kids', `[${catalog} 0 R ${kids}]`));
      break;
    case 'page-listed-twice': {
      const p = rng.pick(pages);
      doc.objects.set(root, setEntry(rootBody, 'Kids', `[${kids} ${`${p} 0 R `.repeat(rng.int(1, 1000))}]`));
      break;
    }
    case 'catalog-pages-page':
      doc.objects.set(catalog, setEntry(doc.objects.get(catalog)!, 'Pages', `${rng.pick(pages)} 0 R`));
      break;
    case 'two-node-cycle': {
      const a = nextNumber(doc);
      const b = a + 1;
      doc.objects.set(a, `<< /Type /Pages /Kids [${b} 0 R] /Count 2 /Parent ${b} 0 R >>`);
      doc.objects.set(b, `<< /Type /Pages /Kids [${a} 0 R] /Count 2 /Parent ${a} 0 R >>`);
      doc.objects.set(root, setEntry(rootBody, 'Kids', `[${kids} ${a} 0 R]`));
      break;
    }
    case 'parent-cycle':
      // Inherited attributes are looked up through /Parent: make the chain circular.
      doc.objects.set(root, setEntry(rootBody, 'Parent', `${rng.pick(pages)} 0 R`));
      for (const p of pages) doc.objects.set(p, doc.objects.get(p)!.replace(/\/MediaBox\s*\[[^\]]*\]/, '').replace(/\/Resources\s+\d+\s+0\s+R/, ''));
      break;
  }
  return { kind: 'page-tree-loop', detail: variant, bytes: serializeObjects(doc) };
};

const hugeCount: Mutator = (seed, rng) => {
  if (!seed.objects) {
    const s = seed.bytes.toString('latin1');
    const all = [...s.matchAll(/\/Count\s+(-?\d+)/g)];
    if (all.length === 0) return null;
    const m = rng.pick(all);
    const value = rng.pick(['1000000', '2147483647', '4294967296', '-1', '0', '100000000000000000000']);
    return { kind: 'huge-count', detail: `/Count ${m[1]} -> ${value}`, bytes: Buffer.from(s.slice(0, m.index!) + `/Count ${value}` + s.slice(m.index! + m[0].length), 'latin1') };
  }
  const doc = cloneObjects(seed.objects);
  const nodes = objectsMatching(doc, /\/Type\s*\/Pages\b/);
  if (nodes.length === 0) return null;
  const n = rng.pick(nodes);
  const value = rng.pick(['1000000', '2147483647', '2147483648', '4294967296', '-1', '0', '100000000000000000000', '3.7', '/Name', `${n} 0 R`]);
  doc.objects.set(n, setEntry(doc.objects.get(n)!, 'Count', value));
  return { kind: 'huge-count', detail: `object ${n} /Count -> ${value}`, bytes: serializeObjects(doc) };
};

const deepPageTree: Mutator = (seed, rng) => {
  if (!seed.objects) return null;
  const doc = cloneObjects(seed.objects);
  const root = objectsMatching(doc, /\/Type\s*\/Pages\b/)[0];
  const catalog = objectsMatching(doc, /\/Type\s*\/Catalog\b/)[0];
  if (root === undefined || catalog === undefined) return null;
  const count = /\/Count\s+(\d+)/.exec(doc.objects.get(root)!)?.[1] ?? '1';
  const depth = rng.pick([64, 256, 1000, 5000, 20000]);
  const first = nextNumber(doc);
  // first -> first+1 -> ... -> first+depth-1 -> root
  for (let i = 0; i < depth; i++) {
    const n = first + i;
    const child = i === depth - 1 ? root : n + 1;
    doc.objects.set(n, `<< /Type /Pages /Kids [${child} 0 R] /Count ${count}${i > 0 ? ` /Parent ${n - 1} 0 R` : ''} >>`);
  }
  doc.objects.set(root, setEntry(doc.objects.get(root)!, 'Parent', `${first + depth - 1} 0 R`));
  doc.objects.set(catalog, setEntry(doc.objects.get(catalog)!, 'Pages', `${first} 0 R`));
  return { kind: 'deep-page-tree', detail: `page tree ${depth} levels deep`, bytes: serializeObjects(doc) };
};

const referenceChain: Mutator = (seed, rng) => {
  if (!seed.objects) return null;
  const doc = cloneObjects(seed.objects);
  const catalog = objectsMatching(doc, /\/Type\s*\/Catalog\b/)[0];
  const pages = objectsMatching(doc, /\/Type\s*\/Page\b/);
  if (catalog === undefined || pages.length === 0) return null;
  const length = rng.pick([100, 1000, 10000, 50000]);
  const cyclic = rng.chance(0.5);
  const first = nextNumber(doc);
  const form = rng.pick(['dict', 'array', 'bare'] as const);
  for (let i = 0; i < length; i++) {
    const next = i === length - 1 ? (cyclic ? first : null) : first + i + 1;
    const ref = next === null ? 'null' : `${next} 0 R`;
    doc.objects.set(first + i, form === 'dict' ? `<< /Next ${ref} >>` : form === 'array' ? `[${ref}]` : ref);
  }
  const where = rng.pick(['catalog', 'page-resources', 'page-contents', 'page-annots', 'mediabox'] as const);
  const page = rng.pick(pages);
  if (where === 'catalog') doc.objects.set(catalog, addEntries(doc.objects.get(catalog)!, `/RobustChain ${first} 0 R`));
  else doc.objects.set(page, setEntry(doc.objects.get(page)!, { 'page-resources': 'Resources', 'page-contents': 'Contents', 'page-annots': 'Annots', mediabox: 'MediaBox' }[where], `${first} 0 R`));
  return { kind: 'reference-chain', detail: `${cyclic ? 'cyclic' : 'open'} chain of ${length} ${form} objects at ${where}`, bytes: serializeObjects(doc) };
};

const MUTATORS: Record<string, Mutator> = {
  'bit-flip': bitFlip,
  truncate,
  'duplicate-run': duplicateRun,
  'delete-run': deleteRun,
  'overwrite-run': overwriteRun,
  'xref-offsets': xrefOffsets,
  startxref,
  'xref-subsection': xrefSubsection,
  'xref-prev-loop': xrefPrevLoop,
  'huge-length': hugeLength,
  'huge-number': hugeNumber,
  'deep-nesting': deepNesting,
  'page-tree-loop': pageTreeLoop,
  'huge-count': hugeCount,
  'deep-page-tree': deepPageTree,
  'reference-chain': referenceChain,
};

/** Byte-level mutations of any text or binary body (XFDF, FDF, JSON, XML): the fuzzer's part of `mutate`. */
export function mutateBytes(bytes: Buffer, rng: Rng): Mutation {
  const kind = rng.weighted(BYTE_KINDS);
  return MUTATORS[kind]!({ name: 'body', bytes, objects: null }, rng)!;
}
