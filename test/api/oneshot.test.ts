/**
 * One-shot conversions (POST /convert, docs/api.md "One-shot conversions"): files in, the result in the answer,
 * nothing stored. Results are checked with independent tools (pdftotext, pdfinfo, qpdf; veraPDF through the
 * service's preflight route on a copy stored afterwards), and after every request, whatever its outcome, the document
 * store is as it was and the staging area and the tools' scratch folders hold nothing of it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, jobEnded, putPdf, type Reply } from '../helpers/http.js';
import { wordDocument } from '../helpers/office-fixtures.js';
import { jpegOf, photo } from '../helpers/ocr-fixtures.js';
import { makePdf, pdfinfo, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function form(file: { bytes: Buffer; type: string; name: string } | undefined, steps?: unknown, extra: Record<string, Blob | string> = {}): FormData {
  const body = new FormData();
  if (file) body.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  if (steps !== undefined) body.append('steps', typeof steps === 'string' ? steps : JSON.stringify(steps));
  for (const [name, value] of Object.entries(extra)) body.append(name, value);
  return body;
}

function convert(body: FormData, headers: Record<string, string> = {}, query = ''): Promise<Reply> {
  return call(server, 'POST', `/convert${query}`, { body, headers });
}

/** Every file under `dir` (relative paths, sorted), or [] when it does not exist. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** What a one-shot may leave behind: files in the staging area, run folders in the tools' scratch folders. */
function leftovers(): string[] {
  const staging = filesUnder(path.join(server.dataDir, 'staging')).map((file) => `staging/${file}`);
  const runs = readdirSync(server.dataDir)
    .filter((name) => name.endsWith('-scratch'))
    .flatMap((scratch) => readdirSync(path.join(server.dataDir, scratch)).filter((name) => name.startsWith('run-')).map((name) => `${scratch}/${name}`));
  return [...staging, ...runs];
}

/** Whether a program works for a request now: a run folder in a tool's scratch folder, or in a warm instance's home there. */
function programRunning(): boolean {
  return readdirSync(server.dataDir)
    .filter((name) => name.endsWith('-scratch'))
    .some((scratch) => {
      const dir = path.join(server.dataDir, scratch);
      const inHome = (home: string): boolean => {
        try {
          return readdirSync(path.join(dir, home)).some((inner) => inner.startsWith('run-'));
        } catch {
          return false; // an instance replaced meanwhile
        }
      };
      return readdirSync(dir).some((name) => name.startsWith('run-') || (name.startsWith('instance-') && inHome(name)));
    });
}

