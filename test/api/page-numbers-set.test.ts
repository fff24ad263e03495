import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, jobEnded, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { encryptPdf, makePdf, pdfinfo, pdftotext, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { signedFieldPdf } from '../helpers/signing.js';
import { serverForSuite } from '../helpers/server.js';

/** PageNumbersAction's `documents`: Bates numbers across a set of stored documents (docs/page-numbers.md). */
const server = serverForSuite();

const action = (doc: string, body: object, headers: Record<string, string> = {}) => call(server, 'POST', `/documents/${doc}/pages`, { body, headers });
const upload = async (doc: string, pdf: Buffer) => {
  const reply = await putPdf(server, doc, pdf);
  assert.equal(reply.status, 201, reply.text);
};
const pageText = (pdf: Buffer, page: number) => withTempFile(pdf, (file) => execFileSync('pdftotext', ['-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' }));
const pages = (pdf: Buffer) => Number(pdfinfo(pdf)['Pages']);
const versionCount = async (doc: string) => (await call(server, 'GET', `/documents/${doc}/versions`)).json().total as number;

/** The set's documents' hashes, to show a refusal left every one byte for byte as it was. */
const hashes = async (docs: string[]) => Promise.all(docs.map(async (d) => sha256(await storedBytes(server, d))));

async function expectSetUnchanged(docs: string[], request: () => Promise<Reply>, status: number, code: string): Promise<Reply> {
  const before = await hashes(docs);
  const versions = await Promise.all(docs.map(versionCount));
  const reply = await request();
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.json().code, code, reply.text);
  assert.deepEqual(await hashes(docs), before, 'every document of the set is byte-for-byte unchanged');
  assert.deepEqual(await Promise.all(docs.map(versionCount)), versions, 'and has no new version');
  return reply;
}

