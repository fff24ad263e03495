import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { everySubtypeFixture, SUBTYPES } from '../helpers/annotated-pdf.js';
import { call, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { countBySubtype, qpdfAnnotations } from '../helpers/qpdf-json.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const fixture = everySubtypeFixture();
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

const put = (p: string, body: Buffer) => putPdf(server, p, body);
const stored = (p: string) => storedBytes(server, p);
const list = async (p: string, query = '', headers: Record<string, string> = {}) => {
  const reply = await call(server, 'GET', `/documents/${p}/annotations${query}`, { headers });
  assert.equal(reply.status, 200, reply.text);
  return reply.json().annotations as { name: string; subtype: string; pageIndex: number; [k: string]: unknown }[];
};
const enc = encodeURIComponent;

/** After every write: qpdf --check passes and qpdf sees exactly the annotations the API lists. */
async function agreesWithQpdf(p: string) {
  const bytes = await stored(p);
  assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
  const api = await list(p);
  const independent = qpdfAnnotations(bytes);
  assert.deepEqual(countBySubtype(api), countBySubtype(independent));
  assert.deepEqual(api.map((a) => [a.pageIndex, a.subtype]), independent.map((a) => [a.pageIndex, a.subtype]));
  return api;
}

describe('listing (A2) and reading one (A9)', () => {
  before(async () => {
    assert.equal((await put('ann/all.pdf', fixture.pdf)).status, 201);
  });

  test('every annotation is listed, Popup, Link and Widget included; counts per subtype equal qpdf --json', async () => {
    const all = await agreesWithQpdf('ann/all.pdf');
    assert.equal(all.length, fixture.annotations.length);
    for (const subtype of SUBTYPES) assert.ok(all.some((a) => a.subtype === subtype), `${subtype} is listed`);
  });

  test('names are non-empty and unique, also for annotations without /NM or sharing one; each round-trips through GET .../{name}', async () => {
    const all = await list('ann/all.pdf');
    const names = all.map((a) => a.name);
    assert.equal(new Set(names).size, names.length);
    assert.ok(names.every((n) => n.length > 0));
    const shared = all.filter((a) => a.name === 'shared-name');
    assert.equal(shared.length, 1, 'the first annotation keeps a shared /NM');
    assert.equal(shared[0]!.pageIndex, 0);
    assert.equal(all.filter((a) => a.name.startsWith('~')).length, 3, 'two without /NM and the second "shared-name" get generated names');
    for (const a of all) {
      const one = await call(server, 'GET', `/documents/ann/all.pdf/annotations/${enc(a.name)}`);
      assert.equal(one.status, 200, `${a.name}: ${one.text}`);
      assert.deepEqual(one.json(), a);
    }
    assert.ok(names.includes('notes/first draft') && names.includes('Anmerkung-Ä'));
  });

  test('the model carries the subtype data in XFDF vocabulary, coordinates in PDF space', async () => {
    const byName = new Map((await list('ann/all.pdf')).map((a) => [a.name, a]));
    const note = byName.get('note-1')!;
    assert.equal(note.author, 'Alice');
    assert.equal(note.color, '#FF0000');
    assert.equal(note.modifiedDate, '2026-01-01T12:00:00Z');
    assert.deepEqual(note.rectangle, { x: 72, y: 650, width: 20, height: 20 });
    assert.equal((note.popup as { name: string }).name, 'note-1-popup');
    assert.equal(byName.get('note-1-popup')!.parent, 'note-1');
    assert.equal(byName.get('reply-1')!.inReplyTo, 'note-1');
    assert.equal(byName.get('reply-1')!.replyType, 'reply');
    assert.equal(byName.get('link-uri')!.uri, 'https://example.com/a b');
    assert.deepEqual([...byName.values()].find((a) => a.subtype === 'Link' && a.destination)!.destination, { pageIndex: 2, type: 'Fit' });
    assert.deepEqual(byName.get('highlight-1')!.quadPoints, [72, 580, 200, 580, 72, 560, 200, 560]);
    assert.deepEqual(byName.get('ink-1')!.inkList, [[72, 352, 120, 448, 160, 360], [180, 400, 248, 420]]);
    assert.deepEqual(byName.get('polyline-1')!.lineEndings, ['Circle', 'None']);
    assert.equal(byName.get('customer_name')!.fieldName, 'customer_name');
    assert.equal(byName.get('customer_name')!.author, undefined, "a widget's /T is its field name");
    assert.equal(byName.get('attachment-1')!.fileName, 'report.txt');
    assert.equal(byName.get('redact-1')!.overlayText, 'REDACTED');
    assert.equal(byName.get('Anmerkung-Ä')!.author, 'Jürgen');
    assert.ok(!Object.values(byName.get('sound-1')!).includes(null), 'absent fields are left out, not null');
  });

  test('filters: each subtype in mixed case, by page, both; bad values are 400', async () => {
    const all = await list('ann/all.pdf');
    for (const subtype of SUBTYPES) {
      const mixed = [...subtype].map((c, i) => (i % 2 ? c.toLowerCase() : c.toUpperCase())).join('');
      const filtered = await list('ann/all.pdf', `?subtype=${enc(mixed)}`);
      assert.deepEqual(filtered.map((a) => a.name), all.filter((a) => a.subtype === subtype).map((a) => a.name), subtype);
    }
    for (const page of [0, 1, 2]) {
      assert.deepEqual((await list('ann/all.pdf', `?pageIndex=${page}`)).map((a) => a.name), all.filter((a) => a.pageIndex === page).map((a) => a.name));
    }
    assert.deepEqual((await list('ann/all.pdf', '?pageIndex=0&subtype=text')).map((a) => a.name), ['note-1', 'reply-1']);
    const badSubtype = await call(server, 'GET', '/documents/ann/all.pdf/annotations?subtype=Scribble');
    assert.equal(badSubtype.status, 400);
    assert.match(badSubtype.json().detail, /Text, Link, FreeText/);
    const badPage = await call(server, 'GET', '/documents/ann/all.pdf/annotations?pageIndex=3');
    assert.equal(badPage.status, 400);
    assert.equal(badPage.json().code, 'PAGE_OUT_OF_RANGE');
    assert.equal((await call(server, 'GET', '/documents/ann/all.pdf/annotations?pageIndex=-1')).status, 400);
    assert.equal((await call(server, 'GET', '/documents/ann/all.pdf/annotations?pageIndex=x')).status, 400);
  });

  test('XML: <Annotations> with one <Annotation> each; one annotation as <Annotation>', async () => {
    const xml = await call(server, 'GET', '/documents/ann/all.pdf/annotations?subtype=Ink', { headers: { accept: 'application/xml' } });
    assert.match(xml.text, /<Annotations>\s*<Annotation>\s*<name>ink-1<\/name>[\s\S]*<inkList>\s*<stroke>72 352 120 448 160 360<\/stroke>\s*<stroke>180 400 248 420<\/stroke>/);
    const one = await call(server, 'GET', `/documents/ann/all.pdf/annotations/${enc('notes/first draft')}`, { headers: { accept: 'text/xml' } });
    assert.match(one.text, /<Annotation>\s*<name>notes\/first draft<\/name>\s*<subtype>FreeText<\/subtype>/);
  });

  test('unknown name: 404 ANNOTATION_NOT_FOUND', async () => {
    const reply = await call(server, 'GET', '/documents/ann/all.pdf/annotations/no-such-thing');
    assert.equal(reply.status, 404);
    assert.equal(reply.json().code, 'ANNOTATION_NOT_FOUND');
  });
});

describe('deleting (A8, A1)', () => {
  test('deleting one annotation takes its popup and its replies; the rest keep their names', async () => {
    await put('ann/del-one.pdf', fixture.pdf);
    const before = await list('ann/del-one.pdf');
    const reply = await call(server, 'DELETE', '/documents/ann/del-one.pdf/annotations/note-1');
    assert.equal(reply.status, 204);
    const after = await agreesWithQpdf('ann/del-one.pdf');
    assert.deepEqual(after.map((a) => a.name), before.filter((a) => !['note-1', 'note-1-popup', 'reply-1'].includes(a.name)).map((a) => a.name));
    // Generated names are written into /NM on save, so they stay stable from then on.
    const names = new Set(qpdfAnnotations(await stored('ann/del-one.pdf')).map((a) => a.name));
    for (const a of after) assert.ok(names.has(a.name), `${a.name} is stored as /NM`);
  });

  test('a name with a slash, and a non-ASCII name, work percent-encoded', async () => {
    await put('ann/del-names.pdf', fixture.pdf);
    for (const name of ['notes/first draft', 'Anmerkung-Ä']) {
      assert.equal((await call(server, 'DELETE', `/documents/ann/del-names.pdf/annotations/${enc(name)}`)).status, 204);
      assert.equal((await call(server, 'GET', `/documents/ann/del-names.pdf/annotations/${enc(name)}`)).status, 404);
    }
    await agreesWithQpdf('ann/del-names.pdf');
  });

  test("deleting a page's annotations answers what remains", async () => {
    await put('ann/del-page.pdf', fixture.pdf);
    const reply = await call(server, 'DELETE', '/documents/ann/del-page.pdf/annotations?pageIndex=1');
    assert.equal(reply.status, 200, reply.text);
    const remaining = reply.json().annotations as { pageIndex: number }[];
    assert.ok(remaining.every((a) => a.pageIndex !== 1));
    assert.deepEqual(remaining, await agreesWithQpdf('ann/del-page.pdf'));
    assert.equal((await call(server, 'DELETE', '/documents/ann/del-page.pdf/annotations?pageIndex=9')).status, 400);
  });

  test('deleting all annotations keeps the form widgets (XML answer)', async () => {
    await put('ann/del-all.pdf', fixture.pdf);
    const reply = await call(server, 'DELETE', '/documents/ann/del-all.pdf/annotations', { headers: { accept: 'application/xml' } });
    assert.equal(reply.status, 200);
    assert.match(reply.text, /<Annotations>\s*<Annotation>\s*<name>customer_name<\/name>\s*<subtype>Widget<\/subtype>/);
    const remaining = await agreesWithQpdf('ann/del-all.pdf');
    assert.deepEqual(remaining.map((a) => a.subtype), ['Widget']);
    const text = withTempFile(await stored('ann/del-all.pdf'), (f) => execFileSync('pdftotext', [f, '-'], { encoding: 'utf8' }));
    assert.match(text, /Page 1/, 'page content is untouched');
  });

  test('bad deletions change nothing: unknown name 404, stale If-Match 412', async () => {
    await put('ann/keep.pdf', fixture.pdf);
    const original = sha256(await stored('ann/keep.pdf'));
    const unknown = await call(server, 'DELETE', '/documents/ann/keep.pdf/annotations/nope');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json().code, 'ANNOTATION_NOT_FOUND');
    const stale = await call(server, 'DELETE', '/documents/ann/keep.pdf/annotations/note-1', { headers: { 'if-match': '"stale"' } });
    assert.equal(stale.status, 412);
    assert.equal(sha256(await stored('ann/keep.pdf')), original);
    assert.equal((await call(server, 'DELETE', '/documents/ann/missing.pdf/annotations/note-1')).status, 404);
  });
});

