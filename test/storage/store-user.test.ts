import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Principal } from '../../src/auth/types.js';
import type { EnginePool } from '../../src/engine/pool.js';
import { ServiceError } from '../../src/errors.js';
import type { OperationContext } from '../../src/operations/context.js';
import type { Operations } from '../../src/operations/index.js';
import { JobOperations } from '../../src/operations/jobs/jobs.js';
import { MemoryJobStore } from '../../src/operations/jobs/memory-store.js';
import type { ActionPayload } from '../../src/operations/jobs/model.js';
import type { MemoryStore } from '../../src/storage/memory-store.js';
import { documentPathFromBody, folderPathFromUrl, StoredPath } from '../../src/storage/paths.js';
import type { DocumentStore, DocumentStores, StoreUser } from '../../src/storage/store.js';
import { makePdf } from '../helpers/pdf.js';
import { operationsUnderTest, type OperationsUnderTest } from '../helpers/operations.js';
import { busyWait } from '../helpers/test-tasks.js';

/**
 * Issue 23: every store call of the operations layer is made for the user of
 * the operation, so a store with users of its own (a DMS) decides what each
 * user sees and changes. The provider here hands out the memory store behind
 * a recorder of every call and its user, and refuses users folders the way a
 * DMS does (403 DMS_FORBIDDEN). The operations run in-process with a real
 * engine pool.
 */

interface StoreCall {
  method: string;
  user: string | null;
  path: string | undefined;
}

