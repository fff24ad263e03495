/**
 * OCRAction (issue 19) through the real service over HTTP, checked with tools
 * that are not the service: known-text pages rendered by poppler into
 * image-only PDFs, recognised through the API, and compared with what
 * pdftotext reads from the result (word recall, character error rate);
 * word boxes against the source's (pdftotext -bbox); page streams before and
 * after (qpdf); renders before and after (pdftoppm); signatures (pdfsig).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { call, expectUnchanged, jobEnded, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { imagePdf, jpegOf, pageStreams, photo, renderGray, skew, textPdfs, textScores, topRows, turnClockwise, turnCounterClockwise, type ImagePage } from '../helpers/ocr-fixtures.js';
import { makePdf, pdftotext, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { pdfinfoPages, popplerPages, popplerWords, type PopplerWord } from '../helpers/poppler-text.js';
import { serverForSuite } from '../helpers/server.js';
import { makeKeyStores, pdfsig, STORE_PASSWORD } from '../helpers/signing.js';

const server = serverForSuite();
const WAIT = { prefer: 'wait=300' };

const TEXTS = {
  eng: [
    'The quick brown fox jumps over the lazy dog near the river bank.',
    'Scanned documents become searchable when a text layer is added.',
    'Every page keeps its original image and content streams unchanged.',
    'Seven engineers measured recognition quality on clean pages today.',
    'Invoices, letters and contracts arrive by post every Monday morning.',
    'Please return the signed form before the end of next month.',
  ].join('\n'),
  deu: [
    'Größere Änderungen an der Übersetzung wurden später geprüft.',
    'Die Bürgermeisterin überreichte den Schülern ihre Zeugnisse.',
    'Fünf Hühner liefen über die Straße zur Mühle am Fluss.',
    'Müde Wanderer schätzen die Ruhe der grünen Täler sehr.',
    'Bitte öffnen Sie die Tür nur für angemeldete Gäste.',
  ].join('\n'),
  fra: [
    'Le garçon a reçu une lettre très élégante de sa tante préférée.',
    'Où êtes-vous allés pendant les fêtes de Noël cette année?',
    'La forêt était pleine de châtaigniers et de hêtres âgés.',
    'Nous avons déjà réservé une chambre à côté de la gare.',
    'Le théâtre présente une pièce célèbre dès la rentrée.',
  ].join('\n'),
  rus: [
    'Съешь же ещё этих мягких французских булок да выпей чаю.',
    'Широкая электрификация южных губерний даст мощный толчок.',
    'Документы становятся доступными для поиска после распознавания.',
    'Каждая страница сохраняет своё изображение без изменений.',
    'Инженеры измерили качество распознавания на чистых страницах.',
  ].join('\n'),
};
type Language = keyof typeof TEXTS;

/** A short letter (issue 35): lines of several words, for phrase search in the text layer. */
const LETTER = [
  'Dear Mrs Patterson,',
  '',
  'Thank you for your letter of the twelfth of March.',
  'We have checked the boundary of the garden plot',
  'and agree that the hedge belongs to the council.',
  'The annual rent stays the same for the coming year,',
  'and the invoice will follow by post next week.',
  '',
  'Yours sincerely,',
  'Margaret Holloway',
].join('\n');
/** Phrases of the letter, each within one of its lines, in reading order. */
const LETTER_PHRASES = ['Dear Mrs Patterson', 'Thank you for your letter', 'boundary of the garden plot', 'the hedge belongs to the council', 'annual rent stays the same', 'invoice will follow by post', 'Yours sincerely', 'Margaret Holloway'];

let sources: Record<Language | 'engSpaced' | 'letter', Buffer>;
before(() => {
  // The English text also with a blank line between lines (line spacing as in most letters), for the skewed page.
  sources = textPdfs({ ...TEXTS, engSpaced: TEXTS.eng.replace(/\n/g, '\n\n'), letter: LETTER });
});

function ocr(doc: string, params: Record<string, unknown> = {}, headers: Record<string, string> = WAIT): Promise<Reply> {
  return call(server, 'POST', `/documents/${doc}/pages`, { body: { OCRAction: params }, headers });
}

