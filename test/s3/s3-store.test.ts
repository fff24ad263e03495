/**
 * The S3 store through the API (PDFSERVICE_STORE=s3), against the Swift test
 * server (test/s3/): what the service answers, and what the bucket holds,
 * read with the SDK (the exact bytes, our tag in the object's metadata, no
 * unfinished upload left).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ServiceError } from '../../src/errors.js';
import { documentPathFromBody } from '../../src/storage/paths.js';
import { createS3Client } from '../../src/storage/s3/client.js';
import { S3Store } from '../../src/storage/s3/store.js';
import { call, sha256 } from '../helpers/http.js';
import { makePdf, paddedPdf } from '../helpers/pdf.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

const MiB = 1024 * 1024;
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
      PDFSERVICE_MAX_UPLOAD_BYTES: String(40 * MiB),
    },
  });
});
after(async () => {
  await server?.stop();
  await s3?.dispose();
});

const bucket = () => s3.buckets[0]!;
const put = (documentPath: string, body: Buffer) => call(server, 'PUT', `/documents/${documentPath}`, { body, headers: { 'content-type': 'application/pdf' } });
/** The object's bytes and metadata, read from the bucket with the SDK (not through the service). */
async function inBucket(documentPath: string): Promise<{ bytes: Buffer; etagMeta: string | undefined; type: string | undefined }> {
  const got = await s3.client().send(new GetObjectCommand({ Bucket: bucket(), Key: PREFIX + documentPath }));
  return { bytes: Buffer.from(await got.Body!.transformToByteArray()), etagMeta: got.Metadata?.etag, type: got.ContentType };
}
async function keysBelow(prefix: string): Promise<string[]> {
  const listed = await s3.client().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: PREFIX + prefix }));
  return (listed.Contents ?? []).map((c) => c.Key!.slice(PREFIX.length));
}
async function openUploads(): Promise<number> {
  return (await s3.client().send(new ListMultipartUploadsCommand({ Bucket: bucket(), Prefix: PREFIX }))).Uploads?.length ?? 0;
}
async function localLeftovers(): Promise<string[]> {
  const out: string[] = [];
  for (const folder of ['spool', 'staging']) out.push(...(await readdir(path.join(server.dataDir, folder))));
  return out;
}
const unquoted = (etag: string | null) => etag?.replace(/^"|"$/g, '');

