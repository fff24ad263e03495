/**
 * The retention sweep on the WebDAV store (docs/versions.md, "Retention on WebDAV"), against the Apache mod_dav test
 * server (test/dav/httpd.conf): passthrough with a sweep account (PDFSERVICE_WEBDAV_SWEEP_USERNAME, alice), a limit of
 * two versions and a sweep every second. Old versions go from the DMS's disk and a pinned one stays; a document the
 * sweep account cannot see (bob's home) keeps its versions; an old trash entry is purged without any listing of the
 * trash. And the walk over several accounts (as with mapped accounts): each account's view, a document two accounts
 * see once.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { versionsTask } from '../../src/operations/retention.js';
import { StoredPath } from '../../src/storage/paths.js';
import { DavClient } from '../../src/storage/webdav/client.js';
import { WebDavBackend } from '../../src/storage/webdav/store.js';
import { WebDavSweep } from '../../src/storage/webdav/sweep.js';
import { startDavServer, type DavServer, type DavUser } from '../helpers/dav-server.js';
import { call, sha256, type Reply } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

let dav: DavServer;
let server: TestServer;

before(async () => {
  dav = await startDavServer();
  server = await startServer({
    env: {
      PDFSERVICE_STORE: 'webdav',
      PDFSERVICE_WEBDAV_URL: dav.url,
      PDFSERVICE_WEBDAV_SWEEP_USERNAME: 'alice',
      PDFSERVICE_WEBDAV_SWEEP_PASSWORD: dav.users.alice,
      PDFSERVICE_VERSIONS_MAX_COUNT: '2',
      PDFSERVICE_RETENTION_SWEEP_INTERVAL: '1s',
    },
  });
});
after(async () => {
  await server?.stop();
  await dav?.dispose();
});

const as = (user: DavUser) => ({ auth: basicAuth(user, dav.users[user]) });
const ok = (reply: Reply, status = 200) => assert.equal(reply.status, status, reply.text);
const put = async (user: DavUser, doc: string, body: Buffer) => {
  const reply = await call(server, 'PUT', `/documents/${doc}`, { ...as(user), body, headers: { 'content-type': 'application/pdf' } });
  assert.ok([200, 201].includes(reply.status), reply.text);
};
type Listed = { versions: { id: string; etag: string; pinned: boolean; current: boolean }[]; total: number; current: string };
const list = async (user: DavUser, doc: string): Promise<Listed> => {
  const reply = await call(server, 'GET', `/documents/${doc}/versions`, { ...as(user), headers: { accept: 'application/json' } });
  ok(reply);
  return reply.json();
};
/** The names in a folder on the DMS's own disk (none when it is not there). */
const onDisk = async (folder: string) => (await readdir(path.join(dav.root, folder)).catch(() => [] as string[])).filter((n) => n !== '.DAV').sort();
const hidden = (doc: string) => onDisk(path.join(path.dirname(doc), '.pdfservice-versions', path.basename(doc)));
const pause = () => new Promise((r) => setTimeout(r, 200));

/** The sweeps the service logged (its JSON log lines): versions removed, trash entries purged, failures. */
function swept(): { removed: number; purged: number; failed: number } {
  const counts = { removed: 0, purged: 0, failed: 0 };
  for (const line of server.output) {
    if (!line.includes('"retention sweep')) continue;
    const entry = JSON.parse(line) as { msg: string; tasks: { versions?: { removed?: number }; trash?: { purged?: number } } };
    if (entry.msg === 'retention sweep failed') counts.failed++;
    else {
      counts.removed += entry.tasks.versions?.removed ?? 0;
      counts.purged += entry.tasks.trash?.purged ?? 0;
    }
  }
  return counts;
}

