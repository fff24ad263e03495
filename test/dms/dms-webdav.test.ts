/**
 * The WebDAV store through the API, against a real Apache mod_dav server
 * (test/dav/httpd.conf): three users log in with their DMS passwords and the
 * DMS decides what each sees and changes; the service's answers and the
 * files on the DMS's disk are both checked.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startDavServer, type DavServer, type DavUser } from '../helpers/dav-server.js';
import { call, sha256, type Reply } from '../helpers/http.js';
import { makePdf, pdftotext } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

let dav: DavServer;
let server: TestServer;

before(async () => {
  dav = await startDavServer();
  // A short bound on the wait for an editor's lock: the lock test's three refusals each wait it out (docs/dms.md).
  server = await startServer({ env: { PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: dav.url, PDFSERVICE_WEBDAV_TIMEOUT_MS: '3000', PDFSERVICE_WEBDAV_LOCK_WAIT_MS: '300' } });
});
after(async () => {
  await server?.stop();
  await dav?.dispose();
});

const as = (user: DavUser) => basicAuth(user, dav.users[user]);
/**
 * SIGSTOP: httpd (one process, -X) keeps its connections open and answers
 * nothing, as a hung server. The stop lands a moment after the signal: wait
 * until the kernel reports the process stopped, or a request could still slip in.
 */
async function pause(): Promise<void> {
  const pid = dav.pid()!;
  process.kill(pid, 'SIGSTOP');
  const state = async () => (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /s, '')[0];
  for (let i = 0; i < 200 && (await state()) !== 'T'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(await state(), 'T', 'httpd is stopped');
}
const resume = () => process.kill(dav.pid()!, 'SIGCONT');
/** The file the DMS holds for a document path (below the root collection), read from its disk. */
const onDisk = (documentPath: string) => readFile(path.join(dav.root, ...documentPath.split('/')));
const put = (user: DavUser, documentPath: string, body: Buffer) => call(server, 'PUT', `/documents/${documentPath}`, { auth: as(user), body, headers: { 'content-type': 'application/pdf' } });
const get = (user: DavUser, p: string) => call(server, 'GET', p, { auth: as(user) });

function refused(reply: Reply, dmsStatus = 403): void {
  assert.equal(reply.status, 403, reply.text);
  assert.equal(reply.json().code, 'DMS_FORBIDDEN');
  assert.equal(reply.json().dmsStatus, dmsStatus);
}

async function login(user: string, password: string): Promise<Reply> {
  return call(server, 'POST', '/sessions', { auth: false, body: { username: user, password } });
}
const cookieOf = (reply: Reply) => /SESSIONID=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')![1]!;

/** Temporary uploads the store left on the DMS (none may survive a request). */
async function temporaries(): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dav.root, { recursive: true, withFileTypes: true })) if (entry.name.startsWith('.pdfservice-tmp-')) found.push(entry.name);
  return found;
}

describe('logins are checked by the DMS', () => {
  test('a DMS user logs in with the DMS password; a wrong one is 401; the password is in no cookie and no log line', async () => {
    const ok = await login('alice', dav.users.alice);
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.json().username, 'alice');
    assert.deepEqual(ok.json().rights, ['GET', 'POST', 'PUT', 'DELETE'], 'PDFSERVICE_WEBDAV_USER_RIGHTS for a user the service does not know');
    const cookie = ok.headers.get('set-cookie')!;
    const secret = dav.users.alice;
    assert.ok(!cookie.includes(secret) && !cookie.includes(Buffer.from(secret).toString('base64')), 'the cookie holds an id, not the password');
    const wrong = await login('alice', 'not-the-password');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.json().code, 'INVALID_CREDENTIALS');
    const stranger = await login('mallory', 'whatever-it-is');
    assert.equal(stranger.status, 401);
    // A request as alice with her session works at the DMS as alice.
    const mine = await call(server, 'GET', '/documents/home/alice', { auth: false, headers: { cookie: `SESSIONID=${cookieOf(ok)}` } });
    assert.equal(mine.status, 200, mine.text);
    assert.ok(!server.output.some((line) => line.includes(secret)), 'no log line holds the password');
  });
});

describe('API tokens and DMS-only users', () => {
  test('a DMS user with no service user gets 403 naming why, not 401, when creating a token; nothing is made', async () => {
    // Was 401 INVALID_CREDENTIALS ("The user no longer exists"): a client then takes its credentials for wrong.
    const session = { auth: false as const, headers: { cookie: `SESSIONID=${cookieOf(await login('bob', dav.users.bob))}` } };
    for (const credentials of [{ auth: as('bob'), headers: {} }, session]) {
      const reply = await call(server, 'POST', '/tokens', { ...credentials, body: { name: 'script' } });
      assert.equal(reply.status, 403, reply.text);
      assert.equal(reply.json().code, 'FORBIDDEN');
      assert.match(reply.json().detail, /signs in through the DMS/);
      assert.match(reply.json().detail, /HTTP Basic/);
      const list = await call(server, 'GET', '/tokens', credentials);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.json().tokens, []);
    }
  });
});