/** Polls until nothing is left behind (a client abort ends the work a little after the connection closes). */
async function nothingLeft(): Promise<void> {
  for (let i = 0; i < 400 && leftovers().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(leftovers(), [], 'the staging area and the scratch folders are empty');
}

/** The store as listed over HTTP and as it is on disk. */
async function storeState(): Promise<{ listing: unknown; disk: string[] }> {
  const listing = await call(server, 'GET', '/documents');
  assert.equal(listing.status, 200, listing.text);
  return { listing: listing.json(), disk: filesUnder(server.documentsDir) };
}

/** Runs `request` and asserts that it stored nothing and left nothing behind. */
async function storesNothing<T>(request: () => Promise<T>): Promise<T> {
  const before = await storeState();
  const result = await request();
  await nothingLeft();
  assert.deepEqual(await storeState(), before, 'nothing was written to the document store');
  return result;
}

const words = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('one-shot conversions', () => {
  test('DOCX -> PDF -> PDF/A-2b -> optimize in one call: the result in the answer, veraPDF finds it compliant, nothing stored', async () => {
    await putPdf(server, 'kept/existing.pdf', makePdf({ text: () => 'Already here' }));
    const docx = wordDocument(['One-shot minutes', 'Second page of the minutes']);
    const steps = [{ PDFAConvertAction: { profile: 'pdfa2b' } }, { OptimizeAction: { profileName: 'lossless' } }];
    const reply = await storesNothing(() => convert(form({ bytes: docx, type: DOCX, name: 'minutes.docx' }, steps)));
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('content-type'), 'application/pdf');
    assert.equal(Number(reply.headers.get('content-length')), reply.bytes.length);
    assert.match(reply.headers.get('content-disposition') ?? '', /attachment; filename="minutes\.pdf"/);
    assert.ok(qpdfCheck(reply.bytes).ok);
    assert.equal(pdfinfo(reply.bytes).Pages, '2');
    const text = words(pdftotext(reply.bytes));
    assert.match(text, /One-shot minutes/);
    assert.match(text, /Second page of the minutes/);
    assert.match(reply.bytes.toString('latin1'), /pdfaid:part[>=]['"]?2/, 'the XMP claims PDF/A-2');
    // veraPDF, outside the one-shot: the result stored as a document of its own (after the check above) and validated.
    assert.equal((await putPdf(server, 'check/minutes.pdf', reply.bytes)).status, 201);
    const verdict = await call(server, 'GET', '/documents/check/minutes.pdf/preflight-results?profile=pdfa2b');
    assert.equal(verdict.status, 200, verdict.text);
    assert.equal(verdict.json().compliant, true, JSON.stringify(verdict.json().rules));
  });

  test('an image becomes a PDF, with no steps', async () => {
    const jpeg = jpegOf(photo(300, 200), 80);
    const reply = await storesNothing(() => convert(form({ bytes: jpeg, type: 'image/jpeg', name: 'photo.jpg' })));
    assert.equal(reply.status, 200, reply.text);
    assert.equal(pdfinfo(reply.bytes).Pages, '1');
    assert.match(reply.headers.get('content-disposition') ?? '', /filename="photo\.pdf"/);
  });

  test('a PDF with a page action and a document action, each step on the output of the one before', async () => {
    const pdf = makePdf({ pages: 3, text: (page) => `Page ${page + 1} body` });
    const steps = [{ DeletePagesAction: { pageRange: '2' } }, { TextStampAction: { text: 'ONESHOT STAMP', x: 72, y: 72 } }];
    const reply = await storesNothing(() => convert(form({ bytes: pdf, type: 'application/pdf', name: 'in.pdf' }, steps)));
    assert.equal(reply.status, 200, reply.text);
    assert.equal(pdfinfo(reply.bytes).Pages, '2');
    const text = words(pdftotext(reply.bytes));
    assert.match(text, /ONESHOT STAMP/);
    assert.doesNotMatch(text, /Page 2 body/);
  });

  test('a step with a file of its own (an image to stamp) gets the parts other than file, asset and steps', async () => {
    const pdf = makePdf({ text: () => 'Stamped here' });
    const stamp = new Blob([new Uint8Array(jpegOf(photo(40, 40), 80))], { type: 'image/jpeg' });
    const reply = await storesNothing(() => convert(form({ bytes: pdf, type: 'application/pdf', name: 'in.pdf' }, [{ ImageStampAction: { x: 10, y: 10, width: 40, height: 40 } }], { stamp })));
    assert.equal(reply.status, 200, reply.text);
    assert.ok(qpdfCheck(reply.bytes).ok);
  });

  test('bad requests are 4xx problem documents before any work; nothing stored, nothing left behind', async () => {
    const pdf = { bytes: makePdf(), type: 'application/pdf', name: 'in.pdf' };
    const cases: [string, FormData, number, string, RegExp?][] = [
      ['steps not JSON', form(pdf, '[{"Optimize'), 400, 'MALFORMED_JSON'],
      ['steps not an array', form(pdf, { OptimizeAction: {} }), 400, 'INVALID_ACTION', /JSON array/],
      ['an unknown action', form(pdf, [{ NoSuchAction: {} }]), 400, 'INVALID_ACTION', /Step 1: Unknown action "NoSuchAction"/],
      ['two keys in a step', form(pdf, [{ OptimizeAction: {}, LinearizeAction: {} }]), 400, 'INVALID_ACTION', /Step 1/],
      ['a savePath', form(pdf, [{ OptimizeAction: { profileName: 'screen' } }, { LinearizeAction: { savePath: 'x/y.pdf' } }]), 400, 'INVALID_ACTION', /Step 2: .*savePath/],
      ['a bad parameter', form(pdf, [{ PDFAConvertAction: { profile: 'pdfa9z' } }]), 400, 'VALIDATION_FAILED'],
      ['an unknown optimize profile', form(pdf, [{ OptimizeAction: { profileName: 'no-such-profile' } }]), 404, 'PROFILE_NOT_FOUND'],
      ['too many steps', form(pdf, Array.from({ length: 21 }, () => ({ LinearizeAction: {} }))), 400, 'INVALID_ACTION', /At most 20/],
      ['no file part', form(undefined, [], { other: new Blob([new Uint8Array(makePdf())], { type: 'application/pdf' }) }), 400, 'MALFORMED_MULTIPART'],
      ['a type nobody converts', form({ bytes: Buffer.from('PK\u0003\u0004zip'), type: 'application/zip', name: 'a.zip' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['a PDF that is not one', form({ bytes: jpegOf(photo(20, 20), 80), type: 'application/pdf', name: 'in.pdf' }), 422, 'MALFORMED_PDF'],
    ];
    for (const [what, body, status, code, detail] of cases) {
      const reply = await storesNothing(() => convert(body));
      assert.equal(reply.status, status, `${what}: ${reply.text}`);
      assert.match(reply.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
      assert.equal(reply.json().code, code, `${what}: ${reply.text}`);
      if (detail) assert.match(reply.json().detail, detail, what);
    }
    const notMultipart = await storesNothing(() => call(server, 'POST', '/convert', { body: makePdf(), headers: { 'content-type': 'application/pdf' } }));
    assert.equal(notMultipart.status, 415, notMultipart.text);
  });

  test('a failure in the work (damaged content) answers its problem and leaves nothing behind', async () => {
    const damaged = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]);
    const reply = await storesNothing(() => convert(form({ bytes: damaged, type: 'application/pdf', name: 'bad.pdf' }, [{ LinearizeAction: {} }])));
    assert.equal(reply.status, 422, reply.text);
    assert.equal(reply.json().code, 'MALFORMED_PDF');
  });

  test('a client that goes away mid-conversion leaves nothing behind', async () => {
    const before = await storeState();
    const docx = wordDocument(['Abandoned', 'by the client']);
    const abort = new AbortController();
    const started = fetch(`${server.api}/convert`, {
      method: 'POST',
      headers: { authorization: server.adminAuth },
      body: form({ bytes: docx, type: DOCX, name: 'gone.docx' }, [{ PDFAConvertAction: { profile: 'pdfa2b' } }]),
      signal: abort.signal,
    });
    // Aborted while a program works on it: once a tool's run folder exists (LibreOffice's, then Ghostscript's for the
    // PDF/A conversion), not after a fixed time, which a fast machine finished the whole request within.
    for (let i = 0; i < 3000 && !programRunning(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    abort.abort();
    const outcome = await started.then((r) => `answered ${r.status} ${r.headers.get('content-type') ?? ''}`, () => 'aborted');
    assert.equal(outcome, 'aborted');
    await nothingLeft();
    assert.deepEqual(await storeState(), before);
    // The service goes on serving; a result that is the staged input itself (a PDF, no steps) goes too once sent.
    const next = await storesNothing(() => convert(form({ bytes: makePdf(), type: 'application/pdf', name: 'next.pdf' })));
    assert.equal(next.status, 200, next.text);
  });

  test('Prefer: respond-async makes it a job whose result is a file; wait=N answers the file itself', async () => {
    const docx = wordDocument(['As a job']);
    const accepted = await storesNothing(async () => {
      const reply = await convert(form({ bytes: docx, type: DOCX, name: 'job.docx' }, [{ LinearizeAction: {} }]), { prefer: 'respond-async' });
      assert.equal(reply.status, 202, reply.text);
      assert.equal(reply.headers.get('preference-applied'), 'respond-async');
      const job = await jobEnded(server, reply.json().id, { seconds: 180 });
      assert.equal(job.state, 'succeeded', JSON.stringify(job));
      return { reply, job };
    });
    assert.match(accepted.reply.headers.get('location') ?? '', /\/pdfservice\/v1\/jobs\/[0-9a-f]{32}$/);
    const { job } = accepted;
    assert.equal(job.action, 'oneshot');
    assert.equal(job.result.status, 200);
    assert.equal(job.result.path, undefined, 'nothing stored: no path');
    assert.equal(job.result.file.name, 'job.pdf');
    assert.equal(job.result.file.mediaType, 'application/pdf');
    assert.ok(job.result.file.size > 0);
    assert.match(job.result.file.etag, /^"[^"]+"$/);
    // The result downloads from the job while its record is kept, and is what the record says.
    assert.equal(job.result.file.url, `/pdfservice/v1/jobs/${job.id}/result`);
    const download = await call(server, 'GET', `/jobs/${job.id}/result`);
    assert.equal(download.status, 200, download.text);
    assert.equal(download.headers.get('content-type'), 'application/pdf');
    assert.equal(download.headers.get('etag'), job.result.file.etag);
    assert.equal(download.bytes.length, job.result.file.size);
    assert.ok(qpdfCheck(download.bytes).ok);
    assert.match(words(pdftotext(download.bytes)), /As a job/);

    const waited = await storesNothing(() => convert(form({ bytes: docx, type: DOCX, name: 'waited.docx' }), { prefer: 'respond-async, wait=180' }));
    assert.equal(waited.status, 200, waited.text);
    assert.equal(waited.headers.get('content-type'), 'application/pdf');
    assert.match(words(pdftotext(waited.bytes)), /As a job/);

    const failed = await storesNothing(async () => {
      const reply = await convert(form({ bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500, 0x41)]), type: 'application/pdf', name: 'bad.pdf' }), { prefer: 'respond-async' });
      assert.equal(reply.status, 202, reply.text);
      return jobEnded(server, reply.json().id);
    });
    assert.equal(failed.state, 'failed');
    assert.equal(failed.error.code, 'MALFORMED_PDF');
  });

  test('a one-shot needs the POST right', async () => {
    const created = await call(server, 'POST', '/users', { body: { username: 'reader', password: 'reader-password-1', rights: ['GET'] } });
    assert.equal(created.status, 201, created.text);
    const reply = await storesNothing(() => call(server, 'POST', '/convert', { body: form({ bytes: makePdf(), type: 'application/pdf', name: 'in.pdf' }), auth: `Basic ${Buffer.from('reader:reader-password-1').toString('base64')}` }));
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.json().code, 'FORBIDDEN');
  });
});
