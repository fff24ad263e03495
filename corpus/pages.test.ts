import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call } from '../test/helpers/http.js';
import { pdfinfoPages, popplerPages, popplerWords, sequenceSimilarity, words } from '../test/helpers/poppler-text.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir, readManifest, type CorpusEntry } from './manifest.js';

/**
 * The pages resource on real-world files: page models agree with pdfinfo,
 * and page text with pdftotext, under the comparison docs/pages.md describes
 * ("Compared with pdftotext"): the same words, in the same order, after three
 * normalisations for what pdftotext adds or removes, with thresholds because
 * the two extractors order some layouts differently.
 */

/** Unicode direction marks and embeddings, which pdftotext puts around right-to-left runs. */
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** Text reduced to what both extractors should agree on (docs/pages.md). */
function comparable(text: string): string[] {
  return words(
    text
      .replace(BIDI_CONTROLS, '')
      // pdftotext joins a word hyphenated at a line end; MuPDF keeps the line as drawn.
      .replace(/(\p{L})[-\u00ad\u2010][ \t]*\n\s*(?=\p{Ll})/gu, '$1'),
  )
    // pdftotext also takes a lone hyphen ending a line (an empty table cell) for a hyphenation and drops it.
    .filter((w) => !/^[-\u2010-\u2015]+$/u.test(w));
}