describe('the DMS decides what each user sees and changes', () => {
  test('each user reads and writes their own home; another user\'s home is 403 DMS_FORBIDDEN and stays as it was', async () => {
    const bytes = makePdf({ text: () => 'Alice private report' });
    const created = await put('alice', 'home/alice/report.pdf', bytes);
    assert.equal(created.status, 201, created.text);
    assert.equal(sha256(await onDisk('home/alice/report.pdf')), sha256(bytes), 'the DMS holds the bytes');
    const back = await get('alice', '/documents/home/alice/report.pdf');
    assert.equal(back.status, 200);
    assert.ok(back.bytes.equals(bytes));
    assert.equal(back.headers.get('etag'), created.headers.get('etag'), 'the ETag is the content hash, as with the filesystem store');
    const listing = await get('alice', '/documents/home/alice');
    assert.ok(JSON.stringify(listing.json()).includes('report.pdf'));

    refused(await get('bob', '/documents/home/alice/report.pdf'));
    refused(await get('bob', '/documents/home/alice'));
    refused(await put('bob', 'home/alice/report.pdf', makePdf({ text: () => 'overwritten by bob' })));
    refused(await call(server, 'DELETE', '/documents/home/alice/report.pdf', { auth: as('bob') }));
    assert.equal(sha256(await onDisk('home/alice/report.pdf')), sha256(bytes), 'unchanged on the DMS');

    const bobs = await put('bob', 'home/bob/notes.pdf', makePdf({ text: () => 'Bob notes' }));
    assert.equal(bobs.status, 201, bobs.text);
    assert.deepEqual(await temporaries(), []);
  });

  test('the shared collection: everyone reads, only alice writes (403 for the others, the file unchanged)', async () => {
    const bytes = makePdf({ pages: 2, text: (i) => `Shared handbook page ${i + 1}` });
    assert.equal((await put('alice', 'shared/handbook.pdf', bytes)).status, 201);
    for (const user of ['bob', 'carol'] as const) {
      const read = await get(user, '/documents/shared/handbook.pdf');
      assert.equal(read.status, 200, `${user} reads`);
      assert.ok(read.bytes.equals(bytes));
      const text = await get(user, '/documents/shared/handbook.pdf/pages/1/text');
      assert.equal(text.status, 200, text.text);
      assert.match(text.text, /Shared handbook page 2/);
      refused(await call(server, 'POST', '/documents/shared/handbook.pdf/pages', { auth: as(user), body: { RotatePagesAction: { pageRange: '1', rotation: 90 } } }));
      refused(await put(user, 'shared/handbook.pdf', makePdf()));
      refused(await put(user, 'shared/new.pdf', makePdf()));
    }
    assert.equal(sha256(await onDisk('shared/handbook.pdf')), sha256(bytes), 'unchanged on the DMS');
    const rotated = await call(server, 'POST', '/documents/shared/handbook.pdf/pages', { auth: as('alice'), body: { RotatePagesAction: { pageRange: '1', rotation: 90 } } });
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(sha256(await onDisk('shared/handbook.pdf')), sha256(bytes), 'alice\'s change reached the DMS');
  });

  test('the restricted collection is 403 to carol, listing and document alike; alice and bob use it', async () => {
    const bytes = makePdf({ text: () => 'Board minutes' });
    assert.equal((await put('alice', 'restricted/minutes.pdf', bytes)).status, 201);
    assert.equal((await get('bob', '/documents/restricted/minutes.pdf')).status, 200);
    refused(await get('carol', '/documents/restricted'));
    refused(await get('carol', '/documents/restricted/minutes.pdf'));
    refused(await get('carol', '/documents/restricted/minutes.pdf/pages/0/text'));
  });

  test('the hidden collection: the DMS answers 404 to carol, so the service does (not 403); alice reads and writes it', async () => {
    const bytes = makePdf({ pages: 2, text: (i) => `Merger plan page ${i + 1}` });
    assert.equal((await put('alice', 'hidden/plan.pdf', bytes)).status, 201);
    assert.equal((await get('alice', '/documents/hidden/plan.pdf')).status, 200);
    const listing = await get('alice', '/documents/hidden');
    assert.equal(listing.status, 200, listing.text);
    assert.ok(JSON.stringify(listing.json()).includes('plan.pdf'));
    const text = await get('alice', '/documents/hidden/plan.pdf/pages/1/text');
    assert.match(text.text, /Merger plan page 2/);
    const rotated = await call(server, 'POST', '/documents/hidden/plan.pdf/pages', { auth: as('alice'), body: { RotatePagesAction: { pageRange: '1', rotation: 90 } } });
    assert.equal(rotated.status, 200, rotated.text);
    const current = await onDisk('hidden/plan.pdf');

    const missing = (reply: Reply, code: string) => {
      assert.equal(reply.status, 404, reply.text);
      assert.equal(reply.json().code, code, reply.text);
      assert.doesNotMatch(reply.text, /Merger plan/);
    };
    missing(await get('carol', '/documents/hidden/plan.pdf'), 'DOCUMENT_NOT_FOUND');
    missing(await call(server, 'GET', '/documents/hidden/plan.pdf', { auth: as('carol'), headers: { accept: 'application/json' } }), 'DOCUMENT_NOT_FOUND');
    missing(await get('carol', '/documents/hidden/plan.pdf/pages/0/text'), 'DOCUMENT_NOT_FOUND');
    missing(await get('carol', '/documents/hidden/plan.pdf/annotations'), 'DOCUMENT_NOT_FOUND');
    missing(await get('carol', '/documents/hidden'), 'FOLDER_NOT_FOUND');
    missing(await call(server, 'POST', '/documents/hidden/plan.pdf/pages', { auth: as('carol'), body: { RotatePagesAction: { pageRange: '1', rotation: 90 } } }), 'DOCUMENT_NOT_FOUND');
    missing(await call(server, 'DELETE', '/documents/hidden/plan.pdf', { auth: as('carol') }), 'DOCUMENT_NOT_FOUND');
    missing(await call(server, 'DELETE', '/documents/hidden?recursive=true', { auth: as('carol') }), 'FOLDER_NOT_FOUND');
    // A new document in it: the DMS hides the collection from the MKCOL as from everything else.
    missing(await put('carol', 'hidden/plan.pdf', makePdf({ text: () => 'carol was here' })), 'FOLDER_NOT_FOUND');
    missing(await put('carol', 'hidden/new/carol.pdf', makePdf({ text: () => 'carol was here' })), 'FOLDER_NOT_FOUND');
    assert.ok((await onDisk('hidden/plan.pdf')).equals(current), 'unchanged on the DMS');
    assert.deepEqual((await readdir(path.join(dav.root, 'hidden'))).filter((n) => !n.startsWith('.')), ['plan.pdf']);
    assert.deepEqual(await temporaries(), []);
  });

  test('annotations, actions and page text work on DMS documents as on local ones', async () => {
    const bytes = makePdf({ pages: 3, text: (i) => `Quarterly figures page ${i + 1}` });
    assert.equal((await put('bob', 'home/bob/q.pdf', bytes)).status, 201);
    const xfdf = '<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text name="note-1" page="0" rect="500,700,520,720" title="Bob"><contents>Check the totals</contents></text></annots></xfdf>';
    const imported = await call(server, 'POST', '/documents/home/bob/q.pdf/annotations/content', { auth: as('bob'), body: xfdf, headers: { 'content-type': 'application/vnd.adobe.xfdf' } });
    assert.ok(imported.status === 200 || imported.status === 201, imported.text);
    const listed = await get('bob', '/documents/home/bob/q.pdf/annotations');
    assert.equal(listed.status, 200);
    assert.ok(JSON.stringify(listed.json()).includes('Check the totals'));
    const deleted = await call(server, 'POST', '/documents/home/bob/q.pdf/pages', { auth: as('bob'), body: { DeletePagesAction: { pageRange: '2' } } });
    assert.equal(deleted.status, 200, deleted.text);
    const stored = await onDisk('home/bob/q.pdf');
    const text = pdftotext(stored);
    assert.match(text, /page 1/);
    assert.doesNotMatch(text, /page 2/, 'the page is gone from the file on the DMS');
    assert.match(text, /page 3/);
    const pageText = await get('bob', '/documents/home/bob/q.pdf/pages/1/text');
    assert.match(pageText.text, /Quarterly figures page 3/);
    assert.deepEqual(await temporaries(), []);
  });
});

