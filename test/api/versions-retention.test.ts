/**
 * Retention over HTTP (docs/versions.md, "Retention"): the service started with a small limit
 * (PDFSERVICE_VERSIONS_MAX_COUNT=3) and a sweep every second. Old versions go in the background, a pinned one stays,
 * the bytes of every version left are still those that were written, and the removed ones are 404.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, sha256 } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startServer({ env: { PDFSERVICE_VERSIONS_MAX_COUNT: '3', PDFSERVICE_RETENTION_SWEEP_INTERVAL: '1s' } });
});
after(async () => {
  await server?.stop();
});

const doc = 'retention/memo.pdf';
const list = async (): Promise<{ versions: { id: string; etag: string; pinned: boolean; current: boolean }[]; total: number; current: string }> => {
  const reply = await call(server, 'GET', `/documents/${doc}/versions`);
  assert.equal(reply.status, 200, reply.text);
  return reply.json();
};

/** The removed counts of the sweeps the service logged (its JSON log lines). */
function sweptCounts(s: TestServer): { removed: number; failed: number } {
  let removed = 0;
  let failed = 0;
  for (const line of s.output) {
    if (!line.includes('"retention sweep')) continue;
    const entry = JSON.parse(line) as { msg: string; tasks: { versions?: { removed?: number } } };
    if (entry.msg === 'retention sweep failed') failed++;
    else if (entry.msg === 'retention sweep') removed += entry.tasks.versions?.removed ?? 0;
  }
  return { removed, failed };
}

test('with PDFSERVICE_VERSIONS_MAX_COUNT=3 the sweep removes the oldest versions and keeps a pinned one', async () => {
  const contents = Array.from({ length: 6 }, (_, i) => makePdf({ pages: 1, text: () => `retention write ${i}` }));
  const put = async (body: Buffer) => {
    const reply = await call(server, 'PUT', `/documents/${doc}`, { body, headers: { 'content-type': 'application/pdf' } });
    assert.ok([200, 201].includes(reply.status), reply.text);
  };
  await put(contents[0]!);
  await put(contents[1]!);
  // Pinned while the document has two versions (under the limit, so no sweep has touched them yet).
  const second = (await list()).versions.find((v) => v.current)!; // the 2nd write
  const pinned = await call(server, 'PATCH', `/documents/${doc}/versions/${second.id}`, { body: { pinned: true } });
  assert.equal(pinned.status, 200, pinned.text);
  for (const body of contents.slice(2)) await put(body);
  // The sweep runs every second: wait until it has brought the document down to three versions.
  let left = await list();
  for (const deadline = Date.now() + 60_000; left.total > 3 && Date.now() < deadline; left = await list()) await new Promise((r) => setTimeout(r, 200));
  assert.equal(left.total, 3, JSON.stringify(left));
  // Left: the current one (the 6th write), the pinned one (the 2nd) and the newest other (the 5th).
  const byId = new Map(left.versions.map((v) => [v.id, v]));
  assert.ok(byId.get(second.id)?.pinned, 'the pinned version stays');
  const expected = [contents[5]!, contents[1]!, contents[4]!].map(sha256).sort();
  const kept: string[] = [];
  for (const v of left.versions) {
    const reply = await call(server, 'GET', `/documents/${doc}?versionId=${v.id}`);
    assert.equal(reply.status, 200, reply.text);
    kept.push(sha256(reply.bytes));
  }
  assert.deepEqual(kept.sort(), expected);
  assert.equal(left.versions.find((v) => v.current)?.id, left.current);
  // The sweeps' log lines account for exactly the three removed versions, and none failed.
  for (const deadline = Date.now() + 10_000; sweptCounts(server).removed < 3 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(sweptCounts(server), { removed: 3, failed: 0 });
});