/**
 * putPdf, sent again once when the connection was found closed while the body was written (EPIPE/ECONNRESET). The
 * quality test before it runs ~15 s of synchronous tools (execFileSync) after its requests, with this process's event
 * loop blocked: the service closes the idle keep-alive connections meanwhile (10 s), the client has not yet seen it, and
 * reuses one. Measured here: reproducible in that order; not with the same idle time without the blocking. PUT is
 * idempotent.
 */
async function putOnce(target: typeof server, doc: string, bytes: Buffer): Promise<Reply> {
  try {
    return await putPdf(target, doc, bytes);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== 'EPIPE' && code !== 'ECONNRESET') throw err;
    console.log(`PUT ${doc}: ${code} on a reused connection, sent again`);
    return putPdf(target, doc, bytes);
  }
}

interface PageReport {
  pageIndex: number;
  status: 'recognised' | 'skipped' | 'failed';
  reason?: string;
  words?: number;
  confidence?: number;
  rotation?: number;
  dpi?: number;
}

/** The waited answer: 200 (or 201 with savePath), with the report. */
function reportOf(reply: Reply): { language: string; pages: PageReport[] } {
  assert.ok(reply.status === 200 || reply.status === 201, `${reply.status} ${reply.text}`);
  const report = reply.json().report;
  assert.ok(report && Array.isArray(report.pages), reply.text);
  return report;
}

/** pdftoppm's raw PPM of a page: the same bytes when the renders are pixel-identical. */
function renderBytes(pdf: Buffer, pageIndex: number, dpi = 100): Buffer {
  const page = String(pageIndex + 1);
  return withTempFile(pdf, (file) => execFileSync('pdftoppm', ['-r', String(dpi), '-f', page, '-l', page, file], { maxBuffer: 1 << 30 }));
}

/**
 * The page's own content streams and XObjects are there after OCR with the
 * same bytes (the layer may only add streams around them and its own
 * XObject; an uncompressed stream, as issue7229.pdf's, is not compressed on
 * the way), and poppler renders each page to the same pixels.
 */
function assertPagesUntouched(beforeBytes: Buffer, afterBytes: Buffer): void {
  const was = pageStreams(beforeBytes);
  const now = pageStreams(afterBytes);
  assert.equal(now.length, was.length);
  was.forEach((page, i) => {
    const after = now[i]!;
    // The original streams, in their order, as a run inside the new list (a q before, a Q and the layer after).
    const start = after.contents.indexOf(page.contents[0]!);
    assert.ok(start >= 0, `page ${i}: the first original content stream is still there, byte for byte`);
    assert.deepEqual(after.contents.slice(start, start + page.contents.length), page.contents, `page ${i}: the content streams have the same bytes`);
    for (const [name, xobject] of Object.entries(page.xobjects)) assert.deepEqual(after.xobjects[name], xobject, `page ${i}: XObject ${name} has the same dictionary and bytes`);
    assert.ok(renderBytes(afterBytes, i).equals(renderBytes(beforeBytes, i)), `page ${i}: pdftoppm renders it pixel-identical before and after`);
  });
}

/** A one-page image-only PDF of the English text at 200 dpi. */
const small = () => imagePdf([{ image: renderGray(sources.eng, 0, 200), dpi: 200 }]);

interface Case {
  name: string;
  language: Language;
  page: ImagePage;
  /** Floors, set from what was measured here with a margin (see the table in the test). */
  recall: number;
  cer: number;
}