describe('the retention sweep on the DMS', () => {
  test('as the sweep account: old versions go from the DMS, a pinned one stays; what the account cannot see is left alone', async () => {
    // bob's home, which the DMS hides from alice: three versions the sweep never sees.
    const bobs = 'home/bob/ledger.pdf';
    for (let i = 0; i < 3; i++) await put('bob', bobs, makePdf({ text: () => `Ledger ${i}` }));
    const doc = 'home/alice/retained/memo.pdf';
    const contents = Array.from({ length: 5 }, (_, i) => makePdf({ text: () => `Memo write ${i}` }));
    await put('alice', doc, contents[0]!);
    await put('alice', doc, contents[1]!);
    // Pinned while the document has two versions (at the limit: no sweep removes any yet).
    const first = (await list('alice', doc)).versions.find((v) => !v.current)!;
    ok(await call(server, 'PATCH', `/documents/${doc}/versions/${first.id}`, { ...as('alice'), body: { pinned: true } }));
    for (const body of contents.slice(2)) await put('alice', doc, body);

    // The sweep runs every second: wait until it has brought the document down to two versions.
    let left = await list('alice', doc);
    for (const deadline = Date.now() + 60_000; left.total > 2 && Date.now() < deadline; left = await list('alice', doc)) await pause();
    assert.equal(left.total, 2, JSON.stringify(left));
    assert.deepEqual(left.versions.map((v) => [v.id === first.id, v.pinned, v.current]).sort(), [[false, false, true], [true, true, false]]);
    // A removal takes the record out first (the list shows it gone) and then the bytes: the disk is looked at once the
    // sweeps have logged their three removals, each logged when its sweep has ended (CI of 1 Dec looked in between and
    // found the last removed version's blob still there).
    for (const deadline = Date.now() + 10_000; swept().removed < 3 && Date.now() < deadline; ) await pause();
    assert.deepEqual({ removed: swept().removed, failed: swept().failed }, { removed: 3, failed: 0 });
    // On the DMS's disk: two records (the current one's still pending: the next write renames it) and one blob, the
    // pinned version's bytes (the current one is the document).
    const names = await hidden(doc);
    assert.equal(names.filter((n) => /^v-.*\.(json|pending)$/.test(n)).length, 2, names.join(' '));
    const blobs = names.filter((n) => n.startsWith('b-'));
    assert.equal(blobs.length, 1, names.join(' '));
    const blob = await readFile(path.join(dav.root, 'home/alice/retained/.pdfservice-versions/memo.pdf', blobs[0]!));
    assert.equal(sha256(blob), sha256(contents[0]!), 'the pinned version\'s bytes stay');
    const pinnedRead = await call(server, 'GET', `/documents/${doc}?versionId=${first.id}`, as('alice'));
    ok(pinnedRead);
    assert.equal(sha256(pinnedRead.bytes), sha256(contents[0]!));

    // The sweep that left two versions read the document after bob's writes, and never saw bob's.
    assert.equal((await list('bob', bobs)).total, 3);
    assert.equal((await hidden(bobs)).filter((n) => n.startsWith('b-')).length, 2);
    assert.deepEqual({ removed: swept().removed, failed: swept().failed }, { removed: 3, failed: 0 }, 'no sweep since removed any of bob\'s');
  });

  test('a trash entry older than PDFSERVICE_TRASH_MAX_AGE (30 days) is purged by the sweep, with no listing of the trash', async () => {
    const doc = 'home/alice/old/forgotten.pdf';
    ok(await call(server, 'PUT', `/documents/${doc}`, { ...as('alice'), body: makePdf({ text: () => 'Forgotten' }), headers: { 'content-type': 'application/pdf' } }), 201);
    ok(await call(server, 'DELETE', `/documents/${doc}`, as('alice')), 204);
    const [name] = await onDisk('home/alice/old/.pdfservice-trash');
    assert.ok(name, 'the entry is on the DMS');
    const purgedBefore = swept().purged;
    // Its record says it was deleted 31 days ago (rewritten on the DMS as alice).
    const record = path.join(dav.root, 'home/alice/old/.pdfservice-trash', name, 'entry.json');
    const stored = JSON.parse(await readFile(record, 'utf8')) as { deleted: string };
    stored.deleted = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const res = await fetch(`${dav.url}home/alice/old/.pdfservice-trash/${name}/entry.json`, { method: 'PUT', body: JSON.stringify(stored), headers: { authorization: basicAuth('alice', dav.users.alice) } });
    assert.ok(res.status < 300, `PUT: ${res.status}`);
    for (const deadline = Date.now() + 60_000; (await onDisk('home/alice/old/.pdfservice-trash')).length > 0 && Date.now() < deadline; ) await pause();
    assert.deepEqual(await onDisk('home/alice/old/.pdfservice-trash'), [], 'gone from the DMS');
    for (const deadline = Date.now() + 10_000; swept().purged === purgedBefore && Date.now() < deadline; ) await pause();
    assert.equal(swept().purged, purgedBefore + 1, 'the sweep purged it');
    assert.equal(swept().failed, 0);
  });

  test('over several accounts: each one\'s documents are swept, one that two accounts see is walked once', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-dav-sweep-'));
    const client = new DavClient({ url: dav.url, timeoutMs: 10_000 });
    try {
      const backend = new WebDavBackend(client, dataDir, undefined, true, true);
      await backend.init();
      const account = (user: DavUser) => ({ username: user, password: dav.users[user] });
      const docs = { alices: 'home/alice/several/own.pdf', bobs: 'home/bob/several/own.pdf', shared: 'restricted/several/shared.pdf' };
      const write = async (user: DavUser, doc: string, count: number) => {
        const p = StoredPath.fromValidSegments(doc.split('/'));
        for (let i = 0; i < count; i++) await backend.forUser(account(user)).writeDocument(p, makePdf({ text: () => `${doc} by ${user}, ${i}` }), { conflict: 'overwrite' });
      };
      await write('alice', docs.alices, 3);
      await write('bob', docs.bobs, 3);
      await write('alice', docs.shared, 2);
      await write('bob', docs.shared, 2);
      // alice twice (two service users mapped to one DMS account), and bob; both see restricted/.
      const sweep = new WebDavSweep(backend, () => [account('alice'), account('bob'), account('alice')]);
      const walked: string[] = [];
      for await (const p of sweep.versions.documents()) walked.push(p.toString());
      assert.equal(new Set(walked).size, walked.length, `each document once: ${walked.join(' ')}`);
      for (const doc of Object.values(docs)) assert.ok(walked.includes(doc), `${doc} in ${walked.join(' ')}`);

      const task = versionsTask(sweep, { maxCount: 2, maxAgeMs: 0, thinning: false, userBytes: 0 });
      const counts = await task.run({ now: new Date(), pause: async () => {}, stopping: false });
      assert.equal(counts.documents, walked.length);
      for (const [user, doc] of [['alice', docs.alices], ['bob', docs.bobs], ['bob', docs.shared]] as const) {
        assert.equal((await list(user, doc)).total, 2, doc);
        assert.equal((await hidden(doc)).filter((n) => n.startsWith('b-')).length, 1, `${doc}: one blob left on the DMS`);
      }
    } finally {
      await client.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
