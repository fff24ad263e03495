/**
 * Document versions over HTTP (docs/versions.md): every write of several kinds keeps a version whose bytes are what
 * that write produced (sha256), restore, label/pin/delete, reads of a kept version (download with Range, the
 * DocumentModel, page text), writes naming a version refused, rights, redaction purging every earlier version
 * (pdftotext over every version and every kept file), and the service with versions off.
 */
import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, jobEnded, sha256, type Reply } from '../helpers/http.js';
import { makePdf, pdftotext, qpdfCheck, redactablePdf } from '../helpers/pdf.js';
import { basicAuth, startServer, TEST_STORE, type TestServer } from '../helpers/server.js';

let server: TestServer;
const password = 'a-long-test-password';
const reader = basicAuth('versions-no-get', password);

before(async () => {
  server = await startServer();
  const created = await call(server, 'POST', '/users', { body: { username: 'versions-no-get', password, rights: ['POST', 'PUT', 'DELETE'] } });
  assert.equal(created.status, 201, created.text);
});
after(async () => {
  await server.stop();
});

const XFDF = 'application/vnd.adobe.xfdf';
const xfdfNote = (contents: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots><text page="0" rect="10,10,30,30" name="note-1"><contents>${contents}</contents></text></annots></xfdf>\n`;

const put = (doc: string, body: Buffer, headers: Record<string, string> = {}) => call(server, 'PUT', `/documents/${doc}`, { body, headers: { 'content-type': 'application/pdf', ...headers } });
const current = async (doc: string): Promise<Buffer> => {
  const reply = await call(server, 'GET', `/documents/${doc}`);
  assert.equal(reply.status, 200, reply.text);
  return reply.bytes;
};
const list = async (doc: string, query = ''): Promise<{ versions: Record<string, any>[]; total: number; current: string | null; next?: string }> => {
  const reply = await call(server, 'GET', `/documents/${doc}/versions${query}`, { headers: { accept: 'application/json' } });
  assert.equal(reply.status, 200, reply.text);
  return reply.json();
};
const version = (doc: string, id: string, headers: Record<string, string> = {}) => call(server, 'GET', `/documents/${doc}?versionId=${id}`, { headers });
const ok = (reply: Reply, status = 200) => assert.equal(reply.status, status, reply.text);

/**
 * Every blob kept for a document's versions (what a purge must leave no text in), where its store keeps them
 * (docs/versions.md): the data folder's versions/<path>/ on the filesystem, the hidden collection
 * <folder>/.pdfservice-versions/<name>/ beside the document on the DMS's disk with PDFSERVICE_TEST_STORE=webdav.
 */
async function keptFiles(doc: string): Promise<Buffer[]> {
  const parts = doc.split('/');
  const dir = TEST_STORE === 'webdav' ? path.join(server.documentsDir, ...parts.slice(0, -1), '.pdfservice-versions', parts.at(-1)!) : path.join(server.dataDir, 'versions', ...parts);
  const names = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(names.filter((n) => n.startsWith('b-')).map((n) => readFile(path.join(dir, n))));
}

describe('a version of every write', () => {
  const doc = 'versions/history.pdf';
  /** The bytes after each write, in order, and the operation each version records. */
  const produced: { sha: string; operation: string; bytes: Buffer }[] = [];
  let jobId = '';
  const wrote = async (operation: string) => {
    const bytes = await current(doc);
    produced.push({ sha: sha256(bytes), operation, bytes });
  };

  before(async () => {
    ok(await put(doc, redactablePdf(2)), 201);
    await wrote('upload');
    ok(await call(server, 'POST', `/documents/${doc}/pages`, { body: { TextStampAction: { text: 'Stamped once', x: 72, y: 72, pageIndex: 0 } } }));
    await wrote('TextStampAction');
    ok(await call(server, 'POST', `/documents/${doc}/annotations/content`, { body: Buffer.from(xfdfNote('First note')), headers: { 'content-type': XFDF } }));
    await wrote('xfdf');
    ok(await call(server, 'POST', `/documents/${doc}/annotations/redaction`, { body: { searchText: 'Kept 2' } }));
    await wrote('redaction annotations');
    const attachment = new FormData();
    attachment.append('annotation', JSON.stringify({ subtype: 'FileAttachment', name: 'att-1' }));
    attachment.append('file', new Blob([Buffer.from('a,b\n1,2\n')], { type: 'text/csv' }), 'data.csv');
    ok(await call(server, 'POST', `/documents/${doc}/annotations`, { body: attachment }), 201);
    await wrote('annotations POST');
    // A background job's write records the job.
    const accepted = await call(server, 'POST', `/documents/${doc}/pages`, { body: { TextStampAction: { text: 'By a job', x: 72, y: 300, pageIndex: 1 } }, headers: { prefer: 'respond-async' } });
    ok(accepted, 202);
    const job = await jobEnded(server, accepted.json().id);
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    jobId = accepted.json().id;
    await wrote('TextStampAction (job)');
    ok(await put(doc, makePdf({ pages: 1, text: () => 'Replaced entirely' })));
    await wrote('upload');
  });

  test('the list has one version per write, newest first, each with the bytes that write produced', async () => {
    const { versions, total, current: currentId } = await list(doc);
    assert.equal(total, produced.length);
    assert.equal(versions.length, produced.length);
    assert.equal(currentId, versions[0]!.id);
    assert.deepEqual(versions.map((v) => v.current), versions.map((_, i) => i === 0));
    const ids = versions.map((v) => v.id as string);
    assert.deepEqual([...ids].sort().reverse(), ids, 'newest first, ids ordered');
    const oldestFirst = [...versions].reverse();
    for (const [i, v] of oldestFirst.entries()) {
      const reply = await version(doc, v.id);
      ok(reply);
      assert.equal(sha256(reply.bytes), produced[i]!.sha, `version ${i} holds what write ${i} (${produced[i]!.operation}) produced`);
      assert.equal(reply.headers.get('etag'), v.etag);
      assert.equal(v.size, produced[i]!.bytes.length);
      assert.equal(v.user, 'admin');
      assert.match(v.requestId, /./);
      assert.equal(v.label, null);
      assert.equal(v.pinned, false);
    }
    assert.equal(oldestFirst[0]!.operation, 'upload');
    assert.equal(oldestFirst[0]!.pageCount, 2);
    assert.equal(oldestFirst[1]!.operation, 'TextStampAction');
    assert.equal(oldestFirst[5]!.operation, 'TextStampAction');
    assert.equal(oldestFirst[5]!.jobId, jobId);
    assert.equal(oldestFirst[0]!.jobId, null);
    assert.equal(oldestFirst[6]!.operation, 'upload');
    assert.equal(oldestFirst[6]!.pageCount, 1);
  });

  test('a kept version is read like the document: Range, the DocumentModel and page text with versionId; Link names the history', async () => {
    const { versions } = await list(doc);
    const first = versions.at(-1)!;
    const range = await version(doc, first.id, { range: 'bytes=0-9' });
    assert.equal(range.status, 206);
    assert.deepEqual(range.bytes, produced[0]!.bytes.subarray(0, 10));
    const model = await version(doc, first.id, { accept: 'application/json' });
    ok(model);
    assert.equal(model.json().pageCount, 2);
    assert.equal(model.json().etag, first.etag);
    const text = await call(server, 'GET', `/documents/${doc}/pages/0/text?versionId=${first.id}`, { headers: { accept: 'text/plain' } });
    ok(text);
    assert.match(text.text, /Secret 1/);
    const now = await call(server, 'GET', `/documents/${doc}/pages/0/text`, { headers: { accept: 'text/plain' } });
    assert.match(now.text, /Replaced entirely/);
    const download = await call(server, 'GET', `/documents/${doc}`);
    assert.match(download.headers.get('link') ?? '', /<\/pdfservice\/v1\/documents\/versions\/history\.pdf\/versions>; rel="version-history"/);
    assert.match(range.headers.get('link') ?? '', /rel="latest-version"/);
    const head = await call(server, 'HEAD', `/documents/${doc}?versionId=${first.id}`);
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), first.etag);
    assert.equal(Number(head.headers.get('content-length')), first.size);
    assert.equal((await version(doc, first.id, { 'if-none-match': first.etag })).status, 304);
    const image = await call(server, 'GET', `/documents/${doc}/pages/1/image?versionId=${first.id}`, { headers: { accept: 'image/png' } });
    assert.equal(image.status, 200, image.text);
    assert.equal(image.headers.get('content-type'), 'image/png');
    const annotations = await call(server, 'GET', `/documents/${doc}/annotations?versionId=${first.id}`, { headers: { accept: 'application/json' } });
    ok(annotations);
    const latest = await call(server, 'GET', `/documents/${doc}/annotations`, { headers: { accept: 'application/json' } });
    assert.notDeepEqual(annotations.json(), latest.json(), 'the annotations of the first version, not the current ones');
    const unknown = await version(doc, '0000000000000001');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json().code, 'VERSION_NOT_FOUND');
    const xml = await call(server, 'GET', `/documents/${doc}/versions?limit=2`, { headers: { accept: 'application/xml' } });
    ok(xml);
    assert.match(xml.text, /^<\?xml[^>]*>\s*<Versions>\s*<version>/);
    assert.equal((xml.text.match(/<version>/g) ?? []).length, 2);
    const paged = await list(doc, '?offset=1&limit=2');
    assert.deepEqual(paged.versions.map((v) => v.id), versions.slice(1, 3).map((v) => v.id));
    assert.match(paged.next ?? '', /offset=3&limit=2/);
  });

  test('Link names the predecessor version (RFC 5829) of the current content and of a kept version, and follows a deletion', async () => {
    const predecessorOf = (reply: { headers: Headers }): string | undefined => {
      const target = /<([^>]+)>; rel="predecessor-version"/.exec(reply.headers.get('link') ?? '')?.[1];
      return target === undefined ? undefined : new URL(target, 'http://x').searchParams.get('versionId') ?? 'none';
    };
    const { versions } = await list(doc);
    const download = await call(server, 'GET', `/documents/${doc}`);
    ok(download);
    assert.equal(predecessorOf(download), versions[1]!.id, 'the current content follows the second newest version');
    const model = await call(server, 'GET', `/documents/${doc}`, { headers: { accept: 'application/json' } });
    assert.equal(predecessorOf(model), versions[1]!.id);
    assert.equal(predecessorOf(await version(doc, versions[3]!.id, { range: 'bytes=0-0' })), versions[4]!.id);
    assert.equal(predecessorOf(await version(doc, versions.at(-1)!.id, { range: 'bytes=0-0' })), undefined, 'the first version has none');
    // The link's target is a version's bytes.
    const target = /<([^>]+)>; rel="predecessor-version"/.exec(download.headers.get('link')!)![1]!;
    const followed = await call(server, 'GET', target.replace('/pdfservice/v1', ''));
    assert.equal(followed.status, 200);
    assert.equal(followed.headers.get('etag'), versions[1]!.etag);
    // A write's answer names the version it replaced.
    const stamped = await put(doc, makePdf({ pages: 1, text: () => 'Replaced again' }));
    ok(stamped);
    assert.equal(predecessorOf(stamped), versions[0]!.id);
    await wrote('upload');
    // Deleting the predecessor makes the next older one the predecessor at once (on this instance).
    ok(await call(server, 'DELETE', `/documents/${doc}/versions/${versions[0]!.id}`), 204);
    assert.equal(predecessorOf(await call(server, 'GET', `/documents/${doc}`)), versions[1]!.id);
    produced.splice(produced.length - 2, 1);
  });

  test('a write naming a version is 400 VERSION_READ_ONLY, and changes nothing', async () => {
    const before = sha256(await current(doc));
    const { versions } = await list(doc);
    const id = versions.at(-1)!.id;
    for (const reply of [
      await put(`${doc}?versionId=${id}`, makePdf()),
      await call(server, 'POST', `/documents/${doc}/pages?versionId=${id}`, { body: { TextStampAction: { text: 'x', x: 1, y: 1 } } }),
      await call(server, 'DELETE', `/documents/${doc}?versionId=${id}`),
    ]) {
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.json().code, 'VERSION_READ_ONLY');
    }
    assert.equal(sha256(await current(doc)), before);
    assert.equal((await list(doc)).total, versions.length);
  });

  test('restore makes the old bytes current as a new version; a stale If-Match is 412', async () => {
    const { versions } = await list(doc);
    const target = versions.at(-2)!; // after the stamp
    const stale = await call(server, 'POST', `/documents/${doc}/versions/${target.id}/restore`, { headers: { 'if-match': versions.at(-1)!.etag } });
    assert.equal(stale.status, 412);
    assert.equal((await list(doc)).total, versions.length);
    const restored = await call(server, 'POST', `/documents/${doc}/versions/${target.id}/restore`, { headers: { 'if-match': versions[0]!.etag, accept: 'application/json' } });
    ok(restored);
    assert.equal(restored.headers.get('etag'), target.etag);
    assert.equal(sha256(await current(doc)), produced[1]!.sha);
    const after = await list(doc);
    assert.equal(after.total, versions.length + 1);
    assert.equal(after.versions[0]!.operation, 'restore');
    assert.equal(after.versions[0]!.etag, target.etag);
    assert.equal(after.current, after.versions[0]!.id);
    // Every earlier version still holds its bytes: history is not rewritten.
    for (const [i, v] of [...after.versions].reverse().slice(0, produced.length).entries()) assert.equal(sha256((await version(doc, v.id)).bytes), produced[i]!.sha);
  });

  test('label and pin, delete of one version, not of the current one', async () => {
    const { versions } = await list(doc);
    const v = versions.at(-1)!;
    const patched = await call(server, 'PATCH', `/documents/${doc}/versions/${v.id}`, { body: { label: 'as received', pinned: true } });
    ok(patched);
    assert.equal(patched.json().label, 'as received');
    assert.equal(patched.json().pinned, true);
    const again = (await list(doc)).versions.at(-1)!;
    assert.equal(again.label, 'as received');
    assert.equal(again.pinned, true);
    assert.equal(sha256((await version(doc, v.id)).bytes), produced[0]!.sha, 'a label changes no bytes');
    const cleared = await call(server, 'PATCH', `/documents/${doc}/versions/${v.id}`, { body: { label: null } });
    assert.equal(cleared.json().label, null);
    assert.equal(cleared.json().pinned, true);

    const refused = await call(server, 'DELETE', `/documents/${doc}/versions/${versions[0]!.id}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.json().code, 'VERSION_IS_CURRENT');
    const middle = versions[2]!;
    ok(await call(server, 'DELETE', `/documents/${doc}/versions/${middle.id}`), 204);
    const after = await list(doc);
    assert.equal(after.total, versions.length - 1);
    assert.ok(!after.versions.some((x) => x.id === middle.id));
    assert.equal((await version(doc, middle.id)).status, 404);
    assert.equal((await call(server, 'DELETE', `/documents/${doc}/versions/${middle.id}`)).status, 404);
  });

  test('a user without the read right can neither list nor read versions; without PUT/DELETE/POST rights, no changes', async () => {
    const { versions } = await list(doc);
    const id = versions.at(-1)!.id;
    for (const reply of [
      await call(server, 'GET', `/documents/${doc}/versions`, { auth: reader }),
      await call(server, 'GET', `/documents/${doc}?versionId=${id}`, { auth: reader }),
      await call(server, 'GET', `/documents/${doc}/versions/${id}`, { auth: reader }),
    ]) {
      assert.equal(reply.status, 403, reply.text);
      assert.equal(reply.json().code, 'FORBIDDEN');
    }
    const readOnly = basicAuth('versions-read-only', password);
    ok(await call(server, 'POST', '/users', { body: { username: 'versions-read-only', password, rights: ['GET'] } }), 201);
    const listed = await call(server, 'GET', `/documents/${doc}/versions`, { auth: readOnly });
    if (TEST_STORE === 'webdav') {
      // The GET right lets the request through; on WebDAV the DMS then decides (docs/dms.md, passthrough), and this
      // service user has no DMS credentials: the DMS's refusal, not the service's FORBIDDEN.
      assert.equal(listed.status, 403, listed.text);
      assert.equal(listed.json().code, 'DMS_FORBIDDEN');
    } else ok(listed);
    for (const [method, url] of [['PATCH', `/documents/${doc}/versions/${id}`], ['DELETE', `/documents/${doc}/versions/${id}`], ['POST', `/documents/${doc}/versions/${id}/restore`]] as const) {
      const reply = await call(server, method, url, { auth: readOnly, ...(method === 'PATCH' ? { body: { pinned: false } } : {}) });
      assert.equal(reply.status, 403, `${method} ${reply.text}`);
      assert.equal(reply.json().code, 'FORBIDDEN', `${method}: the service's rights refuse it, before any store`);
    }
  });

  test('deleting the document erases its versions (no trash in this release); a new document there starts a new history', async () => {
    const gone = 'versions/erased.pdf';
    ok(await put(gone, makePdf({ text: () => 'One' })), 201);
    ok(await put(gone, makePdf({ text: () => 'Two' })));
    assert.equal((await list(gone)).total, 2);
    ok(await call(server, 'DELETE', `/documents/${gone}`), 204);
    await assert.rejects(stat(path.join(server.dataDir, 'versions', 'versions', 'erased.pdf')));
    ok(await put(gone, makePdf({ text: () => 'Three' })), 201);
    const fresh = await list(gone);
    assert.equal(fresh.total, 1);
    // Versions are invisible to folder listings.
    const folder = await call(server, 'GET', '/documents/versions', { headers: { accept: 'application/json' } });
    assert.deepEqual(folder.json().entries.map((e: { name: string }) => e.name).sort(), ['erased.pdf', 'history.pdf']);
  });
});

