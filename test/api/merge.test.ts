import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, expectUnchanged, jobEnded, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { encryptPdf, makePdf, pdfinfo, qpdfCheck, serializePdf, withTempFile } from '../helpers/pdf.js';
import { QpdfDocument, pdfTextFromJson, qpdfFields } from '../helpers/qpdf-json.js';
import { pdfsig, signedFieldPdf } from '../helpers/signing.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();
// A service whose size rule for jobs sits just above `small`: an action on it alone runs inline, a merge with `big` is large.
const small = makePdf({ pages: 1, text: () => 'Small' });
const big = makePdf({ pages: 20, text: (i) => `Big ${i + 1}` });
const sized = serverForSuite({ env: { PDFSERVICE_JOB_ASYNC_BYTES: String(small.length + 1) } });

const merge = (doc: string, params: object, headers: Record<string, string> = {}) =>
  call(server, 'POST', `/documents/${doc}`, { body: { MergeDocumentsAction: params }, headers: { accept: 'application/json', ...headers } });
const upload = async (doc: string, pdf: Buffer) => {
  const reply = await putPdf(server, doc, pdf);
  assert.equal(reply.status, 201, reply.text);
};
const exists = async (doc: string) => (await call(server, 'GET', `/documents/${doc}`, { headers: { accept: 'application/json' } })).status === 200;

/** Each page's text as poppler extracts it, first line only. */
function firstLines(bytes: Buffer): string[] {
  const count = Number(pdfinfo(bytes)['Pages']);
  return Array.from({ length: count }, (_, i) =>
    withTempFile(bytes, (f) => execFileSync('pdftotext', ['-f', String(i + 1), '-l', String(i + 1), f, '-'], { encoding: 'utf8' })).trim().split('\n')[0]!,
  );
}

