/**
 * The S3 store's versions (src/storage/s3/versions.ts) where S3 has no rename: a write killed at chosen steps (its
 * S3 request held forever, the store dropped without cleaning, another store opened on the same prefix and
 * recovered) leaves the old current version or the new one, never a record naming missing bytes; a purging write
 * killed before its purge has the purge finished by recover(); a document another program wrote gets an "unrecorded"
 * version at the next write; the replaced bytes are copied on the server (CopyObject), never downloaded or uploaded
 * by the store; an appended write points at the version it replaces instead of copying it, and a read of that prefix
 * from a document replaced meanwhile is read again from the copy the replacing write made. Against the Swift test
 * server, each case under its own key prefix.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { documentPathFromBody, type StoredPath } from '../../src/storage/paths.js';
import { createS3Client } from '../../src/storage/s3/client.js';
import { S3Store } from '../../src/storage/s3/store.js';
import { etagOf, type DocumentVersions } from '../../src/storage/store.js';
import { s3ServerForSuite } from '../helpers/s3-server.js';

const s3 = s3ServerForSuite();
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

let serial = 0;
const doc = (p: string): StoredPath => documentPathFromBody(p, 'path');
const pdf = (text: string) => Buffer.from(`%PDF-1.7\n% ${text}\n%%EOF\n`);

/** A command to hold forever (the process "killed" while it is in flight), by name and key suffix. */
interface Hold {
  command: string;
  keyEnds: string;
}

/** A store on `prefix` whose client logs its commands and holds the ones `holds` names (each once). */
async function open(prefix: string, holds: Hold[] = [], tuning: { copyLimit?: number; copyPartSize?: number } = {}): Promise<{ store: S3Store; versions: DocumentVersions; sent: string[]; client: S3Client }> {
  const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
  const sent: string[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? '?').replace(/Command$/, '');
      const key = (args.input as { Key?: string }).Key ?? '';
      sent.push(`${command} ${key.slice(prefix.length)}`);
      const i = holds.findIndex((h) => h.command === command && key.endsWith(h.keyEnds));
      if (i >= 0) {
        holds.splice(i, 1);
        return new Promise<never>(() => {}); // never answered: the writer is gone
      }
      return next(args);
    },
    { step: 'initialize', name: 'logAndHold' },
  );
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-vcrash-'));
  cleanups.push(async () => {
    client.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });
  const store = new S3Store({ client, bucket: s3.buckets[0]!, prefix, dataDir, staleUploadMs: 0, versions: true, ...tuning });
  await store.init();
  await store.recover();
  return { store, versions: store.versions!, sent, client };
}

/**
 * The commands are these phases in this order, each phase's commands in any order (they are sent together: which the
 * SDK's middleware sees first is not the code's to say).
 */
function assertPhases(commands: string[], phases: string[][], message: string): void {
  assert.equal(commands.length, phases.flat().length, `${message}:\n${commands.join('\n')}`);
  let at = 0;
  for (const phase of phases) {
    assert.deepEqual(commands.slice(at, at + phase.length).sort(), [...phase].sort(), `${message}:\n${commands.join('\n')}`);
    at += phase.length;
  }
}

async function areaKeys(prefix: string, p: string): Promise<string[]> {
  const area = `${prefix}.versions/${p}/`;
  const listed = await s3.client().send(new ListObjectsV2Command({ Bucket: s3.buckets[0]!, Prefix: area }));
  return (listed.Contents ?? []).map((o) => o.Key!.slice(area.length)).sort();
}

async function bytesOf(versions: DocumentVersions, p: StoredPath, id: string): Promise<Buffer> {
  const opened = await versions.open(p, id);
  try {
    return await opened.read();
  } finally {
    await opened.close();
  }
}

/** Every listed version opens, with the bytes its ETag names. */
async function assertWhole(versions: DocumentVersions, p: StoredPath): Promise<string[]> {
  const { versions: listed } = await versions.list(p, { offset: 0, limit: 100 });
  for (const v of listed) assert.equal(etagOf(await bytesOf(versions, p, v.id)), v.etag, `version ${v.id} names bytes that are there`);
  return listed.map((v) => v.etag);
}