describe('OCRAction: recognition quality against known text', () => {
  test('generated pages in four languages, 200 and 300 dpi, turned, skewed and JPEG-noisy: recall and CER of pdftotext of the result, printed; pages untouched', async (t) => {
    const gray = (language: Language | 'engSpaced', dpi: number) => renderGray(sources[language], 0, dpi);
    const eng300 = gray('eng', 300);
    // Measured here: every page below recall 1.000 and CER 0.000, except the single-spaced skewed page (recall 0.349, CER 0.70:
    // Tesseract's own layout analysis loses lines of 10 pt text set solid when they are turned by 2 degrees; the tesseract
    // command line gives the same on that image). Floors leave a margin for another Tesseract build.
    const cases: Case[] = [
      { name: 'eng 300 dpi', language: 'eng', page: { image: eng300, dpi: 300 }, recall: 0.95, cer: 0.05 },
      { name: 'eng 200 dpi', language: 'eng', page: { image: gray('eng', 200), dpi: 200 }, recall: 0.9, cer: 0.08 },
      { name: 'deu 300 dpi', language: 'deu', page: { image: gray('deu', 300), dpi: 300 }, recall: 0.95, cer: 0.05 },
      { name: 'fra 300 dpi', language: 'fra', page: { image: gray('fra', 300), dpi: 300 }, recall: 0.95, cer: 0.05 },
      { name: 'rus 300 dpi', language: 'rus', page: { image: gray('rus', 300), dpi: 300 }, recall: 0.95, cer: 0.05 },
      { name: 'rus 200 dpi', language: 'rus', page: { image: gray('rus', 200), dpi: 200 }, recall: 0.9, cer: 0.08 },
      { name: 'eng 300 dpi turned 90', language: 'eng', page: { image: turnClockwise(eng300), dpi: 300 }, recall: 0.9, cer: 0.1 },
      { name: 'eng 300 dpi skewed 2', language: 'eng', page: { image: skew(gray('engSpaced', 300), 2), dpi: 300 }, recall: 0.9, cer: 0.1 },
      { name: 'eng 300 skewed 2, solid', language: 'eng', page: { image: skew(eng300, 2), dpi: 300 }, recall: 0.2, cer: 0.85 },
      { name: 'deu 300 dpi JPEG q8', language: 'deu', page: { image: { jpeg: jpegOf(gray('deu', 300), 8) }, dpi: 300 }, recall: 0.8, cer: 0.15 },
    ];
    const docs = cases.map((c, i) => ({ ...c, doc: `truth/${i}.pdf`, pdf: imagePdf([c.page]) }));
    for (const d of docs) {
      assert.equal((await putPdf(server, d.doc, d.pdf)).status, 201);
      assert.equal(pdftotext(d.pdf).trim(), '', `${d.name}: image only, no text before OCR`);
    }
    // All at once: the service runs their pages in parallel, one Tesseract per core.
    const replies = await Promise.all(docs.map((d) => ocr(d.doc, { language: d.language, dpi: d.page.dpi })));
    const rows: string[] = [];
    const checks: (() => void)[] = [];
    for (const [i, d] of docs.entries()) {
      const report = reportOf(replies[i]!);
      const page = report.pages[0]!;
      const after = await storedBytes(server, d.doc);
      // pdftotext -layout, as the issue measures the layer (words on their lines); the reading-order CER (plain pdftotext)
      // is printed too, not asserted: it falls where poppler takes words of a skewed or noisy line for separate blocks.
      const scores = textScores(TEXTS[d.language], pdftotext(after));
      const readingOrder = textScores(TEXTS[d.language], popplerPages(after).join('\n'));
      rows.push(`${d.name.padEnd(24)} ${scores.recall.toFixed(3).padStart(6)} ${scores.cer.toFixed(3).padStart(6)} ${readingOrder.cer.toFixed(3).padStart(11)}  ${String(page.words).padStart(5)} ${String(page.confidence).padStart(5)} ${String(page.rotation).padStart(4)}`);
      checks.push(() => {
        assert.equal(page.status, 'recognised', JSON.stringify(page));
        assert.ok(scores.recall >= d.recall, `${d.name}: word recall ${scores.recall} >= ${d.recall}`);
        assert.ok(scores.cer <= d.cer, `${d.name}: CER ${scores.cer} <= ${d.cer}`);
        assert.equal(page.dpi, d.page.dpi);
        if (!d.name.includes('turned')) assert.equal(page.rotation, 0);
        assert.ok(qpdfCheck(after).ok, qpdfCheck(after).output);
        assertPagesUntouched(d.pdf, after);
      });
    }
    const table = ['document                 recall    CER  CER(order)  words  conf  rot', ...rows].join('\n');
    console.log(table);
    for (const line of table.split('\n')) t.diagnostic(line);
    for (const check of checks) check();
  });
});