/** The outline per qpdf --json: title, 0-based page, children. */
interface Item { title: string; page: number; kids: Item[] }
function qpdfOutline(bytes: Buffer): Item[] {
  const json = withTempFile(bytes, (file) => {
    const run = spawnSync('qpdf', ['--json', '--json-key=outlines', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.ok(run.status === 0 || run.status === 3, run.stderr);
    return JSON.parse(run.stdout) as { outlines: { title: string; destpageposfrom1: number | null; kids: unknown[] }[] };
  });
  const map = (items: typeof json.outlines): Item[] => items.map((i) => ({ title: i.title, page: i.destpageposfrom1 === null ? -1 : i.destpageposfrom1 - 1, kids: map(i.kids as typeof json.outlines) }));
  return map(json.outlines);
}

/**
 * Where each link of each page leads, per qpdf: the 0-based page of its explicit destination, or of the named
 * destination it names (looked up in the name tree), with the name.
 */
function links(bytes: Buffer): { page: number; to: number; name?: string }[] {
  const doc = new QpdfDocument(bytes);
  const root = doc.catalog();
  const names = doc.get(root, '/Names') as Record<string, unknown> | null;
  const tree = names ? (doc.get(names, '/Dests') as Record<string, unknown> | null) : null;
  const pairs = tree ? ((doc.get(tree, '/Names') as unknown[]) ?? []) : [];
  const byName = new Map<string, unknown>();
  for (let i = 0; i + 1 < pairs.length; i += 2) byName.set(pdfTextFromJson(doc.resolve(pairs[i]) as string), doc.resolve(pairs[i + 1]));
  const pageOf = (dest: unknown) => doc.pages.indexOf(String((dest as unknown[])[0]));
  const out: { page: number; to: number; name?: string }[] = [];
  doc.pages.forEach((ref, page) => {
    const annots = (doc.get(doc.resolve(ref) as Record<string, unknown>, '/Annots') as unknown[] | null) ?? [];
    for (const a of annots) {
      const annot = doc.resolve(a) as Record<string, unknown>;
      if (annot['/Subtype'] !== '/Link') continue;
      const dest = doc.get(annot, '/Dest');
      if (typeof dest === 'string') {
        const name = pdfTextFromJson(dest);
        out.push({ page, to: pageOf(byName.get(name)), name });
      } else out.push({ page, to: pageOf(dest) });
    }
  });
  return out;
}

/** Names of the result's name tree of destinations. */
function destNames(bytes: Buffer): string[] {
  const doc = new QpdfDocument(bytes);
  const names = doc.get(doc.catalog(), '/Names') as Record<string, unknown> | null;
  const tree = names ? (doc.get(names, '/Dests') as Record<string, unknown> | null) : null;
  const pairs = tree ? ((doc.get(tree, '/Names') as unknown[]) ?? []) : [];
  return pairs.filter((_, i) => i % 2 === 0).map((n) => pdfTextFromJson(doc.resolve(n) as string));
}

/**
 * Three pages with `title`: an outline (one item per page, the third by name), named destinations "second" and
 * "third", a link on page 2 naming "third", and text fields "name" (page 2) and "city" (page 3).
 */
function structured(title: string, words: string[]): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R /Names << /Dests 10 0 R >> /AcroForm << /Fields [11 0 R 14 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 15 0 R >> >> >> >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 15 0 R >> >> /Contents 16 0 R >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 15 0 R >> >> /Contents 17 0 R /Annots [12 0 R 13 0 R] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 15 0 R >> >> /Contents 18 0 R /Annots [14 0 R] >>',
    '<< /Type /Outlines /First 7 0 R /Last 9 0 R /Count 3 >>',
    '<< /Title (One) /Parent 6 0 R /Next 8 0 R /Dest [3 0 R /Fit] >>',
    '<< /Title (Two) /Parent 6 0 R /Prev 7 0 R /Next 9 0 R /Dest [4 0 R /Fit] >>',
    '<< /Title (Three) /Parent 6 0 R /Prev 8 0 R /Dest (third) >>',
    '<< /Names [(second) [4 0 R /Fit] (third) [5 0 R /Fit]] >>',
    '<< /FT /Tx /T (name) /V (Ada) /Kids [12 0 R] >>',
    '<< /Type /Annot /Subtype /Widget /Parent 11 0 R /Rect [20 20 200 40] /P 4 0 R >>',
    '<< /Type /Annot /Subtype /Link /Rect [20 200 120 220] /Dest (third) /P 4 0 R /Border [0 0 0] >>',
    '<< /Type /Annot /Subtype /Widget /FT /Tx /T (city) /V (Paris) /Rect [20 20 200 40] /P 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  for (const w of words) {
    const content = `BT /F1 18 Tf 20 250 Td (${w}) Tj ET`;
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  // A text string in UTF-16BE with its byte order mark: any Unicode title.
  objects.push(`<< /Title <FEFF${Buffer.from(title, 'utf16le').swap16().toString('hex')}> >>`);
  return serializePdf(objects, `/Root 1 0 R /Info ${objects.length} 0 R`);
}

describe('MergeDocumentsAction', () => {
  test('the posted document, then the sources in order: pages, bookmarks per source, named destinations and fields renamed, links working, a table of contents', async () => {
    await upload('merge/a.pdf', structured('Alpha report', ['Alpha one', 'Alpha two', 'Alpha three']));
    await upload('merge/b.pdf', structured('Beta \u00fcber \u6982\u8981', ['Beta one', 'Beta two', 'Beta three']));
    await upload('merge/c.pdf', makePdf({ pages: 2, text: (i) => `Gamma ${i + 1}` }));
    const reply = await merge('merge/a.pdf', {
      sources: [{ filePath: 'merge/b.pdf', pageRange: '2-3' }, { filePath: 'merge/c.pdf' }],
      savePath: 'merge/out/all.pdf',
      tableOfContents: true,
    });
    assert.equal(reply.status, 201, reply.text);
    assert.match(reply.headers.get('location') ?? '', /merge\/out\/all\.pdf$/u);
    const body = reply.json();
    assert.equal(body.pageCount, 8);
    assert.deepEqual(body.report.sources.map((s: { startPage: number; pageCount: number }) => [s.startPage, s.pageCount]), [[2, 3], [5, 2], [7, 2]]);
    const bytes = await storedBytes(server, 'merge/out/all.pdf');
    assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
    assert.equal(pdfinfo(bytes)['Pages'], '8');
    assert.deepEqual(firstLines(bytes), ['Contents', 'Alpha one', 'Alpha two', 'Alpha three', 'Beta two', 'Beta three', 'Gamma 1', 'Gamma 2']);
    // The table of contents is text: the titles (Unicode as the text stamp draws it) and start pages.
    const toc = withTempFile(bytes, (f) => execFileSync('pdftotext', ['-f', '1', '-l', '1', f, '-'], { encoding: 'utf8' }));
    for (const title of ['Alpha report', 'Beta \u00fcber \u6982\u8981', 'c.pdf']) assert.ok(toc.includes(title), `${title} in ${JSON.stringify(toc)}`);

    assert.deepEqual(qpdfOutline(bytes), [
      { title: 'Alpha report', page: 1, kids: [{ title: 'One', page: 1, kids: [] }, { title: 'Two', page: 2, kids: [] }, { title: 'Three', page: 3, kids: [] }] },
      // b.pdf's "One" led to its first page, which was not taken: it goes.
      { title: 'Beta \u00fcber \u6982\u8981', page: 4, kids: [{ title: 'Two', page: 4, kids: [] }, { title: 'Three', page: 5, kids: [] }] },
      { title: 'c.pdf', page: 6, kids: [] },
    ]);
    assert.deepEqual(destNames(bytes).sort(), ['second', 'second_2', 'third', 'third_2']);
    assert.deepEqual(body.report.renamedDestinations, [{ source: 1, from: 'second', to: 'second_2' }, { source: 1, from: 'third', to: 'third_2' }]);
    assert.equal(body.report.renamedDestinationCount, 2);
    // Each source's link names its own "third", renamed in the second; the table of contents links to each start page.
    assert.deepEqual(links(bytes), [
      { page: 0, to: 1 }, { page: 0, to: 4 }, { page: 0, to: 6 },
      { page: 2, to: 3, name: 'third' },
      { page: 4, to: 5, name: 'third_2' },
    ]);
    assert.deepEqual(qpdfFields(bytes).map((f) => [f.fullname, f.value, f.pages]), [['name', 'Ada', [3]], ['city', 'Paris', [4]], ['name_2', 'Ada', [5]], ['city_2', 'Paris', [6]]]);
    // The sources are unchanged.
    assert.equal(pdfinfo(await storedBytes(server, 'merge/b.pdf'))['Pages'], '3');
  });

  test('bookmarks: false puts the sources\' bookmarks one after another; an encrypted source opens with its password; savePath may be the posted document', async () => {
    await upload('merge/p.pdf', structured('P', ['P one', 'P two', 'P three']));
    await upload('merge/locked.pdf', encryptPdf(makePdf({ pages: 1, text: () => 'Locked page' }), 'user-pw', 'owner-pw'));
    const reply = await merge('merge/p.pdf', { sources: [{ filePath: 'merge/locked.pdf', password: 'user-pw' }], pageRange: '3', bookmarks: false, savePath: 'merge/p.pdf', namingMode: 1 });
    assert.equal(reply.status, 200, reply.text);
    const bytes = await storedBytes(server, 'merge/p.pdf');
    assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
    assert.deepEqual(firstLines(bytes), ['P three', 'Locked page']);
    assert.deepEqual(qpdfOutline(bytes), [{ title: 'Three', page: 0, kids: [] }]);
    assert.equal(withTempFile(bytes, (f) => spawnSync('qpdf', ['--is-encrypted', f]).status), 2, 'the result is not encrypted');
  });

  test('as XML: <sources><source>..</source></sources>, booleans as text', async () => {
    await upload('merge/xml/a.pdf', makePdf({ pages: 1, text: () => 'X1' }));
    await upload('merge/xml/b.pdf', makePdf({ pages: 2, text: (i) => `Y${i + 1}` }));
    const xml = '<MergeDocumentsAction><sources><source><filePath>merge/xml/b.pdf</filePath><pageRange>2</pageRange></source></sources>' +
      '<tableOfContents>true</tableOfContents><bookmarks>false</bookmarks><savePath>merge/xml/out.pdf</savePath></MergeDocumentsAction>';
    const reply = await call(server, 'POST', '/documents/merge/xml/a.pdf', { body: Buffer.from(xml), headers: { 'content-type': 'application/xml', accept: 'application/xml' } });
    assert.equal(reply.status, 201, reply.text);
    assert.match(reply.text, /<pageCount>3<\/pageCount>/u);
    const bytes = await storedBytes(server, 'merge/xml/out.pdf');
    assert.deepEqual(firstLines(bytes), ['Contents', 'X1', 'Y2']);
    assert.deepEqual(qpdfOutline(bytes), [], 'bookmarks false, and the sources have none');
  });

  test('a signed source comes with its signature field cleared (its value covered the source\'s bytes); the source keeps it', async () => {
    await upload('merge/signed/a.pdf', makePdf({ pages: 1, text: () => 'First' }));
    await upload('merge/signed/signed.pdf', signedFieldPdf());
    const reply = await merge('merge/signed/a.pdf', { sources: [{ filePath: 'merge/signed/signed.pdf' }], savePath: 'merge/signed/out.pdf' });
    assert.equal(reply.status, 201, reply.text);
    const bytes = await storedBytes(server, 'merge/signed/out.pdf');
    assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
    assert.deepEqual(qpdfFields(bytes).map((f) => [f.fullname, f.fieldtype, f.value, f.pages]), [['Signature1', '/Sig', null, [2]]]);
    assert.equal(pdfsig(bytes).filter((sig) => sig.validation).length, 0, 'no signature left to be reported (invalid) in the result');
    assert.ok((await storedBytes(server, 'merge/signed/signed.pdf')).equals(signedFieldPdf()), 'the source keeps its signature, byte for byte');
  });

  test('bad input: a clear 4xx, the documents unchanged and nothing written at savePath', async () => {
    await upload('merge/bad/a.pdf', makePdf({ pages: 2 }));
    await upload('merge/bad/locked.pdf', encryptPdf(makePdf({ pages: 1 }), 'user-pw', 'owner-pw'));
    await upload('merge/bad/signed.pdf', signedFieldPdf());
    await upload('merge/bad/taken.pdf', makePdf({ pages: 1 }));
    const cases: [object, number, string, RegExp?][] = [
      [{ sources: [{ filePath: 'merge/bad/locked.pdf' }], savePath: 'merge/bad/out.pdf' }, 403, 'DOCUMENT_PASSWORD_REQUIRED', /merge\/bad\/locked\.pdf.*sources\[0\]\.password/u],
      [{ sources: [{ filePath: 'merge/bad/locked.pdf', password: 'nope' }], savePath: 'merge/bad/out.pdf' }, 403, 'DOCUMENT_PASSWORD_INVALID', /merge\/bad\/locked\.pdf/u],
      [{ sources: [{ filePath: 'merge/bad/a.pdf', pageRange: '2-5' }], savePath: 'merge/bad/out.pdf' }, 400, 'PAGE_OUT_OF_RANGE', /merge\/bad\/a\.pdf/u],
      [{ sources: [{ filePath: 'merge/bad/a.pdf' }], pageRange: '3', savePath: 'merge/bad/out.pdf' }, 400, 'PAGE_OUT_OF_RANGE'],
      [{ sources: [{ filePath: 'merge/bad/a.pdf' }, { filePath: 'merge/bad/none.pdf' }], savePath: 'merge/bad/out.pdf' }, 404, 'DOCUMENT_NOT_FOUND', /merge\/bad\/none\.pdf/u],
      [{ sources: [{ filePath: '../../etc/passwd.pdf' }], savePath: 'merge/bad/out.pdf' }, 400, 'INVALID_PATH'],
      [{ sources: Array.from({ length: 10_000 }, () => ({ filePath: 'merge/bad/a.pdf' })), savePath: 'merge/bad/out.pdf' }, 400, 'VALIDATION_FAILED', /999/u],
      [{ sources: [], savePath: 'merge/bad/out.pdf' }, 400, 'VALIDATION_FAILED'],
      [{ sources: [{ filePath: 'merge/bad/a.pdf' }] }, 400, 'VALIDATION_FAILED'],
      [{ sources: [{ filePath: 'merge/bad/a.pdf' }], savePath: 'merge/bad/taken.pdf' }, 409, 'ALREADY_EXISTS'],
      [{ sources: [{ filePath: 'merge/bad/a.pdf' }], savePath: 'merge/bad/signed.pdf', namingMode: 1 }, 409, 'DOCUMENT_SIGNED', /signed/u],
    ];
    const involved = ['merge/bad/locked.pdf', 'merge/bad/signed.pdf', 'merge/bad/taken.pdf'];
    const hashes = async () => Promise.all(involved.map(async (doc) => sha256(await storedBytes(server, doc))));
    const before = await hashes();
    for (const [params, status, code, detail] of cases) {
      const reply: Reply = await expectUnchanged(server, 'merge/bad/a.pdf', () => merge('merge/bad/a.pdf', params), status, code);
      if (detail) assert.match(reply.json().detail, detail);
      assert.equal(await exists('merge/bad/out.pdf'), false, `${code}: nothing written at savePath`);
      assert.deepEqual(await hashes(), before, `${code}: the other documents are unchanged`);
    }
  });

  test('as a job (Prefer: respond-async): the same result; a source\'s password is not written into the job\'s record', async () => {
    await upload('merge/job/a.pdf', makePdf({ pages: 2, text: (i) => `A${i + 1}` }));
    await upload('merge/job/b.pdf', encryptPdf(makePdf({ pages: 1, text: () => 'B1' }), 'job-source-pw-5Kq', 'owner-job-pw-5Kq'));
    const reply = await merge('merge/job/a.pdf', { sources: [{ filePath: 'merge/job/b.pdf', password: 'job-source-pw-5Kq' }], savePath: 'merge/job/out.pdf' }, { prefer: 'respond-async' });
    assert.equal(reply.status, 202, reply.text);
    const job = await jobEnded(server, reply.json().id);
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    const bytes = await storedBytes(server, 'merge/job/out.pdf');
    assert.ok(qpdfCheck(bytes).ok);
    assert.deepEqual(firstLines(bytes), ['A1', 'A2', 'B1']);
    // The job store's files (the embedded default: state/jobs under the data folder) never hold the password.
    const records = readdirSync(path.join(server.dataDir, 'state', 'jobs'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    assert.ok(records.length > 0, 'the job store has records');
    for (const e of records) assert.ok(!readFileSync(path.join(e.parentPath, e.name), 'latin1').includes('job-source-pw-5Kq'), `${e.name} holds no password`);
  });

  test('a merge whose sources together pass PDFSERVICE_JOB_ASYNC_BYTES runs as a job, though the document posted to is small', async () => {
    for (const [doc, pdf] of [['merge/size/small.pdf', small], ['merge/size/big.pdf', big]] as const) assert.equal((await putPdf(sized, doc, pdf)).status, 201);
    const copy = await call(sized, 'POST', '/documents/merge/size/small.pdf', { body: { CopyAction: { savePath: 'merge/size/copy.pdf' } }, headers: { accept: 'application/json' } });
    assert.equal(copy.status, 201, `the document alone is under the size rule: ${copy.text}`);
    const reply = await call(sized, 'POST', '/documents/merge/size/small.pdf', { body: { MergeDocumentsAction: { sources: [{ filePath: 'merge/size/big.pdf' }], savePath: 'merge/size/out.pdf' } }, headers: { accept: 'application/json' } });
    assert.equal(reply.status, 202, reply.text);
    const job = await jobEnded(sized, reply.json().id);
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    const bytes = await storedBytes(sized, 'merge/size/out.pdf');
    assert.ok(qpdfCheck(bytes).ok);
    assert.equal(pdfinfo(bytes)['Pages'], '21');
  });
});
