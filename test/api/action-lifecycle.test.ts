import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { EnginePool } from '../../src/engine/pool.js';
import { ServiceError } from '../../src/errors.js';
import type { Operations } from '../../src/operations/index.js';
import type { MemoryStore } from '../../src/storage/memory-store.js';
import { documentPathFromBody } from '../../src/storage/paths.js';
import { makePdf } from '../helpers/pdf.js';
import { operationsUnderTest, type OperationsUnderTest } from '../helpers/operations.js';
import { busyWait } from '../helpers/test-tasks.js';

/**
 * The seam background jobs are built on (operations/actions/runner.ts,
 * DocumentOperations.transform): prepare decides the 4xx answers before any
 * engine work, execute takes a signal and a progress callback. Run on the
 * in-memory store, with a real engine pool.
 */
describe('action lifecycle: prepare, then execute with a signal and progress', () => {
  let pool: EnginePool;
  let store: MemoryStore;
  let ops: Operations;
  let scratch: string;
  const source = documentPathFromBody('lifecycle/source.pdf', 'path');
  const taken = documentPathFromBody('lifecycle/taken.pdf', 'path');
  const ctx = { principal: null };

  let under: OperationsUnderTest;
  before(async () => {
    under = await operationsUnderTest([[source, makePdf({ pages: 40 })], [taken, makePdf({ pages: 1 })]]);
    ({ ops, pool, store, scratch } = under);
  });
  after(() => under.close());

  const bytesOf = async (p: typeof source) => under.bytesOf(p);
  const tasksRun = () => pool.stats.completed + pool.stats.failed + pool.stats.cancelled;

  test('prepare answers the 4xx of a bad action before any engine task runs', async () => {
    const before = tasksRun();
    const rejects = async (body: unknown, code: string, target: 'document' | 'pages' = 'pages', ifMatch?: string) =>
      assert.rejects(ops.actions.prepare(source, body, target, [], { ...ctx, ifMatch }), (err: unknown) => err instanceof ServiceError && err.code === code);
    await rejects({ NoSuchAction: {} }, 'INVALID_ACTION');
    await rejects({ RotatePagesAction: { rotation: 45 } }, 'VALIDATION_FAILED');
    await rejects({ RotatePagesAction: { rotation: 90 } }, 'PRECONDITION_FAILED', 'pages', '"not-the-etag"');
    await rejects({ ExtractPagesAction: { pageRange: '1', savePath: 'lifecycle/taken.pdf' } }, 'ALREADY_EXISTS');
    await rejects({ InsertUploadedPagesAction: { appendFilePath: 'lifecycle/absent.pdf' } }, 'DOCUMENT_NOT_FOUND');
    await rejects({ InsertAttachedPagesAction: {} }, 'MALFORMED_MULTIPART');
    await rejects({ TextStampAction: { text: 'x', x: 1, y: 1, fontName: 'NoSuchFont' } }, 'UNKNOWN_FONT');
    await assert.rejects(
      ops.actions.prepare(documentPathFromBody('lifecycle/absent.pdf', 'path'), { RotatePagesAction: { rotation: 90 } }, 'pages', [], ctx),
      (err: unknown) => err instanceof ServiceError && err.code === 'DOCUMENT_NOT_FOUND',
    );
    assert.equal(tasksRun(), before, 'no engine task ran for any of them');
  });

  test('execute of a prepared action writes its output; a stopped one writes nothing', async () => {
    const original = await bytesOf(source);
    const prepared = await ops.actions.prepare(source, { RotatePagesAction: { rotation: 90 } }, 'pages', [], ctx);
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(ops.actions.execute(prepared, { signal: stop.signal }), (err: unknown) => err instanceof ServiceError && err.code === 'TASK_CANCELLED');
    assert.deepEqual(await bytesOf(source), original, 'the document is byte-for-byte as it was');

    const again = await ops.actions.prepare(source, { ExtractPagesAction: { pageRange: '1-3', savePath: 'lifecycle/extracted.pdf' } }, 'pages', [], ctx);
    const result = await ops.actions.execute(again, {});
    assert.equal(result.kind, 'document');
    assert.equal(result.kind === 'document' && result.created, true, 'written elsewhere, created');
    assert.equal(result.kind === 'document' && result.model.pageCount, 3);
    assert.deepEqual(await bytesOf(source), original, 'the source is unchanged by an extraction elsewhere');
  });

  test('the execution context reaches the engine: progress per page, and a stop mid-task leaves the document as it was', async () => {
    const reports: { done: number; total?: number }[] = [];
    const { result } = await ops.documents.transform({
      source,
      target: source,
      conflict: 'overwrite',
      ctx,
      exec: { progress: (p) => reports.push(p) },
      work: async (stored, engine) => ({ result: await engine.run('documentText', { pdf: stored!.pdf }) }),
    });
    assert.equal(result.pageCount, 40);
    assert.ok(reports.length > 0, 'progress was reported');
    assert.equal(reports.at(-1)!.total, 40);

    const original = await bytesOf(source);
    const stop = new AbortController();
    const running = ops.documents.transform({
      source,
      target: source,
      conflict: 'overwrite',
      ctx,
      exec: { signal: stop.signal },
      work: async (_stored, engine) => {
        await busyWait(engine, { ms: 30_000 });
        return { content: makePdf({ pages: 1 }), result: 'written' };
      },
    });
    setTimeout(() => stop.abort(), 200);
    const started = Date.now();
    await assert.rejects(running, (err: unknown) => err instanceof ServiceError && err.code === 'TASK_CANCELLED');
    assert.ok(Date.now() - started < 10_000, 'the task was stopped, not waited for');
    assert.deepEqual(await bytesOf(source), original);
  });

  test('lock "write": long work holds no lock, and a change made meanwhile fails it with 412 and is kept', async () => {
    const other = makePdf({ pages: 2, text: () => 'written meanwhile' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const job = ops.documents.transform({
      source,
      target: source,
      conflict: 'overwrite',
      lock: 'write',
      ctx,
      exec: {},
      work: async () => {
        await gate;
        return { content: makePdf({ pages: 1 }), result: 'job' };
      },
    });
    // With the lock held for the whole work, this in-place write would wait for the gate forever.
    await ops.documents.transform({ target: source, conflict: 'overwrite', ctx, exec: {}, work: async () => ({ content: other, result: 'meanwhile' }) });
    release();
    await assert.rejects(job, (err: unknown) => err instanceof ServiceError && err.code === 'PRECONDITION_FAILED');
    assert.deepEqual(await bytesOf(source), other, 'the change made meanwhile is what the document holds');

    // Nothing changed meanwhile: the job writes.
    const { written } = await ops.documents.transform({ source, target: source, conflict: 'overwrite', lock: 'write', ctx, exec: {}, work: async () => ({ content: makePdf({ pages: 3 }), result: 'job' }) });
    assert.ok(written);
    assert.deepEqual(await bytesOf(source), makePdf({ pages: 3 }));
  });

  test('checkAccess (asked before a job is accepted): a wrong or missing password is 403 with no work; the right one passes; CopyAction needs none', async () => {
    const plain = path.join(scratch, 'plain.pdf');
    const locked = path.join(scratch, 'locked.pdf');
    writeFileSync(plain, makePdf({ pages: 2 }));
    // User password "user", owner password "owner"; the user may not assemble (modify) the document.
    execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--modify=none', '--', plain, locked]);
    const encrypted = documentPathFromBody('lifecycle/locked.pdf', 'path');
    await store.writeDocument(encrypted, readFileSync(locked), { conflict: 'overwrite' });
    const rotate = { RotatePagesAction: { rotation: 90 } };
    const check = async (password: string | undefined, body: unknown = rotate) =>
      ops.actions.checkAccess(await ops.actions.prepare(encrypted, body, 'pages', [], { ...ctx, documentPassword: password }));
    await assert.rejects(check(undefined), (err: unknown) => err instanceof ServiceError && err.code === 'DOCUMENT_PASSWORD_REQUIRED');
    await assert.rejects(check('wrong'), (err: unknown) => err instanceof ServiceError && err.status === 403);
    await assert.rejects(check('user'), (err: unknown) => err instanceof ServiceError && err.status === 403, 'the user password does not allow assembling');
    await check('owner');
    await ops.actions.checkAccess(await ops.actions.prepare(encrypted, { CopyAction: { savePath: 'lifecycle/copy.pdf', namingMode: 1 } }, 'document', [], ctx));
  });
});