describe('OCRAction: scans we did not make', () => {
  test('the corpus scan issue7229.pdf (image-only, Russian) becomes searchable in Cyrillic; tracemonkey page 1 rendered to an image comes back with its words', async (t) => {
    const scan = readFileSync('/work/shared/corpus/pdfjs/ocr/issue7229.pdf');
    const cyrillicWords = (text: string): string[] => text.match(/[\p{Script=Cyrillic}]{4,}/gu) ?? [];
    assert.deepEqual(cyrillicWords(pdftotext(scan)), [], 'no Cyrillic text before OCR');
    assert.equal((await putOnce(server, 'corpus/issue7229.pdf', scan)).status, 201);

    const trace = readFileSync('/work/shared/corpus/pdfjs/text-extraction/tracemonkey.pdf');
    const traceImage = imagePdf([{ image: renderGray(trace, 0, 200), dpi: 200 }]);
    assert.equal((await putPdf(server, 'corpus/tracemonkey-p1.pdf', traceImage)).status, 201);

    const [rus, eng] = await Promise.all([ocr('corpus/issue7229.pdf', { language: 'rus' }), ocr('corpus/tracemonkey-p1.pdf', { dpi: 200 })]);
    const rusReport = reportOf(rus);
    assert.deepEqual(rusReport.pages.map((p) => p.status), ['recognised', 'recognised'], JSON.stringify(rusReport));
    const after = await storedBytes(server, 'corpus/issue7229.pdf');
    const found = cyrillicWords(pdftotext(after));
    t.diagnostic(`issue7229.pdf: ${found.length} Cyrillic words of 4+ letters after OCR, e.g. ${found.slice(0, 8).join(' ')}`);
    console.log(`issue7229.pdf: ${found.length} Cyrillic words of 4+ letters after OCR, e.g. ${found.slice(0, 8).join(' ')}`);
    // Measured here: 724 such words over the two pages; the form's title words among them.
    assert.ok(found.length >= 200, `Cyrillic words found: ${found.join(' ')}`);
    for (const word of ['Диагностическая', 'карта', 'Регистрационный']) assert.ok(found.includes(word), `"${word}" is found`);
    assertPagesUntouched(scan, after);

    assert.equal(reportOf(eng).pages[0]!.status, 'recognised');
    // pdftotext in reading order (not -layout) for both: the page has two columns.
    const scores = textScores(popplerPages(trace)[0]!, popplerPages(await storedBytes(server, 'corpus/tracemonkey-p1.pdf'))[0]!);
    const line = `tracemonkey.pdf p1 at 200 dpi: word recall ${scores.recall.toFixed(3)}, CER ${scores.cer.toFixed(3)} (${scores.words} words)`;
    t.diagnostic(line);
    console.log(line);
    // Measured here: recall 0.995, CER 0.007; floors with a margin.
    assert.ok(scores.recall >= 0.95, line);
    assert.ok(scores.cer <= 0.05, line);
  });
});

