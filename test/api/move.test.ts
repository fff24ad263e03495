/**
 * Move and rename over HTTP (docs/move.md): MoveAction on a document and on a folder. The moved bytes are checked by
 * their SHA-256 read from the data folder's disk, the old path answers 404, the versions are listed at the new path
 * and the trash holds nothing of a move; conflicts (409, or namingMode), a folder into itself (400), rights (PUT and
 * DELETE), If-Match, and every refusal leaves the stored document byte for byte as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, expectUnchanged, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { makePdf, pdfinfo } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const password = 'a-long-test-password';
const noDelete = basicAuth('move-no-delete', password);
const noPut = basicAuth('move-no-put', password);

before(async () => {
  server = await startServer();
  for (const [username, rights] of [['move-no-delete', ['GET', 'POST', 'PUT']], ['move-no-put', ['GET', 'POST', 'DELETE']]] as const) {
    const created = await call(server, 'POST', '/users', { body: { username, password, rights } });
    assert.equal(created.status, 201, created.text);
  }
});
after(async () => {
  await server.stop();
});

const put = (p: string, body: Buffer) => putPdf(server, p, body);
const move = (from: string, savePath: string, extra: Record<string, unknown> = {}, options: { auth?: string; headers?: Record<string, string> } = {}) =>
  call(server, 'POST', `/documents/${from}`, { body: { MoveAction: { savePath, ...extra } }, ...options });
const versionsOf = async (doc: string): Promise<{ etag: string; operation: string }[]> => {
  const reply = await call(server, 'GET', `/documents/${doc}/versions`);
  assert.equal(reply.status, 200, reply.text);
  return reply.json().versions.map((v: { etag: string; operation: string }) => ({ etag: v.etag, operation: v.operation }));
};
const trashTotal = async (): Promise<number> => (await call(server, 'GET', '/trash')).json().total;
const status = async (doc: string): Promise<number> => (await call(server, 'HEAD', `/documents/${doc}`)).status;
function problem(reply: Reply, code: number, name: string): void {
  assert.equal(reply.status, code, reply.text);
  assert.equal(reply.json().code, name, reply.text);
}

describe('MoveAction on a document', () => {
  test('moves and renames with its bytes, ETag and versions; the old path is 404; no new version; the trash untouched', async () => {
    const v1 = makePdf({ pages: 2 });
    await put('mv/a.pdf', v1);
    const v2 = makePdf({ pages: 3 });
    await put('mv/a.pdf', v2);
    const versions = await versionsOf('mv/a.pdf');
    assert.equal(versions.length, 2);
    const trash = await trashTotal();
    const etag = (await call(server, 'HEAD', '/documents/mv/a.pdf')).headers.get('etag');

    const renamed = await move('mv/a.pdf', 'mv/renamed.pdf');
    assert.equal(renamed.status, 201, renamed.text);
    assert.equal(renamed.headers.get('location'), '/pdfservice/v1/documents/mv/renamed.pdf');
    assert.equal(renamed.headers.get('etag'), etag);
    assert.deepEqual([renamed.json().path, renamed.json().etag, renamed.json().pageCount], ['/mv/renamed.pdf', etag, 3]);
    assert.equal(sha256(await storedBytes(server, 'mv/renamed.pdf')), sha256(v2));
    assert.equal(await status('mv/a.pdf'), 404);

    const moved = await move('mv/renamed.pdf', 'archive/2026/kept.pdf');
    assert.equal(moved.status, 201, moved.text);
    assert.equal(sha256(await storedBytes(server, 'archive/2026/kept.pdf')), sha256(v2));
    assert.equal(pdfinfo(await storedBytes(server, 'archive/2026/kept.pdf')).Pages, '3');
    assert.equal(await status('mv/renamed.pdf'), 404);
    assert.deepEqual(await versionsOf('archive/2026/kept.pdf'), versions, 'the same versions, none added');
    problem(await call(server, 'GET', '/documents/mv/renamed.pdf/versions'), 404, 'DOCUMENT_NOT_FOUND');
    assert.equal(await trashTotal(), trash, 'a move puts nothing in the trash');
    // The first version is still there to read, at the new path.
    const first = (await call(server, 'GET', '/documents/archive/2026/kept.pdf/versions')).json().versions.at(-1);
    const old = await call(server, 'GET', `/documents/archive/2026/kept.pdf?versionId=${first.id}`);
    assert.equal(sha256(old.bytes), sha256(v1));
  });

  test('conflicts: 409 by default, namingMode 2 a new name, namingMode 1 replaces (the replaced document into the trash)', async () => {
    const mine = makePdf({ pages: 1 });
    const theirs = makePdf({ pages: 4 });
    await put('mc/mine.pdf', mine);
    await put('mc/theirs.pdf', theirs);
    await expectUnchanged(server, 'mc/mine.pdf', () => move('mc/mine.pdf', 'mc/theirs.pdf'), 409, 'ALREADY_EXISTS');
    assert.equal(sha256(await storedBytes(server, 'mc/theirs.pdf')), sha256(theirs));

    const unique = await move('mc/mine.pdf', 'mc/theirs.pdf', { namingMode: 2 });
    assert.equal(unique.status, 201, unique.text);
    const uniquePath = unique.json().path.slice(1);
    assert.match(uniquePath, /^mc\/theirs-\d+\.pdf$/);
    assert.equal(sha256(await storedBytes(server, uniquePath)), sha256(mine));
    assert.equal(sha256(await storedBytes(server, 'mc/theirs.pdf')), sha256(theirs));
    assert.equal(await status('mc/mine.pdf'), 404);

    const trash = await trashTotal();
    const over = await move(uniquePath, 'mc/theirs.pdf', { namingMode: 1 });
    assert.equal(over.status, 200, over.text);
    assert.equal(sha256(await storedBytes(server, 'mc/theirs.pdf')), sha256(mine));
    assert.equal(await status(uniquePath), 404);
    assert.equal(await trashTotal(), trash + 1, 'the replaced document went to the trash, as a delete');
    assert.deepEqual((await versionsOf('mc/theirs.pdf')).map((v) => v.etag), [over.json().etag], 'the moved document\'s history, not the replaced one\'s');
  });

  test('refused, the document unchanged: If-Match stale (412), onto itself (400), a bad savePath (400), rights without PUT or DELETE (403), a missing document (404)', async () => {
    const bytes = makePdf({ pages: 2 });
    await put('mr/doc.pdf', bytes);
    await expectUnchanged(server, 'mr/doc.pdf', () => move('mr/doc.pdf', 'mr/other.pdf', {}, { headers: { 'if-match': '"0000"' } }), 412, 'PRECONDITION_FAILED');
    await expectUnchanged(server, 'mr/doc.pdf', () => move('mr/doc.pdf', 'mr/doc.pdf'), 400, 'MOVE_INTO_ITSELF');
    await expectUnchanged(server, 'mr/doc.pdf', () => move('mr/doc.pdf', '../escape.pdf'), 400, 'INVALID_PATH');
    await expectUnchanged(server, 'mr/doc.pdf', () => move('mr/doc.pdf', 'mr/other.pdf', {}, { auth: noDelete }), 403, 'FORBIDDEN');
    await expectUnchanged(server, 'mr/doc.pdf', () => move('mr/doc.pdf', 'mr/other.pdf', {}, { auth: noPut }), 403, 'FORBIDDEN');
    await expectUnchanged(server, 'mr/doc.pdf', () => call(server, 'POST', '/documents/mr/doc.pdf', { body: { MoveAction: {} } }), 400, 'VALIDATION_FAILED');
    assert.equal(await status('mr/other.pdf'), 404);
    problem(await move('mr/none.pdf', 'mr/other.pdf'), 404, 'DOCUMENT_NOT_FOUND');
    const etag = (await call(server, 'HEAD', '/documents/mr/doc.pdf')).headers.get('etag')!;
    const matched = await move('mr/doc.pdf', 'mr/other.pdf', {}, { headers: { 'if-match': etag } });
    assert.equal(matched.status, 201, matched.text);
    assert.equal(sha256(await storedBytes(server, 'mr/other.pdf')), sha256(bytes));
  });
});

describe('MoveAction on a folder', () => {
  test('moves a folder with its documents, subfolders and versions; the old folder is 404', async () => {
    const a = makePdf({ pages: 1 });
    const b = makePdf({ pages: 2 });
    await put('fold/src/a.pdf', a);
    await put('fold/src/a.pdf', makePdf({ pages: 5 }));
    await put('fold/src/a.pdf', a);
    await put('fold/src/sub/b.pdf', b);
    const versions = await versionsOf('fold/src/a.pdf');
    assert.equal(versions.length, 3);
    const trash = await trashTotal();

    const moved = await call(server, 'POST', '/documents/fold/src', { body: { MoveAction: { savePath: 'fold/dst/renamed' } } });
    assert.equal(moved.status, 201, moved.text);
    assert.equal(moved.headers.get('location'), '/pdfservice/v1/documents/fold/dst/renamed');
    assert.deepEqual([moved.json().path, moved.json().entries.map((e: { name: string }) => e.name)], ['/fold/dst/renamed', ['a.pdf', 'sub']]);
    assert.equal(sha256(await storedBytes(server, 'fold/dst/renamed/a.pdf')), sha256(a));
    assert.equal(sha256(await storedBytes(server, 'fold/dst/renamed/sub/b.pdf')), sha256(b));
    problem(await call(server, 'GET', '/documents/fold/src'), 404, 'FOLDER_NOT_FOUND');
    assert.equal(await status('fold/src/a.pdf'), 404);
    assert.deepEqual(await versionsOf('fold/dst/renamed/a.pdf'), versions);
    assert.equal(await trashTotal(), trash);

    // As XML, the root element is the action.
    const xml = await call(server, 'POST', '/documents/fold/dst/renamed', { body: '<MoveAction><savePath>fold/xml</savePath></MoveAction>', headers: { 'content-type': 'application/xml' } });
    assert.equal(xml.status, 201, xml.text);
    assert.equal(sha256(await storedBytes(server, 'fold/xml/sub/b.pdf')), sha256(b));
  });

  test('refused, the documents unchanged: into itself (400), onto a folder (409), without DELETE (403), the root (400), a missing folder (404), no savePath or another action (400, 415)', async () => {
    const bytes = makePdf({ pages: 1 });
    await put('fr/src/doc.pdf', bytes);
    await call(server, 'PUT', '/documents/fr/taken');
    const moveFolder = (from: string, body: object, auth?: string) => call(server, 'POST', `/documents/${from}`, { body, ...(auth ? { auth } : {}) });
    await expectUnchanged(server, 'fr/src/doc.pdf', () => moveFolder('fr/src', { MoveAction: { savePath: 'fr/src/inner' } }), 400, 'MOVE_INTO_ITSELF');
    await expectUnchanged(server, 'fr/src/doc.pdf', () => moveFolder('fr/src', { MoveAction: { savePath: 'fr/src' } }), 400, 'MOVE_INTO_ITSELF');
    await expectUnchanged(server, 'fr/src/doc.pdf', () => moveFolder('fr/src', { MoveAction: { savePath: 'fr/taken' } }), 409, 'ALREADY_EXISTS');
    await expectUnchanged(server, 'fr/src/doc.pdf', () => moveFolder('fr/src', { MoveAction: { savePath: 'fr/elsewhere' } }, noDelete), 403, 'FORBIDDEN');
    await expectUnchanged(server, 'fr/src/doc.pdf', () => moveFolder('fr/src', { MoveAction: {} }), 400, 'VALIDATION_FAILED');
    // A JSON body that names no folder action is the form upload's 415, as it was.
    await expectUnchanged(server, 'fr/src/doc.pdf', () => moveFolder('fr/src', { CopyAction: { savePath: 'fr/x' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectUnchanged(server, 'fr/src/doc.pdf', () => moveFolder('fr/src', { MoveAction: { savePath: 'fr/x' }, Other: {} }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, 'fr/src/doc.pdf', () => moveFolder('fr/src', { MoveAction: { savePath: 'fr/x.pdf' } }), 400, 'INVALID_PATH');
    problem(await moveFolder('fr/none', { MoveAction: { savePath: 'fr/elsewhere' } }), 404, 'FOLDER_NOT_FOUND');
    assert.deepEqual((await call(server, 'GET', '/documents/fr')).json().entries.map((e: { name: string }) => e.name), ['src', 'taken']);
    // The form upload on the same URL is as it was.
    const data = new FormData();
    data.append('file', new Blob([bytes as BlobPart], { type: 'application/pdf' }), 'up.pdf');
    const upload = await call(server, 'POST', '/documents/fr/taken', { body: data });
    assert.equal(upload.status, 201, upload.text);
  });
});