test('a write killed before its document was written leaves the old version current, its record invisible, and recover() removes it', async () => {
  const prefix = `vcrash-${process.pid}-${++serial}/`;
  const p = doc('k/a.pdf');
  const second = await open(prefix);
  const v1 = pdf('one');
  await second.store.writeDocument(p, v1, { conflict: 'fail' });
  const killed = await open(prefix, [{ command: 'PutObject', keyEnds: 'k/a.pdf' }]);
  void killed.store.writeDocument(p, pdf('two, never written'), { conflict: 'overwrite' });
  // Wait until the held PutObject of the document was sent: the blob copy and the record are in the bucket then.
  while (!killed.sent.some((s) => s === 'PutObject k/a.pdf')) await new Promise((resolve) => setTimeout(resolve, 20));
  const during = await areaKeys(prefix, 'k/a.pdf');
  assert.equal(during.filter((k) => k.endsWith('.json')).length >= 2, true, 'the killed write\'s record is in the bucket');
  assert.deepEqual(await assertWhole(second.versions, p), [etagOf(v1)], 'but invisible: the document is still v1');
  const restarted = await open(prefix);
  assert.deepEqual(await assertWhole(restarted.versions, p), [etagOf(v1)]);
  const after = await areaKeys(prefix, 'k/a.pdf');
  assert.equal(after.filter((k) => k.endsWith('.json')).length, 1, 'recover() removed the record of the write that did not commit');
  assert.equal(after.filter((k) => k.startsWith('b-')).length, 0, 'and the copy of v1, which no earlier version needs');
  const v3 = pdf('three');
  await restarted.store.writeDocument(p, v3, { conflict: 'overwrite' });
  assert.deepEqual(await assertWhole(restarted.versions, p), [etagOf(v3), etagOf(v1)]);
});

test('a purging write killed after its document was written and before its purge: recover() finishes the purge', async () => {
  const prefix = `vcrash-${process.pid}-${++serial}/`;
  const p = doc('k/red.pdf');
  const live = await open(prefix);
  await live.store.writeDocument(p, pdf('secret one'), { conflict: 'fail' });
  await live.store.writeDocument(p, pdf('secret two'), { conflict: 'overwrite' });
  // The purge lists the area after the write: held, the writer is gone with the earlier versions still there.
  const killed = await open(prefix, [{ command: 'DeleteObjects', keyEnds: '' }]);
  const redacted = pdf('redacted');
  void killed.store.writeDocument(p, redacted, { conflict: 'overwrite', purgeEarlierVersions: true });
  while (!killed.sent.some((s) => s.startsWith('DeleteObjects'))) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok((await areaKeys(prefix, 'k/red.pdf')).some((k) => k.endsWith('.purge')), 'the marker of the unfinished purge');
  assert.equal((await live.versions.list(p, { offset: 0, limit: 10 })).total, 3, 'the earlier versions are still there');
  const restarted = await open(prefix);
  assert.deepEqual(await assertWhole(restarted.versions, p), [etagOf(redacted)]);
  const left = await areaKeys(prefix, 'k/red.pdf');
  assert.equal(left.length, 1, `only the current record is left: ${left.join(', ')}`);
});