describe('OCRAction: the words lie where the image shows them', () => {
  test('word boxes of the result (pdftotext -bbox) match the source text PDF within 3 pt (left edge, vertical centre): plain, /Rotate 90, CropBox, MediaBox off the origin', async (t) => {
    const image = renderGray(sources.eng, 0, 300);
    const [w, h] = [(image.width * 72) / 300, (image.height * 72) / 300];
    const origin: [number, number] = [100, 200];
    const pages: (ImagePage & { label: string })[] = [
      { label: 'plain', image, dpi: 300 },
      { label: '/Rotate 90', image, dpi: 300, rotate: 90 },
      { label: 'CropBox', image, dpi: 300, cropInset: [30, 40, w - 20, h - 50] },
      { label: 'MediaBox at 100,200', image, dpi: 300, origin },
    ];
    const pdf = imagePdf(pages);
    assert.equal((await putPdf(server, 'align/pages.pdf', pdf)).status, 201);
    const report = reportOf(await ocr('align/pages.pdf'));
    assert.deepEqual(report.pages.map((p) => p.status), ['recognised', 'recognised', 'recognised', 'recognised'], JSON.stringify(report));
    const after = await storedBytes(server, 'align/pages.pdf');
    assertPagesUntouched(pdf, after);

    const geometry = (bytes: Buffer, i: number) => {
      const page = pdfinfoPages(bytes)[i]!;
      const [x0, y0, x1, y1] = page.cropBox as [number, number, number, number];
      return { cropBox: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, rotation: page.rotation };
    };
    const known = popplerWords(sources.eng, 0, geometry(sources.eng, 0));
    // Words that occur once on the page (so that each is matched with itself), keyed by their text.
    const unique = new Map<string, PopplerWord>();
    const seen = new Map<string, number>();
    for (const word of known) seen.set(word.text, (seen.get(word.text) ?? 0) + 1);
    for (const word of known) if (seen.get(word.text) === 1) unique.set(word.text, word);
    pages.forEach((page, i) => {
      const [dx, dy] = page.origin ?? [0, 0];
      const found = popplerWords(after, i, geometry(after, i));
      let matched = 0;
      let worst = 0;
      for (const word of found) {
        const source = unique.get(word.text);
        if (!source) continue;
        matched++;
        // Left edges and vertical centres: Tesseract's box is the ink's, the source's the font's advance (wider at the right
        // after a period) and line height; the ink starts within a point of the advance box.
        const ex = Math.abs(word.x - (source.x + dx));
        const ey = Math.abs(word.y + word.height / 2 - (source.y + source.height / 2 + dy));
        worst = Math.max(worst, ex, ey);
        assert.ok(ex <= 3 && ey <= 3, `${page.label}: "${word.text}" at ${word.x.toFixed(1)},${word.y.toFixed(1)} ${word.width.toFixed(1)}x${word.height.toFixed(1)}; source at ${(source.x + dx).toFixed(1)},${(source.y + dy).toFixed(1)} ${source.width.toFixed(1)}x${source.height.toFixed(1)}`);
      }
      t.diagnostic(`${page.label}: ${matched} of ${unique.size} words matched, largest centre offset ${worst.toFixed(2)} pt`);
      assert.ok(matched >= unique.size * 0.9, `${page.label}: ${matched} of ${unique.size} words found at their place`);
    });
  });
});

