/**
 * Document versions on the S3 store through the API (PDFSERVICE_STORE=s3, versions on by default), against the Swift
 * test server: every write keeps a version, ?versionId= reads one (Range too), restore, label, delete, and a redaction
 * purge after which no object under the versions area (read with the SDK, not through the service), no version and no
 * kept file yields the redacted text. Also what the bucket holds: the current version is the document alone, the
 * replaced bytes are one blob per distinct content, copied on the server.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { call, sha256, type Reply } from '../helpers/http.js';
import { makePdf, paddedPdf, pdftotext, qpdfCheck, redactablePdf } from '../helpers/pdf.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { etagOf as etagOfBytes } from '../../src/storage/store.js';

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

const ok = (reply: Reply, status = 200) => assert.equal(reply.status, status, reply.text);
const put = (doc: string, body: Buffer) => call(server, 'PUT', `/documents/${doc}`, { body, headers: { 'content-type': 'application/pdf' } });
const current = async (doc: string): Promise<Buffer> => {
  const reply = await call(server, 'GET', `/documents/${doc}`);
  ok(reply);
  return reply.bytes;
};
const list = async (doc: string): Promise<{ versions: Record<string, any>[]; total: number; current: string | null }> => {
  const reply = await call(server, 'GET', `/documents/${doc}/versions`, { headers: { accept: 'application/json' } });
  ok(reply);
  return reply.json();
};
const version = (doc: string, id: string, headers: Record<string, string> = {}) => call(server, 'GET', `/documents/${doc}?versionId=${id}`, { headers });

/** The keys (without the store's prefix) and bytes of every object of a document's versions area, read with the SDK. */
async function versionObjects(doc: string): Promise<{ name: string; bytes: Buffer }[]> {
  const client = s3.client();
  const area = `${PREFIX}.versions/${doc}/`;
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.buckets[0]!, Prefix: area }));
  return Promise.all(
    (listed.Contents ?? []).map(async (o) => {
      const got = await client.send(new GetObjectCommand({ Bucket: s3.buckets[0]!, Key: o.Key! }));
      return { name: o.Key!.slice(area.length), bytes: Buffer.from(await got.Body!.transformToByteArray()) };
    }),
  );
}
const blobs = async (doc: string) => (await versionObjects(doc)).filter((o) => o.name.startsWith('b-'));

