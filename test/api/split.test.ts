import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, expectUnchanged, jobEnded, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { encryptPdf, makePdf, pdfinfo, pdftotext, qpdfCheck, serializePdf } from '../helpers/pdf.js';
import { QpdfDocument, pdfTextFromJson } from '../helpers/qpdf-json.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

const split = (doc: string, params: object, headers: Record<string, string> = {}) =>
  call(server, 'POST', `/documents/${doc}/pages`, { body: { SplitDocumentAction: params }, headers: { accept: 'application/json', ...headers } });

/** The names in a stored folder, as the disk holds them (not through the service). */
async function folderNames(folder: string): Promise<string[]> {
  return (await readdir(path.join(server.documentsDir, ...folder.split('/'))).catch(() => [] as string[])).filter((n) => n.endsWith('.pdf')).sort();
}

/** Every written part checked with independent tools: qpdf --check, pdfinfo's page count, the answer's size and ETag. */
async function checkParts(documents: { path: string; pageCount: number; size: number; etag: string }[]): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  for (const d of documents) {
    const bytes = await storedBytes(server, d.path.slice(1));
    const check = qpdfCheck(bytes);
    assert.ok(check.ok, `${d.path}: ${check.output}`);
    assert.equal(Number(pdfinfo(bytes).Pages), d.pageCount, d.path);
    assert.equal(bytes.length, d.size, d.path);
    const head = await call(server, 'GET', `/documents${d.path.split('/').map(encodeURIComponent).join('/')}`, { headers: { accept: 'application/pdf' } });
    assert.equal(head.headers.get('etag'), d.etag, d.path);
    parts.push(bytes);
  }
  return parts;
}

/** The first word of each page of a part, per pdftotext. */
const words = (bytes: Buffer) => pdftotext(bytes).split('\f').map((t) => t.trim()).filter(Boolean);

