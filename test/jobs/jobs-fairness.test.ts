import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { call, engineState, putPdf } from '../helpers/http.js';
import { redactablePdf } from '../helpers/pdf.js';
import { jobOf, until, type Job } from '../helpers/jobs.js';
import { basicAuth, serverForSuite } from '../helpers/server.js';

/**
 * The fair share of the job queue and of the job slots (docs/jobs.md, "Fair share"), on the real service: a user
 * alone uses every slot and may fill the queue; another user's job is still admitted (the first user's newest waiting
 * job makes room) and starts before the first user's backlog. The jobs redact a document of thousands of pages (long
 * enough to be seen running) and are cancelled at the end, so the suite ends fast.
 */

/** Pages of the document every job redacts (to a savePath of its own): seconds of work per job here. */
const PAGES = 4000;
/** Three workers: jobs may take two at once (the last free worker stays for requests); the job limits below. */
const ENV = {
  PDFSERVICE_WORKERS: '3',
  PDFSERVICE_JOB_CONCURRENCY: '2',
  PDFSERVICE_JOB_QUEUE_LIMIT: '4',
  PDFSERVICE_USER_JOB_LIMIT: '1',
  PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0',
};

describe('the fair share of the job queue and the job slots', () => {
  const server = serverForSuite({ env: ENV });
  const users = { alice: basicAuth('alice', 'alice-password-1'), bob: basicAuth('bob', 'bob-password-123') };
  let n = 0;

  /** A redaction of the long document to a new file, as a job of `auth`: the reply (202, or the refusal). */
  const submit = (auth: string) =>
    call(server, 'POST', '/documents/fair/long.pdf', { auth, headers: { prefer: 'respond-async' }, body: { ApplyRedactionsAction: { savePath: `fair/out-${++n}.pdf` } } });
  const accepted = async (auth: string): Promise<Job> => {
    const reply = await submit(auth);
    assert.equal(reply.status, 202, reply.text);
    return reply.json();
  };
  const states = async (jobs: Job[]) => Promise.all(jobs.map(async (job) => (await jobOf(server, job.id)).state as string));
  const cancelAll = async (jobs: Job[]) => {
    for (const job of jobs) {
      const reply = await call(server, 'DELETE', `/jobs/${job.id}`);
      assert.ok([200, 409].includes(reply.status), reply.text);
    }
    await engineState(server, (engine) => engine.busy === 0 && engine.queued === 0);
  };

  before(async () => {
    for (const [username, password] of [['alice', 'alice-password-1'], ['bob', 'bob-password-123']]) {
      // The POST right only (and GET, to follow the jobs), as in the report.
      assert.equal((await call(server, 'POST', '/users', { body: { username, password, rights: ['GET', 'POST'] } })).status, 201);
    }
    assert.equal((await call(server, 'PUT', '/documents/fair')).status, 201);
    assert.equal((await putPdf(server, 'fair/long.pdf', redactablePdf(PAGES))).status, 201);
  });

  test('a user alone with three jobs has two running at once (PDFSERVICE_JOB_CONCURRENCY), though PDFSERVICE_USER_JOB_LIMIT is 1', async () => {
    const jobs = [await accepted(users.alice), await accepted(users.alice), await accepted(users.alice)];
    try {
      const seen = await until('two of alice\'s jobs run at once', async () => {
        const now = await states(jobs);
        assert.ok(!now.some((s) => !['queued', 'running'].includes(s)), `a job ended before two ran at once: ${now}`);
        return now.filter((s) => s === 'running').length === 2 ? now : undefined;
      });
      assert.deepEqual(seen.filter((s) => s === 'queued'), ['queued']);
      // Both really work: the engine runs two of them side by side.
      await engineState(server, (engine) => engine.busy === 2);
    } finally {
      await cancelAll(jobs);
    }
  });

  test('alice fills the queue (then 503); bob is still admitted, her newest waiting job making room, and his job starts before her backlog', async () => {
    const alice: Job[] = [];
    for (;;) {
      const reply = await submit(users.alice);
      if (reply.status === 503) {
        assert.equal(reply.json().code, 'SERVICE_BUSY');
        assert.match(reply.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
        break;
      }
      assert.equal(reply.status, 202, reply.text);
      alice.push(reply.json());
      assert.ok(alice.length <= 4, 'the queue limit holds for a user alone');
    }
    const bobJobs: Job[] = [];
    try {
      assert.equal(alice.length, 4, 'a user alone may fill the whole queue');
      const running = await until('two of alice\'s jobs run', async () => {
        const now = await states(alice);
        return now.filter((s) => s === 'running').length === 2 ? now : undefined;
      });
      assert.deepEqual(running.slice(2), ['queued', 'queued']);

      const bob = await accepted(users.bob);
      bobJobs.push(bob);
      const pushed = await jobOf(server, alice[3]!.id);
      assert.equal(pushed.state, 'failed', JSON.stringify(pushed));
      assert.equal(pushed.error.code, 'SERVICE_BUSY');
      assert.equal(pushed.error.status, 503);
      assert.match(pushed.error.detail, /fair share/);
      assert.equal((await call(server, 'GET', '/documents/fair/out-4.pdf')).status, 404, 'the pushed-out job wrote nothing');
      const waiting = await jobOf(server, bob.id);
      assert.equal(waiting.state, 'queued');
      assert.equal(waiting.position, 0, "bob's job is the next to start, ahead of alice's older one");
      assert.equal((await jobOf(server, alice[2]!.id)).position, 1);
      // Still full, and alice holds more than her share (4 / 2 users): her next job is refused.
      assert.equal((await submit(users.alice)).status, 503);

      // A slot frees: bob's job starts, alice's older waiting job still waits.
      assert.equal((await call(server, 'DELETE', `/jobs/${alice[0]!.id}`)).status, 200);
      await until("bob's job starts", async () => ((await jobOf(server, bob.id)).state === 'running' ? true : undefined));
      assert.equal((await jobOf(server, alice[2]!.id)).state, 'queued', "alice's backlog waits while bob's job runs");
    } finally {
      await cancelAll([...alice, ...bobJobs]);
    }
  });
});
