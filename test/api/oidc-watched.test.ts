/**
 * Watched folders of OpenID Connect users (docs/watched-folders.md, "Who a run runs as"): a user of the issuer, who has
 * no record in the service's user store, binds a folder with a real provider's token (oidc-provider,
 * test/helpers/oidc-provider.ts); a document arriving later, with no token of theirs anywhere, runs as them with the
 * rights recorded at bind time, its output stamped (pdftotext, qpdf). A binder whose token lacks a right is refused at
 * bind time; once a service user of the same name exists, the binding's runs fail with 403 and write nothing.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, putPdf, storedBytes, type Reply } from '../helpers/http.js';
import { startOidcProvider, type OidcProvider, type ProviderClient } from '../helpers/oidc-provider.js';
import { makePdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

const AUDIENCE = 'pdfservice';
const STAMP = 'OIDC-WATCHED-STAMP';

describe('watched folders bound by OpenID Connect users', () => {
  let provider: OidcProvider;
  let server: TestServer;
  let writer: ProviderClient;
  let reader: ProviderClient;
  let token: string;
  let dataDir: string;
  const env = (rights: string) => ({
    PDFSERVICE_OIDC_ISSUER: provider.issuer,
    PDFSERVICE_OIDC_AUDIENCE: AUDIENCE,
    PDFSERVICE_OIDC_RIGHTS_CLAIM: 'scope',
    PDFSERVICE_OIDC_RIGHTS: rights,
    PDFSERVICE_WATCH_ATTEMPTS: '2',
    PDFSERVICE_WATCH_RETRY_MS: '200',
  });

  before(async () => {
    provider = await startOidcProvider();
    writer = await provider.createClient(['pdf.read', 'pdf.write'], [AUDIENCE]);
    reader = await provider.createClient(['pdf.read'], [AUDIENCE]);
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-oidc-watched-'));
    server = await startServer({ dataDir, env: env('pdf.read=GET;pdf.write=GET,POST,PUT') });
    token = await provider.token(writer, ['pdf.read', 'pdf.write'], AUDIENCE);
    for (const folder of ['in', 'out']) assert.ok([200, 201].includes((await call(server, 'PUT', `/documents/${folder}`)).status));
  });
  after(async () => {
    await server?.stop();
    await provider?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** The binding as the admin reads it (the binder's token may be refused by then), once the run of `document` failed. */
  async function failedRun(document: string): Promise<Record<string, any>> {
    for (let i = 0; ; i++) {
      const got = await call(server, 'GET', `/watched-folders/inbox?owner=${encodeURIComponent(writer.clientId)}`, { headers: { accept: 'application/json' } });
      assert.equal(got.status, 200, got.text);
      const run = runOf(got.json(), document);
      if (run?.state === 'failed') return run;
      if (i > 1200) assert.fail(`the run of ${document}: ${got.text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const asWriter = () => ({ auth: `Bearer ${token}`, headers: { accept: 'application/json' } });

  /** The binding as its OpenID Connect owner reads it, once `done` holds of it (its runs are real jobs). */
  async function until(done: (b: Record<string, any>) => boolean, what: string): Promise<Record<string, any>> {
    for (let i = 0; ; i++) {
      const got: Reply = await call(server, 'GET', '/watched-folders/inbox', asWriter());
      assert.equal(got.status, 200, got.text);
      const b = got.json<Record<string, any>>();
      if (done(b)) return b;
      if (i > 1200) assert.fail(`${what}: ${got.text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const runOf = (b: Record<string, any>, document: string) => (b.runs as Array<Record<string, any>>).find((r) => r.document === `/${document}` || r.document === document);
  const ended = (run: Record<string, any> | undefined) => run !== undefined && (run.state === 'succeeded' || run.state === 'failed');

  test('a user of the issuer binds a folder; a document arriving later runs as them, with the rights recorded at bind time', async () => {
    const me = await call(server, 'GET', '/sessions/current', asWriter());
    assert.deepEqual(me.json(), { username: writer.clientId, rights: ['GET', 'POST', 'PUT'], via: 'oidc' });
    // No service user of that name: the runs cannot read one.
    assert.equal((await call(server, 'GET', `/users/${writer.clientId}`)).status, 404);

    const pipeline = await call(server, 'PUT', '/pipelines/stamp', { ...asWriter(), body: { steps: [{ TextStampAction: { text: STAMP, x: 72, y: 72 } }] } });
    assert.equal(pipeline.status, 201, pipeline.text);
    const bound = await call(server, 'PUT', '/watched-folders/inbox', { ...asWriter(), body: { folder: 'in', pipeline: { name: 'stamp' }, target: 'out' } });
    assert.equal(bound.status, 201, bound.text);
    assert.equal(bound.json<{ owner: string }>().owner, writer.clientId);

    // A token of the issuer without PUT binds nothing (403 at bind time, as for a service user).
    const readerToken = await provider.token(reader, ['pdf.read'], AUDIENCE);
    const refused = await call(server, 'PUT', '/watched-folders/reader', { auth: `Bearer ${readerToken}`, body: { folder: 'in', pipeline: { name: 'stamp', owner: writer.clientId } } });
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.json<{ detail: string }>().detail, /needs the PUT right/);

    // The admin puts a document into the folder: no token of the binder is in play.
    const original = makePdf({ pages: 1, text: () => 'Arrived body' });
    assert.equal((await putPdf(server, 'in/first.pdf', original)).status, 201);
    const done = await until((b) => ended(runOf(b, 'in/first.pdf')), 'the run of in/first.pdf');
    const run = runOf(done, 'in/first.pdf')!;
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    const output = await storedBytes(server, 'out/first.pdf');
    assert.ok(qpdfCheck(output).ok);
    const text = pdftotext(output);
    assert.match(text, new RegExp(STAMP));
    assert.match(text, /Arrived body/);
    // The run's job is the binder's: they read it with their token.
    const job = await call(server, 'GET', `/jobs/${run.jobIds[0]}`, asWriter());
    assert.equal(job.status, 200, job.text);
  });

  test('a right the mapping no longer gives (after a restart with another mapping) is dropped: the runs fail with 403', async () => {
    await server.stop();
    server = await startServer({ dataDir, env: env('pdf.read=GET;pdf.write=GET,POST') });
    assert.equal((await putPdf(server, 'in/third.pdf', makePdf({ pages: 1, text: () => 'Third body' }))).status, 201);
    const run = await failedRun('in/third.pdf');
    assert.equal(run.error.status, 403, JSON.stringify(run));
    assert.match(run.error.detail, /lacks the rights PUT now: PDFSERVICE_OIDC_RIGHTS gives them to no one/);
    assert.equal(run.attempts, 2, 'PDFSERVICE_WATCH_ATTEMPTS attempts, then left failed');
    assert.equal((await call(server, 'GET', '/documents/out/third.pdf')).status, 404, 'nothing written');
  });

  test('once a service user of the same name exists, the binding\'s runs fail with 403 and write nothing', async () => {
    const created = await call(server, 'POST', '/users', { body: { username: writer.clientId, password: 'a-service-password-1', rights: ['GET', 'POST', 'PUT'] } });
    assert.equal(created.status, 201, created.text);
    const original = makePdf({ pages: 1, text: () => 'Second body' });
    assert.equal((await putPdf(server, 'in/second.pdf', original)).status, 201);
    // The binder's token is refused now (a service user's name), so the binding is read as the admin.
    const run = await failedRun('in/second.pdf');
    assert.equal(run.attempts, 2);
    assert.equal(run.error.status, 403, JSON.stringify(run));
    assert.equal(run.error.code, 'FORBIDDEN');
    assert.match(run.error.detail, /service user of that name exists now/);
    assert.equal((await call(server, 'GET', '/documents/out/second.pdf')).status, 404, 'nothing written');
  });
});