describe('document permissions and passwords', () => {
  function protect(bytes: Buffer, allowAnnotations: boolean): Buffer {
    return withTempFile(bytes, (input) => {
      const output = `${input}.enc.pdf`;
      execFileSync('qpdf', ['--encrypt', 'user-pw', 'owner-pw', '256', `--modify=${allowAnnotations ? 'all' : 'none'}`, `--annotate=${allowAnnotations ? 'y' : 'n'}`, '--', input, output]);
      return execFileSync('cat', [output]);
    });
  }

  test('with the user password only, a document that forbids annotation changes refuses them (403); the owner password lifts it', async () => {
    await put('ann/locked.pdf', protect(fixture.pdf, false));
    const original = sha256(await stored('ann/locked.pdf'));
    const listed = await list('ann/locked.pdf', '', { 'x-service-documentpassword': 'user-pw' });
    assert.equal(listed.length, fixture.annotations.length, 'reading is allowed');
    const refused = await call(server, 'DELETE', '/documents/ann/locked.pdf/annotations/note-1', { headers: { 'x-service-documentpassword': 'user-pw' } });
    assert.equal(refused.status, 403);
    assert.equal(refused.json().code, 'DOCUMENT_PERMISSION_DENIED');
    assert.match(refused.json().detail, /modify annotations/);
    assert.equal(sha256(await stored('ann/locked.pdf')), original);
    const none = await call(server, 'DELETE', '/documents/ann/locked.pdf/annotations/note-1');
    assert.equal(none.json().code, 'DOCUMENT_PASSWORD_REQUIRED');
    const owner = await call(server, 'DELETE', '/documents/ann/locked.pdf/annotations/note-1', { headers: { 'x-service-documentpassword': 'owner-pw' } });
    assert.equal(owner.status, 204, owner.text);
  });

  test('an edited encrypted document stays encrypted with the same passwords', async () => {
    await put('ann/enc.pdf', protect(fixture.pdf, true));
    assert.equal((await call(server, 'DELETE', '/documents/ann/enc.pdf/annotations/ink-1', { headers: { 'x-service-documentpassword': 'user-pw' } })).status, 204);
    const bytes = await stored('ann/enc.pdf');
    const encryption = withTempFile(bytes, (f) => execFileSync('qpdf', ['--show-encryption', '--password=owner-pw', f], { encoding: 'utf8' }));
    assert.match(encryption, /R = 6/);
    assert.equal(qpdfAnnotations(bytes, 'user-pw').length, fixture.annotations.length - 1);
    const none = await call(server, 'GET', '/documents/ann/enc.pdf/annotations');
    assert.equal(none.json().code, 'DOCUMENT_PASSWORD_REQUIRED');
  });
});

