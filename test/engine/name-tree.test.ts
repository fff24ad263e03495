/**
 * core/name-tree.ts, the one walker of the catalog's name trees (attachments, outline and merge, PDF/A preparation,
 * redaction): tree order, each name once, cycles and shared nodes read once, the node and depth bounds (cut), and
 * writes (one leaf sorted by the keys' bytes, add, replace, remove, the tree and an empty /Names gone). Checked on
 * MuPDF's objects directly and on the saved bytes with qpdf.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as mupdf from 'mupdf';
import { MAX_NAME_TREE_DEPTH, MAX_NAME_TREE_NODES, dropNameTree, findInNameTree, putInNameTree, readNameTree, removeFromNameTree, walkNameTree, nameTreeRoot, writeNameTree } from '../../src/engine/core/name-tree.js';
import { EngineError } from '../../src/engine/errors.js';
import { serializePdf } from '../helpers/pdf.js';
import { QpdfDocument } from '../helpers/qpdf-json.js';

const PAGES = ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'];

/** A document whose catalog (object 1) has `names` as its /Names, `more` from object 4 on. */
function open(names: string | undefined, more: string[] = []): mupdf.PDFDocument {
  const catalog = `<< /Type /Catalog /Pages 2 0 R${names ? ` /Names ${names}` : ''} >>`;
  return new mupdf.PDFDocument(serializePdf([catalog, ...PAGES, ...more], '/Root 1 0 R'));
}

const values = (doc: mupdf.PDFDocument, tree: string) => readNameTree(doc, tree).entries.map((e) => [e.name, e.value.isIndirect() ? e.value.asIndirect() : e.value.asNumber()]);

function saved(doc: mupdf.PDFDocument): Buffer {
  const buffer = doc.saveToBuffer('');
  try {
    return Buffer.from(buffer.asUint8Array());
  } finally {
    buffer.destroy();
  }
}

/** The catalog's /Names as qpdf reads the saved file: each tree's keys (one leaf) in the order written, or the tree's absence. */
function qpdfNames(bytes: Buffer): Record<string, string[]> | undefined {
  const doc = new QpdfDocument(bytes);
  const names = doc.get(doc.catalog(), '/Names') as Record<string, unknown> | undefined;
  if (names === undefined) return undefined;
  const out: Record<string, string[]> = {};
  for (const key of Object.keys(names)) {
    const pairs = doc.get(doc.get(names, key) as Record<string, unknown>, '/Names') as string[];
    out[key.slice(1)] = pairs.filter((_, i) => i % 2 === 0).map((s) => s.replace(/^u:/, ''));
  }
  return out;
}