describe('locks', () => {
  test('a document an editor holds a WebDAV lock on: a change is 423 DMS_LOCKED and the file stays; after UNLOCK it goes through', async () => {
    const bytes = makePdf({ text: () => 'opened in an editor' });
    const made = await put('alice', 'home/alice/locked.pdf', bytes);
    assert.equal(made.status, 201);
    const etag = made.headers.get('etag')!;
    // The editor: another WebDAV client as alice, with a long exclusive lock.
    const url = `${dav.url}home/alice/locked.pdf`;
    const lockinfo = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>editor</D:owner></D:lockinfo>';
    const locked = await fetch(url, { method: 'LOCK', headers: { authorization: dav.auth('alice'), depth: '0', timeout: 'Second-600', 'content-type': 'application/xml' }, body: lockinfo });
    assert.equal(locked.status, 200);
    const token = locked.headers.get('lock-token')!;
    await locked.arrayBuffer();

    const changed = makePdf({ text: () => 'changed meanwhile' });
    for (const headers of [{ 'content-type': 'application/pdf', 'if-match': etag }, { 'content-type': 'application/pdf' }] as Record<string, string>[]) {
      const refused = await call(server, 'PUT', '/documents/home/alice/locked.pdf', { auth: as('alice'), body: changed, headers });
      assert.equal(refused.status, 423, refused.text);
      assert.equal(refused.json().code, 'DMS_LOCKED');
    }
    const action = await call(server, 'POST', '/documents/home/alice/locked.pdf/pages', { auth: as('alice'), body: { RotatePagesAction: { rotation: 90 } }, headers: { 'if-match': etag } });
    assert.equal(action.status, 423, action.text);
    const removal = await call(server, 'DELETE', '/documents/home/alice/locked.pdf', { auth: as('alice'), headers: { 'if-match': etag } });
    assert.equal(removal.status, 423, removal.text);
    assert.equal(sha256(await onDisk('home/alice/locked.pdf')), sha256(bytes), 'unchanged on the DMS');
    assert.deepEqual(await temporaries(), [], 'the refused uploads left nothing behind');

    const unlocked = await fetch(url, { method: 'UNLOCK', headers: { authorization: dav.auth('alice'), 'lock-token': token } });
    assert.equal(unlocked.status, 204);
    const done = await call(server, 'PUT', '/documents/home/alice/locked.pdf', { auth: as('alice'), body: changed, headers: { 'content-type': 'application/pdf', 'if-match': etag } });
    assert.equal(done.status, 200, done.text);
    assert.equal(sha256(await onDisk('home/alice/locked.pdf')), sha256(changed));
    // The service's own commit lock is gone too: the next change needs no wait and no unlock.
    const again = await call(server, 'DELETE', '/documents/home/alice/locked.pdf', { auth: as('alice'), headers: { 'if-match': done.headers.get('etag')! } });
    assert.equal(again.status, 204, again.text);
  });
});