describe('OCRAction: behaviour', () => {

  test('a page with text of its own is skipped and left as it was; skipPagesWithText false recognises it', async () => {
    const doc = 'behave/text.pdf';
    const pdf = makePdf({ text: () => 'Already searchable text' });
    await putPdf(server, doc, pdf);
    const report = reportOf(await ocr(doc));
    assert.equal(report.pages[0]!.status, 'skipped');
    assert.match(report.pages[0]!.reason ?? '', /text of its own/);
    const after = await storedBytes(server, doc);
    assert.deepEqual(pageStreams(after), pageStreams(pdf), 'the page is as it was');
    assert.equal(pdftotext(after).trim(), 'Already searchable text');
    const forced = reportOf(await ocr(doc, { skipPagesWithText: false }));
    assert.equal(forced.pages[0]!.status, 'recognised');
  });

  test('force replaces the earlier layer: a word is found once after OCR twice; without force the second OCR skips the page', async () => {
    const doc = 'behave/force.pdf';
    await putPdf(server, doc, small());
    assert.equal(reportOf(await ocr(doc)).pages[0]!.status, 'recognised');
    const once = await storedBytes(server, doc);
    const again = reportOf(await ocr(doc));
    assert.equal(again.pages[0]!.status, 'skipped');
    assert.match(again.pages[0]!.reason ?? '', /earlier OCRAction/);
    assert.equal(sha256(await storedBytes(server, doc)), sha256(once), 'a skipped page leaves the document byte for byte as it was');
    const forced = reportOf(await ocr(doc, { force: true }));
    assert.equal(forced.pages[0]!.status, 'recognised');
    const twice = await storedBytes(server, doc);
    const text = pdftotext(twice);
    assert.equal(text.match(/\bquick\b/g)?.length, 1, text);
    assert.equal(text.match(/\bMonday\b/g)?.length, 1, text);
    assert.equal(pageStreams(twice)[0]!.contents.length, pageStreams(once)[0]!.contents.length, 'the layer is drawn once');
    assert.deepEqual(Object.keys(pageStreams(twice)[0]!.xobjects).sort(), ['/Im0', '/PDFServiceOCR']);
    assertPagesUntouched(small(), twice);
    assert.ok(qpdfCheck(twice).ok);
  });

  test('a blank page (no image) is reported no-text with 0 words and a reason; the document stays valid', async () => {
    const doc = 'behave/blank.pdf';
    const pdf = imagePdf([{}, { image: renderGray(sources.eng, 0, 200), dpi: 200 }]);
    await putPdf(server, doc, pdf);
    const reply = await ocr(doc);
    const report = reportOf(reply);
    assert.deepEqual(report.pages[0], { pageIndex: 0, status: 'no-text', words: 0, confidence: 0, rotation: 0, dpi: 300, reason: 'no text was found on the page' });
    assert.equal(report.pages[1]!.status, 'recognised');
    const after = await storedBytes(server, doc);
    assert.ok(qpdfCheck(after).ok);
    assertPagesUntouched(pdf, after);
  });

  test('autoRotate: a page scanned sideways gets the /Rotate that shows it upright, its words found, its content unchanged', async () => {
    const doc = 'behave/sideways.pdf';
    const pdf = imagePdf([{ image: turnClockwise(renderGray(sources.eng, 0, 200)), dpi: 200 }]);
    await putPdf(server, doc, pdf);
    const page = reportOf(await ocr(doc, { autoRotate: true })).pages[0]!;
    assert.equal(page.status, 'recognised');
    // The image was turned 90 degrees clockwise: 270 more turn it upright.
    assert.equal(page.rotation, 270, JSON.stringify(page));
    const after = await storedBytes(server, doc);
    assert.equal(pdfinfoPages(after)[0]!.rotation, 270);
    assert.ok(textScores(TEXTS.eng, popplerPages(after)[0]!).recall >= 0.95);
    const was = pageStreams(pdf, true)[0]!;
    const now = pageStreams(after, true)[0]!;
    assert.ok(now.contents.includes(was.contents[0]!), 'the content stream is there');
    assert.equal(now.xobjects['/Im0']!.data, was.xobjects['/Im0']!.data, 'the image is unchanged');
  });

  test('bad input: 400 with a clear code, the document byte-identical', async () => {
    const doc = 'behave/bad.pdf';
    await putPdf(server, doc, small());
    const unchanged = (params: Record<string, unknown>, code: string) => expectUnchanged(server, doc, () => ocr(doc, params), 400, code);
    const unknown = await unchanged({ language: 'klingon' }, 'UNKNOWN_LANGUAGE');
    for (const code of ['eng', 'deu', 'fra', 'spa', 'ita', 'por', 'rus']) assert.match(unknown.json().detail, new RegExp(`\\b${code}\\b`), unknown.text);
    assert.doesNotMatch(unknown.json().detail, /\bosd\b/, 'osd is not a recognition language');
    await unchanged({ language: 'eng+xyz' }, 'UNKNOWN_LANGUAGE');
    await unchanged({ dpi: 50 }, 'VALIDATION_FAILED');
    await unchanged({ dpi: 700 }, 'VALIDATION_FAILED');
    await unchanged({ pageIndex: 1 }, 'PAGE_OUT_OF_RANGE');
    await unchanged({ pageIndex: 0, pageRange: '1' }, 'VALIDATION_FAILED');
    // Without Prefer too: refused at once, no job.
    await expectUnchanged(server, doc, () => ocr(doc, { language: 'klingon' }, {}), 400, 'UNKNOWN_LANGUAGE');
  });

  test('without Prefer: 202 and a job whose events count pages up to done == total', async () => {
    const doc = 'behave/job.pdf';
    await putPdf(server, doc, imagePdf([{ image: renderGray(sources.eng, 0, 200), dpi: 200 }, { image: renderGray(sources.deu, 0, 200), dpi: 200 }]));
    const reply = await ocr(doc, { language: 'eng+deu', dpi: 200 }, {});
    assert.equal(reply.status, 202, reply.text);
    const { id } = reply.json();
    const stream = await fetch(`${server.api}/jobs/${id}/events`, { headers: { authorization: server.adminAuth } });
    const events = (await stream.text()).split('\n\n').filter((e) => e.includes('data: ')).map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as Record<string, any>);
    const last = events.at(-1)!;
    assert.equal(last.state, 'succeeded', JSON.stringify(last));
    assert.equal(last.progress.unit, 'pages');
    assert.equal(last.progress.total, 2);
    assert.equal(last.progress.done, last.progress.total);
    for (let i = 1; i < events.length; i++) assert.ok(events[i]!.progress.done >= events[i - 1]!.progress.done, 'progress never goes back');
    const job = await jobEnded(server, id);
    assert.deepEqual(job.result.document.report.pages.map((p: PageReport) => p.status), ['recognised', 'recognised'], JSON.stringify(job.result));
    const text = pdftotext(await storedBytes(server, doc));
    assert.match(text, /quick\s+brown\s+fox/);
    assert.match(text, /Bürgermeisterin/);
  });
});

