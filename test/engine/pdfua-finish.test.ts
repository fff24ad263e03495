/**
 * The parts of `finishTaggedPdf` (engine/pdfua/) that need no browser: untagged content marked as artifacts, and the
 * structure walk on trees a hostile file can hold (a cycle, a list item holding marked content). Chromium's real
 * output is checked in test/tools/html-tagged.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markUntaggedAsArtifacts } from '../../src/engine/pdfua/artifacts.js';
import { finishTaggedPdf } from '../../src/engine/pdfua/finish.js';
import { qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { serializePdf } from '../helpers/pdf-writer.js';
import { execFileSync } from 'node:child_process';

const mark = (content: string) => {
  const { bytes, wrapped } = markUntaggedAsArtifacts(Buffer.from(content, 'latin1'));
  return { text: bytes ? Buffer.from(bytes).toString('latin1') : undefined, wrapped };
};

test('painting outside marked content becomes an artifact: a path from its first operator, an image, text inside BT', () => {
  const { text, wrapped } = mark('q 1 0 0 1 0 0 cm /P <</MCID 0>> BDC BT /F1 12 Tf (tagged) Tj ET EMC 0 0 10 10 re 5 5 m 8 8 l f /Im1 Do BT (loose) Tj ET Q');
  assert.equal(wrapped, 3);
  assert.equal(text, 'q 1 0 0 1 0 0 cm /P <</MCID 0>> BDC BT /F1 12 Tf (tagged) Tj ET EMC /Artifact BMC\n0 0 10 10 re 5 5 m 8 8 l f\nEMC /Artifact BMC\n/Im1 Do\nEMC BT /Artifact BMC\n(loose) Tj\nEMC ET Q');
});

test('content all inside marked content, artifacts already marked, clipping paths and state alone: nothing changes', () => {
  assert.deepEqual(mark('/Artifact BMC 0 0 5 5 re f EMC /Span <</MCID 1>> BDC /Span <</MCID 2>> BDC [(a) 5 (b)] TJ EMC EMC 0 0 9 9 re W n 1 0 0 RG'), { text: undefined, wrapped: 0 });
  // An EMC too many is not a licence to leave later content untagged, nor a crash.
  assert.equal(mark('EMC (x) Tj').wrapped, 1);
});

/** A tagged one-page PDF whose structure tree has a cycle (an element is its own grandchild) and an LI holding marked content directly. */
function hostileTree(): Buffer {
  const content = '/P <</MCID 0>> BDC BT /F1 12 Tf 72 720 Td (Item) Tj ET EMC /P <</MCID 1>> BDC BT 72 700 Td (More) Tj ET EMC';
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 5 0 R /MarkInfo << /Marked true >> /Lang (en) >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /StructParents 0 /Resources << /Font << /F1 9 0 R >> >> >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /StructTreeRoot /K 6 0 R /ParentTree << /Nums [0 [7 0 R 8 0 R]] >> >>',
      '<< /Type /StructElem /S /L /P 5 0 R /K [7 0 R 8 0 R] >>',
      // An LI whose content is marked content of its own: left as it is (the parent tree names it).
      '<< /Type /StructElem /S /LI /P 6 0 R /Pg 3 0 R /K [0 6 0 R] >>',
      '<< /Type /StructElem /S /LI /P 6 0 R /Pg 3 0 R /K 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ],
    '/Root 1 0 R',
  );
}

test('a structure tree with a cycle is walked once and finished; list items holding marked content are left as they are', () => {
  const { bytes, report } = finishTaggedPdf({ pdf: new Uint8Array(hostileTree()), metadata: { title: 'Hostile' } });
  assert.equal(report.listItemsFixed, 0);
  assert.equal(report.figuresWithoutAlt, 0);
  assert.equal(report.title, 'Hostile');
  assert.ok(qpdfCheck(bytes).ok);
  const info = withTempFile(bytes, (file) => execFileSync('pdfinfo', [file], { encoding: 'utf8' }));
  assert.match(info, /Title:\s+Hostile/);
});
