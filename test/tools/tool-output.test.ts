import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { EnginePool } from '../../src/engine/pool.js';
import { ServiceError } from '../../src/errors.js';
import { engineFor } from '../../src/operations/execution.js';
import { checkToolOutput } from '../../src/operations/tool-output.js';
import { aes128WithoutKeyLength, encryptPdf, makePdf, withTempFile } from '../helpers/pdf.js';

/**
 * The one check of every external program's output (operations/tool-output.ts, docs/errors.md OUTPUT_CHECK_FAILED),
 * on what real programs write: qpdf's output of an AES-128 file without /Length (exit status 3), Ghostscript's
 * pdfwrite output whole and cut short, and outputs LibreOffice must never be stored as (encrypted, no PDF).
 * LinearizeAction's HTTP test (linearize.test.ts) shows the check wired into a write.
 */
const pool = new EnginePool({ size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10 });
const engine = engineFor(pool);
after(() => pool.close());

const text = (page: number) => `Checked page ${page + 1} alpha bravo`;

/** Runs a program on `input` as in.pdf and answers its out.pdf and exit status (qpdf's 3 is "written, with warnings"). */
function run(program: string, args: (input: string, output: string) => string[], input: Uint8Array): { pdf: Buffer; status: number } {
  return withTempFile(input, (file) => {
    const output = `${file}.out.pdf`;
    let status = 0;
    try {
      execFileSync(program, args(file, output), { stdio: 'pipe' });
    } catch (err) {
      status = (err as { status: number }).status;
    }
    return { pdf: readFileSync(output), status };
  });
}

const ghostscript = (input: Uint8Array) => run('gs', (i, o) => ['-dSAFER', '-dBATCH', '-dNOPAUSE', '-dQUIET', '-sDEVICE=pdfwrite', `-sOutputFile=${o}`, i], input).pdf;

async function refused(promise: Promise<unknown>, problem: RegExp): Promise<ServiceError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof ServiceError, String(err));
  assert.equal(err.code, 'OUTPUT_CHECK_FAILED');
  assert.equal(err.status, 422);
  assert.match(String(err.extra?.problem), problem);
  return err;
}

describe('checkToolOutput', () => {
  test('qpdf: its "succeeded with warnings" output of an AES-128 file without /Length does not open with the password: refused, with its warnings', async () => {
    const { pdf, status } = run('qpdf', (i, o) => ['--linearize', '--password=user-pw', i, o], aes128WithoutKeyLength(makePdf({ pages: 2, text }), 'user-pw', 'owner-pw'));
    assert.equal(status, 3);
    const err = await refused(checkToolOutput(engine, { program: 'qpdf', pdf, warnings: ['/Length: returning 0'] }, { password: 'user-pw', pageCount: 2, encrypted: true }), /does not open with the document password/);
    assert.equal(err.extra?.program, 'qpdf');
    assert.deepEqual(err.extra?.warnings, ['/Length: returning 0']);
    assert.match(err.detail ?? '', /^qpdf's output failed the service's check, so nothing was written: /);
  });

  test('qpdf: a good output passes and answers its summary; one that lost the encryption is refused', async () => {
    const source = encryptPdf(makePdf({ pages: 2, text }), 'user-pw', 'owner-pw', '128', ['--use-aes=y']);
    const { pdf, status } = run('qpdf', (i, o) => ['--linearize', '--password=user-pw', i, o], source);
    assert.equal(status, 0);
    const summary = await checkToolOutput(engine, { program: 'qpdf', pdf }, { password: 'user-pw', pageCount: 2, encrypted: true });
    assert.equal(summary.pageCount, 2);
    assert.equal(summary.encrypted, true);
    assert.equal(summary.info, undefined, 'no DocumentInfo for a version read with a password');
    const decrypted = run('qpdf', (i, o) => ['--decrypt', '--password=user-pw', i, o], source).pdf;
    await refused(checkToolOutput(engine, { program: 'qpdf', pdf: decrypted }, { password: 'user-pw', pageCount: 2, encrypted: true }), /not encrypted, the document was/);
  });

  test('Ghostscript: its output passes with the pages it was given; another page count, or the file cut before its cross-reference table, is refused', async () => {
    const pdf = ghostscript(makePdf({ pages: 3, text }));
    const summary = await checkToolOutput(engine, { program: 'Ghostscript', pdf }, { pageCount: 3, encrypted: false });
    assert.equal(summary.pageCount, 3);
    assert.equal(summary.info?.pageCount, 3);
    await refused(checkToolOutput(engine, { program: 'Ghostscript', pdf }, { pageCount: 4, encrypted: false }), /has 3 pages, the document 4/);
    const cut = pdf.subarray(0, pdf.lastIndexOf('\nxref'));
    await refused(checkToolOutput(engine, { program: 'Ghostscript', pdf: cut }, { pageCount: 3, encrypted: false }), /cross-reference data is broken/);
  });

  test('LibreOffice: an output that is not a PDF, is encrypted, or has no page is refused (no password to open it with)', async () => {
    await refused(checkToolOutput(engine, { program: 'LibreOffice', pdf: Buffer.from('<html>Error</html>') }, { encrypted: false }), /not a PDF/);
    await refused(checkToolOutput(engine, { program: 'LibreOffice', pdf: encryptPdf(makePdf({ pages: 1 }), 'u', 'o') }, { encrypted: false }), /does not open \(DOCUMENT_PASSWORD_REQUIRED/);
    await refused(checkToolOutput(engine, { program: 'LibreOffice', pdf: encryptPdf(makePdf({ pages: 1 }), '', 'o') }, { encrypted: false }), /is encrypted, the document was not/);
    const none = makePdf({ pages: 1 }).toString('latin1').replace('/Count 1', '/Count 0').replace(/\/Kids \[[^\]]*\]/, '/Kids []');
    await refused(checkToolOutput(engine, { program: 'LibreOffice', pdf: Buffer.from(none, 'latin1') }, { encrypted: false }), /has 0 pages/);
  });
});