/** A DMS-like provider over `store`: records each call with its user; `denied` lists, per user, the folders refused to them. */
function dmsLike(store: MemoryStore, calls: StoreCall[], denied: Map<string, string[]>): DocumentStores {
  return {
    for(user: StoreUser | null): DocumentStore {
      return new Proxy(store, {
        get(target, method, receiver) {
          const member: unknown = Reflect.get(target, method, receiver);
          if (typeof member !== 'function') return member;
          return (...args: unknown[]) => {
            const path = args[0] instanceof StoredPath ? args[0].toString() : undefined;
            calls.push({ method: String(method), user: user?.name ?? null, path });
            const refused = user !== null && path !== undefined && (denied.get(user.name) ?? []).some((folder) => path === folder || path.startsWith(`${folder}/`));
            if (refused) return Promise.reject(new ServiceError('DMS_FORBIDDEN', `The DMS refuses ${user.name} /${path}`));
            return (member as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    },
  };
}

const contextOf = (username: string): OperationContext => ({ principal: { username, rights: ['GET', 'POST', 'PUT', 'DELETE'], via: 'basic' } as Principal });

describe('every store call carries the user of its operation', () => {
  const alice = contextOf('alice');
  const bob = contextOf('bob');
  const carol = contextOf('carol');
  const calls: StoreCall[] = [];
  /** The DMS's rules: bob may not see or change anything in alice's folder; carol and alice see everything. */
  const denied = new Map<string, string[]>([['bob', ['alice']]]);
  const doc = (p: string) => documentPathFromBody(p, 'path');
  const aliceDoc = doc('alice/doc.pdf');
  const bobDoc = doc('bob/doc.pdf');
  const original = makePdf({ pages: 3, text: (i) => `Alice's page ${i + 1}` });
  let under: OperationsUnderTest;
  let ops: Operations;
  let pool: EnginePool;

  before(async () => {
    under = await operationsUnderTest([[aliceDoc, original], [bobDoc, makePdf({ pages: 4 })]], {}, (store) => dmsLike(store, calls, denied));
    ({ ops, pool } = under);
  });
  after(() => under.close());
  beforeEach(() => {
    calls.length = 0;
    denied.set('bob', ['alice']);
  });

  const tasksRun = () => pool.stats.completed + pool.stats.failed + pool.stats.cancelled;
  const forbidden = (err: unknown) => err instanceof ServiceError && err.code === 'DMS_FORBIDDEN' && err.status === 403;
  const newJobs = () => new JobOperations(new MemoryJobStore(), ops.actions, ops.uploads, { queueLimit: 10, concurrency: 2, perUser: 2 });
  // A new file each time: the engine takes (transfers) the bytes it is given.
  const attachment = () => ({ file: new Uint8Array(Buffer.from('attached')), fileName: 'note.txt', mediaType: 'text/plain', annotation: { pageIndex: 0, rectangle: { x: 10, y: 10, width: 20, height: 20 } } });

  /** The representative operations, each of its user on that user's own folder. */
  async function workAs(ctx: OperationContext, folder: string): Promise<void> {
    const source = doc(`${folder}/doc.pdf`);
    const uploaded = doc(`${folder}/upload.pdf`);
    const staged = await ops.documents.stage(Readable.from([makePdf({ pages: 2 })]), 1 << 20, ctx);
    const stored = await ops.uploads.executeUpload(await ops.uploads.prepareUpload(uploaded, staged, 'application/pdf', 'fail', ctx));
    assert.equal(stored.created, true);
    assert.equal((await ops.documents.reads.model(source, ctx)).path, `/${source.toString()}`);
    assert.ok((await ops.pages.documentText(source, ctx)).texts.length > 0);
    await ops.annotations.addFileAttachment(source, ctx, attachment());
    assert.ok((await ops.annotations.list(source, ctx, {})).annotations.some((a) => a.subtype === 'FileAttachment'));
    await ops.actions.run(source, { RotatePagesAction: { rotation: 90 } }, 'pages', [], ctx);
    const download = await ops.documents.openForDownload(source, ctx);
    await download.close();
    const listing = await ops.folders.list(folderPathFromUrl(folder), ctx, true);
    assert.deepEqual(listing.entries.map((e) => e.name).sort(), ['doc.pdf', 'upload.pdf']);
    const sub = folderPathFromUrl(`${folder}/sub`);
    assert.equal((await ops.folders.make(sub, ctx)).created, true);
    assert.equal(await ops.folders.exists(sub, ctx), true);
    await ops.folders.remove(sub, ctx, false);
    await ops.documents.remove(uploaded, ctx);
    const jobs = newJobs();
    const job = await jobs.submitAction(await ops.actions.prepare(source, { ExtractPagesAction: { pageRange: '1', savePath: `${folder}/extract.pdf`, namingMode: 1 } }, 'pages', [], ctx));
    const done = await jobs.waitFor(job.id, 30_000);
    assert.equal(done.state, 'succeeded', JSON.stringify(done.error));
  }

  test('upload, model, text, annotations, a page action, download, folders, delete and a job: every call made for the user who asked', async () => {
    for (const [ctx, folder] of [[alice, 'alice'], [bob, 'bob']] as const) {
      calls.length = 0;
      await workAs(ctx, folder);
      const user = ctx.principal!.username;
      const strangers = calls.filter((c) => c.user !== user);
      assert.deepEqual(strangers, [], `every store call of ${user}'s operations is made for ${user}`);
      const elsewhere = calls.filter((c) => c.path !== undefined && !c.path.startsWith(`${folder}/`) && c.path !== folder);
      assert.deepEqual(elsewhere, [], `${user}'s operations touch only their folder`);
      const methods = new Set(calls.map((c) => c.method));
      for (const method of ['stage', 'statDocument', 'openDocument', 'writeDocument', 'deleteDocument', 'lock', 'listFolder', 'makeFolder', 'statFolder', 'deleteFolder']) {
        assert.ok(methods.has(method), `${method} was called (and recorded) for ${user}`);
      }
    }
  });

  test('a user the DMS refuses gets 403 DMS_FORBIDDEN, never an answer cached for another user, and changes nothing', async () => {
    const path = doc('alice/cached.pdf');
    await ops.uploads.executeUpload(await ops.uploads.prepareUpload(path, await ops.documents.stage(Readable.from([original]), 1 << 20, alice), 'application/pdf', 'overwrite', alice));
    const reads = (ctx: OperationContext) => [
      () => ops.documents.reads.model(path, ctx),
      () => ops.pages.documentText(path, ctx),
      () => ops.pages.pageText(path, ctx, 0, undefined),
      () => ops.pages.list(path, ctx, { offset: 0, limit: 10 }),
      () => ops.annotations.list(path, ctx, {}),
      () => ops.fields.list(path, ctx),
      () => ops.permissions.get(path, ctx),
      () => ops.signatures.list(path, ctx),
      () => ops.preflight.check(path, ctx, 'pdfx4'),
    ];
    for (const read of reads(alice)) await read();
    // The control: another user the DMS allows gets every answer from the caches, without an engine task.
    const before = tasksRun();
    for (const read of reads(carol)) await read();
    assert.equal(tasksRun(), before, 'every answer was cached by version');

    calls.length = 0;
    for (const [i, read] of reads(bob).entries()) await assert.rejects(read(), forbidden, `read ${i} is refused to bob`);
    assert.equal(tasksRun(), before, 'nothing was worked out for bob');
    assert.deepEqual(calls.filter((c) => c.user !== 'bob'), [], "bob's reads were all made as bob");
  });

  test('changes by a refused user: 403 DMS_FORBIDDEN, and the document and folder as they were', async () => {
    const before = await under.bytesOf(aliceDoc);
    const entries = async () => (await ops.folders.list(folderPathFromUrl('alice'), alice, false)).entries.map((e) => e.name).sort();
    const listed = await entries();
    calls.length = 0;
    const refused = async (what: string, work: () => Promise<unknown>) => assert.rejects(work(), forbidden, what);
    await refused('an annotation', () => ops.annotations.addFileAttachment(aliceDoc, bob, attachment()));
    await refused('a page action', () => ops.actions.run(aliceDoc, { RotatePagesAction: { rotation: 180 } }, 'pages', [], bob));
    await refused('a page action from bob\'s document into alice\'s folder', () =>
      ops.actions.run(bobDoc, { ExtractPagesAction: { pageRange: '1', savePath: 'alice/doc.pdf', namingMode: 1 } }, 'pages', [], bob));
    await refused('a delete', () => ops.documents.remove(aliceDoc, bob));
    await refused('an upload over it', async () => {
      const prepared = await ops.uploads.prepareUpload(aliceDoc, await ops.documents.stage(Readable.from([makePdf({ pages: 1 })]), 1 << 20, bob), 'application/pdf', 'overwrite', bob);
      return ops.uploads.executeUpload(prepared);
    });
    await refused('a download', () => ops.documents.openForDownload(aliceDoc, bob));
    await refused('a folder listing', () => ops.folders.list(folderPathFromUrl('alice'), bob, false));
    await refused('a new folder', () => ops.folders.make(folderPathFromUrl('alice/bobs'), bob));
    await refused('the folder deleted', () => ops.folders.remove(folderPathFromUrl('alice'), bob, true));
    await refused('a job', () => ops.actions.prepare(aliceDoc, { RotatePagesAction: { rotation: 90 } }, 'pages', [], bob));
    assert.deepEqual(calls.filter((c) => c.user !== 'bob'), [], 'every call was made as bob');
    assert.deepEqual(await under.bytesOf(aliceDoc), before, "alice's document is byte for byte as it was");
    assert.equal(await ops.folders.exists(folderPathFromUrl('alice/bobs'), alice), false);
    assert.deepEqual(await entries(), listed, "alice's folder keeps its documents");
  });

  test('a job calls the store as its submitter when it runs: rights the DMS withdrew meanwhile fail it, document unchanged', async () => {
    const before = await under.bytesOf(bobDoc);
    const jobs = newJobs();
    // Both workers busy: the job reads the document, then waits for the engine.
    const busy = Promise.all([busyWait(pool, { ms: 800 }), busyWait(pool, { ms: 800 })]);
    const job = await jobs.submitAction(await ops.actions.prepare(bobDoc, { RotatePagesAction: { rotation: 90 } }, 'pages', [], bob));
    for (let i = 0; i < 200 && pool.stats.queued === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(pool.stats.queued > 0, "the job's engine task waits");
    denied.set('bob', ['alice', 'bob']);
    await busy;
    const failed = await jobs.waitFor(job.id, 30_000);
    assert.equal(failed.state, 'failed');
    assert.equal(failed.error?.code, 'DMS_FORBIDDEN');
    assert.ok(!('status' in failed.error!), 'a record says what happened, not an HTTP status (the route maps the code to 403)');
    assert.deepEqual(await under.bytesOf(bobDoc), before, 'nothing was written');
    assert.deepEqual(calls.filter((c) => c.user !== 'bob'), [], "the job's calls were made as bob, after the request");
    assert.ok(calls.some((c) => c.method === 'lock' && c.path === 'bob/doc.pdf'), 'the refused call was the write');
  });

  test('a job recovered after a restart calls the store as its owner (the name from its record)', async () => {
    const jobStore = new MemoryJobStore();
    const first = new JobOperations(jobStore, ops.actions, ops.uploads, { queueLimit: 10, concurrency: 1, perUser: 1 });
    const finished = await first.submitAction(await ops.actions.prepare(bobDoc, { ExtractPagesAction: { pageRange: '1', savePath: 'bob/first.pdf', namingMode: 1 } }, 'pages', [], bob));
    assert.equal((await first.waitFor(finished.id, 30_000)).state, 'succeeded');
    const record = structuredClone(await jobStore.get(finished.id))!;
    const { result: _result, finished: _finished, ...queued } = record;
    assert.equal(record.payload.kind, 'action');
    const payload = { ...(record.payload as ActionPayload), params: { pageRange: '2', savePath: 'bob/recovered.pdf', namingMode: 1 }, output: 'bob/recovered.pdf' };
    await jobStore.put({ ...queued, id: 'e'.repeat(32), state: 'queued', payload });
    calls.length = 0;
    const restarted = new JobOperations(jobStore, ops.actions, ops.uploads, { queueLimit: 10, concurrency: 1, perUser: 1 });
    await restarted.recover();
    const ran = await restarted.waitFor('e'.repeat(32), 30_000);
    assert.equal(ran.state, 'succeeded', JSON.stringify(ran.error));
    assert.ok(calls.some((c) => c.method === 'writeDocument' && c.path === 'bob/recovered.pdf'));
    assert.deepEqual(calls.filter((c) => c.user !== 'bob'), [], 'as bob');
  });
});
