import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, expectUnchanged, jobEnded, putPdf, storedBytes } from '../helpers/http.js';
import { execFileSync } from 'node:child_process';
import { aes128WithoutKeyLength, appendInfoUpdate, encryptPdf, makePdf, pdfinfo, pdftotext, qpdfCheck, qpdfLinearization, withTempFile } from '../helpers/pdf.js';
import { signedFieldPdf } from '../helpers/signing.js';
import { qpdfEncryption, runQpdf } from '../helpers/qpdf-encryption.js';
import { serverForSuite } from '../helpers/server.js';

const text = (page: number) => `Linearize page ${page + 1} alpha bravo charlie`;

function linearizeRequest(doc: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return call(server, 'POST', `/documents/${doc}`, { body: { LinearizeAction: params }, headers });
}

const server = serverForSuite();

/** The DocumentModel (a GET without Accept: JSON answers the PDF itself). */
async function documentModel(doc: string): Promise<Record<string, any>> {
  const reply = await call(server, 'GET', `/documents/${doc}`, { headers: { accept: 'application/json' } });
  assert.equal(reply.status, 200, reply.text);
  return reply.json();
}

describe('LinearizeAction', () => {
  test('writes to savePath a file qpdf and pdfinfo call linearized, with the same text; the DocumentModel says so', async () => {
    const source = makePdf({ pages: 12, text });
    await putPdf(server, 'lin/source.pdf', source);
    assert.equal(qpdfLinearization(source), 'not linearized');
    const before = await call(server, 'GET', '/documents/lin/source.pdf', { headers: { accept: 'application/json' } });
    assert.equal(before.json().linearized, false);

    const reply = await linearizeRequest('lin/source.pdf', { savePath: 'lin/out/web.pdf' });
    assert.equal(reply.status, 201, reply.text);
    const model = reply.json();
    assert.equal(model.pageCount, 12);
    assert.equal(model.report.bytesBefore, source.length);
    assert.equal(model.report.encrypted, false);

    const written = await storedBytes(server, 'lin/out/web.pdf');
    assert.equal(model.report.bytesAfter, written.length);
    assert.equal(qpdfLinearization(written), 'linearized');
    assert.ok(qpdfCheck(written).ok);
    assert.equal(pdfinfo(written).Optimized, 'yes');
    assert.equal(pdftotext(written), pdftotext(source));
    assert.deepEqual(await storedBytes(server, 'lin/source.pdf'), source, 'the source is left as it was');
    // Only the order changes: every page's content stream is still there byte for byte (here uncompressed, as it was).
    for (let page = 0; page < 12; page++) assert.ok(written.includes(`(${text(page)}) Tj`), `page ${page + 1}'s content stream kept as it was`);

    const got = await call(server, 'GET', '/documents/lin/out/web.pdf', { headers: { accept: 'application/json' } });
    assert.equal(got.json().linearized, true);
  });

  test('without savePath the document is replaced in place; linearizing again keeps it linearized', async () => {
    await putPdf(server, 'lin/inplace.pdf', makePdf({ pages: 3, text }));
    const first = await linearizeRequest('lin/inplace.pdf');
    assert.equal(first.status, 200, first.text);
    assert.equal((await documentModel('lin/inplace.pdf')).linearized, true);
    const again = await linearizeRequest('lin/inplace.pdf', null as unknown as Record<string, unknown>);
    assert.equal(again.status, 200, again.text);
    assert.equal(qpdfLinearization(await storedBytes(server, 'lin/inplace.pdf')), 'linearized');
  });

  test('a later incremental update breaks the linearization: the DocumentModel, qpdf and pdfinfo all say not linearized', async () => {
    await putPdf(server, 'lin/base.pdf', makePdf({ pages: 4, text }));
    assert.equal((await linearizeRequest('lin/base.pdf')).status, 200);
    const linear = await storedBytes(server, 'lin/base.pdf');
    const updated = appendInfoUpdate(linear, 'Changed later');
    assert.equal(qpdfLinearization(updated), 'not linearized');
    assert.equal(pdfinfo(updated).Optimized, 'no');
    assert.equal(pdfinfo(updated).Title, 'Changed later', 'the update is read');
    await putPdf(server, 'lin/updated.pdf', updated);
    const model = await call(server, 'GET', '/documents/lin/updated.pdf', { headers: { accept: 'application/json' } });
    assert.equal(model.json().linearized, false);
    // And linearizing it again makes it linearized, the update included.
    assert.equal((await linearizeRequest('lin/updated.pdf')).status, 200);
    assert.equal((await documentModel('lin/updated.pdf')).linearized, true);
    const relinearized = await storedBytes(server, 'lin/updated.pdf');
    assert.equal(qpdfLinearization(relinearized), 'linearized');
    assert.equal(pdfinfo(relinearized).Title, 'Changed later');
  });

  test('an edit the service saves after linearizing ends the linearization, and the DocumentModel says so as qpdf does', async () => {
    await putPdf(server, 'lin/edited.pdf', makePdf({ pages: 3, text }));
    assert.equal((await linearizeRequest('lin/edited.pdf')).status, 200);
    const stamp = await call(server, 'POST', '/documents/lin/edited.pdf/pages', { body: { TextStampAction: { text: 'Reviewed', x: 72, y: 72, pageIndex: 0 } } });
    assert.equal(stamp.status, 200, stamp.text);
    const edited = await storedBytes(server, 'lin/edited.pdf');
    assert.equal(qpdfLinearization(edited), 'not linearized');
    assert.equal(pdfinfo(edited).Optimized, 'no');
    assert.equal((await documentModel('lin/edited.pdf')).linearized, false);
  });

  test('an encrypted document needs its password and keeps its encryption and both passwords', async () => {
    const doc = 'lin/secret.pdf';
    await putPdf(server, doc, encryptPdf(makePdf({ pages: 2, text }), 'user-pw', 'owner-pw'));
    await expectUnchanged(server, doc, () => linearizeRequest(doc), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    await expectUnchanged(server, doc, () => linearizeRequest(doc, {}, { 'x-service-documentpassword': 'wrong' }), 403, 'DOCUMENT_PASSWORD_INVALID');
    const reply = await linearizeRequest(doc, { savePath: 'lin/secret-web.pdf' }, { 'x-service-documentpassword': 'user-pw' });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.json().encrypted, true);
    assert.equal(reply.json().report.encrypted, true);
    const written = await storedBytes(server, 'lin/secret-web.pdf');
    const asUser = qpdfEncryption(written, 'user-pw');
    const asOwner = qpdfEncryption(written, 'owner-pw');
    assert.ok(asUser?.encrypted && asUser.userMatched, 'the user password still opens it');
    assert.ok(asOwner?.ownerMatched, 'the owner password is still the owner password');
    assert.equal(asUser.R, 6, 'AES-256 kept');
    assert.equal(asUser.P, qpdfEncryption(await storedBytes(server, doc), 'user-pw')?.P, 'the permissions kept');
    assert.equal(pdftotext(written, 'user-pw'), pdftotext(await storedBytes(server, doc), 'user-pw'));
    assert.equal(withTempFile(written, (file) => runQpdf(['--check-linearization', '--password=user-pw', file]).out.includes('no linearization errors')), true);
  });

  test('qpdf\'s output that the service cannot open (AES-128 without /Length: qpdf warns, exit 3, and writes /Length 0) is 422 OUTPUT_CHECK_FAILED and nothing is written', async () => {
    // Before: stored over the original, every later read 422 UNSUPPORTED_ENCRYPTION (pypdf's r4-aes-v2-no-key-length.pdf).
    const doc = 'lin/no-key-length.pdf';
    const source = aes128WithoutKeyLength(makePdf({ pages: 2, text }), 'user-pw', 'owner-pw');
    const qpdfSays = withTempFile(source, (file) => {
      try {
        execFileSync('qpdf', ['--linearize', '--password=user-pw', file, `${file}.out`], { stdio: 'pipe' });
        return 0;
      } catch (err) {
        return (err as { status: number }).status;
      }
    });
    assert.equal(qpdfSays, 3, 'qpdf writes it with warnings');
    await putPdf(server, doc, source);
    const asUser = { 'x-service-documentpassword': 'user-pw' };
    const model = await call(server, 'GET', `/documents/${doc}`, { headers: { accept: 'application/json', ...asUser } });
    assert.equal(model.status, 200, 'the service reads it');
    assert.equal(model.json().pageCount, 2);
    const reply = await expectUnchanged(server, doc, () => linearizeRequest(doc, {}, asUser), 422, 'OUTPUT_CHECK_FAILED');
    const problem = reply.json();
    assert.equal(problem.program, 'qpdf');
    assert.match(problem.problem, /does not open with the document password/);
    assert.ok(problem.warnings.some((w: string) => /Length/.test(w)), 'qpdf\'s warning is reported');
    await expectUnchanged(server, doc, () => linearizeRequest(doc, { savePath: 'lin/no-key-length-web.pdf' }, asUser), 422, 'OUTPUT_CHECK_FAILED');
    assert.equal((await call(server, 'GET', '/documents/lin/no-key-length-web.pdf')).status, 404, 'nothing written at savePath');
    const after = await call(server, 'GET', `/documents/${doc}`, { headers: { accept: 'application/json', ...asUser } });
    assert.equal(after.status, 200, after.text);
  });

  test('a damaged file whose encryption only MuPDF\'s repair finds: qpdf\'s unencrypted output fails the check, and MuPDF\'s rewrite is linearized, still encrypted', async () => {
    // A plain PDF followed by an encrypted one (pdf.js's issue15893_reduced.pdf): qpdf rebuilds the cross-reference table
    // from the first trailer, finds no /Encrypt and writes the encrypted strings and streams as plain ones (exit 3).
    // Before the check, that file was stored; with the check alone, the document was refused.
    const doc = 'lin/two-files.pdf';
    const plain = makePdf({ pages: 1, text: () => 'The first file' });
    const inner = makePdf({ pages: 2, text });
    await putPdf(server, doc, Buffer.concat([plain, encryptPdf(inner, 'user-pw', 'owner-pw', '128', ['--use-aes=y'])]));
    const asUser = { 'x-service-documentpassword': 'user-pw' };
    const reply = await linearizeRequest(doc, { savePath: 'lin/two-files-web.pdf' }, asUser);
    assert.equal(reply.status, 201, reply.text);
    assert.match(reply.json().report.warnings[0], /qpdf's output failed the service's check.*not encrypted.*linearized from the document as MuPDF repaired and rewrote it/);
    const written = await storedBytes(server, 'lin/two-files-web.pdf');
    assert.ok(qpdfEncryption(written, 'user-pw')?.userMatched, 'still encrypted, with the same user password');
    assert.equal(withTempFile(written, (file) => runQpdf(['--check-linearization', '--password=user-pw', file]).out.includes('no linearization errors')), true);
    assert.equal(pdftotext(written, 'user-pw'), pdftotext(inner));
  });

  test('an AES-256 password that every read accepts after SASLprep (no-break space, full-width letters) is accepted: qpdf gets it normalised', async () => {
    // Before: 422 PROCESSING_FAILED, qpdf "invalid password" (pypdf's saslprep-r6.pdf). U+00A0 maps to a space, the
    // full-width letters to ASCII (NFKC); qpdf encrypts with the normalised form, as ISO 32000-2 says a writer does.
    const doc = 'lin/saslprep.pdf';
    const normalised = 'pass word';
    const sent = '\uff50\uff41ss\u00a0word';
    await putPdf(server, doc, encryptPdf(makePdf({ pages: 2, text }), normalised, 'owner-pw', '256'));
    const header = { 'x-service-documentpassword': `UTF-8''${encodeURIComponent(sent)}` };
    const read = await call(server, 'GET', `/documents/${doc}`, { headers: { accept: 'application/json', ...header } });
    assert.equal(read.status, 200, read.text);
    const reply = await linearizeRequest(doc, { savePath: 'lin/saslprep-web.pdf' }, header);
    assert.equal(reply.status, 201, reply.text);
    const written = await storedBytes(server, 'lin/saslprep-web.pdf');
    assert.ok(qpdfEncryption(written, normalised)?.userMatched, 'the user password still opens it');
    assert.equal(withTempFile(written, (file) => runQpdf(['--check-linearization', `--password=${normalised}`, file]).out.includes('no linearization errors')), true);
    assert.equal(pdftotext(written, normalised), pdftotext(await storedBytes(server, doc), normalised));
  });

  test('a user password whose permissions forbid changes is refused (403), the owner password lifts it', async () => {
    const doc = 'lin/locked.pdf';
    await putPdf(server, doc, encryptPdf(makePdf({ pages: 2, text }), 'user-pw', 'owner-pw', '256', ['--modify=none']));
    await expectUnchanged(server, doc, () => linearizeRequest(doc, {}, { 'x-service-documentpassword': 'user-pw' }), 403, 'DOCUMENT_PERMISSION_DENIED');
    const reply = await linearizeRequest(doc, {}, { 'x-service-documentpassword': 'owner-pw' });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(qpdfEncryption(await storedBytes(server, doc), 'owner-pw')?.R, 6);
  });

  test('a signed document is refused with 409 DOCUMENT_SIGNED and left unchanged', async () => {
    const doc = 'lin/signed.pdf';
    await putPdf(server, doc, signedFieldPdf());
    await expectUnchanged(server, doc, () => linearizeRequest(doc, { savePath: 'lin/signed-web.pdf' }), 409, 'DOCUMENT_SIGNED');
    assert.equal((await call(server, 'GET', '/documents/lin/signed-web.pdf')).status, 404, 'nothing written at savePath');
  });

  test('as a background job: the password is checked before 202, and the job writes the linearized, still encrypted file', async () => {
    const doc = 'lin/job.pdf';
    await putPdf(server, doc, encryptPdf(makePdf({ pages: 3, text }), 'user-pw', 'owner-pw', '256', ['--modify=none']));
    // A user password that does not allow changes is the request's 403, not a failed job.
    await expectUnchanged(server, doc, () => call(server, 'POST', `/documents/${doc}`, {
      headers: { prefer: 'respond-async', 'x-service-documentpassword': 'user-pw' },
      body: { LinearizeAction: { savePath: 'lin/job-web.pdf' } },
    }), 403, 'DOCUMENT_PERMISSION_DENIED');
    const reply = await call(server, 'POST', `/documents/${doc}`, {
      headers: { prefer: 'respond-async', 'x-service-documentpassword': 'owner-pw' },
      body: { LinearizeAction: { savePath: 'lin/job-web.pdf' } },
    });
    assert.equal(reply.status, 202, reply.text);
    const done = await jobEnded(server, reply.json().id);
    assert.equal(done.state, 'succeeded', JSON.stringify(done));
    assert.equal(done.result.status, 201);
    const written = await storedBytes(server, 'lin/job-web.pdf');
    assert.equal(qpdfEncryption(written, 'owner-pw')?.ownerMatched, true);
    assert.equal(withTempFile(written, (file) => runQpdf(['--check-linearization', '--password=owner-pw', file]).out.includes('no linearization errors')), true);
  });

  test('unknown parameters are 400, an existing savePath 409 (namingMode 0), and nothing changes', async () => {
    const doc = 'lin/params.pdf';
    await putPdf(server, doc, makePdf({ pages: 1, text }));
    await expectUnchanged(server, doc, () => linearizeRequest(doc, { fast: true }), 400, 'VALIDATION_FAILED');
    await putPdf(server, 'lin/taken.pdf', makePdf({ pages: 1 }));
    await expectUnchanged(server, 'lin/taken.pdf', () => linearizeRequest(doc, { savePath: 'lin/taken.pdf' }), 409, 'ALREADY_EXISTS');
    const overwritten = await linearizeRequest(doc, { savePath: 'lin/taken.pdf', namingMode: 1 });
    assert.equal(overwritten.status, 200, overwritten.text);
    assert.equal(qpdfLinearization(await storedBytes(server, 'lin/taken.pdf')), 'linearized');
  });

  test('a file qpdf cannot read as stored (no cross-reference table, no trailer) is linearized from MuPDF\'s repair, and the report says so', async () => {
    // Before: 422 PROCESSING_FAILED, "qpdf could not linearize the document" (corpus: pdf-lib's missing_xref_trailer_dict.pdf).
    const whole = makePdf({ pages: 3, text }).toString('latin1');
    const damaged = Buffer.from(`${whole.slice(0, whole.indexOf('xref\n'))}%%EOF\n`, 'latin1');
    assert.equal(qpdfCheck(damaged).ok, false, 'qpdf cannot read it');
    assert.equal((await putPdf(server, 'lin/damaged.pdf', damaged)).status, 201, 'MuPDF can: it is stored');
    const reply = await linearizeRequest('lin/damaged.pdf', { savePath: 'lin/out/repaired.pdf' });
    assert.equal(reply.status, 201, reply.text);
    assert.match(reply.json().report.warnings[0], /qpdf could not linearize the document: .*linearized from the document as MuPDF repaired and rewrote it/);
    const written = await storedBytes(server, 'lin/out/repaired.pdf');
    assert.equal(qpdfLinearization(written), 'linearized');
    assert.ok(qpdfCheck(written).ok, qpdfCheck(written).output);
    assert.deepEqual(pdftotext(written).split(/\s+/).filter(Boolean), pdftotext(makePdf({ pages: 3, text })).split(/\s+/).filter(Boolean));
  });
});
