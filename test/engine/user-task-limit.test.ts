import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EnginePool, taskOwner } from '../../src/engine/pool.js';
import { basicAuth, serverForSuite } from '../helpers/server.js';
import { call, engineState, putPdf } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { busyWait, TEST_TASKS } from '../helpers/test-tasks.js';

describe('one user cannot take every engine worker (PDFSERVICE_USER_TASK_LIMIT)', () => {
  const server = serverForSuite({ env: { PDFSERVICE_WORKERS: '2', PDFSERVICE_USER_TASK_LIMIT: '1', PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });

  test("with 2 workers and a limit of 1, another user's page image is served while the first user's slow redactions all still run", async () => {
    for (const [username, password] of [['alice', 'alice-password-1'], ['bob', 'bob-password-12']]) {
      assert.equal((await call(server, 'POST', '/users', { body: { username, password, rights: ['GET', 'POST', 'PUT'] } })).status, 201);
    }
    const alice = basicAuth('alice', 'alice-password-1');
    const bob = basicAuth('bob', 'bob-password-12');
    // A regular expression that backtracks for ever holds its worker for the whole regex budget (5 s), then answers 400.
    const slow = makePdf({ pages: 1, text: () => 'a'.repeat(40) });
    for (const i of [1, 2, 3]) assert.equal((await putPdf(server, `fair/slow-${i}.pdf`, slow)).status, 201);
    assert.equal((await putPdf(server, 'fair/page.pdf', makePdf({ pages: 1, text: () => 'Hello' }))).status, 201);

    const finished: string[] = [];
    const aliceTasks = [1, 2, 3].map((i) =>
      call(server, 'POST', `/documents/fair/slow-${i}.pdf/annotations/redaction`, { auth: alice, body: { searchText: '(a+)+b', regex: true } }).then((reply) => {
        finished.push(`alice-${i}`);
        return reply;
      }),
    );
    // All three of alice's tasks are in the engine: one running, two waiting for her own to end.
    await engineState(server, (engine) => engine.busy + engine.queued === 3);
    const image = await call(server, 'GET', '/documents/fair/page.pdf/pages/0/image', { auth: bob });
    finished.push('bob');
    assert.equal(image.status, 200, image.text);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.equal(image.bytes.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual(finished, ['bob'], "bob's image came before any of alice's redactions ended");

    const replies = await Promise.all(aliceTasks);
    for (const reply of replies) assert.equal(reply.json().code, 'INVALID_SEARCH', reply.text);
  });

  test("one user's whole-document text runs its two parts on both workers at once; the same user's next request still waits for it", async () => {
    assert.equal((await call(server, 'POST', '/users', { body: { username: 'carol', password: 'carol-password-1', rights: ['GET', 'PUT'] } })).status, 201);
    const carol = basicAuth('carol', 'carol-password-1');
    // Long enough (several hundred ms a part) for /health to see the parts run; different texts, so no cache or extraction is shared.
    for (const name of ['first', 'second']) {
      const pdf = makePdf({ pages: 6000, text: (i) => `${name} page ${i} `.repeat(20) });
      assert.equal((await putPdf(server, `fair/${name}.pdf`, pdf)).status, 201);
    }
    const finished: string[] = [];
    const text = (name: string) =>
      call(server, 'GET', `/documents/fair/${name}.pdf/text`, { auth: carol, headers: { accept: 'text/plain' } }).then((reply) => {
        finished.push(name);
        return reply;
      });
    const first = text('first');
    // Both parts of the first request run: the limit of 1 counts the request, not its parts.
    await engineState(server, (engine) => engine.busy === 2 && engine.queued === 0);
    const second = text('second');
    // The second request is a unit of its own: both its parts wait for the first request's parts to end.
    await engineState(server, (engine) => engine.busy === 2 && engine.queued === 2);
    const [one, two] = await Promise.all([first, second]);
    assert.deepEqual(finished, ['first', 'second']);
    for (const [reply, name] of [[one, 'first'], [two, 'second']] as const) {
      assert.equal(reply.status, 200, reply.text);
      const pages = reply.text.split('\f');
      assert.equal(pages.length, 6001);
      assert.match(pages[5999]!, new RegExp(`${name} page 5999`));
    }
  });
});

test('the pool runs at most ownerTaskLimit tasks of one owner at once; other owners and ownerless tasks go ahead in order', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 2, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10, ownerTaskLimit: 1 });
  await pool.ready();
  try {
    const order: string[] = [];
    const run = (owner: string | undefined, label: string, ms: number) =>
      (owner === undefined ? busyWait(pool, { ms }) : taskOwner.run(owner, () => busyWait(pool, { ms }))).then(() => void order.push(label));
    const a = [run('a', 'a1', 1500), run('a', 'a2', 10), run('a', 'a3', 10)];
    assert.deepEqual({ busy: pool.stats.busy, queued: pool.stats.queued }, { busy: 1, queued: 2 }, "a's second and third wait for her first");
    const b = run('b', 'b1', 10);
    await b;
    assert.deepEqual(order, ['b1'], "b's task ran on the other worker while a's first was running");
    await Promise.all(a);
    assert.deepEqual(order, ['b1', 'a1', 'a2', 'a3']);
    // A limit of 1 per owner still lets two owners' tasks run side by side.
    await Promise.all([run('a', 'a4', 300), run('b', 'b2', 300)]);
    assert.equal(pool.stats.busy, 0);
  } finally {
    await pool.close();
  }
});