/** Shared words whatever their order: twice the multiset intersection over the total. */
function wordOverlap(a: string[], b: string[]): number {
  if (a.length + b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of b) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common++;
      counts.set(w, n - 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}

/** Local order: the overlap of adjacent word pairs. A block read in another place costs only its two edges. */
const pairs = (w: string[]) => w.slice(1).map((x, i) => `${w[i]} ${x}`);

/** Files whose reading order differs by design, and why; their order is compared only loosely. */
const ORDER_DIFFERS: Record<string, string> = {
  'pdfbox/text-extraction/eu-001.pdf': 'tables: MuPDF reads a table row by row, pdftotext column by column',
};

/**
 * Not 1: the extractors split some words differently. The lowest page (0.949, us_constitution.pdf page 18) has
 * its "fi" ligatures followed by a space glyph drawn inside the ligature ("offi ce"): MuPDF keeps space characters
 * the content draws, pdftotext ignores them and breaks words at gaps only; its letter-spaced running head is split
 * at other letters too ("S T A T E S" and "S TAT E S").
 */
const WORDS_PER_PAGE = 0.94;
const PAIRS_PER_DOCUMENT = 0.9;
const PAIRS_PER_PAGE = 0.7;
const ORDER_DIFFERS_PER_PAGE = 0.5;

const dir = corpusDir();
if (!dir) {
  console.log('# corpus pages suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus pages suite (no corpus found)');
} else {
  const pdfs = readManifest(dir).filter((e) => e.file.toLowerCase().endsWith('.pdf'));
  /** Documents with text, by what the manifest says of them; encrypted and malformed files are left to the other suites. */
  const textFiles = pdfs.filter((e) =>
    (e.features.includes('text-extraction') || e.features.includes('redaction-target') || /text doc|text layer|known text/.test(e.expectation)) &&
    !e.features.includes('malformed') && !e.features.includes('encryption'));
  const server = serverForSuite();
  const target = (e: CorpusEntry) => `/documents/corpus-pages/${e.file.split('/').map(encodeURIComponent).join('/')}`;
  const upload = async (e: CorpusEntry) => call(server, 'PUT', target(e), { body: readFileSync(e.absolute), headers: { 'content-type': 'application/pdf' } });

  describe(`GET .../pages answers a PageModel per page, as pdfinfo reads them (${pdfs.length} files; encrypted ones skipped, malformed ones may answer 422)`, () => {
    for (const entry of pdfs) {
      test(entry.file, async () => {
        const put = await upload(entry);
        if (put.status >= 300 || put.json().encrypted) return; // refused uploads and encryption: corpus/documents and corpus/permissions
        const reply = await call(server, 'GET', `${target(entry)}/pages`);
        const malformed = entry.features.includes('malformed');
        if (malformed && reply.status === 422) return; // a page tree MuPDF cannot load (a documented 422)
        assert.equal(reply.status, 200, reply.text);
        const pages = reply.json().pages as { rotation: number; mediaBox: Record<string, number>; cropBox: Record<string, number> }[];
        assert.equal(pages.length, put.json().pageCount, 'pageCount entries');
        if (malformed) return; // poppler repairs broken files its own way
        const info = pdfinfoPages(readFileSync(entry.absolute));
        assert.equal(pages.length, info.length, 'pdfinfo page count');
        const box = (r: Record<string, number>) => [r['x']!, r['y']!, r['x']! + r['width']!, r['y']! + r['height']!].map((v) => v.toFixed(2));
        for (const [i, page] of pages.entries()) {
          assert.equal(page.rotation, info[i]!.rotation, `page ${i} rotation`);
          assert.deepEqual(box(page.mediaBox), info[i]!.mediaBox.map((v) => v.toFixed(2)), `page ${i} media box`);
          assert.deepEqual(box(page.cropBox), info[i]!.cropBox.map((v) => v.toFixed(2)), `page ${i} crop box`);
        }
      });
    }
  });

  describe(`page text matches pdftotext: the same words in the same order (${textFiles.length} text files)`, () => {
    for (const entry of textFiles) {
      test(entry.file, async () => {
        assert.ok((await upload(entry)).status < 300);
        const reply = await call(server, 'GET', `${target(entry)}/text`, { headers: { accept: 'text/plain' } });
        assert.equal(reply.status, 200, reply.text);
        const ours = reply.text.split('\f');
        assert.equal(ours.pop(), '');
        const poppler = popplerPages(readFileSync(entry.absolute));
        assert.equal(ours.length, poppler.length, 'page count');
        if (/bidi/i.test(entry.expectation)) {
          // Right-to-left runs: pdftotext reorders them visually and breaks lines around them, MuPDF keeps
          // them as drawn, so words differ; the characters must be the same (mirrored brackets aside).
          const characters = (t: string) => [...t.replace(BIDI_CONTROLS, '').replace(/[\s()«»]/gu, '')].sort().join('');
          ours.forEach((text, i) => assert.equal(characters(text), characters(poppler[i]!), `page ${i} characters`));
          return;
        }
        const looseOrder = ORDER_DIFFERS[entry.file];
        for (const [i, text] of ours.entries()) {
          const a = comparable(text);
          const b = comparable(poppler[i]!);
          const shared = wordOverlap(a, b);
          assert.ok(shared >= WORDS_PER_PAGE, `page ${i}: ${shared.toFixed(3)} of the words shared`);
          if (looseOrder) {
            const order = sequenceSimilarity(a, b);
            assert.ok(order >= ORDER_DIFFERS_PER_PAGE, `page ${i}: order ${order.toFixed(3)} (${looseOrder})`);
          } else {
            const order = wordOverlap(pairs(a), pairs(b));
            assert.ok(order >= PAIRS_PER_PAGE, `page ${i}: ${order.toFixed(3)} of adjacent word pairs shared`);
          }
        }
        if (!looseOrder) {
          const all = ours.flatMap(comparable);
          const reference = poppler.flatMap(comparable);
          const order = wordOverlap(pairs(all), pairs(reference));
          assert.ok(order >= PAIRS_PER_DOCUMENT, `document: ${order.toFixed(3)} of adjacent word pairs shared`);
        }
      });
    }
  });

  describe('word boxes agree with pdftotext -bbox on the first pages of the text files', () => {
    for (const entry of textFiles.filter((e) => !/bidi/i.test(e.expectation))) {
      test(entry.file, async () => {
        await upload(entry);
        const pages = (await call(server, 'GET', `${target(entry)}/pages`)).json().pages as { cropBox: { x: number; y: number; width: number; height: number }; rotation: number }[];
        for (const pageIndex of [0, 1].filter((p) => p < pages.length)) {
          const ours = (await call(server, 'GET', `${target(entry)}/pages/${pageIndex}/text?detail=words`)).json().words as { text: string; rectangle: { x: number; y: number; width: number; height: number } }[];
          const theirs = popplerWords(readFileSync(entry.absolute), pageIndex, pages[pageIndex]!);
          // Words found once on the page by both pair up without guessing.
          const once = (list: { text: string }[]) => {
            const counts = new Map<string, number>();
            for (const w of list) counts.set(w.text, (counts.get(w.text) ?? 0) + 1);
            return (text: string) => counts.get(text) === 1;
          };
          const [inOurs, inTheirs] = [once(ours), once(theirs)];
          let compared = 0;
          for (const word of ours.filter((w) => inOurs(w.text) && inTheirs(w.text))) {
            const reference = theirs.find((w) => w.text === word.text)!;
            const r = word.rectangle;
            // Horizontally the same glyph advances; vertically poppler spans the font's declared ascent and descent, we the glyph
            // body (docs/pages.md), so the boxes must overlap by half the smaller height.
            assert.ok(Math.abs(r.x - reference.x) <= 1 && Math.abs(r.x + r.width - reference.x - reference.width) <= 1, `page ${pageIndex} "${word.text}" x: ${JSON.stringify(r)} vs ${JSON.stringify(reference)}`);
            const overlap = Math.min(r.y + r.height, reference.y + reference.height) - Math.max(r.y, reference.y);
            assert.ok(overlap >= 0.5 * Math.min(r.height, reference.height), `page ${pageIndex} "${word.text}" y: ${JSON.stringify(r)} vs ${JSON.stringify(reference)}`);
            compared++;
          }
          assert.ok(compared > 0 || theirs.length === 0, `page ${pageIndex}: words compared`);
        }
      });
    }
  });

  test('the server process survived the whole run', async () => {
    assert.equal(server.child.exitCode, null);
    assert.equal((await fetch(`${server.api}/health`)).status, 200);
  });
}
