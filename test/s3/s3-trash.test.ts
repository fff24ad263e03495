/**
 * The trash on the S3 store through the API (PDFSERVICE_STORE=s3, trash and versions on by default), against the Swift
 * test server: DELETE of a document moves it with its versions under `<prefix>.trash/` (read with the SDK, not through
 * the service), restore brings back its bytes and every version's; a folder goes and comes back whole; a purge leaves
 * no object of the entry in the bucket.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { call, sha256, type Reply } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PREFIX = 'svc/';
let s3: S3Server;
let server: TestServer;

before(async () => {
  s3 = await startS3Server();
  server = await startServer({
    env: {
      PDFSERVICE_STORE: 's3',
      PDFSERVICE_S3_ENDPOINT: s3.endpoint,
      PDFSERVICE_S3_REGION: s3.region,
      PDFSERVICE_S3_BUCKET: s3.buckets[0]!,
      PDFSERVICE_S3_PREFIX: PREFIX,
      PDFSERVICE_S3_ACCESS_KEY_ID: s3.accessKeyId,
      PDFSERVICE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      PDFSERVICE_S3_TIMEOUT_MS: '5000',
    },
  });
});
after(async () => {
  await server?.stop();
  await s3?.dispose();
});

interface Entry {
  id: string;
  kind: string;
  path: string;
  documentCount: number;
  versionCount: number;
  size: number;
}

const ok = (reply: Reply, status = 200) => assert.equal(reply.status, status, reply.text);
const put = (doc: string, body: Buffer) => call(server, 'PUT', `/documents/${doc}`, { body, headers: { 'content-type': 'application/pdf' } });
const download = async (doc: string): Promise<Buffer> => {
  const reply = await call(server, 'GET', `/documents/${doc}`);
  ok(reply);
  return reply.bytes;
};
const trash = async (): Promise<{ entries: Entry[]; total: number }> => {
  const reply = await call(server, 'GET', '/trash', { headers: { accept: 'application/json' } });
  ok(reply);
  return reply.json();
};
/** Each version's id and the sha256 of its bytes (read with ?versionId=), newest first. */
const versionHashes = async (doc: string): Promise<{ id: string; sha: string }[]> => {
  const reply = await call(server, 'GET', `/documents/${doc}/versions`, { headers: { accept: 'application/json' } });
  ok(reply);
  const out: { id: string; sha: string }[] = [];
  for (const v of (reply.json() as { versions: { id: string }[] }).versions) {
    const bytes = await call(server, 'GET', `/documents/${doc}?versionId=${v.id}`);
    ok(bytes);
    out.push({ id: v.id, sha: sha256(bytes.bytes) });
  }
  return out;
};
/** The keys below `<prefix><under>` in the bucket, without the store's prefix, read with the SDK. */
async function keys(under: string): Promise<string[]> {
  const listed = await s3.client().send(new ListObjectsV2Command({ Bucket: s3.buckets[0]!, Prefix: `${PREFIX}${under}` }));
  return (listed.Contents ?? []).map((o) => o.Key!.slice(PREFIX.length));
}

describe('the trash on S3', () => {
  const doc = 'trash-s3/report.pdf';
  let stamped: Buffer;
  let kept: { id: string; sha: string }[];
  let entry: Entry;

  before(async () => {
    ok(await put(doc, makePdf({ pages: 2, text: (i) => `Report ${i}` })), 201);
    ok(await call(server, 'POST', `/documents/${doc}/pages`, { body: { TextStampAction: { text: 'Stamped', x: 72, y: 72, pageIndex: 0 } } }));
    stamped = await download(doc);
    kept = await versionHashes(doc);
    assert.equal(kept.length, 2);
  });

  test('delete: the document and its versions area move under .trash/, listed in GET /trash', async () => {
    ok(await call(server, 'DELETE', `/documents/${doc}`), 204);
    assert.equal((await call(server, 'GET', `/documents/${doc}`)).status, 404);
    const listed = await trash();
    assert.equal(listed.total, 1);
    entry = listed.entries[0]!;
    assert.deepEqual([entry.kind, entry.path, entry.documentCount, entry.versionCount, entry.size], ['document', `/${doc}`, 1, 2, stamped.length]);
    assert.deepEqual(await keys(doc), [], 'the document\'s key is gone');
    assert.deepEqual(await keys(`.versions/${doc}/`), [], 'its versions area is gone');
    const inTrash = await keys(`.trash/${entry.id}/`);
    assert.ok(inTrash.includes(`.trash/${entry.id}/item`), inTrash.join());
    assert.ok(inTrash.includes(`.trash/${entry.id}/entry.json`), inTrash.join());
    assert.ok(!inTrash.includes(`.trash/${entry.id}/pending.json`), 'the delete is done');
    assert.ok(inTrash.some((k) => k.startsWith(`.trash/${entry.id}/versions/v-`)), inTrash.join());
  });

  test('restore: the same bytes, every version with its bytes, nothing left of the entry', async () => {
    ok(await call(server, 'POST', `/trash/${entry.id}/restore`));
    assert.equal(sha256(await download(doc)), sha256(stamped));
    assert.deepEqual(await versionHashes(doc), kept);
    assert.deepEqual(await keys(`.trash/${entry.id}/`), []);
    assert.equal((await trash()).total, 0);
    // A path taken refuses the restore.
    ok(await call(server, 'DELETE', `/documents/${doc}`), 204);
    ok(await put(doc, makePdf({ pages: 1, text: () => 'Another' })), 201);
    const [again] = (await trash()).entries;
    const taken = await call(server, 'POST', `/trash/${again!.id}/restore`);
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.json().code, 'TRASH_PATH_TAKEN');
  });

  test('a folder goes whole and comes back with every document and its versions', async () => {
    const one = makePdf({ pages: 1, text: () => 'One' });
    const two = makePdf({ pages: 3, text: (i) => `Two ${i}` });
    ok(await put('trash-s3f/one.pdf', one), 201);
    ok(await put('trash-s3f/in/two.pdf', two), 201);
    ok(await put('trash-s3f/in/two.pdf', makePdf({ pages: 2, text: (i) => `Two again ${i}` })));
    const twoVersions = await versionHashes('trash-s3f/in/two.pdf');
    ok(await call(server, 'DELETE', '/documents/trash-s3f?recursive=true'), 204);
    assert.equal((await call(server, 'GET', '/documents/trash-s3f', { headers: { accept: 'application/json' } })).status, 404);
    assert.deepEqual(await keys('trash-s3f/'), []);
    const folder = (await trash()).entries.find((e) => e.path === '/trash-s3f')!;
    assert.deepEqual([folder.kind, folder.documentCount, folder.versionCount], ['folder', 2, 3]);
    ok(await call(server, 'POST', `/trash/${folder.id}/restore`));
    assert.equal(sha256(await download('trash-s3f/one.pdf')), sha256(one));
    assert.deepEqual(await versionHashes('trash-s3f/in/two.pdf'), twoVersions);
    assert.equal(twoVersions.at(-1)!.sha, sha256(two));
    assert.deepEqual(await keys(`.trash/${folder.id}/`), []);
  });

  test('purge leaves no object under .trash/', async () => {
    ok(await call(server, 'DELETE', '/documents/trash-s3f/one.pdf'), 204);
    for (const e of (await trash()).entries) ok(await call(server, 'DELETE', `/trash/${e.id}`), 204);
    assert.equal((await trash()).total, 0);
    assert.deepEqual(await keys('.trash/'), []);
  });
});
