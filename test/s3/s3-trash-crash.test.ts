/**
 * The S3 store's trash (src/storage/s3/trash.ts) where S3 has no rename: a delete or restore killed at chosen steps (its
 * S3 request held forever, the store dropped without cleaning, another store opened on the same prefix and recovered)
 * leaves the document where it was with its versions (a delete killed before its commit), or whole in the trash (killed
 * after it: recover() finishes the deletes), or back at the target with its versions (a restore). Against the Swift
 * test server, each case under its own key prefix.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { documentPathFromBody, type StoredPath } from '../../src/storage/paths.js';
import { createS3Client } from '../../src/storage/s3/client.js';
import { S3Store } from '../../src/storage/s3/store.js';
import { etagOf, type DocumentTrash, type DocumentVersions } from '../../src/storage/store.js';
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
async function open(prefix: string, holds: Hold[] = [], tuning: { copyLimit?: number; copyPartSize?: number } = {}): Promise<{ store: S3Store; versions: DocumentVersions; trash: DocumentTrash; sent: string[]; client: S3Client }> {
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
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-tcrash-'));
  cleanups.push(async () => {
    client.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });
  const store = new S3Store({ client, bucket: s3.buckets[0]!, prefix, dataDir, staleUploadMs: 0, versions: true, trash: true, ...tuning });
  await store.init();
  await store.recover();
  return { store, versions: store.versions!, trash: store.trash!, sent, client };
}


/** The keys below `<prefix><under>`, without `<prefix>`. */
async function keys(prefix: string, under: string): Promise<string[]> {
  const listed = await s3.client().send(new ListObjectsV2Command({ Bucket: s3.buckets[0]!, Prefix: `${prefix}${under}` }));
  return (listed.Contents ?? []).map((o) => o.Key!.slice(prefix.length)).sort();
}

async function read(store: S3Store, p: StoredPath): Promise<Buffer> {
  const opened = await store.openDocument(p);
  try {
    return await opened.read();
  } finally {
    await opened.close();
  }
}

/** Every version of `p` with its bytes' hash, oldest first. */
async function versionTags(versions: DocumentVersions, p: StoredPath): Promise<string[]> {
  const { versions: listed } = await versions.list(p, { offset: 0, limit: 100 });
  const out: string[] = [];
  for (const v of listed.reverse()) {
    const opened = await versions.open(p, v.id);
    try {
      out.push(etagOf(await opened.read()));
    } finally {
      await opened.close();
    }
  }
  return out;
}

/** A document with two versions: answers their ETags, oldest first. */
async function twoVersions(store: S3Store, p: StoredPath): Promise<string[]> {
  await store.writeDocument(p, pdf('first'), { conflict: 'fail' });
  await store.writeDocument(p, pdf('second'), { conflict: 'overwrite' });
  return [etagOf(pdf('first')), etagOf(pdf('second'))];
}

test('a delete killed before its commit (copying the document) leaves the document and its versions where they were; recover() removes the partial entry', async () => {
  const prefix = `tcrash-${process.pid}-${++serial}/`;
  const p = doc('tr/a.pdf');
  const first = await open(prefix, [{ command: 'CopyObject', keyEnds: '/item' }]);
  const tags = await twoVersions(first.store, p);
  void first.store.deleteDocument(p, undefined, 'alice');
  await waitFor(() => first.sent.some((s) => s.startsWith('CopyObject ') && s.endsWith('/item')));
  assert.ok((await keys(prefix, '.trash/')).some((k) => k.endsWith('/pending.json')), 'the pending record was put first');
  assert.ok((await keys(prefix, '.trash/')).some((k) => k.includes('/versions/')), 'the versions were being copied');
  const second = await open(prefix);
  assert.deepEqual(await keys(prefix, '.trash/'), [], 'recover() removed the copies and the pending record');
  assert.equal((await second.trash.list({}, { offset: 0, limit: 10 })).total, 0);
  assert.ok((await read(second.store, p)).equals(pdf('second')), 'the document is where it was');
  assert.deepEqual(await versionTags(second.versions, p), tags, 'with its versions');
});

test('a delete killed after its commit (deleting the document) is finished by recover(): the entry whole, the originals gone; it restores', async () => {
  const prefix = `tcrash-${process.pid}-${++serial}/`;
  const p = doc('tr/a.pdf');
  const first = await open(prefix, [{ command: 'DeleteObject', keyEnds: 'tr/a.pdf' }]);
  const tags = await twoVersions(first.store, p);
  void first.store.deleteDocument(p, undefined, 'alice');
  await waitFor(() => first.sent.some((s) => s === 'DeleteObject tr/a.pdf'));
  const second = await open(prefix);
  assert.equal(await second.store.statDocument(p), null, 'the document is gone');
  assert.deepEqual(await keys(prefix, '.versions/'), [], 'and its versions area');
  assert.ok(!(await keys(prefix, '.trash/')).some((k) => k.endsWith('/pending.json')), 'the delete is done');
  const { entries } = await second.trash.list({ deletedBy: 'alice' }, { offset: 0, limit: 10 });
  assert.deepEqual(entries.map((e) => [e.path.toString(), e.versionCount]), [['tr/a.pdf', 2]]);
  await second.trash.restore(entries[0]!.id, p);
  assert.ok((await read(second.store, p)).equals(pdf('second')));
  assert.deepEqual(await versionTags(second.versions, p), tags);
  assert.deepEqual(await keys(prefix, '.trash/'), []);
});

test('a restore killed after copying the versions back (copying the document) is finished by recover(): the document back with its versions, the entry gone', async () => {
  const prefix = `tcrash-${process.pid}-${++serial}/`;
  const p = doc('tr/a.pdf');
  const target = doc('tr/back.pdf');
  const first = await open(prefix, [{ command: 'CopyObject', keyEnds: 'tr/back.pdf' }]);
  const tags = await twoVersions(first.store, p);
  await first.store.deleteDocument(p, undefined, 'alice');
  const [entry] = (await first.trash.list({}, { offset: 0, limit: 10 })).entries;
  void first.trash.restore(entry!.id, target);
  await waitFor(() => first.sent.includes('CopyObject tr/back.pdf'));
  assert.ok((await keys(prefix, '.versions/tr/back.pdf/')).length > 0, 'the versions were copied back first');
  assert.equal((await first.trash.list({}, { offset: 0, limit: 10 })).total, 0, 'a restore in flight is not listed');
  const second = await open(prefix);
  assert.ok((await read(second.store, target)).equals(pdf('second')), 'the document is back');
  assert.deepEqual(await versionTags(second.versions, target), tags, 'with its versions');
  assert.deepEqual(await keys(prefix, '.trash/'), [], 'the entry is gone');
});

/** Polls until `done` (the held request was sent). */
async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(done(), 'the held request was sent');
}