describe('name trees: reading', () => {
  test('kids in tree order, a name met twice read once (the first), a key that is not a string left out, each with a warning', () => {
    const doc = open('<< /Dests 4 0 R >>', [
      '<< /Kids [5 0 R 6 0 R] >>',
      '<< /Names [(a) 1 (b) 2] >>',
      '<< /Names [(c) 3 (a) 4 /d 5 (e) 6] >>',
    ]);
    assert.deepEqual(values(doc, 'Dests'), [['a', 1], ['b', 2], ['c', 3], ['e', 6]]);
    const { warnings, cut } = readNameTree(doc, 'Dests');
    assert.equal(cut, false);
    assert.match(warnings.join('\n'), /"a" twice/);
    assert.match(warnings.join('\n'), /not a string/);
    assert.equal(findInNameTree(doc, 'Dests', 'c')?.asNumber(), 3);
    assert.equal(findInNameTree(doc, 'Dests', 'zz'), undefined);
    assert.deepEqual(readNameTree(doc, 'EmbeddedFiles'), { entries: [], cut: false, warnings: [] });
  });

  test('a cycle and a node shared by two parents: every node read once, with a warning; not cut', () => {
    // 4 -> [5, 6]; 5 -> [4 (back up), 6 (shared)]; 6 is a leaf.
    const doc = open('<< /JavaScript 4 0 R >>', ['<< /Kids [5 0 R 6 0 R] >>', '<< /Kids [4 0 R 6 0 R] /Names [(x) 1] >>', '<< /Names [(y) 2] >>']);
    const pairs: string[] = [];
    const walk = walkNameTree(nameTreeRoot(doc, 'JavaScript')!, ({ name }) => pairs.push(name!));
    assert.deepEqual(pairs, ['x', 'y']);
    assert.deepEqual(walk, { cut: false, cycle: true });
    const read = readNameTree(doc, 'JavaScript');
    assert.equal(read.cut, false);
    assert.match(read.warnings.join('\n'), /cycle/);
  });

  test(`deeper than ${MAX_NAME_TREE_DEPTH} levels: cut, what lies above read, and a write refused`, () => {
    const depth = MAX_NAME_TREE_DEPTH + 5;
    // Object 4 + i is level i, holding the name n<i> and its one kid below.
    const levels = Array.from({ length: depth }, (_, i) => `<< /Names [(n${String(i).padStart(2, '0')}) ${i}]${i + 1 < depth ? ` /Kids [${5 + i} 0 R]` : ''} >>`);
    const doc = open('<< /EmbeddedFiles 4 0 R >>', levels);
    const read = readNameTree(doc, 'EmbeddedFiles');
    assert.equal(read.cut, true);
    assert.equal(read.entries.length, MAX_NAME_TREE_DEPTH + 1);
    assert.match(read.warnings.join('\n'), /too large or too deep/);
    assert.throws(() => putInNameTree(doc, 'EmbeddedFiles', 'new', doc.newInteger(1)), (err: unknown) => err instanceof EngineError && err.code === 'PROCESSING_FAILED');
    assert.throws(() => removeFromNameTree(doc, 'EmbeddedFiles', 'n00'), (err: unknown) => err instanceof EngineError && err.code === 'PROCESSING_FAILED');
  });

  test(`more than ${MAX_NAME_TREE_NODES} nodes: cut at the bound`, () => {
    // A root with that many direct leaves (no objects needed: direct dictionaries count as nodes too).
    const leaves = Array.from({ length: MAX_NAME_TREE_NODES + 10 }, () => '<< /Names [(k) 1] >>').join(' ');
    const doc = open('<< /Dests 4 0 R >>', [`<< /Kids [${leaves}] >>`]);
    let visited = 0;
    const walk = walkNameTree(nameTreeRoot(doc, 'Dests')!, () => visited++);
    assert.equal(walk.cut, true);
    // The root is one of the nodes counted.
    assert.equal(visited, MAX_NAME_TREE_NODES - 1);
  });
});

describe('name trees: writing', () => {
  test('add, replace and remove: one leaf sorted by the keys\' bytes, other trees kept; the last entry removed takes the tree and the empty /Names', () => {
    const doc = open('<< /EmbeddedFiles 4 0 R /Dests 5 0 R >>', ['<< /Kids [6 0 R] >>', '<< /Names [(d) 9] >>', '<< /Names [(b) 2 (a) 1] >>']);
    assert.equal(putInNameTree(doc, 'EmbeddedFiles', 'C', doc.newInteger(3)), undefined);
    assert.deepEqual(putInNameTree(doc, 'EmbeddedFiles', 'b', doc.newInteger(20))?.name, 'b');
    // "é" is written as UTF-16BE with its byte order mark (FE FF), after every PDFDocEncoding key.
    putInNameTree(doc, 'EmbeddedFiles', 'é', doc.newInteger(5));
    putInNameTree(doc, 'EmbeddedFiles', 'z', doc.newInteger(4));
    assert.deepEqual(values(doc, 'EmbeddedFiles'), [['C', 3], ['a', 1], ['b', 20], ['z', 4], ['é', 5]]);
    assert.deepEqual(qpdfNames(saved(doc)), { EmbeddedFiles: ['C', 'a', 'b', 'z', 'é'], Dests: ['d'] });
    assert.equal(removeFromNameTree(doc, 'EmbeddedFiles', 'missing'), undefined);
    for (const name of ['C', 'a', 'b', 'z', 'é']) assert.equal(removeFromNameTree(doc, 'EmbeddedFiles', name)?.name, name);
    assert.deepEqual(qpdfNames(saved(doc)), { Dests: ['d'] });
    assert.equal(dropNameTree(doc, 'Dests'), true);
    assert.equal(dropNameTree(doc, 'Dests'), false);
    assert.equal(qpdfNames(saved(doc)), undefined);
  });

  test('writeNameTree makes /Names when the catalog has none; no entries writes nothing', () => {
    const doc = open(undefined);
    writeNameTree(doc, 'Dests', []);
    assert.equal(qpdfNames(saved(doc)), undefined);
    writeNameTree(doc, 'Dests', [{ name: 'two', value: doc.newInteger(2) }, { name: 'one', value: doc.newInteger(1) }]);
    assert.deepEqual(qpdfNames(saved(doc)), { Dests: ['one', 'two'] });
  });
});