describe('OCRAction: signed documents', () => {
  test('a signed scan gets its layer in an incremental update; pdfsig on the signed revision', async (t) => {
    const keys = makeKeyStores();
    const doc = 'signed/scan.pdf';
    await putPdf(server, doc, small());
    const field = await call(server, 'PUT', `/documents/${doc}/fields/signature-fields/approval`, { body: { widget: [] }, headers: { accept: 'application/json' } });
    assert.equal(field.status, 201, field.text);
    const form = new FormData();
    form.append('signature', new Blob([JSON.stringify({ keystorePassword: STORE_PASSWORD })], { type: 'application/json' }), 'signature.json');
    form.append('file', new Blob([new Uint8Array(keys.aes)], { type: 'application/x-pkcs12' }), 'signer.p12');
    const signed = await call(server, 'POST', `/documents/${doc}/fields/signature-fields/approval/signature`, { body: form, headers: { accept: 'application/json' } });
    assert.equal(signed.status, 200, signed.text);
    const before = await storedBytes(server, doc);
    const sigBefore = pdfsig(before).filter((s) => s.validation !== undefined);
    assert.equal(sigBefore.length, 1);
    assert.equal(sigBefore[0]!.validation, 'Signature is Valid.');
    assert.equal(sigBefore[0]!.total, true);

    const report = reportOf(await ocr(doc));
    assert.equal(report.pages[0]!.status, 'recognised');
    const after = await storedBytes(server, doc);
    assert.ok(after.length > before.length && after.subarray(0, before.length).equals(before), 'an incremental update: the signed bytes are a prefix');
    assert.match(pdftotext(after), /quick\s+brown\s+fox/);
    const sigAfter = pdfsig(after).filter((s) => s.validation !== undefined);
    t.diagnostic(`pdfsig after OCR: ${JSON.stringify(sigAfter)}`);
    assert.equal(sigAfter.length, 1);
    // The signature covers the signed revision, and pdfsig says so: valid, but no longer the whole file.
    assert.equal(sigAfter[0]!.validation, 'Signature is Valid.');
    assert.equal(sigAfter[0]!.total, false);
    assert.equal(sigAfter[0]!.ranges, sigBefore[0]!.ranges, 'the signed byte ranges are those of the signed revision');
    assert.ok(qpdfCheck(after).ok, qpdfCheck(after).output);
  });
});

