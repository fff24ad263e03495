/**
 * Watched folders (docs/watched-folders.md) against the real service over HTTP: binding in JSON and XML, every route
 * by which a document arrives giving exactly one run whose output pdftotext reads the stamp in, cycles refused at
 * bind time, a failing document retried PDFSERVICE_WATCH_ATTEMPTS times then left failed, in-place runs that do not
 * trigger themselves, and a restart that picks up an arrival made while the service was down without running the
 * finished ones again.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, putPdf, storedBytes, type Reply } from '../helpers/http.js';
import { docx, paragraph } from '../helpers/office-fixtures.js';
import { makePdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { encodeRgbPng } from '../helpers/png.js';
import { startServer, type TestServer } from '../helpers/server.js';

const STAMP = 'WATCHED-STAMP';
const ENV = { PDFSERVICE_WATCH_ATTEMPTS: '3', PDFSERVICE_WATCH_RETRY_MS: '200' };

function assertProblem(reply: Reply, status: number, code: string): Record<string, any> {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.json().code, code, reply.text);
  return reply.json();
}

async function ok(reply: Promise<Reply>, status: number | number[]): Promise<Reply> {
  const r = await reply;
  assert.ok((Array.isArray(status) ? status : [status]).includes(r.status), `${r.status}: ${r.text}`);
  return r;
}

async function binding(server: TestServer, name: string): Promise<Record<string, any>> {
  const got = await call(server, 'GET', `/watched-folders/${name}`, { headers: { accept: 'application/json' } });
  assert.equal(got.status, 200, got.text);
  return got.json();
}

/** Polls the binding until `done` holds of it (every run's job is a real job: the runs end when the jobs do). */
async function until(server: TestServer, name: string, done: (b: Record<string, any>) => boolean, what: string): Promise<Record<string, any>> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const b = await binding(server, name);
    if (done(b)) return b;
    if (Date.now() > deadline) assert.fail(`${what}: ${JSON.stringify(b)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const finished = (b: Record<string, any>) => b.runs.every((r: any) => r.state === 'succeeded' || r.state === 'failed');

async function stampPipeline(server: TestServer, name = 'stamp'): Promise<void> {
  await ok(call(server, 'PUT', `/pipelines/${name}`, { body: { steps: [{ TextStampAction: { text: STAMP, x: 72, y: 72 } }] } }), [200, 201]);
}

describe('watched folders over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: ENV });
    await stampPipeline(server);
    for (const folder of ['in', 'out', 'elsewhere', 'a', 'b', 'c', 'place']) await ok(call(server, 'PUT', `/documents/${folder}`), [200, 201]);
  });
  after(async () => {
    await server?.stop();
  });

  test('bind, read, list and unbind in JSON and XML; bad bindings refused', async () => {
    const made = await call(server, 'PUT', '/watched-folders/crud', { body: { folder: 'elsewhere', pipeline: { name: 'stamp' }, target: 'out' } });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.headers.get('location'), '/pdfservice/v1/watched-folders/crud');
    assert.deepEqual({ ...made.json<Record<string, unknown>>(), created: undefined }, { name: 'crud', owner: 'admin', folder: '/elsewhere', pipeline: { name: 'stamp', owner: 'admin' }, target: '/out', inPlace: false, created: undefined, runCount: 0, runs: [] });

    const xml = await call(server, 'PUT', '/watched-folders/crud', {
      body: '<WatchedFolder><folder>elsewhere</folder><pipeline><name>stamp</name><version>1</version></pipeline></WatchedFolder>',
      headers: { 'content-type': 'application/xml', accept: 'application/xml' },
    });
    assert.equal(xml.status, 200, xml.text);
    assert.match(xml.text, /<WatchedFolder>/);
    assert.match(xml.text, /<version>1<\/version>/);
    assert.match(xml.text, /<inPlace>true<\/inPlace>/);
    assert.equal((await binding(server, 'crud')).pipeline.version, 1);

    const listed = await call(server, 'GET', '/watched-folders', { headers: { accept: 'application/xml' } });
    assert.match(listed.text, /<WatchedFolders>\s*<WatchedFolder>\s*<name>crud<\/name>/);

    assertProblem(await call(server, 'PUT', '/watched-folders/bad', { body: { folder: 'nope', pipeline: { name: 'stamp' } } }), 404, 'FOLDER_NOT_FOUND');
    assertProblem(await call(server, 'PUT', '/watched-folders/bad', { body: { folder: 'elsewhere', pipeline: { name: 'nope' } } }), 404, 'PIPELINE_NOT_FOUND');
    assertProblem(await call(server, 'PUT', '/watched-folders/bad', { body: { folder: 'elsewhere', pipeline: { name: 'stamp' }, extra: 1 } }), 400, 'VALIDATION_FAILED');
    assertProblem(await call(server, 'PUT', '/watched-folders/bad', { body: { folder: '../x', pipeline: { name: 'stamp' } } }), 400, 'INVALID_PATH');
    assertProblem(await call(server, 'GET', '/watched-folders/bad'), 404, 'WATCHED_FOLDER_NOT_FOUND');

    assert.equal((await call(server, 'DELETE', '/watched-folders/crud')).status, 204);
    assertProblem(await call(server, 'GET', '/watched-folders/crud'), 404, 'WATCHED_FOLDER_NOT_FOUND');
  });

  test('a cycle through watched folders is refused at bind time, naming the loop; nothing is stored', async () => {
    await ok(call(server, 'PUT', '/watched-folders/a-to-b', { body: { folder: 'a', pipeline: { name: 'stamp' }, target: 'b' } }), 201);
    await ok(call(server, 'PUT', '/watched-folders/b-to-c', { body: { folder: 'b', pipeline: { name: 'stamp' }, target: 'c' } }), 201);
    const loop = assertProblem(await call(server, 'PUT', '/watched-folders/c-to-a', { body: { folder: 'c', pipeline: { name: 'stamp' }, target: 'a' } }), 400, 'WATCH_CYCLE');
    assert.deepEqual(loop.cycle, ['/c', '/a', '/b', '/c']);
    assertProblem(await call(server, 'PUT', '/watched-folders/self', { body: { folder: 'a', pipeline: { name: 'stamp' }, target: 'a' } }), 400, 'WATCH_CYCLE');
    // Re-binding a-to-b so that it closes the loop is refused too, and leaves the binding as it was.
    assertProblem(await call(server, 'PUT', '/watched-folders/b-to-c', { body: { folder: 'b', pipeline: { name: 'stamp' }, target: 'a' } }), 400, 'WATCH_CYCLE');
    assert.equal((await binding(server, 'b-to-c')).target, '/c');
    assertProblem(await call(server, 'GET', '/watched-folders/c-to-a'), 404, 'WATCHED_FOLDER_NOT_FOUND');
    for (const name of ['a-to-b', 'b-to-c']) assert.equal((await call(server, 'DELETE', `/watched-folders/${name}`)).status, 204);
  });

  test('PUT, form upload, DOCX and image conversions, a copy, a restore from the trash and a move each give exactly one run, its output stamped', async () => {
    await ok(call(server, 'PUT', '/watched-folders/inbox', { body: { folder: 'in', pipeline: { name: 'stamp' }, target: 'out' } }), 201);
    await ok(putPdf(server, 'in/put.pdf', makePdf({ pages: 1, text: () => 'Put body' })), 201);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(makePdf({ pages: 1, text: () => 'Form body' }))], { type: 'application/pdf' }), 'form.pdf');
    await ok(call(server, 'POST', '/documents/in', { body: form }), 201);
    await ok(call(server, 'PUT', '/documents/in/memo.pdf', { body: docx(paragraph('Memo body')), headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', prefer: 'wait=120' } }), 201);
    // Large enough for the stamp at (72, 72).
    const png = encodeRgbPng(300, 200, Buffer.alloc(300 * 200 * 3, 200));
    await ok(call(server, 'PUT', '/documents/in/image.pdf', { body: png, headers: { 'content-type': 'image/png', prefer: 'wait=120' } }), 201);
    await ok(putPdf(server, 'elsewhere/source.pdf', makePdf({ pages: 1, text: () => 'Copied body' })), 201);
    await ok(call(server, 'POST', '/documents/elsewhere/source.pdf', { body: { CopyAction: { savePath: 'in/copied.pdf' } } }), [200, 201]);
    await ok(putPdf(server, 'elsewhere/trashed.pdf', makePdf({ pages: 1, text: () => 'Trashed body' })), 201);
    assert.equal((await call(server, 'DELETE', '/documents/elsewhere/trashed.pdf')).status, 204);
    const entry = (await call(server, 'GET', '/trash?limit=1', { headers: { accept: 'application/json' } })).json().entries[0];
    await ok(call(server, 'POST', `/trash/${entry.id}/restore`, { body: { savePath: 'in/restored.pdf' } }), [200, 201]);
    // A move into the folder (docs/move.md) is an arrival too; the document's old place was not watched.
    await ok(putPdf(server, 'elsewhere/moving.pdf', makePdf({ pages: 1, text: () => 'Moved body' })), 201);
    await ok(call(server, 'POST', '/documents/elsewhere/moving.pdf', { body: { MoveAction: { savePath: 'in/moved.pdf' } } }), 201);

    const names = ['put', 'form', 'memo', 'image', 'copied', 'restored', 'moved'];
    const done = await until(server, 'inbox', (b) => b.runs.length === names.length && finished(b), 'seven runs');
    assert.equal(done.runCount, names.length);
    assert.deepEqual(done.runs.map((r: any) => r.document).sort(), names.map((n) => `/in/${n}.pdf`).sort());
    for (const run of done.runs) {
      assert.equal(run.state, 'succeeded', JSON.stringify(run));
      assert.equal(run.attempts, 1);
      assert.equal(run.jobIds.length, 1);
      const job = (await call(server, 'GET', `/jobs/${run.jobId}`, { headers: { accept: 'application/json' } })).json();
      assert.equal(job.state, 'succeeded');
      assert.equal(job.action, 'PipelineAction');
      assert.equal(run.output, run.document.replace('/in/', '/out/'));
      const bytes = await storedBytes(server, run.output.slice(1));
      assert.ok(qpdfCheck(bytes).ok);
      assert.match(pdftotext(bytes), new RegExp(STAMP), run.output);
    }
    assert.match(pdftotext(await storedBytes(server, 'out/memo.pdf')), /Memo body/);
    // The originals are as they arrived: the pipeline wrote to the target.
    assert.doesNotMatch(pdftotext(await storedBytes(server, 'in/put.pdf')), new RegExp(STAMP));
    assert.match(pdftotext(await storedBytes(server, 'out/moved.pdf')), /Moved body/);
    // Nothing ran twice: seven jobs of PipelineAction in all.
    const jobs = (await call(server, 'GET', '/jobs', { headers: { accept: 'application/json' } })).json().jobs.filter((j: any) => j.action === 'PipelineAction');
    assert.equal(jobs.length, names.length, JSON.stringify(jobs.map((j: any) => [j.document, j.state, j.created])));
    // A new version of an arrived document is a new arrival: one more run.
    await ok(putPdf(server, 'in/put.pdf', makePdf({ pages: 2, text: () => 'Put again' })), 200);
    const again = await until(server, 'inbox', (b) => b.runs.length === names.length + 1 && finished(b), 'the new version\'s run');
    assert.equal(again.runs[0].document, '/in/put.pdf');
    assert.equal(again.runs[0].state, 'succeeded');
    assert.match(pdftotext(await storedBytes(server, 'out/put.pdf')), /Put again/);
    assert.equal((await call(server, 'DELETE', '/watched-folders/inbox')).status, 204);
  });

  test('in place: the output is a new version of the document, and the run\'s own write does not trigger another', async () => {
    await ok(call(server, 'PUT', '/watched-folders/in-place', { body: { folder: 'place', pipeline: { name: 'stamp' } } }), 201);
    await ok(putPdf(server, 'place/doc.pdf', makePdf({ pages: 1, text: () => 'In place' })), 201);
    const done = await until(server, 'in-place', (b) => b.runs.length === 1 && finished(b), 'one run');
    assert.equal(done.runs[0].state, 'succeeded');
    assert.equal(done.runs[0].output, '/place/doc.pdf');
    assert.match(pdftotext(await storedBytes(server, 'place/doc.pdf')), new RegExp(STAMP));
    const versions = (await call(server, 'GET', '/documents/place/doc.pdf/versions', { headers: { accept: 'application/json' } })).json();
    assert.equal(versions.total, 2, JSON.stringify(versions));
    // Given time to run again if the write had been taken for an arrival: still one run, one stamp.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const later = await binding(server, 'in-place');
    assert.equal(later.runCount, 1);
    assert.equal(pdftotext(await storedBytes(server, 'place/doc.pdf')).split(STAMP).length - 1, 1);
    assert.equal((await call(server, 'DELETE', '/watched-folders/in-place')).status, 204);
  });

  test('a document that keeps failing is tried PDFSERVICE_WATCH_ATTEMPTS times, then recorded failed and left alone', async () => {
    // A stamp on page 5 of a one-page document fails at run time, every time.
    await ok(call(server, 'PUT', '/pipelines/fails', { body: { steps: [{ TextStampAction: { text: 'never', x: 10, y: 10, pageIndex: 4 } }] } }), [200, 201]);
    await ok(call(server, 'PUT', '/documents/failing'), [200, 201]);
    await ok(call(server, 'PUT', '/watched-folders/failing', { body: { folder: 'failing', pipeline: { name: 'fails' }, target: 'out' } }), 201);
    const original = makePdf({ pages: 1 });
    await ok(putPdf(server, 'failing/one-page.pdf', original), 201);
    const done = await until(server, 'failing', (b) => b.runs.length === 1 && b.runs[0].state === 'failed', 'the run failed');
    const run = done.runs[0];
    assert.equal(run.attempts, 3);
    assert.equal(run.jobIds.length, 3);
    assert.equal(run.error.code, 'PIPELINE_STEP_FAILED');
    assert.equal(run.error.status, 422);
    for (const id of run.jobIds) assert.equal((await call(server, 'GET', `/jobs/${id}`, { headers: { accept: 'application/json' } })).json().state, 'failed');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal((await binding(server, 'failing')).runs[0].jobIds.length, 3, 'no fourth attempt');
    assert.equal((await call(server, 'GET', '/documents/out/one-page.pdf')).status, 404);
    assert.deepEqual(await storedBytes(server, 'failing/one-page.pdf'), original);
  });
});

describe('watched folders across a restart', () => {
  test('an arrival made while the service was down is run at start; finished arrivals are not run again', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-watch-'));
    let server = await startServer({ env: ENV, dataDir });
    try {
      await stampPipeline(server);
      for (const folder of ['in', 'out']) await ok(call(server, 'PUT', `/documents/${folder}`), 201);
      await ok(call(server, 'PUT', '/watched-folders/restart', { body: { folder: 'in', pipeline: { name: 'stamp' }, target: 'out' } }), 201);
      await ok(putPdf(server, 'in/before.pdf', makePdf({ pages: 1, text: () => 'Before' })), 201);
      await until(server, 'restart', (b) => b.runs.length === 1 && finished(b), 'the first run');
      await server.stop();
      // Arrived with no service running: written into the store's folder directly.
      await writeFile(path.join(dataDir, 'documents', 'in', 'while-down.pdf'), makePdf({ pages: 1, text: () => 'While down' }));
      server = await startServer({ env: ENV, dataDir });
      const done = await until(server, 'restart', (b) => b.runs.length === 2 && finished(b), 'the missed arrival\'s run');
      assert.deepEqual(done.runs.map((r: any) => `${r.document} ${r.state}`).sort(), ['/in/before.pdf succeeded', '/in/while-down.pdf succeeded']);
      assert.match(pdftotext(await storedBytes(server, 'out/while-down.pdf')), new RegExp(`${STAMP}[\\s\\S]*While down|While down[\\s\\S]*${STAMP}`));
      // Another restart runs nothing again.
      await server.stop();
      server = await startServer({ env: ENV, dataDir });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const after = await binding(server, 'restart');
      assert.equal(after.runCount, 2);
      const jobs = (await call(server, 'GET', '/jobs', { headers: { accept: 'application/json' } })).json().jobs.filter((j: any) => j.action === 'PipelineAction');
      assert.equal(jobs.length, 2);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
