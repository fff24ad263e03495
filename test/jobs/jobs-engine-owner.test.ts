import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Principal } from '../../src/auth/types.js';
import { ServiceError } from '../../src/errors.js';
import { runAsRequest } from '../../src/operations/execution.js';
import { JobOperations } from '../../src/operations/jobs/jobs.js';
import { MemoryJobStore } from '../../src/operations/jobs/memory-store.js';
import { documentPathFromBody } from '../../src/storage/paths.js';
import { makePdf } from '../helpers/pdf.js';
import { operationsUnderTest, type OperationsUnderTest } from '../helpers/operations.js';
import { busyWait } from '../helpers/test-tasks.js';

/**
 * A job is dispatched inside whichever request submitted it (or whichever job
 * ended before it): its engine tasks must not count against that user's
 * inline task limits (pool.ts, ownerTaskLimit and the per-user share of the
 * queue), or the user's next request waits for, or is refused because of, a
 * job. Jobs have limits of their own (PDFSERVICE_USER_JOB_LIMIT).
 */
describe("a job's engine tasks are not counted as the submitting request's", () => {
  const alice = { principal: { username: 'alice', rights: ['GET', 'POST'], via: 'basic' } as Principal };
  const doc = documentPathFromBody('jobs/owner.pdf', 'path');
  let under: OperationsUnderTest;
  before(async () => {
    // A queue of 2 lets one user have 1 task waiting (half of it); a second is refused with 503.
    under = await operationsUnderTest([[doc, makePdf({ pages: 6 })]], { queueLimit: 2, ownerTaskLimit: 1 });
  });
  after(() => under.close());

  test("while alice's job waits for the engine, her own inline task is queued, not refused", async () => {
    const { ops, pool } = under;
    const jobs = new JobOperations(new MemoryJobStore(), ops.actions, ops.uploads, { queueLimit: 10, concurrency: 1, perUser: 1 });
    // Both workers busy with work of no user, so the job's engine task waits in the pool's queue.
    const busy = Promise.all([busyWait(pool, { ms: 1500 }), busyWait(pool, { ms: 1500 })]);
    const request = new AbortController().signal;
    // As the route does: the job is submitted (and so dispatched) inside alice's request.
    const job = await runAsRequest('alice', request, async () =>
      jobs.submitAction(await ops.actions.prepare(doc, { ExtractPagesAction: { pageRange: '2-3', savePath: 'jobs/owner-out.pdf' } }, 'pages', [], alice)),
    );
    for (let i = 0; pool.stats.queued < 1; i++) {
      if (i > 200) assert.fail("the job's engine task never reached the pool");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Counted as alice's, the job's waiting task would have this one refused (503 SERVICE_BUSY).
    await runAsRequest('alice', request, () => busyWait(pool, { ms: 1 })).catch((err: unknown) => {
      assert.fail(`alice's inline task was refused: ${err instanceof ServiceError ? err.code : String(err)}`);
    });
    await busy;
    const ended = await jobs.waitFor(job.id, 30_000);
    assert.equal(ended.state, 'succeeded', JSON.stringify(ended));
  });
});
