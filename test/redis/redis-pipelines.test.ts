/**
 * Pipelines shared through Redis (docs/pipelines.md, "Storage"), against a real Redis (test/helpers/redis-server.ts):
 * the Redis store on its own (changes through two connections at once: none lost, one If-Match wins), and two service
 * instances with separate data folders on one Redis, which share nothing else.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { RedisPipelineStore } from '../../src/operations/pipelines/redis-store.js';
import type { PipelineRecord } from '../../src/operations/pipelines/store.js';
import { call, putPdf } from '../helpers/http.js';
import { makePdf, pdftotext } from '../helpers/pdf.js';
import { redisConnectionsForSuite, redisServerForSuite } from '../helpers/redis-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

const redis = redisServerForSuite();
const { connect, freshPrefix } = redisConnectionsForSuite(redis, 'p');

/** A change that adds a version on top of what is stored (as PipelineOperations.put does). */
function addVersion(owner: string, name: string, by: string) {
  return (current: PipelineRecord | null): PipelineRecord => ({
    owner,
    name,
    versions: [...(current?.versions ?? []), { version: (current?.versions.at(-1)?.version ?? 0) + 1, steps: [], shared: false, created: new Date().toISOString(), createdBy: by }],
  });
}

describe('the Redis pipeline store on its own', () => {
  test('versions added through two connections at once are all kept, numbered without a gap', async () => {
    const prefix = freshPrefix();
    const stores = [new RedisPipelineStore(await connect(prefix)), new RedisPipelineStore(await connect(prefix))];
    await Promise.all(Array.from({ length: 10 }, (_, i) => stores[i % 2]!.update('ann', 'p', addVersion('ann', 'p', `writer-${i}`))));
    const record = await stores[1]!.get('ann', 'p');
    assert.deepEqual(record?.versions.map((v) => v.version), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual((await stores[0]!.list()).map((r) => `${r.owner}/${r.name}`), ['ann/p']);
  });

  test('two changes built on the same version: one applies, the other sees the new one and refuses', async () => {
    const prefix = freshPrefix();
    const stores = [new RedisPipelineStore(await connect(prefix)), new RedisPipelineStore(await connect(prefix))];
    await stores[0]!.update('ann', 'p', addVersion('ann', 'p', 'first'));
    // Each expects version 1 to be the newest, as If-Match does.
    const expectingOne = (by: string) => (current: PipelineRecord | null) => {
      if (current?.versions.at(-1)?.version !== 1) throw new ServiceError('PRECONDITION_FAILED');
      return addVersion('ann', 'p', by)(current);
    };
    const results = await Promise.allSettled(stores.map((store, i) => store.update('ann', 'p', expectingOne(`writer-${i}`))));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    assert.equal(((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as ServiceError).code, 'PRECONDITION_FAILED');
    assert.deepEqual((await stores[0]!.get('ann', 'p'))?.versions.map((v) => v.version), [1, 2]);
    // A change answering null deletes.
    await stores[1]!.update('ann', 'p', () => null);
    assert.equal(await stores[0]!.get('ann', 'p'), null);
  });
});

describe('two instances with separate data folders on one Redis', () => {
  const env = { PDFSERVICE_REDIS_URL: '', PDFSERVICE_REDIS_PREFIX: freshPrefix(), PDFSERVICE_WORKERS: '1', PDFSERVICE_STORE: 'filesystem' };
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    env.PDFSERVICE_REDIS_URL = redis.url;
    a = await startServer({ env });
    b = await startServer({ env });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  test('a pipeline saved on A is read, versioned and run on B; deleted on B it is gone on A', async () => {
    const saved = await call(a, 'PUT', '/pipelines/shared-state', { body: { steps: [{ TextStampAction: { text: 'FROM A', x: 72, y: 72 } }] } });
    assert.equal(saved.status, 201, saved.text);
    const onB = await call(b, 'GET', '/pipelines/shared-state');
    assert.equal(onB.status, 200, onB.text);
    assert.deepEqual(onB.json(), saved.json());

    // B's If-Match is A's ETag: the version is one, wherever it was saved.
    const second = await call(b, 'PUT', '/pipelines/shared-state', { body: { steps: [{ TextStampAction: { text: 'FROM B', x: 72, y: 72 } }] }, headers: { 'if-match': saved.json().etag } });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.json().version, 2);
    const stale = await call(a, 'PUT', '/pipelines/shared-state', { body: { steps: [{ RotatePagesAction: { rotation: 90 } }] }, headers: { 'if-match': saved.json().etag } });
    assert.equal(stale.status, 412, stale.text);

    assert.equal((await putPdf(b, 'redis/doc.pdf', makePdf({ pages: 1 }))).status, 201);
    const ran = await call(b, 'POST', '/documents/redis/doc.pdf', { body: { PipelineAction: { name: 'shared-state', version: 1 } } });
    assert.equal(ran.status, 200, ran.text);
    const text = pdftotext((await call(b, 'GET', '/documents/redis/doc.pdf', { headers: { accept: 'application/pdf' } })).bytes);
    assert.match(text, /FROM A/);

    assert.equal((await call(b, 'DELETE', '/pipelines/shared-state', { headers: { 'if-match': second.json().etag } })).status, 204);
    assert.equal((await call(a, 'GET', '/pipelines/shared-state')).status, 404);
  });
});