describe('faults', () => {
  test('a DMS that stops answering mid-request: 503 DMS_UNAVAILABLE with Retry-After, nothing half-written', async () => {
    const bytes = makePdf({ text: () => 'Before the outage' });
    assert.equal((await put('alice', 'home/alice/outage.pdf', bytes)).status, 201);
    await pause();
    try {
      const read = await get('alice', '/documents/home/alice/outage.pdf');
      assert.equal(read.status, 503, read.text);
      assert.equal(read.json().code, 'DMS_UNAVAILABLE');
      assert.match(read.headers.get('retry-after') ?? '', /^\d+$/);
      const write = await put('alice', 'home/alice/outage.pdf', makePdf({ text: () => 'During the outage' }));
      assert.equal(write.status, 503, write.text);
    } finally {
      resume();
    }
    assert.equal(sha256(await onDisk('home/alice/outage.pdf')), sha256(bytes), 'the document as it was');
    await dav.stop();
    try {
      const down = await get('alice', '/documents/home/alice/outage.pdf');
      assert.equal(down.status, 503);
      assert.equal(down.json().code, 'DMS_UNAVAILABLE');
      // Logins of DMS users check nothing while it is down: 503 each time, never counted as failures (no lockout after).
      for (let i = 0; i < 8; i++) {
        const tried = await login('bob', dav.users.bob);
        assert.equal(tried.status, 503, tried.text);
        assert.equal(tried.json().code, 'DMS_UNAVAILABLE');
      }
    } finally {
      await dav.restart();
    }
    assert.equal((await login('bob', dav.users.bob)).status, 201, 'not locked out by the outage');
    assert.equal((await get('alice', '/documents/home/alice/outage.pdf')).status, 200, 'served again once the DMS is back');
  });

  test('a password changed on the DMS: the next request with the old session is refused', async () => {
    const session = await login('carol', dav.users.carol);
    assert.equal(session.status, 201);
    const cookie = { auth: false as const, headers: { cookie: `SESSIONID=${cookieOf(session)}` } };
    assert.equal((await call(server, 'GET', '/documents/home/carol', cookie)).status, 200);
    await dav.setPassword('carol', 'carol-new-password-2');
    refused(await call(server, 'GET', '/documents/home/carol', cookie), 401);
    const again = await login('carol', 'carol-new-password-2');
    assert.equal(again.status, 201, 'the new password logs in');
  });
});