describe('PageNumbersAction over a set of documents (documents)', () => {
  test('one sequence across three documents: each page\'s Bates number by pdftotext, {total} the set\'s last; per-document labels in the report; each a new version', async () => {
    await upload('set/a.pdf', makePdf({ pages: 2, text: (i) => `A${i + 1}` }));
    await upload('set/b.pdf', makePdf({ pages: 3, text: (i) => `B${i + 1}` }));
    await upload('set/c.pdf', makePdf({ pages: 2, text: (i) => `C${i + 1}` }));
    const reply = await action('set/a.pdf', {
      PageNumbersAction: { prefix: 'ACME-', digits: 6, startNumber: 101, format: '{n} of {total}', position: 'bottom-right', documents: [{ filePath: 'set/b.pdf' }, { filePath: 'set/c.pdf', pageRange: '2' }] },
    });
    assert.equal(reply.status, 200, reply.text);
    const { report, etag } = reply.json();
    assert.equal(report.lastNumber, 106);
    assert.equal(report.first, 'ACME-000101 of 106');
    assert.equal(report.last, 'ACME-000106 of 106');
    assert.deepEqual(
      report.documents.map((d: Record<string, unknown>) => [d.path, d.pages, d.first, d.last, d.firstNumber, d.lastNumber]),
      [
        ['/set/a.pdf', [0, 1], 'ACME-000101 of 106', 'ACME-000102 of 106', 101, 102],
        ['/set/b.pdf', [0, 1, 2], 'ACME-000103 of 106', 'ACME-000105 of 106', 103, 105],
        ['/set/c.pdf', [1], 'ACME-000106 of 106', 'ACME-000106 of 106', 106, 106],
      ],
    );
    const expected: Record<string, (string | undefined)[]> = {
      'set/a.pdf': ['ACME-000101 of 106', 'ACME-000102 of 106'],
      'set/b.pdf': ['ACME-000103 of 106', 'ACME-000104 of 106', 'ACME-000105 of 106'],
      'set/c.pdf': [undefined, 'ACME-000106 of 106'],
    };
    for (const [doc, labels] of Object.entries(expected)) {
      const pdf = await storedBytes(server, doc);
      assert.ok(qpdfCheck(pdf).ok, doc);
      assert.equal(pages(pdf), labels.length, doc);
      labels.forEach((label, k) => {
        const text = pageText(pdf, k + 1);
        assert.match(text, new RegExp(`${doc[4]!.toUpperCase()}${k + 1}`), `${doc} page ${k + 1} keeps its text`);
        if (label) assert.match(text, new RegExp(label), `${doc} page ${k + 1}: ${text}`);
        else assert.doesNotMatch(text, /ACME/, `${doc} page ${k + 1} is not numbered`);
        assert.equal(text.match(/ACME-/g)?.length ?? 0, label ? 1 : 0, `${doc} page ${k + 1} has one number`);
      });
    }
    // Each written through the operations layer: a new version apiece; the ETags in the report are the stored ones.
    for (const doc of ['set/a.pdf', 'set/b.pdf', 'set/c.pdf']) assert.equal(await versionCount(doc), 2, doc);
    assert.equal((await call(server, 'GET', '/documents/set/b.pdf')).headers.get('etag'), report.documents[1].etag);
    assert.equal((await call(server, 'GET', '/documents/set/c.pdf')).headers.get('etag'), report.documents[2].etag);
    assert.equal((await call(server, 'GET', '/documents/set/a.pdf')).headers.get('etag'), etag, 'the document posted to: the answer\'s own ETag');
  });

  test('an encrypted document of the set opens with its own password and stays encrypted; a signed one is appended to (its signed revision kept)', async () => {
    await upload('set2/first.pdf', makePdf({ pages: 1 }));
    await upload('set2/locked.pdf', encryptPdf(makePdf({ pages: 2 }), 'user-pw', 'owner-pw'));
    const signed = signedFieldPdf();
    await upload('set2/signed.pdf', signed);
    const reply = await action('set2/first.pdf', {
      PageNumbersAction: { prefix: 'X-', digits: 3, documents: [{ filePath: 'set2/locked.pdf', password: 'owner-pw' }, { filePath: 'set2/signed.pdf' }] },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json().report.lastNumber, 1 + 2 + pages(signed));
    const locked = await storedBytes(server, 'set2/locked.pdf');
    withTempFile(locked, (file) => execFileSync('qpdf', ['--password=user-pw', '--check', file]));
    assert.match(pdftotext(locked, 'user-pw'), /X-002[\s\S]*X-003/);
    const after = await storedBytes(server, 'set2/signed.pdf');
    assert.ok(after.length > signed.length && after.subarray(0, signed.length).equals(signed), 'the signed revision is kept');
    assert.match(pageText(after, 1), /X-004/);
  });

  test('refused before any document is written: every document byte-for-byte unchanged, no new version', async () => {
    const docs = ['bad/a.pdf', 'bad/b.pdf', 'bad/c.pdf'];
    await upload('bad/a.pdf', makePdf({ pages: 2 }));
    await upload('bad/b.pdf', makePdf({ pages: 2 }));
    await upload('bad/c.pdf', makePdf({ pages: 1 }));
    await upload('bad/locked.pdf', encryptPdf(makePdf({ pages: 1 }), 'user-pw', 'owner-pw'));
    const run = (documents: object[], extra: object = {}, headers: Record<string, string> = {}) => () => action('bad/a.pdf', { PageNumbersAction: { ...extra, documents } }, headers);
    const b = { filePath: 'bad/b.pdf' };
    // The last document's range is past its end: found before the first is written.
    await expectSetUnchanged(docs, run([b, { filePath: 'bad/c.pdf', pageRange: '1-2' }]), 400, 'PAGE_OUT_OF_RANGE');
    await expectSetUnchanged(docs, run([b, { filePath: 'bad/c.pdf', pageRange: '' }]), 400, 'VALIDATION_FAILED');
    await expectSetUnchanged(docs, run([b], { pageRange: '3' }), 400, 'PAGE_OUT_OF_RANGE');
    await expectSetUnchanged(docs, run([b, { filePath: 'bad/missing.pdf' }]), 404, 'DOCUMENT_NOT_FOUND');
    await expectSetUnchanged(docs, run([b, { filePath: '../c.pdf' }]), 400, 'INVALID_PATH');
    await expectSetUnchanged(docs, run([b, { filePath: 'bad/c.pdf' }, { filePath: 'bad/b.pdf' }]), 400, 'VALIDATION_FAILED');
    await expectSetUnchanged(docs, run([b, { filePath: 'bad/a.pdf' }]), 400, 'VALIDATION_FAILED');
    await expectSetUnchanged(docs, run([b], { savePath: 'bad/out.pdf' }), 400, 'VALIDATION_FAILED');
    await expectSetUnchanged(docs, run([]), 400, 'VALIDATION_FAILED');
    await expectSetUnchanged(docs, run([b], { format: '{page}' }), 400, 'VALIDATION_FAILED');
    // An encrypted document last, without its password, then with a wrong one.
    const withLocked = [...docs, 'bad/locked.pdf'];
    await expectSetUnchanged(withLocked, run([b, { filePath: 'bad/c.pdf' }, { filePath: 'bad/locked.pdf' }]), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    await expectSetUnchanged(withLocked, run([b, { filePath: 'bad/c.pdf' }, { filePath: 'bad/locked.pdf', password: 'wrong' }]), 403, 'DOCUMENT_PASSWORD_INVALID');
    // If-Match is the document posted to's.
    await expectSetUnchanged(docs, run([b], {}, { 'if-match': '"not-the-etag"' }), 412, 'PRECONDITION_FAILED');
    assert.equal((await call(server, 'GET', '/documents/bad/out.pdf')).status, 404);
  });

  test('a set larger than one batch of the check (8 documents at a time): the sequence in the set\'s order; a refusal is the first failing document\'s in that order', async () => {
    // Twelve documents of one to three pages: the check reads them in two batches, the numbers follow the set's order.
    const names = Array.from({ length: 12 }, (_, i) => `big/d${String(i).padStart(2, '0')}.pdf`);
    const pageCounts = names.map((_, i) => 1 + (i % 3));
    for (const [i, doc] of names.entries()) await upload(doc, makePdf({ pages: pageCounts[i]!, text: (k) => `D${i}P${k + 1}` }));
    await upload('big/locked.pdf', encryptPdf(makePdf({ pages: 1 }), 'user-pw', 'owner-pw'));
    const documents = (list: object[]) => () => action(names[0]!, { PageNumbersAction: { prefix: 'B-', documents: list } });
    const rest = names.slice(1).map((filePath) => ({ filePath }));
    // Two missing documents in one batch: the 404 names the first of the set, not whichever the store answered first.
    const missing = await expectSetUnchanged(names, documents([...rest.slice(0, 4), { filePath: 'big/gone-1.pdf' }, { filePath: 'big/gone-2.pdf' }, ...rest.slice(4)]), 404, 'DOCUMENT_NOT_FOUND');
    assert.match(missing.json().detail, /big\/gone-1\.pdf/, missing.text);
    // In the second batch, a locked document without its password before a range past another's end: the 403.
    const failing = [...rest.slice(0, 9), { filePath: 'big/locked.pdf' }, { filePath: names[10]!, pageRange: '9' }, { filePath: names[11]! }];
    await expectSetUnchanged([...names, 'big/locked.pdf'], documents(failing), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    const reply = await documents(rest)();
    assert.equal(reply.status, 200, reply.text);
    const { report } = reply.json();
    const starts = pageCounts.map((_, i) => 1 + pageCounts.slice(0, i).reduce((a, b) => a + b, 0));
    const total = pageCounts.reduce((a, b) => a + b, 0);
    assert.equal(report.lastNumber, total);
    assert.deepEqual(
      report.documents.map((d: Record<string, unknown>) => [d.path, d.firstNumber, d.lastNumber]),
      names.map((doc, i) => [`/${doc}`, starts[i], starts[i]! + pageCounts[i]! - 1]),
    );
    for (const [i, doc] of names.entries()) {
      const pdf = await storedBytes(server, doc);
      assert.ok(qpdfCheck(pdf).ok, doc);
      for (let k = 0; k < pageCounts[i]!; k++) {
        const text = pageText(pdf, k + 1);
        assert.match(text, new RegExp(`D${i}P${k + 1}`), `${doc} page ${k + 1} keeps its text`);
        assert.deepEqual(text.match(/B-\d+/g), [`B-${starts[i]! + k}`], `${doc} page ${k + 1}: ${text}`);
      }
    }
  });

  test('as a job (Prefer: respond-async): the same sequence; a document\'s password is not written into the job\'s record', async () => {
    await upload('setjob/a.pdf', makePdf({ pages: 2 }));
    await upload('setjob/b.pdf', encryptPdf(makePdf({ pages: 2 }), 'set-job-pw-7Rt', 'set-owner-pw-7Rt'));
    const reply = await action('setjob/a.pdf', { PageNumbersAction: { prefix: 'J-', documents: [{ filePath: 'setjob/b.pdf', password: 'set-owner-pw-7Rt' }] } }, { prefer: 'respond-async' });
    assert.equal(reply.status, 202, reply.text);
    const job = await jobEnded(server, reply.json().id);
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    assert.match(pdftotext(await storedBytes(server, 'setjob/a.pdf')), /J-1[\s\S]*J-2/);
    assert.match(pdftotext(await storedBytes(server, 'setjob/b.pdf'), 'set-job-pw-7Rt'), /J-3[\s\S]*J-4/);
    const records = readdirSync(path.join(server.dataDir, 'state', 'jobs'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    assert.ok(records.length > 0, 'the job store has records');
    for (const e of records) assert.ok(!readFileSync(path.join(e.parentPath, e.name), 'latin1').includes('set-owner-pw-7Rt'), `${e.name} holds no password`);
  });

  test('a one-shot conversion step takes no documents', async () => {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(makePdf({ pages: 1 }))], { type: 'application/pdf' }), 'in.pdf');
    body.append('steps', JSON.stringify([{ PageNumbersAction: { documents: [{ filePath: 'set/b.pdf' }] } }]));
    const reply = await call(server, 'POST', '/convert', { body });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.json().code, 'INVALID_ACTION');
  });
});