test('work-conserving: an owner alone past ownerTaskLimit takes idle workers, all but the last, which another owner then gets at once', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 3, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10, ownerTaskLimit: 1 });
  await pool.ready();
  try {
    const order: string[] = [];
    const run = (owner: string, label: string, ms: number) => taskOwner.run(owner, () => busyWait(pool, { ms })).then(() => void order.push(label));
    const a = [run('a', 'a1', 1500), run('a', 'a2', 1500), run('a', 'a3', 10)];
    assert.deepEqual({ busy: pool.stats.busy, queued: pool.stats.queued }, { busy: 2, queued: 1 }, 'a alone runs two tasks (past her limit of 1); the third worker stays free');
    const b = run('b', 'b1', 10);
    assert.deepEqual({ busy: pool.stats.busy, queued: pool.stats.queued }, { busy: 3, queued: 1 }, "b's task takes the free worker at once");
    await b;
    assert.deepEqual(order, ['b1']);
    await Promise.all(a);
    assert.equal(order.length, 4);
    // Run on the free worker, a3 (10 ms) would have ended before both of a's long ones; it starts when the first of them
    // ends. Not "last": a1 and a2 may start some ms apart on a loaded machine, and a3 then ends between them (CI, 2026-11-29).
    assert.ok(order.indexOf('a3') > Math.min(order.indexOf('a1'), order.indexOf('a2')), `a's third waited for one of her own: ${order.join()}`);
  } finally {
    await pool.close();
  }
});

test('one owner may hold at most half of the queue: past that its tasks are refused with 503 while others are still queued', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 4, ownerTaskLimit: 1 });
  await pool.ready();
  try {
    const held = taskOwner.run('a', () => [busyWait(pool, { ms: 300 }), busyWait(pool, { ms: 1 }), busyWait(pool, { ms: 1 })]);
    await assert.rejects(taskOwner.run('a', () => busyWait(pool, { ms: 1 })), (err: unknown) => (err as { code?: string }).code === 'SERVICE_BUSY');
    const other = taskOwner.run('b', () => busyWait(pool, { ms: 1 }));
    await Promise.all([...held, other]);
  } finally {
    await pool.close();
  }
});

test('the parts of one group count as one task against the owner\'s limit; another group or task of the owner waits for them', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 2, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10, ownerTaskLimit: 1 });
  await pool.ready();
  try {
    const order: string[] = [];
    const run = (label: string, ms: number, group?: object) => taskOwner.run('a', () => busyWait(pool, { ms }, { group })).then(() => void order.push(label));
    const request1 = {};
    const parts1 = [run('r1-part', 600, request1), run('r1-part', 600, request1)];
    assert.deepEqual({ busy: pool.stats.busy, queued: pool.stats.queued }, { busy: 2, queued: 0 }, 'both parts of one request run at once');
    const request2 = {};
    const parts2 = [run('r2-part', 10, request2), run('r2-part', 10, request2)];
    const single = run('single', 10);
    assert.deepEqual({ busy: pool.stats.busy, queued: pool.stats.queued }, { busy: 2, queued: 3 }, "a's other request and task wait for the first");
    await Promise.all([...parts1, ...parts2, single]);
    assert.deepEqual(order, ['r1-part', 'r1-part', 'r2-part', 'r2-part', 'single'], 'the second request ran after the first, the single task after it');
  } finally {
    await pool.close();
  }
});
