import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { call, leaksInternals, putPdf, sha256, storedBytes, jobEnded, type Reply } from '../helpers/http.js';
import { followEvents } from '../helpers/jobs.js';
import { makePdf, pdftotext, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN, basicAuth, startServer, type TestServer } from '../helpers/server.js';

function assertProblem(reply: Reply, status: number, code: string): Record<string, any> {
  assert.equal(reply.status, status, reply.text);
  const problem = reply.json();
  assert.equal(problem.code, code, reply.text);
  return problem;
}

const BOB = { username: 'pipeline-bob', password: 'bob-password-for-pipelines-1' };
const bob = basicAuth(BOB.username, BOB.password);

/** Three steps whose output depends on nothing but their input: a text stamp, page numbers, pages turned. */
const THREE_STEPS = [
  { TextStampAction: { text: 'CONFIDENTIAL', x: 72, y: 720, fontSize: 24 } },
  { PageNumbersAction: { format: 'Page {n} of {total}' } },
  { RotatePagesAction: { pageRange: '2', rotation: 90 } },
];

/** qpdf's JSON of a file's objects, without what differs between two writes of the same content (none is expected; kept honest if it does). */
function qpdfStructure(bytes: Buffer): unknown {
  return withTempFile(bytes, (file) => JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=qpdf', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })));
}

describe('pipelines over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
    const created = await call(server, 'POST', '/users', { body: { ...BOB, rights: ['GET', 'POST', 'PUT', 'DELETE'] } });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    await server.stop();
  });

  test('PUT, GET, versions, If-Match and DELETE in JSON', async () => {
    const body = { description: 'stamp then number', steps: THREE_STEPS.slice(0, 2) };
    const created = await call(server, 'PUT', '/pipelines/crud', { body });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.get('location'), '/pdfservice/v1/pipelines/crud');
    const v1 = created.json();
    assert.equal(v1.version, 1);
    assert.equal(v1.latestVersion, 1);
    assert.equal(v1.owner, 'admin');
    assert.equal(v1.shared, false);
    assert.equal(v1.description, 'stamp then number');
    assert.equal(created.headers.get('etag'), v1.etag);
    // Stored as validated: every default filled in, no savePath or namingMode.
    assert.equal(v1.steps[0].TextStampAction.fontName, 'Helvetica');
    assert.equal(v1.steps[0].TextStampAction.namingMode, undefined);
    assert.equal(v1.steps[1].PageNumbersAction.format, 'Page {n} of {total}');

    const got = await call(server, 'GET', '/pipelines/crud');
    assert.equal(got.status, 200);
    assert.deepEqual(got.json(), v1);
    assert.equal(got.headers.get('etag'), v1.etag);
    assert.equal((await call(server, 'GET', '/pipelines/crud', { headers: { 'if-none-match': v1.etag } })).status, 304);

    // If-Match must name the newest version; If-None-Match: * that there is none.
    assertProblem(await call(server, 'PUT', '/pipelines/crud', { body: { steps: THREE_STEPS }, headers: { 'if-match': '"p0"' } }), 412, 'PRECONDITION_FAILED');
    assertProblem(await call(server, 'PUT', '/pipelines/crud', { body: { steps: THREE_STEPS }, headers: { 'if-none-match': '*' } }), 412, 'PRECONDITION_FAILED');
    const second = await call(server, 'PUT', '/pipelines/crud', { body: { steps: THREE_STEPS }, headers: { 'if-match': v1.etag } });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.headers.get('location'), null);
    const v2 = second.json();
    assert.equal(v2.version, 2);
    assert.notEqual(v2.etag, v1.etag);
    assert.equal(v2.steps.length, 3);
    assert.equal(v2.description, undefined, 'a version is whole: the description left out is not carried over');

    // The older version stays readable, the newest is the default.
    const old = await call(server, 'GET', '/pipelines/crud?version=1');
    assert.equal(old.status, 200, old.text);
    assert.equal(old.json().version, 1);
    assert.equal(old.json().latestVersion, 2);
    assert.deepEqual(old.json().steps, v1.steps);
    assert.equal(old.headers.get('etag'), v1.etag);
    assertProblem(await call(server, 'GET', '/pipelines/crud?version=7'), 404, 'PIPELINE_NOT_FOUND');
    assert.equal((await call(server, 'GET', '/pipelines/crud')).json().version, 2);

    const list = await call(server, 'GET', '/pipelines');
    assert.equal(list.status, 200);
    assert.ok(list.json().pipelines.some((p: Record<string, any>) => p.name === 'crud' && p.version === 2));

    // A stale If-Match deletes nothing; the right one deletes every version.
    assertProblem(await call(server, 'DELETE', '/pipelines/crud', { headers: { 'if-match': v1.etag } }), 412, 'PRECONDITION_FAILED');
    assert.equal((await call(server, 'DELETE', '/pipelines/crud', { headers: { 'if-match': v2.etag } })).status, 204);
    assertProblem(await call(server, 'GET', '/pipelines/crud'), 404, 'PIPELINE_NOT_FOUND');
    assertProblem(await call(server, 'GET', '/pipelines/crud?version=1'), 404, 'PIPELINE_NOT_FOUND');
    assertProblem(await call(server, 'DELETE', '/pipelines/crud'), 404, 'PIPELINE_NOT_FOUND');
    // Made again, it starts at version 1 with another ETag than the first life's.
    const again = await call(server, 'PUT', '/pipelines/crud', { body, headers: { 'if-none-match': '*' } });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.json().version, 1);
    assert.notEqual(again.json().etag, v1.etag);
    assert.equal((await call(server, 'DELETE', '/pipelines/crud')).status, 204);
  });

  test('XML in and out: the steps as <steps><step><Action>, their values typed by the action\'s schema', async () => {
    const xml =
      '<Pipeline><description>xml</description><steps>' +
      '<step><TextStampAction><text>DRAFT</text><x>50</x><y>50</y><fontSize>18</fontSize><rotation>45</rotation></TextStampAction></step>' +
      '<step><RotatePagesAction><rotation>180</rotation></RotatePagesAction></step>' +
      '</steps></Pipeline>';
    const created = await call(server, 'PUT', '/pipelines/from-xml', { body: xml, headers: { 'content-type': 'application/xml', accept: 'application/xml' } });
    assert.equal(created.status, 201, created.text);
    assert.match(created.headers.get('content-type') ?? '', /application\/xml/);
    assert.match(created.text, /<Pipeline>/);
    assert.match(created.text, /<steps>\s*<step>\s*<TextStampAction>\s*<text>DRAFT<\/text>/);
    assert.match(created.text, /<version>1<\/version>/);
    const json = (await call(server, 'GET', '/pipelines/from-xml')).json();
    // Numbers, not the text XML carried.
    assert.equal(json.steps[0].TextStampAction.fontSize, 18);
    assert.equal(json.steps[0].TextStampAction.rotation, 45);
    assert.deepEqual(json.steps[1], { RotatePagesAction: { rotation: 180 } });
    // One step in XML is still a list of one; the list answers as XML too.
    const one = await call(server, 'PUT', '/pipelines/from-xml', { body: '<Pipeline><steps><step><RotatePagesAction><rotation>90</rotation></RotatePagesAction></step></steps><shared>false</shared></Pipeline>', headers: { 'content-type': 'application/xml', 'if-match': json.etag } });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.json().version, 2);
    assert.deepEqual(one.json().steps, [{ RotatePagesAction: { rotation: 90 } }]);
    const list = await call(server, 'GET', '/pipelines', { headers: { accept: 'application/xml' } });
    assert.match(list.text, /<Pipelines>\s*<Pipeline>/);
    assertProblem(await call(server, 'PUT', '/pipelines/from-xml', { body: '<Steps><step/></Steps>', headers: { 'content-type': 'application/xml' } }), 400, 'VALIDATION_FAILED');
    assert.equal((await call(server, 'DELETE', '/pipelines/from-xml')).status, 204);
  });

  test('a step the action refuses is 400 at save time naming the step, with the action\'s own problem; nothing is stored', async () => {
    const cases: [string, unknown[], string][] = [
      ['unknown action', [THREE_STEPS[0], { StampEverythingAction: {} }], 'INVALID_ACTION'],
      ['unknown parameter', [THREE_STEPS[0], { TextStampAction: { text: 'x', x: 1, y: 1, fontsize: 9 } }], 'VALIDATION_FAILED'],
      ['wrong type', [THREE_STEPS[0], { RotatePagesAction: { rotation: 45 } }], 'VALIDATION_FAILED'],
      ['the action\'s own prepare', [THREE_STEPS[0], { TextStampAction: { text: 'x', x: 1, y: 1, fontName: 'NoSuchFont' } }], 'UNKNOWN_FONT'],
      ['savePath in a step', [THREE_STEPS[0], { TextStampAction: { text: 'x', x: 1, y: 1, savePath: 'a.pdf' } }], 'INVALID_ACTION'],
      ['an unknown optimize profile', [THREE_STEPS[0], { OptimizeAction: { profileName: 'no-such-profile' } }], 'PROFILE_NOT_FOUND'],
      ['a pipeline in a pipeline', [THREE_STEPS[0], { PipelineAction: { name: 'other' } }], 'INVALID_ACTION'],
      ['null for the parameters (JSON)', [THREE_STEPS[0], { ApplyRedactionsAction: null }], 'VALIDATION_FAILED'],
    ];
    for (const [what, steps, code] of cases) {
      const problem = assertProblem(await call(server, 'PUT', '/pipelines/refused', { body: { steps } }), 400, 'PIPELINE_STEP_INVALID');
      assert.equal(problem.step, 2, what);
      assert.match(problem.detail, /^Step 2\b/, what);
      assert.equal(problem.problem.code, code, `${what}: ${JSON.stringify(problem)}`);
      assert.ok(!leaksInternals(JSON.stringify(problem), server.dataDir));
      assertProblem(await call(server, 'GET', '/pipelines/refused'), 404, 'PIPELINE_NOT_FOUND');
    }
    assertProblem(await call(server, 'PUT', '/pipelines/refused', { body: { steps: [] } }), 400, 'VALIDATION_FAILED');
    assertProblem(await call(server, 'PUT', '/pipelines/refused', { body: { steps: THREE_STEPS, colour: 'red' } }), 400, 'VALIDATION_FAILED');
    assertProblem(await call(server, 'PUT', '/pipelines/.hidden', { body: { steps: THREE_STEPS } }), 400, 'INVALID_PATH');
  });

  test('a three-step pipeline gives the same bytes as the three actions run by hand, as one new version', async () => {
    const pdf = makePdf({ pages: 3, text: (page) => `Quarterly report page ${page + 1}` });
    assert.equal((await putPdf(server, 'p/run.pdf', pdf)).status, 201);
    assert.equal((await putPdf(server, 'p/hand.pdf', pdf)).status, 201);
    assert.equal((await call(server, 'PUT', '/pipelines/three', { body: { steps: THREE_STEPS } })).status, 201);

    const ran = await call(server, 'POST', '/documents/p/run.pdf', { body: { PipelineAction: { name: 'three' } } });
    assert.equal(ran.status, 200, ran.text);
    const report = ran.json().report;
    assert.deepEqual(report.pipeline, { name: 'three', owner: 'admin', version: 1 });
    assert.deepEqual(report.steps.map((s: Record<string, any>) => [s.step, s.action, s.changed]), [[1, 'TextStampAction', true], [2, 'PageNumbersAction', true], [3, 'RotatePagesAction', true]]);
    for (const step of THREE_STEPS) {
      const [name] = Object.keys(step);
      assert.equal((await call(server, 'POST', `/documents/p/hand.pdf/pages`, { body: step })).status, 200, name);
    }
    const byPipeline = await storedBytes(server, 'p/run.pdf');
    const byHand = await storedBytes(server, 'p/hand.pdf');
    assert.ok(qpdfCheck(byPipeline).ok);
    assert.equal(sha256(byPipeline), sha256(byHand), 'the pipeline wrote the bytes the three actions write');
    assert.deepEqual(qpdfStructure(byPipeline), qpdfStructure(byHand));
    const text = pdftotext(byPipeline);
    assert.match(text, /CONFIDENTIAL/);
    assert.match(text, /Page 3 of 3/);
    // One version for the three steps: the upload, then the pipeline's.
    const versions = await call(server, 'GET', '/documents/p/run.pdf/versions');
    assert.equal(versions.status, 200, versions.text);
    assert.equal(versions.json().versions.length, 2, versions.text);
    const handVersions = (await call(server, 'GET', '/documents/p/hand.pdf/versions')).json();
    assert.equal(handVersions.versions.length, 4);
  });

  test('as a job: per-step progress, then the same result; If-Match and savePath as for every action', async () => {
    const pdf = makePdf({ pages: 2, text: (page) => `Job page ${page + 1}` });
    assert.equal((await putPdf(server, 'p/job.pdf', pdf)).status, 201);
    assert.equal((await call(server, 'PUT', '/pipelines/three-job', { body: { steps: THREE_STEPS } })).status, 201);
    const stale = await call(server, 'POST', '/documents/p/job.pdf', { body: { PipelineAction: { name: 'three-job' } }, headers: { 'if-match': '"stale"' } });
    assertProblem(stale, 412, 'PRECONDITION_FAILED');
    const accepted = await call(server, 'POST', '/documents/p/job.pdf', { body: { PipelineAction: { name: 'three-job', savePath: 'p/job-out.pdf' } }, headers: { prefer: 'respond-async' } });
    assert.equal(accepted.status, 202, accepted.text);
    const id = accepted.json().id as string;
    assert.equal(accepted.json().action, 'PipelineAction');
    const events = await followEvents(server, id);
    const job = await jobEnded(server, id);
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    assert.equal(job.result.path, '/p/job-out.pdf');
    assert.equal(job.result.status, 201);
    // Every step reported, in order, each naming its action, with the pipeline's percent never going back.
    const steps = events.map((e) => e.job.progress?.step).filter(Boolean) as { index: number; count: number; action: string }[];
    assert.deepEqual([...new Set(steps.map((s) => `${s.index}/${s.count} ${s.action}`))], ['1/3 TextStampAction', '2/3 PageNumbersAction', '3/3 RotatePagesAction']);
    const percents = events.map((e) => e.job.progress?.percent as number);
    assert.deepEqual(percents, [...percents].sort((a, b) => a - b));
    assert.equal(sha256(await storedBytes(server, 'p/job.pdf')), sha256(pdf), 'with savePath the source is left as it was');
    assert.match(pdftotext(await storedBytes(server, 'p/job-out.pdf')), /Page 2 of 2/);
  });

  test('a step that fails at run time leaves the document byte for byte as it was, and the problem names the step', async () => {
    const pdf = makePdf({ pages: 3 });
    assert.equal((await putPdf(server, 'p/fail.pdf', pdf)).status, 201);
    // Step 2 stamps page 8 of a three-page document: only the work can tell.
    const steps = [THREE_STEPS[0], { TextStampAction: { text: 'late', x: 10, y: 10, pageIndex: 7 } }, THREE_STEPS[2]];
    assert.equal((await call(server, 'PUT', '/pipelines/fails', { body: { steps } })).status, 201);
    const before = sha256(await storedBytes(server, 'p/fail.pdf'));

    const inline = await call(server, 'POST', '/documents/p/fail.pdf', { body: { PipelineAction: { name: 'fails' } } });
    const problem = assertProblem(inline, 422, 'PIPELINE_STEP_FAILED');
    assert.equal(problem.step, 2);
    assert.equal(problem.action, 'TextStampAction');
    assert.equal(problem.problem.code, 'PAGE_OUT_OF_RANGE');
    assert.equal(problem.problem.status, 400);
    assert.match(problem.detail, /^Step 2 \(TextStampAction\): /);
    assert.equal(sha256(await storedBytes(server, 'p/fail.pdf')), before);

    const accepted = await call(server, 'POST', '/documents/p/fail.pdf', { body: { PipelineAction: { name: 'fails' } }, headers: { prefer: 'respond-async' } });
    assert.equal(accepted.status, 202, accepted.text);
    const job = await jobEnded(server, accepted.json().id);
    assert.equal(job.state, 'failed');
    assert.equal(job.error.code, 'PIPELINE_STEP_FAILED');
    assert.equal(job.error.status, 422);
    assert.equal(job.error.step, 2);
    assert.equal(job.error.action, 'TextStampAction');
    assert.equal(job.error.problem.code, 'PAGE_OUT_OF_RANGE');
    assert.equal(sha256(await storedBytes(server, 'p/fail.pdf')), before, 'the stored document is byte for byte unchanged');
    const versions = (await call(server, 'GET', '/documents/p/fail.pdf/versions')).json();
    assert.equal(versions.versions.length, 1, 'no version was written');

    // An unknown pipeline, or a version not kept: 404 before any work.
    assertProblem(await call(server, 'POST', '/documents/p/fail.pdf', { body: { PipelineAction: { name: 'none-such' } } }), 404, 'PIPELINE_NOT_FOUND');
    assertProblem(await call(server, 'POST', '/documents/p/fail.pdf', { body: { PipelineAction: { name: 'fails', version: 2 } } }), 404, 'PIPELINE_NOT_FOUND');
    assertProblem(await call(server, 'POST', '/documents/p/fail.pdf', { body: { PipelineAction: { name: 'fails', steps: [] } } }), 400, 'VALIDATION_FAILED');
    assert.equal(sha256(await storedBytes(server, 'p/fail.pdf')), before);
  });

  test('another user cannot see or run a private pipeline; one an admin shared works for every user; only admins share', async () => {
    assert.equal((await call(server, 'PUT', '/pipelines/private', { body: { steps: [THREE_STEPS[2]] } })).status, 201);
    assert.equal((await call(server, 'PUT', '/pipelines/house-style', { body: { steps: [THREE_STEPS[0]], shared: true, description: 'for everyone' } })).status, 201);
    assert.equal((await call(server, 'PUT', '/documents/bob/doc.pdf', { body: makePdf({ pages: 2 }), headers: { 'content-type': 'application/pdf' }, auth: bob })).status, 201);
    const before = sha256(await storedBytes(server, 'bob/doc.pdf'));

    // Private: not listed, 404 (its existence is not told), not run.
    assertProblem(await call(server, 'GET', '/pipelines/private?owner=admin', { auth: bob }), 404, 'PIPELINE_NOT_FOUND');
    assertProblem(await call(server, 'GET', '/pipelines/private', { auth: bob }), 404, 'PIPELINE_NOT_FOUND');
    assertProblem(await call(server, 'POST', '/documents/bob/doc.pdf', { body: { PipelineAction: { name: 'private', owner: 'admin' } }, auth: bob }), 404, 'PIPELINE_NOT_FOUND');
    assertProblem(await call(server, 'DELETE', '/pipelines/private?owner=admin', { auth: bob }), 404, 'PIPELINE_NOT_FOUND');
    assert.equal(sha256(await storedBytes(server, 'bob/doc.pdf')), before);
    const listed = (await call(server, 'GET', '/pipelines', { auth: bob })).json().pipelines as Record<string, any>[];
    assert.deepEqual(listed.map((p) => `${p.owner}/${p.name}`), ['admin/house-style']);

    // Shared: read and run by its owner's name; not changed or deleted by others.
    const shared = await call(server, 'GET', '/pipelines/house-style?owner=admin', { auth: bob });
    assert.equal(shared.status, 200, shared.text);
    assert.equal(shared.json().shared, true);
    const ran = await call(server, 'POST', '/documents/bob/doc.pdf', { body: { PipelineAction: { name: 'house-style', owner: 'admin' } }, auth: bob });
    assert.equal(ran.status, 200, ran.text);
    assert.match(pdftotext(await storedBytes(server, 'bob/doc.pdf')), /CONFIDENTIAL/);
    assertProblem(await call(server, 'DELETE', '/pipelines/house-style?owner=admin', { auth: bob }), 403, 'FORBIDDEN');
    assertProblem(await call(server, 'PUT', '/pipelines/house-style?owner=admin', { body: { steps: [THREE_STEPS[2]] }, auth: bob }), 403, 'FORBIDDEN');

    // Bob's own pipelines are his; he may not share one.
    assertProblem(await call(server, 'PUT', '/pipelines/mine', { body: { steps: [THREE_STEPS[2]], shared: true }, auth: bob }), 403, 'FORBIDDEN');
    const mine = await call(server, 'PUT', '/pipelines/mine', { body: { steps: [THREE_STEPS[2]] }, auth: bob });
    assert.equal(mine.status, 201, mine.text);
    assert.equal(mine.json().owner, BOB.username);
    // A name is per user: the admin's "private" and a "private" of bob's are two pipelines.
    assert.equal((await call(server, 'PUT', '/pipelines/private', { body: { steps: [THREE_STEPS[0]] }, auth: bob })).json().version, 1);
    // An admin sees and may remove any user's.
    assert.equal((await call(server, 'GET', `/pipelines/mine?owner=${BOB.username}`)).status, 200);
    assert.equal((await call(server, 'DELETE', `/pipelines/mine?owner=${BOB.username}`)).status, 204);
    assertProblem(await call(server, 'GET', '/pipelines/mine', { auth: bob }), 404, 'PIPELINE_NOT_FOUND');
  });

  test('pipelines are kept across a restart (the data folder\'s state)', async () => {
    assert.equal((await call(server, 'PUT', '/pipelines/kept', { body: { steps: [THREE_STEPS[2]] } })).status, 201);
    const v2 = await call(server, 'PUT', '/pipelines/kept', { body: { steps: THREE_STEPS } });
    const other = await startServer({ sameStoreAs: server });
    try {
      const got = await call(other, 'GET', '/pipelines/kept');
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.json(), v2.json());
      assert.equal((await call(other, 'GET', '/pipelines/kept?version=1')).json().steps.length, 1);
    } finally {
      await other.stop();
    }
  });

  test('at most 1,000 pipelines a user: one more is refused, a new version of one is not', async () => {
    // A data folder whose state already holds 1,000 of the admin's pipelines (the file the service keeps them in).
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-test-'));
    await mkdir(path.join(dataDir, 'state'), { recursive: true, mode: 0o700 });
    const version = { version: 1, steps: [THREE_STEPS[2]], shared: false, created: new Date().toISOString(), createdBy: ADMIN.username };
    const pipelines = Array.from({ length: 1000 }, (_, i) => ({ owner: ADMIN.username, name: `p${i}`, versions: [version] }));
    await writeFile(path.join(dataDir, 'state', 'pipelines.json'), JSON.stringify({ version: 1, pipelines }), { mode: 0o600 });
    const full = await startServer({ dataDir });
    try {
      assert.equal((await call(full, 'GET', '/pipelines')).json().pipelines.length, 1000);
      const refused = assertProblem(await call(full, 'PUT', '/pipelines/one-more', { body: { steps: THREE_STEPS } }), 400, 'BAD_REQUEST');
      assert.match(refused.detail, /at most 1000 pipelines/);
      assertProblem(await call(full, 'GET', '/pipelines/one-more'), 404, 'PIPELINE_NOT_FOUND');
      assert.equal((await call(full, 'PUT', '/pipelines/p7', { body: { steps: THREE_STEPS } })).status, 200, 'a new version of a kept pipeline');
      assert.equal((await call(full, 'DELETE', '/pipelines/p0')).status, 204);
      assert.equal((await call(full, 'PUT', '/pipelines/one-more', { body: { steps: THREE_STEPS } })).status, 201);
    } finally {
      await full.stop();
    }
  });
});