test('upload, model, annotation, listing and delete: the bucket holds the bytes with our tag, folders as markers', async () => {
  const bytes = makePdf({ pages: 2, text: (i) => `S3 report page ${i + 1}` });
  const created = await put('reports/2026/q1.pdf', bytes);
  assert.equal(created.status, 201, created.text);
  const stored = await inBucket('reports/2026/q1.pdf');
  assert.equal(sha256(stored.bytes), sha256(bytes), 'the object is the upload, byte for byte');
  assert.equal(stored.etagMeta, unquoted(created.headers.get('etag')), 'our tag travels as x-amz-meta-etag');
  assert.equal(stored.type, 'application/pdf');
  assert.deepEqual((await keysBelow('reports/')).sort(), ['reports/', 'reports/2026/', 'reports/2026/q1.pdf'], 'a marker per folder');

  const model = await call(server, 'GET', '/documents/reports/2026/q1.pdf', { headers: { accept: 'application/json' } });
  assert.equal(model.status, 200, model.text);
  assert.equal(model.json().pageCount, 2);
  assert.equal(model.json().size, bytes.length);
  const back = await call(server, 'GET', '/documents/reports/2026/q1.pdf');
  assert.ok(back.bytes.equals(bytes));
  assert.equal(back.headers.get('etag'), created.headers.get('etag'));

  const xfdf = '<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>' +
    '<text name="s3-note" page="0" rect="500,700,520,720" title="admin"><contents>Stored in S3</contents></text></annots></xfdf>';
  const stale = await call(server, 'POST', '/documents/reports/2026/q1.pdf/annotations/content', { body: xfdf, headers: { 'content-type': 'application/vnd.adobe.xfdf', 'if-match': '"stale"' } });
  assert.equal(stale.status, 412, stale.text);
  const annotated = await call(server, 'POST', '/documents/reports/2026/q1.pdf/annotations/content', { body: xfdf, headers: { 'content-type': 'application/vnd.adobe.xfdf', 'if-match': created.headers.get('etag')! } });
  assert.equal(annotated.status, 200, annotated.text);
  const after = await inBucket('reports/2026/q1.pdf');
  assert.notEqual(sha256(after.bytes), sha256(bytes), 'the annotated version is in the bucket');
  const served = await call(server, 'GET', '/documents/reports/2026/q1.pdf');
  assert.equal(sha256(served.bytes), sha256(after.bytes), 'what is served is what the bucket holds');
  assert.equal(unquoted(served.headers.get('etag')), after.etagMeta, 'and its tag is the stored one');
  const listed = await call(server, 'GET', '/documents/reports/2026/q1.pdf/annotations');
  assert.equal(listed.status, 200, listed.text);
  assert.ok((listed.json().annotations as Array<{ name: string }>).some((a) => a.name === 's3-note'), listed.text);

  assert.equal((await call(server, 'PUT', '/documents/reports/empty')).status, 201);
  const listing = await call(server, 'GET', '/documents/reports');
  assert.equal(listing.status, 200, listing.text);
  assert.deepEqual(listing.json().entries.map((e: { name: string; type: string }) => [e.name, e.type]), [['2026', 'folder'], ['empty', 'folder']]);
  const inner = (await call(server, 'GET', '/documents/reports/2026')).json();
  assert.deepEqual(inner.entries.map((e: { name: string; size: number }) => [e.name, e.size]), [['q1.pdf', after.bytes.length]]);

  // A form upload (create if absent): a conditional multipart completion in the bucket.
  const form = (name: string) => {
    const data = new FormData();
    data.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), name);
    return data;
  };
  const taken = await call(server, 'POST', '/documents/reports/2026?namingMode=0', { body: form('q1.pdf') });
  assert.equal(taken.status, 409, taken.text);
  assert.equal(taken.json().code, 'ALREADY_EXISTS');
  assert.equal(sha256((await inBucket('reports/2026/q1.pdf')).bytes), sha256(after.bytes), 'unchanged');
  const beside = await call(server, 'POST', '/documents/reports/2026?namingMode=2', { body: form('q1.pdf') });
  assert.equal(beside.status, 201, beside.text);
  const besideName = decodeURIComponent(beside.headers.get('location')!.split('/').pop()!);
  assert.match(besideName, /^q1-\d{6}\.pdf$/);
  assert.equal(sha256((await inBucket(`reports/2026/${besideName}`)).bytes), sha256(bytes));
  assert.equal((await call(server, 'DELETE', `/documents/reports/2026/${besideName}`)).status, 204);
  const gone = await call(server, 'DELETE', '/documents/reports/2026/q1.pdf', { headers: { 'if-match': served.headers.get('etag')! } });
  assert.equal(gone.status, 204, gone.text);
  assert.equal((await call(server, 'GET', '/documents/reports/2026/q1.pdf')).status, 404);
  assert.deepEqual((await call(server, 'GET', '/documents/reports/2026')).json().entries, [], 'the folder stays, empty');
  assert.equal((await call(server, 'DELETE', '/documents/reports?recursive=true')).status, 204);
  assert.deepEqual(await keysBelow('reports/'), [], 'nothing below the folder is left');
  assert.equal(await openUploads(), 0);
  assert.deepEqual(await localLeftovers(), []);
});