test('a document written by another program is kept as an "unrecorded" version at the next write; the replaced bytes are copied on the server, never read', async () => {
  const prefix = `vcrash-${process.pid}-${++serial}/`;
  const p = doc('k/foreign.pdf');
  const theirs = pdf('theirs');
  await s3.client().send(new PutObjectCommand({ Bucket: s3.buckets[0]!, Key: `${prefix}k/foreign.pdf`, Body: theirs }));
  const { store, versions, sent } = await open(prefix);
  const ours = pdf('ours');
  const from = sent.length;
  await store.writeDocument(p, ours, { conflict: 'overwrite', provenance: { by: 'alice', operation: 'upload' } });
  const commands = sent.slice(from);
  assert.ok(commands.includes('CopyObject .versions/k/foreign.pdf/b-' + etagOf(theirs).replace(/"/g, '')), commands.join('\n'));
  const { versions: listed } = await versions.list(p, { offset: 0, limit: 10 });
  assert.deepEqual(listed.map((v) => [v.operation, v.by, v.etag]), [['upload', 'alice', etagOf(ours)], ['unrecorded', null, etagOf(theirs)]]);
  assert.ok((await bytesOf(versions, p, listed[1]!.id)).equals(theirs));
  // A document the service wrote carries its tag: replacing it reads nothing of it (the other program's was hashed).
  const next = sent.length;
  await store.writeDocument(p, pdf('ours again'), { conflict: 'overwrite' });
  const replacing = sent.slice(next);
  assert.ok(!replacing.some((c) => c.startsWith('GetObject') || c.startsWith('UploadPart')), replacing.join('\n'));
  assertPhases(replacing, [
    ['HeadObject k/foreign.pdf', 'ListObjectsV2 '],
    [`CopyObject .versions/k/foreign.pdf/b-${etagOf(ours).replace(/"/g, '')}`, `PutObject .versions/k/foreign.pdf/v-${(await versions.list(p, { offset: 0, limit: 1 })).current!}-${etagOf(pdf('ours again')).replace(/"/g, '')}.json`],
    ['PutObject k/foreign.pdf'],
  ], 'the stat and the listing together, then the replaced bytes copied on the server and the record together, then the document');
});

test('a write sends its stat and listing together, then its copy and record together: each held forever, the other is still sent, and the document never', async () => {
  const prefix = `vcrash-${process.pid}-${++serial}/`;
  const p = doc('k/together.pdf');
  const live = await open(prefix);
  await live.store.writeDocument(p, pdf('together one'), { conflict: 'fail' });
  // The stat held: the listing is sent anyway.
  const statHolds: Hold[] = [];
  const statHeld = await open(prefix, statHolds);
  // Held from now on (recover() at open stats the document too).
  statHolds.push({ command: 'HeadObject', keyEnds: 'k/together.pdf' });
  const listed = statHeld.sent.length;
  void statHeld.store.writeDocument(p, pdf('together two'), { conflict: 'overwrite' });
  while (!statHeld.sent.slice(listed).includes('ListObjectsV2 ')) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(statHeld.sent.slice(listed).sort(), ['HeadObject k/together.pdf', 'ListObjectsV2 ']);
  // The copy of the replaced bytes held: the record is put anyway, the document is not written.
  const copyHeld = await open(prefix, [{ command: 'CopyObject', keyEnds: '' }]);
  void copyHeld.store.writeDocument(p, pdf('together three, never written'), { conflict: 'overwrite' });
  while (!copyHeld.sent.some((c) => c.startsWith('PutObject .versions/'))) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(!copyHeld.sent.includes('PutObject k/together.pdf'), 'no document before the copy is done');
  assert.deepEqual(await assertWhole(live.versions, p), [etagOf(pdf('together one'))], 'the record put is invisible: the document is still the first');
  const restarted = await open(prefix);
  assert.deepEqual(await assertWhole(restarted.versions, p), [etagOf(pdf('together one'))]);
  assert.deepEqual((await areaKeys(prefix, 'k/together.pdf')).length, 1, 'recover() removed the record of the write that did not commit');
});

test('a delete killed between its versions and its document: the document has no versions left; a new one there starts afresh', async () => {
  const prefix = `vcrash-${process.pid}-${++serial}/`;
  const p = doc('k/del.pdf');
  const live = await open(prefix);
  await live.store.writeDocument(p, pdf('d1'), { conflict: 'fail' });
  await live.store.writeDocument(p, pdf('d2'), { conflict: 'overwrite' });
  const killed = await open(prefix, [{ command: 'DeleteObject', keyEnds: 'k/del.pdf' }]);
  void killed.store.deleteDocument(p);
  while (!killed.sent.includes('DeleteObject k/del.pdf')) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(await areaKeys(prefix, 'k/del.pdf'), []);
  const restarted = await open(prefix);
  assert.equal((await restarted.versions.list(p, { offset: 0, limit: 10 })).total, 0, 'the document is there, without versions');
  await restarted.store.deleteDocument(p);
  const fresh = pdf('d3');
  await restarted.store.writeDocument(p, fresh, { conflict: 'fail' });
  assert.deepEqual(await assertWhole(restarted.versions, p), [etagOf(fresh)]);
});

test('a document above the copy limit is copied to its blob in parts (UploadPartCopy), on the server, whole', async () => {
  // The limit is S3's 5 GiB for one CopyObject; lowered here so that a 12 MiB document takes the same path in 3 parts.
  const MiB = 1024 * 1024;
  const prefix = `vcrash-${process.pid}-${++serial}/`;
  const p = doc('k/large.pdf');
  const { store, versions, sent } = await open(prefix, [], { copyLimit: 6 * MiB, copyPartSize: 5 * MiB });
  const large = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(12 * MiB)]);
  await store.writeDocument(p, large, { conflict: 'fail' });
  const from = sent.length;
  await store.writeDocument(p, pdf('small now'), { conflict: 'overwrite' });
  const blob = `.versions/k/large.pdf/b-${etagOf(large).replace(/"/g, '')}`;
  assert.deepEqual(sent.slice(from).filter((c) => c.endsWith(blob)), ['CreateMultipartUpload', 'UploadPartCopy', 'UploadPartCopy', 'UploadPartCopy', 'CompleteMultipartUpload'].map((c) => `${c} ${blob}`));
  assert.ok(!sent.slice(from).some((c) => c.startsWith('GetObject')), 'nothing read through the store');
  const { versions: listed } = await versions.list(p, { offset: 0, limit: 10 });
  assert.ok((await bytesOf(versions, p, listed[1]!.id)).equals(large), 'the earlier version, whole');
  assert.equal((await store.openUploads()).length, 0);
});

/** `bytes` and an appended update: the next version of an incremental save (engine/core/save.ts). */
const appended = (bytes: Buffer, text: string) => Buffer.concat([bytes, Buffer.from(`\n% update ${text}\n`), randomBytes(300)]);

test('appended writes put a pointer, never a copy; one killed before its document leaves a pointer that leads nowhere, which recover() removes', async () => {
  const prefix = `vcrash-${process.pid}-${++serial}/`;
  const p = doc('k/prefix.pdf');
  const live = await open(prefix);
  const v1 = pdf('prefix one');
  const v2 = appended(v1, 'two');
  await live.store.writeDocument(p, v1, { conflict: 'fail' });
  const from = live.sent.length;
  await live.store.writeDocument(p, v2, { conflict: 'overwrite' });
  const bare = (b: Buffer) => etagOf(b).replace(/"/g, '');
  assertPhases(live.sent.slice(from), [
    ['HeadObject k/prefix.pdf', 'ListObjectsV2 '],
    [`PutObject .versions/k/prefix.pdf/p-${bare(v1)}-${bare(v2)}`, `PutObject .versions/k/prefix.pdf/v-${(await live.versions.list(p, { offset: 0, limit: 1 })).current!}-${bare(v2)}.json`],
    ['PutObject k/prefix.pdf'],
  ], 'the stat and the listing, then the replaced version pointed at and the record together, then the document: nothing copied');
  const killed = await open(prefix, [{ command: 'PutObject', keyEnds: 'k/prefix.pdf' }]);
  const v3 = appended(v2, 'three, never written');
  void killed.store.writeDocument(p, v3, { conflict: 'overwrite' });
  while (!killed.sent.includes('PutObject k/prefix.pdf')) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok((await areaKeys(prefix, 'k/prefix.pdf')).includes(`p-${bare(v2)}-${bare(v3)}`), 'the killed write\'s pointer is in the bucket');
  assert.deepEqual(await assertWhole(live.versions, p), [etagOf(v2), etagOf(v1)], 'the document is still v2, v1 its first bytes');
  const restarted = await open(prefix);
  assert.deepEqual(await assertWhole(restarted.versions, p), [etagOf(v2), etagOf(v1)]);
  assert.deepEqual((await areaKeys(prefix, 'k/prefix.pdf')).filter((k) => !k.startsWith('v-')), [`p-${bare(v1)}-${bare(v2)}`], 'recover() removed the pointer that leads nowhere, kept the one v1 needs');
  // A full rewrite: v2 copied (the one copy), holding v1 too.
  const v4 = pdf('rewritten');
  await restarted.store.writeDocument(p, v4, { conflict: 'overwrite' });
  assert.deepEqual(await assertWhole(restarted.versions, p), [etagOf(v4), etagOf(v2), etagOf(v1)]);
  assert.deepEqual((await areaKeys(prefix, 'k/prefix.pdf')).filter((k) => !k.startsWith('v-')), [`b-${bare(v2)}`, `p-${bare(v1)}-${bare(v2)}`]);
});

test('a prefix read from the document while a full rewrite replaces it is read again from the copy that rewrite made', async () => {
  const prefix = `vcrash-${process.pid}-${++serial}/`;
  const p = doc('k/race.pdf');
  const writer = await open(prefix);
  const v1 = pdf('race one');
  const v2 = appended(v1, 'two');
  const v3 = pdf('race rewritten');
  await writer.store.writeDocument(p, v1, { conflict: 'fail' });
  await writer.store.writeDocument(p, v2, { conflict: 'overwrite' });
  const reader = await open(prefix);
  const { versions: listed } = await reader.versions.list(p, { offset: 0, limit: 10 });
  // The reader's Range GET of the document waits for the rewrite (which copies v2 to its blob, then replaces the document).
  let rewritten = false;
  reader.client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: string; Range?: string };
      if (!rewritten && context.commandName === 'GetObjectCommand' && input.Key === `${prefix}k/race.pdf` && input.Range !== undefined) {
        rewritten = true;
        await writer.store.writeDocument(p, v3, { conflict: 'overwrite' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'rewriteFirst' },
  );
  const from = reader.sent.length;
  const bytes = await bytesOf(reader.versions, p, listed[1]!.id);
  assert.ok(rewritten, 'the rewrite came between the lookup and the read');
  assert.ok(bytes.equals(v1), 'v1\'s bytes, from the copy of v2');
  // The record is not downloaded again: the list read it, and its object is unchanged (S3Versions.readListed).
  assert.deepEqual(reader.sent.slice(from).filter((c) => c.startsWith('GetObject')), ['GetObject k/race.pdf', `GetObject .versions/k/race.pdf/b-${etagOf(v2).replace(/"/g, '')}`], 'the document refused (another tag), then the blob');
});

test('a restore copies the version onto the document on the server: a prefix of a blob by UploadPartCopy of its bytes, a whole blob by CopyObject, the current content by no copy; nothing read or sent through the store', async () => {
  const prefix = `vcrash-${process.pid}-${++serial}/`;
  const p = doc('k/restore.pdf');
  const { store, versions, sent } = await open(prefix);
  const bare = (b: Buffer) => etagOf(b).replace(/"/g, '');
  const v1 = pdf('restore one');
  const v2 = appended(v1, 'two');
  const v3 = pdf('restore three, rewritten');
  await store.writeDocument(p, v1, { conflict: 'fail', provenance: { by: 'alice', operation: 'upload', pageCount: 1 } });
  await store.writeDocument(p, v2, { conflict: 'overwrite' });
  await store.writeDocument(p, v3, { conflict: 'overwrite' });
  const ids = new Map((await versions.list(p, { offset: 0, limit: 10 })).versions.map((v) => [v.etag, v.id]));
  const restoreOf = async (bytes: Buffer): Promise<string[]> => {
    const from = sent.length;
    const written = await versions.restore!(p, ids.get(etagOf(bytes))!, { conflict: 'overwrite', provenance: { by: 'bob', operation: 'restore' } });
    assert.equal(written.stat.etag, etagOf(bytes));
    const commands = sent.slice(from);
    assert.ok(!commands.some((c) => c.startsWith('GetObject') || c === 'PutObject k/restore.pdf' || c.startsWith('UploadPart ')), commands.join('\n'));
    const opened = await store.openDocument(p);
    try {
      const got = await opened.read();
      assert.ok(got.equals(bytes), `the document is the version, byte for byte (${got.length} bytes, the version ${bytes.length})`);
    } finally {
      await opened.close();
    }
    return commands;
  };
  const current = async () => (await versions.list(p, { offset: 0, limit: 1 })).current!;
  // v1: the first bytes of v2, whose blob the rewrite to v3 made; v3 copied to its blob first, with the record.
  assertPhases(await restoreOf(v1), [
    ['HeadObject k/restore.pdf', 'ListObjectsV2 '],
    [`CopyObject .versions/k/restore.pdf/b-${bare(v3)}`, 'CreateMultipartUpload k/restore.pdf', 'UploadPartCopy k/restore.pdf', `PutObject .versions/k/restore.pdf/v-${await current()}-${bare(v1)}.json`],
    ['CompleteMultipartUpload k/restore.pdf'],
  ], 'a prefix: the replaced bytes copied, the range copied as a part and the record put together, then the completion');
  const restored = (await versions.list(p, { offset: 0, limit: 1 })).versions[0]!;
  assert.deepEqual([restored.operation, restored.by, restored.etag, restored.pageCount], ['restore', 'bob', etagOf(v1), 1], 'a new version with the kept one\'s page count');
  // v2: its blob whole; v1 (the document) needs no copy (its first bytes are in v2's blob).
  assertPhases(await restoreOf(v2), [
    ['HeadObject k/restore.pdf', 'ListObjectsV2 '],
    [`PutObject .versions/k/restore.pdf/v-${await current()}-${bare(v2)}.json`],
    ['CopyObject k/restore.pdf'],
  ], 'a blob whole: the record, then one CopyObject onto the document');
  // v2 again: the current content, no document written.
  assertPhases(await restoreOf(v2), [
    ['HeadObject k/restore.pdf', 'ListObjectsV2 '],
    [`PutObject .versions/k/restore.pdf/v-${await current()}-${bare(v2)}.json`],
  ], 'the current content: a record, no copy');
  const fresh = await open(prefix);
  assert.equal((await fresh.store.statDocument(p))!.etag, etagOf(v2), 'the document carries its tag (x-amz-meta-etag)');
  assert.deepEqual(await assertWhole(fresh.versions, p), [v2, v2, v1, v3, v2, v1].map(etagOf));
  assert.equal((await store.openUploads()).length, 0);
});

test('a restore killed before its document was replaced leaves the old version current; recover() removes its record and its upload', async () => {
  const prefix = `vcrash-${process.pid}-${++serial}/`;
  const p = doc('k/restore-killed.pdf');
  const live = await open(prefix);
  const v1 = pdf('killed one');
  const v2 = appended(v1, 'two');
  await live.store.writeDocument(p, v1, { conflict: 'fail' });
  await live.store.writeDocument(p, v2, { conflict: 'overwrite' });
  const first = (await live.versions.list(p, { offset: 0, limit: 10 })).versions[1]!.id;
  const killed = await open(prefix, [{ command: 'CompleteMultipartUpload', keyEnds: 'k/restore-killed.pdf' }]);
  void killed.versions.restore!(p, first, { conflict: 'overwrite' });
  while (!killed.sent.includes('CompleteMultipartUpload k/restore-killed.pdf')) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(await assertWhole(live.versions, p), [etagOf(v2), etagOf(v1)], 'the document is still v2');
  const restarted = await open(prefix);
  assert.deepEqual(await assertWhole(restarted.versions, p), [etagOf(v2), etagOf(v1)]);
  assert.equal((await restarted.store.openUploads()).length, 0, 'the restore\'s upload aborted');
  assert.equal((await areaKeys(prefix, 'k/restore-killed.pdf')).filter((k) => k.endsWith('.json')).length, 2, 'its record removed');
});