describe('conditional listing', () => {
  test('the listing has an ETag per document version, filter and format; If-None-Match gives 304; a change gives a new one', async () => {
    await put('ann/etag.pdf', fixture.pdf);
    const first = await call(server, 'GET', '/documents/ann/etag.pdf/annotations');
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^W\/".+"$/);
    const again = await call(server, 'GET', '/documents/ann/etag.pdf/annotations', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    const filtered = await call(server, 'GET', '/documents/ann/etag.pdf/annotations?pageIndex=1');
    assert.notEqual(filtered.headers.get('etag'), etag);
    const xml = await call(server, 'GET', '/documents/ann/etag.pdf/annotations', { headers: { accept: 'application/xml' } });
    assert.notEqual(xml.headers.get('etag'), etag);
    const cached = await call(server, 'GET', '/documents/ann/etag.pdf/annotations');
    assert.equal(cached.text, first.text, 'the cached rendering is the same body');
    await call(server, 'DELETE', '/documents/ann/etag.pdf/annotations/ink-1');
    const changed = await call(server, 'GET', '/documents/ann/etag.pdf/annotations', { headers: { 'if-none-match': etag } });
    assert.equal(changed.status, 200);
    assert.equal(changed.json().annotations.length, fixture.annotations.length - 1);
  });
});