describe('versions on S3', () => {
  const doc = 'versions/history.pdf';
  const produced: string[] = [];

  before(async () => {
    ok(await put(doc, makePdf({ pages: 2, text: (i) => `First ${i}` })), 201);
    produced.push(sha256(await current(doc)));
    ok(await call(server, 'POST', `/documents/${doc}/pages`, { body: { TextStampAction: { text: 'Stamped', x: 72, y: 72, pageIndex: 0 } } }));
    produced.push(sha256(await current(doc)));
    ok(await put(doc, makePdf({ pages: 1, text: () => 'Replaced' })));
    produced.push(sha256(await current(doc)));
  });

  test('one version per write, newest first; each read with ?versionId= (Range too) gives that write\'s bytes', async () => {
    const { versions, total, current: currentId } = await list(doc);
    assert.equal(total, 3);
    assert.equal(currentId, versions[0]!.id);
    assert.deepEqual(versions.map((v) => v.operation), ['upload', 'TextStampAction', 'upload']);
    for (const [i, v] of [...versions].reverse().entries()) {
      const reply = await version(doc, v.id);
      ok(reply);
      assert.equal(sha256(reply.bytes), produced[i], `version ${i}`);
      assert.equal(reply.headers.get('etag'), v.etag);
      const ranged = await version(doc, v.id, { range: 'bytes=0-7' });
      ok(ranged, 206);
      assert.equal(ranged.bytes.length, 8);
      assert.ok(reply.bytes.subarray(0, 8).equals(ranged.bytes));
    }
    // The current version is the document alone; each replaced content is one blob, a copy of the bytes it replaced.
    const kept = await blobs(doc);
    assert.equal(kept.length, 2);
    assert.deepEqual(kept.map((b) => sha256(b.bytes)).sort(), [produced[0], produced[1]].sort());
    // Versions are no documents: the folder lists the document only.
    const folder = await call(server, 'GET', '/documents/versions', { headers: { accept: 'application/json' } });
    assert.deepEqual(folder.json().entries.map((e: { name: string }) => e.name), ['history.pdf']);
  });

  test('restore makes the first bytes current as a new version; their blob is shared, not copied again', async () => {
    const { versions } = await list(doc);
    const first = versions.at(-1)!;
    const restored = await call(server, 'POST', `/documents/${doc}/versions/${first.id}/restore`, { headers: { 'if-match': versions[0]!.etag } });
    ok(restored);
    assert.equal(sha256(await current(doc)), produced[0]);
    const after = await list(doc);
    assert.equal(after.total, 4);
    assert.equal(after.versions[0]!.operation, 'restore');
    assert.equal(after.current, after.versions[0]!.id);
    for (const [i, v] of [...after.versions].reverse().slice(0, 3).entries()) assert.equal(sha256((await version(doc, v.id)).bytes), produced[i]);
    assert.equal((await blobs(doc)).length, 3, 'the first bytes, the stamp and the replacement: one blob each');
  });

  test('label, pin and delete of one version (not the current one) change the records only', async () => {
    const { versions } = await list(doc);
    const oldest = versions.at(-1)!;
    const patched = await call(server, 'PATCH', `/documents/${doc}/versions/${oldest.id}`, { body: { label: 'as sent', pinned: true } });
    ok(patched);
    assert.equal((await list(doc)).versions.at(-1)!.label, 'as sent');
    const refused = await call(server, 'DELETE', `/documents/${doc}/versions/${versions[0]!.id}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.json().code, 'VERSION_IS_CURRENT');
    const stamp = versions.at(-2)!;
    ok(await call(server, 'DELETE', `/documents/${doc}/versions/${stamp.id}`), 204);
    assert.equal((await version(doc, stamp.id)).status, 404);
    assert.equal((await list(doc)).total, 3);
    assert.equal((await blobs(doc)).length, 2, 'the stamp\'s blob went with its only version');
  });

  test('deleting the document erases its versions area; a new document there starts afresh', async () => {
    const gone = 'versions/erased.pdf';
    ok(await put(gone, makePdf({ text: () => 'One' })), 201);
    ok(await put(gone, makePdf({ text: () => 'Two' })));
    assert.equal((await list(gone)).total, 2);
    ok(await call(server, 'DELETE', `/documents/${gone}`), 204);
    assert.deepEqual(await versionObjects(gone), []);
    ok(await put(gone, makePdf({ text: () => 'Three' })), 201);
    assert.equal((await list(gone)).total, 1);
  });
});

test('ApplyRedactionsAction purges every earlier version: no object of the versions area, no version, no kept file has the text', async () => {
  const doc = 'versions/redacted.pdf';
  ok(await put(doc, redactablePdf(2)), 201);
  ok(await call(server, 'POST', `/documents/${doc}/pages`, { body: { TextStampAction: { text: 'Draft', x: 72, y: 72, pageIndex: 0 } } }));
  ok(await call(server, 'POST', `/documents/${doc}/pages`, { body: { TextStampAction: { text: 'Draft 2', x: 72, y: 300, pageIndex: 1 } } }));
  const before = await blobs(doc);
  assert.equal(before.length, 2);
  for (const blob of before) assert.match(pdftotext(blob.bytes), /Secret 1/, 'the earlier versions hold the text before the redaction');
  const applied = await call(server, 'POST', `/documents/${doc}`, { body: { ApplyRedactionsAction: {} } });
  ok(applied);
  assert.equal(applied.json().versionsPurged, 3);
  const { versions, total } = await list(doc);
  assert.equal(total, 1);
  assert.equal(versions[0]!.operation, 'ApplyRedactionsAction');
  for (const v of versions) {
    const bytes = (await version(doc, v.id)).bytes;
    assert.ok(qpdfCheck(bytes).ok);
    assert.doesNotMatch(pdftotext(bytes), /Secret/);
  }
  const left = await versionObjects(doc);
  assert.deepEqual(left.map((o) => o.name), [`v-${versions[0]!.id}-${(versions[0]!.etag as string).replace(/"/g, '')}.json`, 'z-index.ndjson'], 'the current version\'s record alone, and the index of the versions');
  assert.deepEqual(left[1]!.bytes.toString('utf8').split('\n').slice(1).map((line) => (JSON.parse(line) as { id: string }).id), [versions[0]!.id], 'which names the current version alone');
  for (const o of left) assert.doesNotMatch(o.bytes.toString('latin1'), /Secret/);
  // The download cache keeps each document's current bytes only: the redacted ones now.
  const keptDir = path.join(server.dataDir, 'kept');
  for (const name of await readdir(keptDir)) {
    const bytes = await readFile(path.join(keptDir, name));
    assert.doesNotMatch(pdftotext(bytes), /Secret/, `kept file ${name}`);
  }
  assert.match(pdftotext(await current(doc)), /Kept 1/);
});

/** One S3 request as Swift's proxy logged it: the SDK's operation (its `x-id`, else the method), the key, the bytes it carried in. */
interface Logged {
  operation: string;
  key: string;
  status: string;
  received: number;
}

/**
 * The S3 requests Swift's proxy logged after log line `mark` (s3.log(); Swift's own sub-requests log "- -" as the
 * client and /v1/ paths, and are not these), once one `until` accepts has arrived (Swift logs over UDP).
 */
async function loggedSince(mark: number, until: (r: Logged) => boolean): Promise<Logged[]> {
  for (let waited = 0; ; waited += 50) {
    const requests = s3.log().split('\n').slice(mark).flatMap((line): Logged[] => {
      const m = /^proxy-server: \d\S* \S+ \S+ ([A-Z]+) \/([^/\s]+)\/(\S*) \S+ (\d+) \S+ \S+ \S+ (\S+) /.exec(line);
      if (!m || m[2] !== s3.buckets[0]) return [];
      const [key, query = ''] = decodeURIComponent(m[3]!).split('?');
      const operation = /(?:^|&)x-id=(\w+)/.exec(query)?.[1] ?? (/(?:^|&)uploads(?:=|&|$)/.test(query) ? 'CreateMultipartUpload' : m[1] === 'POST' && /(?:^|&)uploadId=/.test(query) ? 'CompleteMultipartUpload' : m[1]!);
      return [{ operation, key: key!, status: m[4]!, received: /^\d+$/.test(m[5]!) ? Number(m[5]) : 0 }];
    });
    if (requests.some(until) || waited > 5000) return requests;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a restore of a prefix reads none of the kept bytes from S3 (the document\'s copy kept by the service holds them) and puts them in one PutObject; the document then hashes to the version\'s ETag and passes qpdf --check', async () => {
  const doc = 'restored/copied.pdf';
  const key = `${PREFIX}${doc}`;
  // 1.5 MB: from 1 MiB an edit is appended (engine/core/save.ts).
  const original = paddedPdf(makePdf({ pages: 3, text: (i) => `Page ${i} of the version to restore` }), 1536 * 1024);
  ok(await put(doc, original), 201);
  // An annotation import is an appended save: the first version is now the first bytes of the document (a pointer, no blob).
  const note = '<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots><text page="0" rect="40,40,60,60" name="n1"><contents>A note</contents></text></annots></xfdf>\n';
  ok(await call(server, 'POST', `/documents/${doc}/annotations/content`, { body: Buffer.from(note), headers: { 'content-type': 'application/vnd.adobe.xfdf' } }));
  // The pointer is the name of the second version's record (v-<id>-<its ETag>-<the first's>.json): no other object.
  const objects = await versionObjects(doc);
  assert.deepEqual(objects.filter((o) => o.name !== 'z-index.ndjson').map((o) => /^v-\d{16}-[0-9a-f]{32}(-[0-9a-f]{32})?\.json$/.exec(o.name)?.[1] !== undefined), [false, true], 'the first version kept as a prefix: no blob, no pointer object');
  const { versions } = await list(doc);
  const first = versions.at(-1)!;
  assert.equal(first.etag, etagOfBytes(original));
  const stamped = await current(doc);
  const mark = s3.log().split('\n').length;
  const restored = await call(server, 'POST', `/documents/${doc}/versions/${first.id}/restore`, { headers: { 'if-match': versions[0]!.etag } });
  ok(restored);
  assert.equal(restored.headers.get('etag'), first.etag);
  const requests = await loggedSince(mark, (r) => r.key === key && r.operation === 'PutObject');
  const seen = requests.map((r) => `${r.operation} ${r.key} ${r.status} ${r.received}`).join('\n');
  // The kept bytes (the first bytes of the stamped document, which the service keeps from its write) put onto the
  // document in one PutObject, below the multipart threshold (a copy in parts would be three requests in turn); the
  // stamped bytes copied to their blob on the server first; nothing of either read from Swift.
  assert.deepEqual(requests.filter((r) => r.key === key && r.operation !== 'HeadObject' && r.operation !== 'HEAD').map((r) => r.operation), ['PutObject'], seen);
  assert.ok(requests.some((r) => r.operation === 'PutObject' && r.key === key && r.received >= original.length), `the version's bytes put: ${seen}`);
  assert.ok(requests.some((r) => r.operation === 'CopyObject' && r.key === `${PREFIX}.versions/${doc}/b-${etagOfBytes(stamped).slice(1, -1)}`), seen);
  assert.ok(!requests.some((r) => r.operation === 'GetObject' && !r.key.endsWith('.json') && !r.key.endsWith('/z-index.ndjson')), `no bytes read (the index of the versions may be): ${seen}`);
  // What is there now, read back through the API and the SDK: the version's bytes, a sound PDF, its tag in the metadata.
  const bytes = await current(doc);
  assert.equal(etagOfBytes(bytes), first.etag, 'the restored bytes hash to the version\'s ETag');
  assert.ok(bytes.equals(original));
  const check = qpdfCheck(bytes);
  assert.ok(check.ok, check.output);
  const object = await s3.client().send(new GetObjectCommand({ Bucket: s3.buckets[0]!, Key: key }));
  assert.equal(`"${object.Metadata?.etag ?? ''}"`, first.etag, 'x-amz-meta-etag: our tag of the restored bytes');
  assert.equal(object.ContentType, 'application/pdf');
  const after = await list(doc);
  assert.deepEqual([after.total, after.versions[0]!.operation, after.versions[0]!.etag, after.versions[0]!.pageCount, after.current], [3, 'restore', first.etag, first.pageCount, after.versions[0]!.id]);
  // Every version still reads back as its bytes (the stamped one from the blob the restore made).
  for (const v of after.versions) assert.equal(etagOfBytes((await version(doc, v.id)).bytes), v.etag, `version ${v.id}`);
});

test('a write\'s answer names its predecessor version (Link, RFC 5829) as the list then shows it, found by the write: no versions read after the document\'s PutObject', async () => {
  const doc = 'versions/links.pdf';
  const key = `${PREFIX}${doc}`;
  const index = `${PREFIX}.versions/${doc}/z-index.ndjson`;
  const predecessorOf = (reply: Reply) => /<[^>]*\?versionId=([^>]+)>; rel="predecessor-version"/.exec(reply.headers.get('link') ?? '')?.[1];
  let markers = 0;
  /** The write's S3 requests after the document's PutObject (or all, for a write of none): up to a marker request sent once its answer came. */
  async function afterPut(write: () => Promise<Reply>): Promise<{ reply: Reply; after: Logged[] }> {
    const mark = s3.log().split('\n').length;
    const reply = await write();
    const marker = `links-marker-${++markers}`;
    await s3.client().send(new HeadObjectCommand({ Bucket: s3.buckets[0]!, Key: marker })).catch(() => undefined);
    const logged = await loggedSince(mark, (r) => r.key === marker);
    assert.ok(logged.some((r) => r.key === marker), 'the marker request was logged');
    const put = logged.findLastIndex((r) => ['PutObject', 'CopyObject', 'CompleteMultipartUpload'].includes(r.operation) && r.key === key);
    return { reply, after: logged.slice(put + 1).filter((r) => r.key !== marker) };
  }
  const noListing = (after: Logged[], what: string) => {
    const reads = after.filter((r) => (r.operation === 'GetObject' && r.key === index) || r.operation === 'ListObjectsV2' || (r.operation === 'HEAD' && r.key === key));
    assert.deepEqual(reads, [], `${what}: the versions were not read again for the answer's Link`);
  };

  const created = await afterPut(() => put(doc, makePdf({ text: () => 'One' })));
  ok(created.reply, 201);
  assert.equal(predecessorOf(created.reply), undefined, 'the first version has none');
  assert.match(created.reply.headers.get('link') ?? '', /rel="version-history"/);
  noListing(created.after, 'the first upload');

  for (const [what, write] of [
    ['an upload', () => put(doc, makePdf({ text: () => 'Two' }))],
    ['an upload of other bytes', () => put(doc, makePdf({ pages: 2, text: (i) => `Three ${i}` }))],
  ] as const) {
    const { reply, after } = await afterPut(write);
    ok(reply);
    const { versions } = await list(doc);
    assert.equal(predecessorOf(reply), versions[1]!.id, `${what}: the predecessor is the second newest version`);
    noListing(after, what);
  }

  const { versions } = await list(doc);
  const restored = await afterPut(() => call(server, 'POST', `/documents/${doc}/versions/${versions.at(-1)!.id}/restore`));
  ok(restored.reply);
  const now = await list(doc);
  assert.equal(now.versions[0]!.operation, 'restore');
  assert.equal(predecessorOf(restored.reply), now.versions[1]!.id, 'a restore: the predecessor is the version it replaced');
  // The model read right after names the same one.
  const model = await call(server, 'GET', `/documents/${doc}`, { headers: { accept: 'application/json' } });
  ok(model);
  assert.equal(predecessorOf(model), now.versions[1]!.id);
});
