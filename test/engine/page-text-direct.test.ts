/**
 * The redaction's text (engine/text/page-text.ts) is read from MuPDF's structured text directly where the engine's
 * workers load MuPDF (through the module handle, core/wasm.ts), not through StructuredText.walk(). Both must give the
 * same characters and the same boxes, bit for bit: the search's matches, the Redact annotations' quads and the
 * verification after applying them are made from them. Checked on every redaction fixture (CID, Type 3, rotated,
 * form XObjects, annotation appearances, quote operators...) and on corpus pages, page content and annotations.
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

/** The text as walk() gives it (the reader's fallback where MuPDF is loaded without the handle). */
function walked(stext: mupdf.StructuredText): PageText {
  const builder = new PageTextBuilder();
  const box = new Float64Array(8);
  try {
    walkText(stext, {
      onChar(c, origin, size, quad) {
        bodyQuad(quad, origin, size, box);
        builder.add(c, box);
      },
      endLine() {
        builder.endLine();
      },
    });
  } finally {
    stext.destroy();
  }
  return builder.build();
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