/** Five pages with an outline: "Intro" (page 1, with a child on page 2), "Part: A/B" (page 3), "End" (page 5); a link on page 1 to page 4. */
function withOutline(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /Outlines 8 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R 6 0 R 7 0 R] /Count 5 >>',
    ...[0, 1, 2, 3, 4].map((i) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 13 0 R >> >> /Contents ${14 + i} 0 R${i === 0 ? ' /Annots [19 0 R]' : ''} >>`),
    '<< /Type /Outlines /First 9 0 R /Last 11 0 R /Count 3 >>',
    '<< /Title (Intro) /Parent 8 0 R /Next 10 0 R /Dest [3 0 R /Fit] /First 12 0 R /Last 12 0 R /Count -1 >>',
    '<< /Title (Part: A/B) /Parent 8 0 R /Prev 9 0 R /Next 11 0 R /Dest [5 0 R /Fit] >>',
    '<< /Title (End) /Parent 8 0 R /Prev 10 0 R /Dest [7 0 R /Fit] >>',
    '<< /Title (Intro detail) /Parent 9 0 R /Dest [4 0 R /Fit] >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  for (const w of ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']) {
    const content = `BT /F1 18 Tf 20 250 Td (${w} page) Tj ET`;
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  objects.push('<< /Type /Annot /Subtype /Link /Rect [20 200 120 220] /Dest [6 0 R /Fit] /P 3 0 R /Border [0 0 0] >>');
  return serializePdf(objects, '/Root 1 0 R');
}

/** Top-level outline titles of a document, per qpdf. */
function outlineTitles(bytes: Buffer): string[] {
  const doc = new QpdfDocument(bytes);
  const outlines = doc.get(doc.catalog(), '/Outlines') as Record<string, unknown> | null;
  const titles: string[] = [];
  for (let item = outlines ? (doc.get(outlines, '/First') as Record<string, unknown> | null) : null; item; item = doc.get(item, '/Next') as Record<string, unknown> | null) {
    titles.push(pdfTextFromJson(doc.get(item, '/Title') as string));
  }
  return titles;
}

describe('SplitDocumentAction', () => {
  test('every N pages: the parts hold the pages in order, pass qpdf --check, and the answer lists path, pages, size and ETag; the source is unchanged', async () => {
    const source = makePdf({ pages: 7, text: (i) => `Marker${i + 1} text` });
    assert.equal((await putPdf(server, 'split/every/report.pdf', source)).status, 201);
    const reply = await split('split/every/report.pdf', { everyPages: 3, folder: 'split/every/parts' });
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json();
    assert.equal(model.source, '/split/every/report.pdf');
    assert.equal(model.pageCount, 7);
    assert.deepEqual(model.documents.map((d: { path: string; pages: string; created: boolean }) => [d.path, d.pages, d.created]), [
      ['/split/every/parts/report-1.pdf', '1-3', true],
      ['/split/every/parts/report-2.pdf', '4-6', true],
      ['/split/every/parts/report-3.pdf', '7', true],
    ]);
    const parts = await checkParts(model.documents);
    assert.deepEqual(parts.map(words), [['Marker1 text', 'Marker2 text', 'Marker3 text'], ['Marker4 text', 'Marker5 text', 'Marker6 text'], ['Marker7 text']]);
    assert.equal(sha256(await storedBytes(server, 'split/every/report.pdf')), sha256(source), 'the source is byte-for-byte unchanged');
  });

  test('into single pages (grouped extraction past 16 parts): 40 parts, each its own page', async () => {
    const source = makePdf({ pages: 40, text: (i) => `Single${i + 1}` });
    await putPdf(server, 'split/single/book.pdf', source);
    const reply = await split('split/single/book.pdf', { everyPages: 1, folder: 'split/single/pages', pattern: '{name}-{n:3}.pdf' });
    assert.equal(reply.status, 200, reply.text);
    const { documents } = reply.json();
    assert.equal(documents.length, 40);
    assert.equal(documents[0].name, 'book-001.pdf');
    assert.equal(documents[39].name, 'book-040.pdf');
    const parts = await checkParts(documents);
    parts.forEach((bytes, i) => assert.deepEqual(words(bytes), [`Single${i + 1}`]));
    // A part holds its own page, not the source's other 39 (nor their free cross-reference entries).
    assert.ok(Math.max(...parts.map((b) => b.length)) < source.length / 4, 'parts are small');
  });

  test('page ranges with {first}, {last} and a zero-padded {n}: one part per range, in order, overlaps allowed', async () => {
    await putPdf(server, 'split/ranges/doc.pdf', makePdf({ pages: 6, text: (i) => `R${i + 1}` }));
    const reply = await split('split/ranges/doc.pdf', { ranges: ['5-', '1-2', '2,4'], folder: 'split/ranges/out', pattern: '{n:2}_{name}_p{first}-{last}.pdf' });
    assert.equal(reply.status, 200, reply.text);
    const { documents } = reply.json();
    assert.deepEqual(documents.map((d: { name: string; pages: string }) => [d.name, d.pages]), [
      ['01_doc_p5-6.pdf', '5-6'],
      ['02_doc_p1-2.pdf', '1-2'],
      ['03_doc_p2-4.pdf', '2,4'],
    ]);
    const parts = await checkParts(documents);
    assert.deepEqual(parts.map(words), [['R5', 'R6'], ['R1', 'R2'], ['R2', 'R4']]);
    // As XML: <Split> with a <document> per part.
    const xml = await split('split/ranges/doc.pdf', { ranges: ['1', '2-'], folder: 'split/ranges/xml' }, { accept: 'application/xml' });
    assert.equal(xml.status, 200, xml.text);
    assert.match(xml.text, /<Split>[\s\S]*<documents>\s*<document>\s*<path>\/split\/ranges\/xml\/doc-1\.pdf<\/path>[\s\S]*<pages>2-6<\/pages>/);
  });

  test('top-level bookmarks: a part starts at each, {title} made safe as a name, each part keeps the bookmarks of its pages', async () => {
    await putPdf(server, 'split/bm/manual.pdf', withOutline());
    const reply = await split('split/bm/manual.pdf', { bookmarks: true, folder: 'split/bm/chapters', pattern: '{n:2} {title}.pdf' });
    assert.equal(reply.status, 200, reply.text);
    const { documents } = reply.json();
    assert.deepEqual(documents.map((d: { name: string; pages: string; title: string }) => [d.name, d.pages, d.title]), [
      ['01 Intro.pdf', '1-2', 'Intro'],
      ['02 Part_ A_B.pdf', '3-4', 'Part: A/B'],
      ['03 End.pdf', '5', 'End'],
    ]);
    const parts = await checkParts(documents);
    assert.deepEqual(parts.map(words), [['Alpha page', 'Beta page'], ['Gamma page', 'Delta page'], ['Epsilon page']]);
    // Navigation follows the pages, as ExtractPagesAction's: each part's outline holds only items that lead into it.
    assert.deepEqual(parts.map(outlineTitles), [['Intro'], ['Part: A/B'], ['End']]);
    // The link on page 1 led to page 4, which part 1 does not hold: it is gone, not left dangling.
    const first = new QpdfDocument(parts[0]!);
    const annots = first.get(first.resolve(first.pages[0]!) as Record<string, unknown>, '/Annots') as unknown[] | null;
    assert.equal((annots ?? []).length, 0);
  });

  test('blank separator pages: the pages between them are the parts, the blank ones are listed and left out', async () => {
    const text = (i: number) => (i === 1 || i === 3 ? '' : `Sheet${i + 1}`);
    await putPdf(server, 'split/blank/scan.pdf', makePdf({ pages: 6, text }));
    const reply = await split('split/blank/scan.pdf', { blankPages: true, folder: 'split/blank/out' });
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json();
    assert.deepEqual(model.blankPages, [2, 4]);
    assert.deepEqual(model.documents.map((d: { pages: string }) => d.pages), ['1', '3', '5-6']);
    const parts = await checkParts(model.documents);
    assert.deepEqual(parts.map(words), [['Sheet1'], ['Sheet3'], ['Sheet5', 'Sheet6']]);
  });

  test('maximum size: consecutive pages, each part at most maxBytes; a page larger alone is a part of its own, marked oversized', async () => {
    // Text that does not compress (hex of hashes): each page a little over 2 KB in a part.
    const noise = (i: number) => Array.from({ length: 60 }, (_, k) => sha256(Buffer.from(`${i}:${k}`))).join('');
    await putPdf(server, 'split/size/big.pdf', makePdf({ pages: 12, text: (i) => `Size${i + 1} ${noise(i)}` }));
    const one = (await split('split/size/big.pdf', { everyPages: 12, folder: 'split/size/whole' })).json().documents[0].size;
    const maxBytes = Math.round(one / 2);
    const reply = await split('split/size/big.pdf', { maxBytes, folder: 'split/size/out' });
    assert.equal(reply.status, 200, reply.text);
    const { documents } = reply.json();
    assert.ok(documents.length >= 2, reply.text);
    for (const d of documents) assert.ok(d.size <= maxBytes, `${d.name}: ${d.size} > ${maxBytes}`);
    const parts = await checkParts(documents);
    // The first word only: the line runs off the page's right edge, where pdftotext stops.
    assert.deepEqual(parts.flatMap(words).map((w) => w.split(' ')[0]), Array.from({ length: 12 }, (_, i) => `Size${i + 1}`), 'every page once, in order');
    const tiny = (await split('split/size/big.pdf', { maxBytes: 1024, folder: 'split/size/tiny' })).json();
    assert.equal(tiny.documents.length, 12);
    assert.ok(tiny.documents.every((d: { oversized: boolean; pageCount: number }) => d.oversized && d.pageCount === 1), JSON.stringify(tiny.documents[0]));
  });

  test('a damaged file (every cross-reference offset wrong): repaired once, and each part still holds its own pages', async () => {
    const good = makePdf({ pages: 20, text: (i) => `Damaged${i + 1}` });
    // Bytes after the header move every object away from where the table says.
    const header = good.indexOf('\n') + 1;
    const damaged = Buffer.concat([good.subarray(0, header), Buffer.from('%' + ' '.repeat(50) + '\n'), good.subarray(header)]);
    await putPdf(server, 'split/damaged/doc.pdf', damaged);
    const reply = await split('split/damaged/doc.pdf', { everyPages: 1, folder: 'split/damaged/out' });
    assert.equal(reply.status, 200, reply.text);
    const parts = await checkParts(reply.json().documents);
    assert.deepEqual(parts.map(words), Array.from({ length: 20 }, (_, i) => [`Damaged${i + 1}`]));
  });

  test('an encrypted document: its parts keep its encryption and open with its password', async () => {
    await putPdf(server, 'split/enc/secret.pdf', encryptPdf(makePdf({ pages: 3, text: (i) => `Secret${i + 1}` }), 'user-pw', 'owner-pw'));
    const reply = await split('split/enc/secret.pdf', { everyPages: 2, folder: 'split/enc/out' }, { 'x-service-documentpassword': 'owner-pw' });
    assert.equal(reply.status, 200, reply.text);
    const { documents } = reply.json();
    assert.equal(documents.length, 2);
    for (const d of documents) {
      const bytes = await storedBytes(server, d.path.slice(1));
      assert.equal(pdfinfo(bytes, 'user-pw').Encrypted?.startsWith('yes'), true);
      assert.equal(Number(pdfinfo(bytes, 'user-pw').Pages), d.pageCount);
    }
    assert.equal(pdftotext(await storedBytes(server, documents[1].path.slice(1)), 'user-pw').trim(), 'Secret3');
  });

  test('namingMode: 0 refuses a split that would write over an existing document and writes nothing; 2 keeps both; 1 overwrites', async () => {
    await putPdf(server, 'split/clash/doc.pdf', makePdf({ pages: 4 }));
    const existing = makePdf({ pages: 1, text: () => 'Existing' });
    await putPdf(server, 'split/clash/out/doc-2.pdf', existing);
    const refused = await expectUnchanged(server, 'split/clash/doc.pdf', () => split('split/clash/doc.pdf', { everyPages: 1, folder: 'split/clash/out' }), 409, 'ALREADY_EXISTS');
    assert.match(refused.json().detail, /doc-2\.pdf/);
    assert.deepEqual(await folderNames('split/clash/out'), ['doc-2.pdf'], 'no part was written');
    assert.equal(sha256(await storedBytes(server, 'split/clash/out/doc-2.pdf')), sha256(existing));

    const both = await split('split/clash/doc.pdf', { everyPages: 1, folder: 'split/clash/out', namingMode: 2 });
    assert.equal(both.status, 200, both.text);
    const names = both.json().documents.map((d: { name: string }) => d.name);
    assert.equal(names.length, 4);
    assert.notEqual(names[1], 'doc-2.pdf');
    assert.equal(sha256(await storedBytes(server, 'split/clash/out/doc-2.pdf')), sha256(existing), 'the existing document is kept');

    const over = await split('split/clash/doc.pdf', { everyPages: 2, folder: 'split/clash/out', namingMode: 1 });
    assert.equal(over.status, 200, over.text);
    assert.deepEqual(over.json().documents.map((d: { name: string; created: boolean }) => [d.name, d.created]), [['doc-1.pdf', false], ['doc-2.pdf', false]]);
    assert.equal(Number(pdfinfo(await storedBytes(server, 'split/clash/out/doc-2.pdf')).Pages), 2);
  });

  test('refusals: a clear 4xx, the source unchanged, nothing written', async () => {
    await putPdf(server, 'split/bad/doc.pdf', makePdf({ pages: 3 }));
    const refuse = async (params: object, status: number, code: string) => {
      await expectUnchanged(server, 'split/bad/doc.pdf', () => split('split/bad/doc.pdf', params), status, code);
      assert.deepEqual(await folderNames('split/bad/out'), [], `${JSON.stringify(params)} wrote nothing`);
    };
    await refuse({ folder: 'split/bad/out' }, 400, 'VALIDATION_FAILED');
    await refuse({ everyPages: 1, bookmarks: true, folder: 'split/bad/out' }, 400, 'VALIDATION_FAILED');
    await refuse({ everyPages: 0, folder: 'split/bad/out' }, 400, 'VALIDATION_FAILED');
    await refuse({ ranges: ['1-2', '4'], folder: 'split/bad/out' }, 400, 'PAGE_OUT_OF_RANGE');
    await refuse({ ranges: ['3-1'], folder: 'split/bad/out' }, 400, 'INVALID_PAGE_RANGE');
    await refuse({ ranges: [''], folder: 'split/bad/out' }, 400, 'VALIDATION_FAILED');
    await refuse({ everyPages: 1, folder: 'split/bad/out', pattern: 'same.pdf' }, 400, 'VALIDATION_FAILED');
    await refuse({ everyPages: 1, folder: 'split/bad/out', pattern: '{name}-{page}.pdf' }, 400, 'VALIDATION_FAILED');
    await refuse({ everyPages: 1, folder: 'split/bad/out', pattern: 'x/{n}.pdf' }, 400, 'INVALID_PATH');
    await refuse({ everyPages: 1, folder: 'split/bad/out', pattern: '{n}.txt' }, 400, 'INVALID_PATH');
    await refuse({ everyPages: 1, folder: '../escape' }, 400, 'INVALID_PATH');
    await refuse({ bookmarks: true, folder: 'split/bad/out' }, 422, 'SPLIT_NOT_POSSIBLE');
    await refuse({ inkThreshold: 0.5, everyPages: 1, folder: 'split/bad/out' }, 400, 'VALIDATION_FAILED');
    // A part named as the document being split.
    await expectUnchanged(server, 'split/bad/doc.pdf', () => split('split/bad/doc.pdf', { ranges: ['1'], folder: 'split/bad', pattern: '{name}.pdf', namingMode: 1 }), 400, 'VALIDATION_FAILED');
    // Every page blank.
    await putPdf(server, 'split/bad/empty.pdf', makePdf({ pages: 2, text: () => '' }));
    await expectUnchanged(server, 'split/bad/empty.pdf', () => split('split/bad/empty.pdf', { blankPages: true, folder: 'split/bad/out' }), 422, 'SPLIT_NOT_POSSIBLE');
    // The source's If-Match.
    await expectUnchanged(server, 'split/bad/doc.pdf', () => split('split/bad/doc.pdf', { everyPages: 1, folder: 'split/bad/out' }, { 'if-match': '"nope"' }), 412, 'PRECONDITION_FAILED');
    assert.deepEqual(await folderNames('split/bad/out'), []);
  });

  test('as a background job (Prefer: respond-async): the job\'s result is the same list of documents', async () => {
    await putPdf(server, 'split/job/doc.pdf', makePdf({ pages: 5, text: (i) => `Job${i + 1}` }));
    const reply = await split('split/job/doc.pdf', { everyPages: 2, folder: 'split/job/out' }, { prefer: 'respond-async' });
    assert.equal(reply.status, 202, reply.text);
    const job = await jobEnded(server, reply.json().id);
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    const { documents } = job.result.document;
    assert.deepEqual(documents.map((d: { pages: string }) => d.pages), ['1-2', '3-4', '5']);
    const parts = await checkParts(documents);
    assert.deepEqual(parts.map(words), [['Job1', 'Job2'], ['Job3', 'Job4'], ['Job5']]);
  });
});
