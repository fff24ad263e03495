import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { pdftotext, qpdfCheck, renderPage, serializePdf } from '../helpers/pdf.js';
import { qpdfAnnotations } from '../helpers/qpdf-json.js';
import { normaliseText, pdfWords, REDACTION_KINDS, redactionFixture } from '../helpers/redaction-fixtures.js';
import { serverForSuite } from '../helpers/server.js';

// A 2 s regular-expression budget (PDFSERVICE_REGEX_BUDGET_MS, 5 s by default): the catastrophic-backtracking test waits it out.
const server = serverForSuite({ env: { PDFSERVICE_REGEX_BUDGET_MS: '2000' } });

/** Pages of Helvetica text, one string per line, set `size` on `leading`. */
function textPdf(pages: string[][], options: { size?: number; leading?: number; info?: string } = {}): Buffer {
  const size = options.size ?? 12;
  const leading = options.leading ?? size * 1.25;
  const objects: string[] = ['', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'];
  const kids: number[] = [];
  for (const lines of pages) {
    const body = lines.map((l) => `(${l.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj`).join(' T* ');
    const content = `BT /F1 ${size} Tf ${leading} TL 40 760 Td ${body} ET`;
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length} 0 R >>`);
    kids.push(objects.length);
  }
  objects[0] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let trailer = '/Root 1 0 R';
  if (options.info) {
    objects.push(`<< /Title (${options.info}) /Subject (About ${options.info}) >>`);
    trailer += ` /Info ${objects.length} 0 R`;
  }
  return serializePdf(objects, trailer);
}

const redact = (p: string, body: object) => call(server, 'POST', `/documents/${p}/annotations/redaction`, { body });
const apply = (p: string, params: object = {}) => call(server, 'POST', `/documents/${p}`, { body: { ApplyRedactionsAction: params } });
const redactAnnotations = async (p: string) => (await call(server, 'GET', `/documents/${p}/annotations?subtype=Redact`)).json().annotations as { name: string; pageIndex: number; quadPoints?: number[]; interiorColor?: string }[];
const words = (text: string) => text.replace(/\s+/g, ' ');

describe('creating redactions (A7)', () => {
  test('one Redact annotation per match on every page, case-insensitive by default; the model lists them', async () => {
    const pdf = textPdf([
      ['Public before Confidential after', 'nothing here'],
      ['CONFIDENTIAL again and confidential twice'],
      ['no match on this page'],
    ]);
    await putPdf(server, 'red/basic.pdf', pdf);
    const reply = await redact('red/basic.pdf', { searchText: 'confidential', author: 'Legal', contents: 'Privacy', fillColor: '#102030' });
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json();
    assert.equal(model.count, 3);
    assert.equal(model.searchText, 'confidential');
    assert.equal(model.caseSensitive, false);
    assert.deepEqual(model.matches.map((m: { pageIndex: number; text: string }) => [m.pageIndex, m.text]), [[0, 'Confidential'], [1, 'CONFIDENTIAL'], [1, 'confidential']]);
    const listed = await redactAnnotations('red/basic.pdf');
    assert.deepEqual(listed.map((a) => a.name).sort(), [...model.annotationNames].sort());
    const first = listed.find((a) => a.name === model.annotationNames[0])!;
    assert.equal(first.interiorColor?.toUpperCase(), '#102030');
    // One quad (8 numbers) in PDF user space around the word on the first line (baseline y = 760).
    assert.equal(first.quadPoints?.length, 8);
    const ys = [first.quadPoints![1]!, first.quadPoints![5]!];
    assert.ok(Math.max(...ys) > 760 && Math.min(...ys) < 762, `quad ${first.quadPoints}`);
    assert.ok(qpdfCheck(await storedBytes(server, 'red/basic.pdf')).ok);

    const sensitive = await redact('red/basic.pdf', { searchText: 'CONFIDENTIAL', caseSensitive: true, pageIndex: 1 });
    assert.equal(sensitive.json().count, 1);
  });

  test('whole words, regular expressions, and a match across two lines is one annotation with two quads', async () => {
    await putPdf(server, 'red/options.pdf', textPdf([['secret secretary Secret-7 top secret', 'project name is secret'], ['ID 4711-0815 and 1234-5678']]));
    assert.equal((await redact('red/options.pdf', { searchText: 'secret', wholeWord: true })).json().count, 4);
    const regex = (await redact('red/options.pdf', { searchText: '\\d{4}-\\d{4}', regex: true })).json();
    assert.deepEqual(regex.matches.map((m: { text: string }) => m.text), ['4711-0815', '1234-5678']);
    const spanning = (await redact('red/options.pdf', { searchText: 'top secret project' })).json();
    assert.equal(spanning.count, 1);
    const annotation = (await redactAnnotations('red/options.pdf')).find((a) => a.name === spanning.annotationNames[0])!;
    assert.equal(annotation.quadPoints?.length, 16, 'two quads, one per line');
  });

  test('no cap on matches: 700 on one page (MuPDF\'s own search stops at 500)', async () => {
    const line = Array.from({ length: 14 }, () => 'xq').join(' ');
    await putPdf(server, 'red/many.pdf', textPdf([Array.from({ length: 50 }, () => line)], { size: 6, leading: 7 }));
    const reply = await redact('red/many.pdf', { searchText: 'xq' });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json().count, 700);
    assert.equal((await redactAnnotations('red/many.pdf')).length, 700);
  });

  test('XML in, XML out', async () => {
    await putPdf(server, 'red/xml.pdf', textPdf([['an XML secret here']]));
    const reply = await call(server, 'POST', '/documents/red/xml.pdf/annotations/redaction', {
      body: Buffer.from('<Redaction><searchText>secret</searchText><wholeWord>true</wholeWord><overlayText>[gone]</overlayText></Redaction>'),
      headers: { 'content-type': 'application/xml', accept: 'application/xml' },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.text, /<Redaction>[\s\S]*<count>1<\/count>[\s\S]*<annotationNames>\s*<name>redaction-1<\/name>/);
  });

  test('bad input: 4xx in the error shape and the stored document unchanged', async () => {
    await putPdf(server, 'red/bad.pdf', textPdf([['text']]));
    const before = sha256(await storedBytes(server, 'red/bad.pdf'));
    const cases: [object, number, string][] = [
      [{ searchText: '' }, 400, 'VALIDATION_FAILED'],
      [{ searchText: '   ' }, 400, 'INVALID_SEARCH'],
      [{ searchText: '([a-z', regex: true }, 400, 'INVALID_SEARCH'],
      [{ searchText: 'text', pageIndex: 5 }, 400, 'PAGE_OUT_OF_RANGE'],
      [{ searchText: 'text', fillColor: 'black' }, 400, 'VALIDATION_FAILED'],
      [{ searchText: 'text', unknown: 1 }, 400, 'VALIDATION_FAILED'],
      [{}, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of cases) {
      const reply = await redact('red/bad.pdf', body);
      assert.equal(reply.status, status, `${JSON.stringify(body)}: ${reply.text}`);
      assert.equal(reply.json().code, code, JSON.stringify(body));
    }
    const wrongRoot = await call(server, 'POST', '/documents/red/bad.pdf/annotations/redaction', { body: Buffer.from('<Other><searchText>x</searchText></Other>'), headers: { 'content-type': 'application/xml' } });
    assert.equal(wrongRoot.status, 400);
    const entity = await call(server, 'POST', '/documents/red/bad.pdf/annotations/redaction', { body: Buffer.from('<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><Redaction><searchText>&x;</searchText></Redaction>'), headers: { 'content-type': 'application/xml' } });
    assert.equal(entity.status, 400);
    assert.equal((await call(server, 'POST', '/documents/red/bad.pdf/annotations/redaction', { body: Buffer.from('searchText=x'), headers: { 'content-type': 'text/plain' } })).status, 415);
    assert.equal((await redact('red/missing.pdf', { searchText: 'x' })).status, 404);
    const noMatch = await redact('red/bad.pdf', { searchText: 'absent' });
    assert.equal(noMatch.json().count, 0);
    assert.equal(sha256(await storedBytes(server, 'red/bad.pdf')), before);
  });

  test('a regular expression with catastrophic backtracking: 400 INVALID_SEARCH after its time budget, not a worker held to the task timeout (found by the robustness suite)', async () => {
    await putPdf(server, 'red/redos.pdf', textPdf([['a'.repeat(40), 'Jane Doe']]));
    const before = sha256(await storedBytes(server, 'red/redos.pdf'));
    const started = Date.now();
    const reply = await redact('red/redos.pdf', { searchText: '(a+)+b', regex: true });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.json().code, 'INVALID_SEARCH');
    assert.match(reply.json().detail, /takes longer than 2 s/);
    assert.ok(Date.now() - started < 15_000, `answered after ${Date.now() - started} ms`);
    assert.equal(sha256(await storedBytes(server, 'red/redos.pdf')), before);
    // The next regular expression runs in a new helper thread and finds what it should.
    const fine = await redact('red/redos.pdf', { searchText: 'J[a-z]+ D[a-z]+', regex: true });
    assert.equal(fine.status, 200, fine.text);
    assert.equal(fine.json().count, 1);
  });
});

describe('applying redactions (ApplyRedactionsAction)', () => {
  test('the text under the boxes is gone for pdftotext, the rest stays where it was, qpdf passes, the Redact annotations are removed', async () => {
    const pdf = textPdf([['Public before SECRET-4711 after', 'line two stays', 'SECRET-4711 at the start'], ['page two SECRET-4711']], { leading: 14 });
    await putPdf(server, 'red/apply.pdf', pdf);
    const before = words(pdftotext(pdf));
    const created = await redact('red/apply.pdf', { searchText: 'SECRET-4711', overlayText: 'X' });
    assert.equal(created.json().count, 3, created.text);
    const reply = await apply('red/apply.pdf');
    assert.equal(reply.status, 200, reply.text);
    const report = reply.json().report;
    assert.ok(report, reply.text);
    assert.equal(report.applied.length, 3);
    assert.deepEqual(report.pages, [0, 1]);
    const bytes = await storedBytes(server, 'red/apply.pdf');
    const text = words(pdftotext(bytes));
    assert.doesNotMatch(text, /SECRET|4711/);
    for (const kept of ['Public before', 'after', 'line two stays', 'at the start', 'page two']) assert.ok(text.includes(kept), `${kept} in ${text}`);
    assert.ok(before.includes('SECRET-4711'));
    assert.ok(qpdfCheck(bytes).ok);
    assert.equal((await redactAnnotations('red/apply.pdf')).length, 0);
    // The raw bytes do not hold the secret either (no earlier revision kept).
    assert.equal(bytes.includes(Buffer.from('4711')), false);
  });

  test('only the named redactions, or one page\'s; the others stay as annotations', async () => {
    await putPdf(server, 'red/partial.pdf', textPdf([['alpha KEY1 beta'], ['gamma KEY2 delta']]));
    const created = (await redact('red/partial.pdf', { searchText: 'KEY\\d', regex: true })).json();
    const reply = await apply('red/partial.pdf', { names: [created.annotationNames[1]] });
    assert.equal(reply.status, 200, reply.text);
    const text = words(pdftotext(await storedBytes(server, 'red/partial.pdf')));
    assert.ok(text.includes('KEY1'));
    assert.ok(!text.includes('KEY2'));
    assert.deepEqual((await redactAnnotations('red/partial.pdf')).map((a) => a.name), [created.annotationNames[0]]);
    assert.equal((await apply('red/partial.pdf', { pageIndex: 0 })).status, 200);
    assert.ok(!words(pdftotext(await storedBytes(server, 'red/partial.pdf'))).includes('KEY1'));
  });

  test('reports the redacted text found in document information, and scrubElsewhere removes it; savePath leaves the source alone', async () => {
    const pdf = textPdf([['Project Bluebird is on track']], { info: 'Bluebird plan' });
    await putPdf(server, 'red/meta.pdf', pdf);
    await redact('red/meta.pdf', { searchText: 'Bluebird' });
    const source = await storedBytes(server, 'red/meta.pdf');
    const reported = await apply('red/meta.pdf', { savePath: 'red/meta-out.pdf' });
    assert.equal(reported.status, 201, reported.text);
    assert.deepEqual(reported.json().report.elsewhere.map((h: { where: string; detail: string }) => `${h.where}:${h.detail}`).sort(), ['info:Subject', 'info:Title']);
    assert.equal(sha256(await storedBytes(server, 'red/meta.pdf')), sha256(source));
    const scrubbed = await apply('red/meta.pdf', { savePath: 'red/meta-clean.pdf', scrubElsewhere: true });
    assert.equal(scrubbed.status, 201, scrubbed.text);
    assert.equal(scrubbed.json().report.scrubbed, true);
    const clean = await storedBytes(server, 'red/meta-clean.pdf');
    assert.equal(clean.includes(Buffer.from('Bluebird')), false);
    assert.ok(qpdfCheck(clean).ok);
  });

  test('bad parameters: 4xx and the document unchanged', async () => {
    await putPdf(server, 'red/apply-bad.pdf', textPdf([['some words here']]));
    await redact('red/apply-bad.pdf', { searchText: 'words' });
    const before = sha256(await storedBytes(server, 'red/apply-bad.pdf'));
    const cases: [object, number][] = [[{ names: ['nope'] }, 404], [{ pageIndex: 3 }, 400], [{ images: 'blur' }, 400], [{ names: [] }, 400]];
    for (const [params, status] of cases) {
      const reply = await apply('red/apply-bad.pdf', params);
      assert.equal(reply.status, status, `${JSON.stringify(params)}: ${reply.text}`);
    }
    assert.equal(sha256(await storedBytes(server, 'red/apply-bad.pdf')), before);
  });
});

describe('every hard case, checked with poppler and qpdf', () => {
  const kinds = REDACTION_KINDS.filter((k) => k !== 'many');
  for (const kind of kinds) {
    test(`${kind}: after A7 and apply, pdftotext finds no secret; the words kept are still there, where they were`, async () => {
      const fixture = redactionFixture(kind);
      const path = `red/cases/${kind}.pdf`;
      await putPdf(server, path, fixture.pdf);
      const created = await redact(path, { searchText: fixture.search });
      assert.equal(created.status, 200, created.text);
      assert.ok(created.json().count >= fixture.occurrences, `${created.json().count} matches for ${fixture.occurrences} occurrences`);
      // Text shown by an annotation is not drawn by the page: the annotation is removed as a whole (docs/redaction.md).
      const textAnnotations = qpdfAnnotations(fixture.pdf).filter((a) => a.subtype === 'FreeText');
      const applied = await apply(path, { scrubElsewhere: true });
      assert.equal(applied.status, 200, applied.text);
      assert.equal(applied.json().report.removedAnnotations.length, textAnnotations.length);
      const bytes = await storedBytes(server, path);
      const text = normaliseText(pdftotext(bytes));
      assert.ok(!text.includes(normaliseText(fixture.secret)), `the secret remains: ${text}`);
      for (const word of fixture.search.split(/\s+/)) assert.ok(!text.toLowerCase().includes(word.toLowerCase()), `"${word}" remains: ${text}`);
      for (const secretPart of fixture.alsoIn) assert.ok(!bytes.includes(Buffer.from(secretPart)));
      assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
      // Words outside the boxes keep their text and their place (within half a point).
      const beforeWords = pdfWords(fixture.pdf);
      const afterWords = pdfWords(bytes);
      for (const keep of fixture.keep) {
        const was = beforeWords.find((w) => w.text === keep);
        if (!was) continue;
        const pageHeight = renderPage(fixture.pdf, was.page + 1, 72).height;
        const inRemoved = textAnnotations.some((a) => was.xMin >= a.rect[0]! && was.xMax <= a.rect[2]! && pageHeight - was.yMax >= a.rect[1]! && pageHeight - was.yMin <= a.rect[3]!);
        if (inRemoved) continue;
        const now = afterWords.find((w) => w.text === keep && w.page === was.page && Math.abs(w.xMin - was.xMin) < 0.5 && Math.abs(w.yMin - was.yMin) < 0.5);
        assert.ok(now, `"${keep}" moved or vanished (${JSON.stringify(was)}; now ${JSON.stringify(afterWords.filter((w) => w.text === keep))})`);
      }
      // The page still renders.
      assert.ok(renderPage(bytes, 1, 36).width > 0);
    });
  }

  test('image-duplicate: the image pixels under the box are cleared, the other colour blocks stay', async () => {
    const fixture = redactionFixture('image-duplicate');
    await putPdf(server, 'red/cases/image-pixels.pdf', fixture.pdf);
    await redact('red/cases/image-pixels.pdf', { searchText: fixture.search, fillColor: '#FFFFFF' });
    assert.equal((await apply('red/cases/image-pixels.pdf')).status, 200);
    const bytes = await storedBytes(server, 'red/cases/image-pixels.pdf');
    const page = renderPage(bytes, 1, 72);
    const before = renderPage(fixture.pdf, 1, 72);
    // Share of a block's pixels (72 dpi: one per point, from the top left) that show the block's colour.
    const share = (render: ReturnType<typeof renderPage>, block: (typeof fixture.colourBlocks)[number]) => {
      let hits = 0;
      let all = 0;
      for (let x = Math.ceil(block.rect[0]); x < block.rect[2]; x++) {
        for (let y = Math.ceil(before.height - block.rect[3]); y < before.height - block.rect[1]; y++) {
          all++;
          if (render.rgb(x, y).every((c, i) => Math.abs(c - block.rgb[i]!) < 40)) hits++;
        }
      }
      return hits / all;
    };
    for (const block of fixture.colourBlocks) {
      const was = share(before, block);
      const now = share(page, block);
      assert.ok(was > 0.3, `fixture block under "${block.under}" shows its colour on ${was}`);
      if (block.under.includes(fixture.secret)) assert.ok(now < 0.15, `the secret's block still shows its colour on ${now} of its pixels`);
      else assert.ok(now > was * 0.9, `block under "${block.under}" lost its colour: ${now} of its pixels, was ${was}`);
    }
  });
});