test('a 17 MiB document goes up in parts, streamed: the exact bytes in the bucket, read back, its model and text', async () => {
  const bytes = paddedPdf(makePdf({ pages: 2, text: (i) => `Large S3 page ${i + 1}` }));
  assert.ok(bytes.length > 16 * MiB);
  const created = await put('large/big.pdf', bytes);
  assert.equal(created.status, 201, created.text);
  const head = await s3.client().send(new HeadObjectCommand({ Bucket: bucket(), Key: `${PREFIX}large/big.pdf` }));
  assert.match(head.ETag ?? '', /-\d+"$/, 'a multipart object (S3 ETag "<md5>-<parts>")');
  assert.equal(head.ContentLength, bytes.length);
  assert.equal(sha256((await inBucket('large/big.pdf')).bytes), sha256(bytes), 'the bucket holds exactly the bytes');

  // Replaced in place (overwrite, above the multipart threshold): whole, with its tag.
  const replacement = paddedPdf(makePdf({ pages: 1, text: () => 'Large S3 replacement' }), 18 * MiB);
  const replaced = await call(server, 'PUT', '/documents/large/big.pdf', { body: replacement, headers: { 'content-type': 'application/pdf', 'if-match': created.headers.get('etag')! } });
  assert.equal(replaced.status, 200, replaced.text);
  const stored = await inBucket('large/big.pdf');
  assert.equal(sha256(stored.bytes), sha256(replacement));
  assert.equal(stored.etagMeta, unquoted(replaced.headers.get('etag')));

  const read = await call(server, 'GET', '/documents/large/big.pdf');
  assert.equal(sha256(read.bytes), sha256(replacement));
  const model = await call(server, 'GET', '/documents/large/big.pdf', { headers: { accept: 'application/json' } });
  assert.equal(model.status, 200, model.text);
  assert.equal(model.json().pageCount, 1);
  const text = await call(server, 'GET', '/documents/large/big.pdf/pages/0/text');
  assert.equal(text.status, 200, text.text);
  assert.match(text.text, /Large S3 replacement/);
  assert.equal(await openUploads(), 0, 'no unfinished upload');
  assert.deepEqual(await localLeftovers(), []);
});

test('S3 gone: 503 STORE_UNAVAILABLE with Retry-After, nothing half-written; served again once it is back', async () => {
  const bytes = makePdf({ text: () => 'Before the outage' });
  const created = await put('outage/doc.pdf', bytes);
  assert.equal(created.status, 201, created.text);
  await s3.kill();
  try {
    const read = await call(server, 'GET', '/documents/outage/doc.pdf');
    assert.equal(read.status, 503, read.text);
    assert.equal(read.json().code, 'STORE_UNAVAILABLE');
    assert.match(read.headers.get('retry-after') ?? '', /^\d+$/);
    for (const write of [
      await call(server, 'PUT', '/documents/outage/doc.pdf', { body: makePdf({ text: () => 'During the outage' }), headers: { 'content-type': 'application/pdf' } }),
      await put('outage/new.pdf', paddedPdf(makePdf({ text: () => 'A large one during the outage' }))),
      await call(server, 'DELETE', '/documents/outage/doc.pdf'),
      await call(server, 'GET', '/documents/outage'),
    ]) {
      assert.equal(write.status, 503, write.text);
      assert.equal(write.json().code, 'STORE_UNAVAILABLE');
      assert.match(write.headers.get('retry-after') ?? '', /^\d+$/);
    }
  } finally {
    await s3.restart();
  }
  assert.equal(sha256((await inBucket('outage/doc.pdf')).bytes), sha256(bytes), 'the document as it was');
  assert.deepEqual((await keysBelow('outage/')).sort(), ['outage/', 'outage/doc.pdf'], 'nothing new');
  assert.equal(await openUploads(), 0);
  assert.deepEqual(await localLeftovers(), []);
  const again = await call(server, 'GET', '/documents/outage/doc.pdf');
  assert.equal(again.status, 200, 'served again once S3 is back');
  assert.ok(again.bytes.equals(bytes));
});

test('a start that cannot use the bucket stops with one line: a wrong key, a bucket that is not there, no bucket named', async () => {
  const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
  const base = {
    ...process.env,
    PDFSERVICE_DATA_DIR: path.join(server.dataDir, 'not-started'),
    PDFSERVICE_HOST: '127.0.0.1',
    PDFSERVICE_PORT: '0',
    PDFSERVICE_ADMIN_PASSWORD: 'long-enough-password',
    PDFSERVICE_WORKERS: '1',
    PDFSERVICE_STORE: 's3',
    PDFSERVICE_S3_ENDPOINT: s3.endpoint,
    PDFSERVICE_S3_BUCKET: bucket(),
    PDFSERVICE_S3_ACCESS_KEY_ID: s3.accessKeyId,
    PDFSERVICE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
  const start = async (env: Record<string, string | undefined>): Promise<string> => {
    try {
      await promisify(execFile)(process.execPath, [main], { env: { ...base, ...env }, timeout: 60_000 });
    } catch (err) {
      const { code, stderr } = err as { code: number; stderr: string };
      assert.notEqual(code, 0);
      const lines = stderr.trim().split('\n');
      assert.equal(lines.length, 1, stderr);
      assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
      return lines[0]!;
    }
    assert.fail('the service started');
  };
  assert.match(await start({ PDFSERVICE_S3_SECRET_ACCESS_KEY: 'not-the-secret' }), /S3.*403.*credentials/);
  assert.match(await start({ PDFSERVICE_S3_BUCKET: 'no-such-bucket' }), /S3 store cannot be used.*bucket/i);
  assert.match(await start({ PDFSERVICE_S3_BUCKET: '' }), /PDFSERVICE_S3_BUCKET must be set/);
  assert.match(await start({ PDFSERVICE_S3_SECRET_ACCESS_KEY: '' }), /PDFSERVICE_S3_ACCESS_KEY_ID and PDFSERVICE_S3_SECRET_ACCESS_KEY go together/);
});

test('a 403 from S3 while running is 503 STORE_UNAVAILABLE with Retry-After, not the client\'s 403', async () => {
  // The service's key no longer accepted (rotated, a bucket policy changed): the store as the service opens it, with a wrong secret.
  const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: 'rotated-away', forcePathStyle: true });
  try {
    const store = new S3Store({ client, bucket: bucket(), prefix: PREFIX, dataDir: path.join(server.dataDir, 'not-used') });
    const attempts = [() => store.statDocument(documentPathFromBody('outage/doc.pdf', 'path')), () => store.writeDocument(documentPathFromBody('outage/x.pdf', 'path'), makePdf(), { conflict: 'overwrite' })];
    for (const attempt of attempts) {
      await assert.rejects(attempt(), (err: unknown) => {
        assert.ok(err instanceof ServiceError, String(err));
        assert.deepEqual([err.code, err.status], ['STORE_UNAVAILABLE', 503]);
        assert.match(err.headers?.['Retry-After'] ?? '', /^\d+$/);
        assert.match(err.message, /403.*credentials/);
        return true;
      });
    }
  } finally {
    client.destroy();
  }
  assert.deepEqual(await keysBelow('outage/x.pdf'), [], 'nothing written');
});