describe('redaction leaves no version with the redacted text', () => {
  test('ApplyRedactionsAction removes every earlier version and says how many; pdftotext finds the text in no version nor kept file', async () => {
    const doc = 'versions/redacted.pdf';
    // Bytes of its own (a comment after %%EOF): another document of this server uploaded redactablePdf(2) as it is.
    ok(await put(doc, Buffer.concat([redactablePdf(2), Buffer.from('% versions/redacted.pdf\n')])), 201);
    ok(await call(server, 'POST', `/documents/${doc}/pages`, { body: { TextStampAction: { text: 'Draft', x: 72, y: 72, pageIndex: 0 } } }));
    assert.match(pdftotext(await current(doc)), /Secret 1/);
    // The bytes of every version the redaction will purge: no kept file may be one of them afterwards.
    const purged = new Set<string>();
    for (const v of (await list(doc)).versions) purged.add(sha256((await version(doc, v.id)).bytes));
    assert.equal(purged.size, 2);
    const applied = await call(server, 'POST', `/documents/${doc}`, { body: { ApplyRedactionsAction: {} } });
    ok(applied);
    assert.equal(applied.json().versionsPurged, 2);
    const { versions, total } = await list(doc);
    assert.equal(total, 1);
    assert.equal(versions[0]!.operation, 'ApplyRedactionsAction');
    // The purged versions are no predecessor of the redacted content (the write's own finding, and a listing's).
    const noPredecessor = (reply: { headers: Headers }) => assert.doesNotMatch(reply.headers.get('link') ?? '', /predecessor-version/);
    noPredecessor(await call(server, 'GET', `/documents/${doc}`, { headers: { accept: 'application/json' } }));
    for (const v of versions) {
      const bytes = (await version(doc, v.id)).bytes;
      assert.ok(qpdfCheck(bytes).ok);
      assert.doesNotMatch(pdftotext(bytes), /Secret/);
    }
    const files = await keptFiles(doc);
    // Left: the current version's bytes alone. The filesystem store keeps them as a blob too (a hard link of the
    // document); the WebDAV store's current version is the document itself, and a purge removes every blob.
    assert.equal(files.length, TEST_STORE === 'webdav' ? 0 : 1);
    for (const file of files) assert.doesNotMatch(pdftotext(file), /Secret/);
    // The download cache (<dataDir>/kept) is the remote stores': the filesystem store keeps no copy there. It is one
    // folder for every document (src/storage/download-cache.ts), and this server's other documents hold "Secret" as
    // their current text (the suite above never redacts): so no kept file is a purged version's bytes, and none of
    // this document's (stamped "Draft") still has the redacted text.
    const kept = await readdir(path.join(server.dataDir, 'kept')).catch(() => [] as string[]);
    for (const name of kept) {
      const bytes = await readFile(path.join(server.dataDir, 'kept', name));
      assert.ok(!purged.has(sha256(bytes)), `kept file ${name} is a purged version's bytes`);
      const text = pdftotext(bytes);
      if (/Draft/.test(text)) assert.doesNotMatch(text, /Secret/);
    }
    assert.match(pdftotext(await current(doc)), /Kept 1/);
  });

  test('keepVersions: true keeps them (for evidence), and says nothing was purged', async () => {
    const doc = 'versions/kept.pdf';
    ok(await put(doc, redactablePdf(1)), 201);
    const applied = await call(server, 'POST', `/documents/${doc}`, { body: { ApplyRedactionsAction: { keepVersions: true } } });
    ok(applied);
    assert.equal(applied.json().versionsPurged, undefined);
    const { versions } = await list(doc);
    assert.equal(versions.length, 2);
    // The kept version is the redacted content's predecessor, named right after the write as by a listing.
    assert.match((await call(server, 'GET', `/documents/${doc}`, { headers: { accept: 'application/json' } })).headers.get('link') ?? '', new RegExp(`versionId=${versions[1]!.id}>; rel="predecessor-version"`));
    assert.match(pdftotext((await version(doc, versions[1]!.id)).bytes), /Secret 1/);
    assert.doesNotMatch(pdftotext((await version(doc, versions[0]!.id)).bytes), /Secret/);
  });
});

describe('PDFSERVICE_VERSIONS=false', () => {
  let off: TestServer;
  before(async () => {
    off = await startServer({ env: { PDFSERVICE_VERSIONS: 'false' } });
  });
  after(async () => {
    await off.stop();
  });

  test('writes keep nothing and the versions endpoints answer 501 VERSIONS_NOT_KEPT', async () => {
    const doc = 'off/doc.pdf';
    ok(await call(off, 'PUT', `/documents/${doc}`, { body: makePdf(), headers: { 'content-type': 'application/pdf' } }), 201);
    ok(await call(off, 'PUT', `/documents/${doc}`, { body: makePdf({ pages: 2 }), headers: { 'content-type': 'application/pdf' } }));
    for (const reply of [await call(off, 'GET', `/documents/${doc}/versions`), await call(off, 'GET', `/documents/${doc}?versionId=0000000000000001`)]) {
      assert.equal(reply.status, 501, reply.text);
      assert.equal(reply.json().code, 'VERSIONS_NOT_KEPT');
    }
    const download = await call(off, 'GET', `/documents/${doc}`);
    assert.equal(download.headers.get('link'), null);
    await assert.rejects(stat(path.join(off.dataDir, 'versions', 'off')));
  });
});