/** The letter at 150 dpi, its top 600 rows (4 inches: the letter and a margin), as a scanner gives it. */
const letterScan = () => topRows(renderGray(sources.letter, 0, 150), 600);

/** The phrases of `phrases` that `text` holds with one space between their words, in the order given, each after the one before. */
function phrasesInOrder(text: string, phrases: string[]): string[] {
  const found: string[] = [];
  let at = 0;
  for (const phrase of phrases) {
    const i = text.indexOf(phrase, at);
    if (i < 0) continue;
    found.push(phrase);
    at = i + phrase.length;
  }
  return found;
}

describe('OCRAction: orientation and confidence (issue 35)', () => {
  test('pages scanned sideways, either way, are recognised upright without autoRotate: words found by pdftotext, rotation 90 and 270 reported, /Rotate unchanged', async () => {
    const doc = 'issue35/sideways.pdf';
    // Turned counter-clockwise, Tesseract alone reads it as junk (the "16 words at confidence 30"); turned clockwise,
    // it reads the vertical lines by itself.
    const pdf = imagePdf([{ image: turnCounterClockwise(letterScan()), dpi: 150 }, { image: turnClockwise(letterScan()), dpi: 150 }]);
    await putPdf(server, doc, pdf);
    const report = reportOf(await ocr(doc, { dpi: 150 }));
    const after = await storedBytes(server, doc);
    const texts = popplerPages(after);
    // docs/ocr.md: rotation is how far the image was turned clockwise to be read upright.
    for (const [i, rotation] of [90, 270].entries()) {
      const page = report.pages[i]!;
      assert.equal(page.status, 'recognised', JSON.stringify(page));
      assert.equal(page.rotation, rotation, JSON.stringify(page));
      assert.ok(page.confidence! >= 80, JSON.stringify(page));
      const scores = textScores(LETTER, texts[i]!);
      assert.ok(scores.recall >= 0.9, `page ${i}: recall ${scores.recall}: ${texts[i]}`);
      assert.equal(pdfinfoPages(after)[i]!.rotation, 0, 'without autoRotate the display is not turned');
    }
    assertPagesUntouched(pdf, after);
  });

  test('a photo (no text) gets no words in the text layer: reported no-text with the reason; the page untouched', async () => {
    const doc = 'issue35/photo.pdf';
    const pdf = imagePdf([{ image: photo(800, 600), dpi: 150 }]);
    await putPdf(server, doc, pdf);
    const page = reportOf(await ocr(doc, { dpi: 150 })).pages[0]!;
    assert.equal(page.status, 'no-text', JSON.stringify(page));
    assert.equal(page.words, 0, JSON.stringify(page));
    assert.match(page.reason ?? '', /confidence/, JSON.stringify(page));
    const after = await storedBytes(server, doc);
    assert.equal(pdftotext(after).trim(), '', 'no words in the text layer');
    assert.deepEqual(Object.keys(pageStreams(after)[0]!.xobjects), ['/Im0'], 'no layer is added');
    assertPagesUntouched(pdf, after);
  });
});

describe('OCRAction: the text layer reads in lines (issue 35)', () => {
  test('an OCR\'d letter: pdftotext without -layout finds its phrases in order, and the service\'s search (MuPDF) finds a two-word phrase', async () => {
    const doc = 'issue35/letter.pdf';
    await putPdf(server, doc, imagePdf([{ image: letterScan(), dpi: 150 }]));
    assert.equal(reportOf(await ocr(doc, { dpi: 150 })).pages[0]!.status, 'recognised');
    const after = await storedBytes(server, doc);
    const text = popplerPages(after)[0]!;
    assert.deepEqual(phrasesInOrder(text, LETTER_PHRASES), LETTER_PHRASES, `pdftotext (reading order): ${text}`);
    const marked = await call(server, 'POST', `/documents/${doc}/annotations/redaction`, { body: { searchText: 'garden plot' } });
    assert.equal(marked.status, 200, marked.text);
    assert.equal(marked.json().count, 1, marked.text);
    assert.equal(marked.json().matches[0].text, 'garden plot', marked.text);
  });
});
