/**
 * walkText (engine/text/page-text.ts: the redaction's text, and GET .../text through engine/text/extraction.ts) reads
 * MuPDF's structured text through its accessors where the engine's workers load MuPDF (the module handle,
 * core/wasm.ts), not through StructuredText.walk(). Both must give the same blocks, lines, characters and boxes, bit
 * for bit: the search's matches, the Redact annotations' quads, the verification after applying them and the page
 * text's words and boxes are made from them. Checked on every redaction fixture (CID, Type 3, rotated, form XObjects,
 * annotation appearances, quote operators...) and on corpus pages, page content and annotations.
 */
// First: MuPDF's Emscripten module is then this handle (as in a worker), so the direct reader is the one used.
import { wasmModule } from '../../src/engine/core/wasm.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as mupdf from 'mupdf';
import { annotationText, bodyQuad, pageContentText, walkText } from '../../src/engine/text/page-text.js';
import { PageTextBuilder, type PageText } from '../../src/engine/text/match.js';
import { REDACTION_KINDS, redactionFixture } from '../helpers/redaction-fixtures.js';
import { corpusDir } from '../../corpus/manifest.js';

/** MuPDF.js's own walk of `stext`, with each character's Font released (it is not compared). */
function rawWalk(stext: mupdf.StructuredText, on: { block?(bbox: mupdf.Rect): void; line?(bbox: mupdf.Rect): void; char(c: string, origin: mupdf.Point, size: number, quad: mupdf.Quad): void; endLine?(): void; endBlock?(): void }): void {
  stext.walk({
    beginTextBlock: (bbox) => on.block?.(bbox),
    beginLine: (bbox) => on.line?.(bbox),
    onChar(c, origin, font, size, quad) {
      font.destroy();
      on.char(c, origin, size, quad);
    },
    endLine: () => on.endLine?.(),
    endTextBlock: () => on.endBlock?.(),
  });
}

/** The text as walk() gives it, built as the redaction builds its own (page-text.ts, collect). */
function walked(stext: mupdf.StructuredText): PageText {
  const builder = new PageTextBuilder();
  const box = new Float64Array(8);
  try {
    rawWalk(stext, {
      char(c, origin, size, quad) {
        bodyQuad(quad, origin, size, box);
        builder.add(c, box);
      },
      endLine: () => builder.endLine(),
    });
  } finally {
    stext.destroy();
  }
  return builder.build();
}

/** Every event of a walk with what it carries, as one list of strings and numbers. */
function events(stext: mupdf.StructuredText, direct: boolean): (string | number)[] {
  const out: (string | number)[] = [];
  const on = {
    block: (bbox: ArrayLike<number>) => out.push('block', ...Array.from(bbox)),
    line: (bbox: ArrayLike<number>) => out.push('line', ...Array.from(bbox)),
    char: (c: string, origin: ArrayLike<number>, size: number, quad: ArrayLike<number>) => out.push(c, ...Array.from(origin), size, ...Array.from(quad)),
    endLine: () => out.push('endLine'),
    endBlock: () => out.push('endBlock'),
  };
  if (direct) walkText(stext, { beginTextBlock: on.block, beginLine: on.line, onChar: on.char, endLine: on.endLine, endTextBlock: on.endBlock });
  else rawWalk(stext, on);
  return out;
}

function assertSame(direct: PageText, reference: PageText, where: string): void {
  assert.equal(direct.text, reference.text, where);
  for (let i = 0; i < direct.text.length * 8; i++) {
    const [a, b] = [direct.quads[i]!, reference.quads[i]!];
    assert.ok(a === b || (Number.isNaN(a) && Number.isNaN(b)), `${where}: character ${Math.floor(i / 8)}, coordinate ${i % 8}: ${a} against ${b}`);
  }
}

/** Compares both readers on the first pages of `pdf` and their annotations; answers the characters compared. */
function compare(pdf: Uint8Array, name: string, maxPages = 3): number {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf').asPDF()!;
  let characters = 0;
  try {
    for (let p = 0; p < Math.min(doc.countPages(), maxPages); p++) {
      const page = doc.loadPage(p) as mupdf.PDFPage;
      try {
        const direct = pageContentText(page);
        assertSame(direct, walked(page.toStructuredText('clip=no')), `${name} page ${p}`);
        characters += direct.text.length;
        // Every event, as GET .../text walks it (MuPDF's default options there).
        const stext = page.toStructuredText('');
        try {
          assert.deepEqual(events(stext, true), events(stext, false), `${name} page ${p}: walkText's events`);
        } finally {
          stext.destroy();
        }
        for (const [k, annot] of page.getAnnotations().entries()) {
          const list = annot.toDisplayList();
          try {
            const fromAnnot = annotationText(annot);
            assertSame(fromAnnot, walked(list.toStructuredText('clip=no')), `${name} page ${p} annotation ${k}`);
            characters += fromAnnot.text.length;
          } finally {
            list.destroy();
          }
        }
      } finally {
        page.destroy();
      }
    }
  } finally {
    doc.destroy();
  }
  return characters;
}

test('the direct reader is the one used here, as in a worker', () => {
  assert.ok(wasmModule.HEAPU8 instanceof Uint8Array, 'MuPDF was loaded through the module handle');
});

test('redaction fixtures: the same text and boxes as walk()', () => {
  let characters = 0;
  for (const kind of REDACTION_KINDS) characters += compare(redactionFixture(kind).pdf, kind);
  assert.ok(characters > 1000, `${characters} characters compared`);
});

const CORPUS = corpusDir();

test('corpus pages: the same text and boxes as walk()', { skip: CORPUS ? false : 'no corpus (../shared/corpus or PDFSERVICE_CORPUS)' }, () => {
  const files: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.pdf$/i.test(entry.name)) files.push(file);
    }
  };
  visit(CORPUS!);
  let characters = 0;
  for (const file of files.sort().slice(0, 120)) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
      const probe = mupdf.Document.openDocument(bytes, 'application/pdf');
      const locked = probe.needsPassword();
      probe.destroy();
      if (locked) continue;
    } catch {
      continue; // a file MuPDF cannot open is not this test's
    }
    try {
      characters += compare(bytes, path.relative(CORPUS!, file), 2);
    } catch (err) {
      if (err instanceof assert.AssertionError) throw err;
      // A page MuPDF cannot read fails both readers alike; nothing to compare.
    }
  }
  assert.ok(characters > 10_000, `${characters} characters compared`);
});