describe('failing closed', () => {
  test('text inside a tiling pattern, which MuPDF\'s filter does not reach: 422 REDACTION_INCOMPLETE says where, the document is unchanged', async () => {
    const stream = (dict: string, content: string) => `<< ${dict} /Length ${content.length} >>\nstream\n${content}\nendstream`;
    const pdf = serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /Pattern << /P1 6 0 R >> >> /Contents 5 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      stream('', 'BT /F1 12 Tf 72 700 Td (Visible words here) Tj ET /Pattern cs /P1 scn 72 500 300 40 re f'),
      stream('/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 300 40] /XStep 300 /YStep 40 /Matrix [1 0 0 1 72 500] /Resources << /Font << /F1 4 0 R >> >>', 'BT /F1 12 Tf 5 15 Td (HIDDEN-9999 in pattern) Tj ET'),
    ], '/Root 1 0 R');
    await putPdf(server, 'red/pattern.pdf', pdf);
    const created = await redact('red/pattern.pdf', { searchText: 'HIDDEN-9999' });
    assert.equal(created.json().count, 1, created.text);
    const before = sha256(await storedBytes(server, 'red/pattern.pdf'));
    const reply = await apply('red/pattern.pdf');
    assert.equal(reply.status, 422, reply.text);
    const problem = reply.json();
    assert.equal(problem.code, 'REDACTION_INCOMPLETE');
    assert.ok(problem.failures.some((f: { pageIndex: number; text: string }) => f.pageIndex === 0 && f.text.includes('HIDDEN-9999')), reply.text);
    assert.equal(sha256(await storedBytes(server, 'red/pattern.pdf')), before);
    // The Redact annotation is still there to apply once the content is fixed.
    assert.equal((await redactAnnotations('red/pattern.pdf')).length, 1);
  });
});
