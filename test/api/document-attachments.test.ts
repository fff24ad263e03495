import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, expectUnchanged, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { encryptPdf, makePdf, qpdfCheck, serializePdf, withTempFile } from '../helpers/pdf.js';
import { QpdfDocument } from '../helpers/qpdf-json.js';
import { signedFieldPdf } from '../helpers/signing.js';
import { serverForSuite } from '../helpers/server.js';

/** A small upload limit, so that a file past it is cheap to send. */
const LIMIT = 1024 * 1024;
const server = serverForSuite({ env: { PDFSERVICE_MAX_UPLOAD_BYTES: String(LIMIT) } });

const url = (doc: string, name?: string) => `/documents/${doc}/attachments${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
const list = (doc: string, headers: Record<string, string> = {}) => call(server, 'GET', url(doc), { headers: { accept: 'application/json', ...headers } });
const download = (doc: string, name: string, headers: Record<string, string> = {}, query = '') => call(server, 'GET', `${url(doc, name)}${query}`, { headers });
const remove = (doc: string, name: string, headers: Record<string, string> = {}) => call(server, 'DELETE', url(doc, name), { headers });

function form(file: { bytes: Buffer; name?: string; type?: string } | undefined, attachment?: object | string): FormData {
  const data = new FormData();
  if (file) data.append('file', new Blob([file.bytes as BlobPart], { type: file.type ?? 'application/octet-stream' }), file.name ?? 'upload.bin');
  if (attachment !== undefined) data.append('attachment', typeof attachment === 'string' ? attachment : JSON.stringify(attachment));
  return data;
}
const post = (doc: string, file: Parameters<typeof form>[0], attachment?: object | string, headers: Record<string, string> = {}) =>
  call(server, 'POST', url(doc), { body: form(file, attachment), headers: { accept: 'application/json', ...headers } });
const put = (doc: string, name: string, bytes: Buffer, query = '', headers: Record<string, string> = {}) =>
  call(server, 'PUT', `${url(doc, name)}${query}`, { body: bytes, headers: { 'content-type': 'application/octet-stream', accept: 'application/json', ...headers } });

const upload = async (doc: string, pdf: Buffer) => {
  const reply = await putPdf(server, doc, pdf);
  assert.equal(reply.status, 201, reply.text);
};
const status = (reply: Reply, expected: number) => assert.equal(reply.status, expected, reply.text);

/** The attachments poppler sees: `pdfdetach -list` names, in its order. */
function pdfdetachList(pdf: Buffer, password?: string): string[] {
  const args = [...(password ? ['-upw', password] : []), '-list'];
  return withTempFile(pdf, (f) => execFileSync('pdfdetach', [...args, f], { encoding: 'utf8' })).split('\n').slice(1).filter(Boolean).map((l) => l.replace(/^\d+: /, ''));
}

/** The bytes poppler extracts for attachment number `n` (1-based, pdfdetach's numbering). */
function pdfdetachSave(pdf: Buffer, n: number): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'detach-'));
  try {
    const out = path.join(dir, 'out.bin');
    withTempFile(pdf, (f) => execFileSync('pdfdetach', ['-save', String(n), '-o', out, f]));
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The EmbeddedFiles tree as qpdf reads it: keys in stored order (a flat tree or its kids in order) and the catalog's /AF references. */
function qpdfTree(pdf: Buffer): { keys: string[]; af: string[]; specs: Record<string, Record<string, unknown>> } {
  const doc = new QpdfDocument(pdf);
  const catalog = doc.catalog();
  const names = doc.resolve(catalog['/Names']) as Record<string, unknown> | undefined;
  const keys: string[] = [];
  const specs: Record<string, Record<string, unknown>> = {};
  const walk = (node: Record<string, unknown>) => {
    const pairs = (doc.resolve(node['/Names']) as unknown[] | undefined) ?? [];
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const key = String(pairs[i]).replace(/^u:/, '');
      keys.push(key);
      specs[key] = { ...(doc.resolve(pairs[i + 1]) as Record<string, unknown>), ref: pairs[i + 1] };
    }
    for (const kid of (doc.resolve(node['/Kids']) as unknown[] | undefined) ?? []) walk(doc.resolve(kid) as Record<string, unknown>);
  };
  const tree = names ? (doc.resolve(names['/EmbeddedFiles']) as Record<string, unknown> | undefined) : undefined;
  if (tree) walk(tree);
  const af = ((doc.resolve(catalog['/AF']) as unknown[] | undefined) ?? []).map(String);
  return { keys, af, specs };
}

/** qpdf's own attachment reader (--list-attachments is the one qpdf offers): the keys it finds. */
function qpdfAttachmentKeys(pdf: Buffer): string[] {
  const run = withTempFile(pdf, (f) => spawnSync('qpdf', ['--json=2', '--json-key=attachments', f], { encoding: 'utf8' }));
  assert.ok(run.status === 0 || run.status === 3, run.stderr);
  return Object.keys((JSON.parse(run.stdout) as { attachments: Record<string, unknown> }).attachments);
}

/** The document with every stream decoded and no object streams (qpdf), as text: what a search of its bytes finds. */
function uncompressed(pdf: Buffer): string {
  const run = withTempFile(pdf, (f) => spawnSync('qpdf', ['--stream-data=uncompress', '--object-streams=disable', f, '-'], { maxBuffer: 1 << 28 }));
  assert.ok(run.status === 0 || run.status === 3, String(run.stderr));
  return run.stdout.toString('latin1');
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

describe('document attachments: list, download, add, delete', () => {
  const doc = 'attach/report.pdf';
  const data = randomBytes(200_000);
  const csv = Buffer.from('name;amount\nÄrger;12,50\n', 'utf8');

  test('added by multipart and by a raw body; pdfdetach and qpdf see them, byte for byte, the tree sorted and listed in /AF', async () => {
    await upload(doc, makePdf({ pages: 2, text: (i) => `Page ${i + 1}` }));
    const first = await post(doc, { bytes: data, name: 'z-data.bin' }, { description: 'Random data', relationship: 'Supplement', creationDate: '2026-01-02T03:04:05Z', modificationDate: '2026-02-03T04:05:06+01:00' });
    status(first, 201);
    assert.equal(first.headers.get('location'), `/pdfservice/v1${url(doc, 'z-data.bin')}`);
    assert.ok(first.headers.get('etag'));
    assert.deepEqual(first.json(), {
      name: 'z-data.bin', fileName: 'z-data.bin', description: 'Random data', mediaType: 'application/octet-stream', size: data.length,
      creationDate: '2026-01-02T03:04:05+00:00', modificationDate: '2026-02-03T04:05:06+01:00', checksum: md5(data), relationship: 'Supplement', associated: true,
    });
    const second = await put(doc, 'Rechnung ü/2026.csv', csv, '?mediaType=text/csv&description=Umsätze&relationship=Data');
    status(second, 201);
    assert.equal(second.json().mediaType, 'text/csv');
    const third = await post(doc, { bytes: Buffer.from('<a/>'), name: 'A.xml', type: 'text/xml' });
    status(third, 201);
    assert.equal(third.json().mediaType, 'text/xml');
    assert.equal(third.json().relationship, 'Unspecified');

    const stored = await storedBytes(server, doc);
    assert.ok(qpdfCheck(stored).ok, qpdfCheck(stored).output);
    // Keys by their bytes: ASCII keys first, the key with a "ü" (UTF-16BE, starting FE FF) last.
    const tree = qpdfTree(stored);
    const expected = ['A.xml', 'z-data.bin', 'Rechnung ü/2026.csv'];
    assert.deepEqual(tree.keys, expected, 'sorted by the keys\' bytes: the UTF-16BE key (FE FF ...) last');
    for (const key of expected) {
      assert.ok(tree.af.includes(String(tree.specs[key]!.ref)), `/AF lists ${key}`);
      assert.ok(tree.specs[key]!['/AFRelationship']);
    }
    assert.equal(tree.specs['Rechnung ü/2026.csv']!['/AFRelationship'], '/Data');
    assert.deepEqual(qpdfAttachmentKeys(stored).sort(), [...expected].sort());
    const detached = pdfdetachList(stored);
    assert.deepEqual(detached, expected);
    assert.ok(pdfdetachSave(stored, 2).equals(data), 'pdfdetach -save gives the bytes sent');
    assert.ok(pdfdetachSave(stored, 3).equals(csv));

    const listed = await list(doc);
    status(listed, 200);
    assert.equal(listed.headers.get('etag'), third.headers.get('etag'), 'the list is of the version the last add wrote');
    assert.deepEqual(listed.json().attachments.map((a: { name: string }) => a.name), expected);
    assert.deepEqual(listed.json().warnings, []);
    const xml = await list(doc, { accept: 'application/xml' });
    status(xml, 200);
    assert.match(xml.text, /<DocumentAttachments>[\s\S]*<attachments>\s*<attachment>\s*<name>A\.xml<\/name>/);
    assert.match(xml.text, /<description>Umsätze<\/description>/);
  });

  test('an empty file (0 bytes) is a legal attachment, by the raw PUT and by the form; pdfdetach reads it back empty', async () => {
    const emptyDoc = 'attach/empty.pdf';
    await upload(emptyDoc, makePdf({ pages: 1 }));
    const raw = await put(emptyDoc, 'nothing.txt', Buffer.alloc(0), '?mediaType=text/plain');
    status(raw, 201);
    assert.equal(raw.json().size, 0);
    assert.equal(raw.json().checksum, md5(Buffer.alloc(0)));
    const posted = await post(emptyDoc, { bytes: Buffer.alloc(0), name: 'nothing.bin' });
    status(posted, 201);
    assert.equal(posted.json().size, 0);
    const stored = await storedBytes(server, emptyDoc);
    assert.ok(qpdfCheck(stored).ok, qpdfCheck(stored).output);
    assert.deepEqual(pdfdetachList(stored), ['nothing.bin', 'nothing.txt']);
    assert.equal(pdfdetachSave(stored, 1).length, 0);
    assert.equal(pdfdetachSave(stored, 2).length, 0);
    const download = await call(server, 'GET', url(emptyDoc, 'nothing.txt'));
    status(download, 200);
    assert.equal(download.bytes.length, 0);
  });

  test('download: the bytes, the media type, Content-Disposition, Range, 304, 406, sandboxed', async () => {
    const whole = await download(doc, 'z-data.bin');
    status(whole, 200);
    assert.ok(whole.bytes.equals(data));
    assert.equal(whole.headers.get('content-type'), 'application/octet-stream');
    assert.equal(whole.headers.get('content-disposition'), 'inline; filename="z-data.bin"; filename*=UTF-8\'\'z-data.bin');
    assert.match(whole.headers.get('content-security-policy') ?? '', /sandbox/);
    assert.equal(whole.headers.get('x-content-type-options'), 'nosniff');
    const named = await download(doc, 'Rechnung ü/2026.csv', {}, '?attachment=true');
    status(named, 200);
    assert.ok(named.bytes.equals(csv));
    assert.match(named.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(named.headers.get('content-disposition') ?? '', /^attachment; filename="Rechnung _\/2026\.csv"; filename\*=UTF-8''Rechnung%20%C3%BC%2F2026\.csv$/);
    const part = await download(doc, 'z-data.bin', { range: 'bytes=1000-1999' });
    status(part, 206);
    assert.ok(part.bytes.equals(data.subarray(1000, 2000)));
    assert.equal(part.headers.get('content-range'), `bytes 1000-1999/${data.length}`);
    const cached = await download(doc, 'z-data.bin', { 'if-none-match': whole.headers.get('etag')! });
    status(cached, 304);
    const refused = await download(doc, 'z-data.bin', { accept: 'application/pdf' });
    status(refused, 406);
    const missing = await download(doc, 'nope.bin');
    status(missing, 404);
    assert.equal(missing.json().code, 'ATTACHMENT_NOT_FOUND');
  });

  test('a name in use is 409 (nothing written) unless replace; replace leaves one entry with the new bytes and the old ones gone from the file', async () => {
    const again = Buffer.from('second version');
    await expectUnchanged(server, doc, () => put(doc, 'A.xml', again), 409, 'ATTACHMENT_EXISTS');
    await expectUnchanged(server, doc, () => post(doc, { bytes: again, name: 'A.xml' }), 409, 'ATTACHMENT_EXISTS');
    const replaced = await put(doc, 'A.xml', again, '?replace=true&mediaType=text/plain');
    status(replaced, 200);
    assert.equal(replaced.json().size, again.length);
    const stored = await storedBytes(server, doc);
    assert.deepEqual(pdfdetachList(stored), ['A.xml', 'z-data.bin', 'Rechnung ü/2026.csv']);
    assert.ok(pdfdetachSave(stored, 1).equals(again));
    assert.equal(qpdfTree(stored).af.length, 3, '/AF lists the new file specification, not the old one');
  });

  test('delete: gone from the tree, /AF and the file; 404 for a name not there', async () => {
    const marker = randomBytes(32).toString('hex');
    status(await put(doc, 'secret.txt', Buffer.from(`secret ${marker}`)), 201);
    assert.ok(uncompressed(await storedBytes(server, doc)).includes(marker));
    const gone = await remove(doc, 'secret.txt');
    status(gone, 204);
    assert.ok(gone.headers.get('etag'));
    const stored = await storedBytes(server, doc);
    assert.ok(!uncompressed(stored).includes(marker), 'the file\'s bytes left the document');
    assert.deepEqual(pdfdetachList(stored), ['A.xml', 'z-data.bin', 'Rechnung ü/2026.csv']);
    assert.equal(qpdfTree(stored).af.length, 3);
    await expectUnchanged(server, doc, () => remove(doc, 'secret.txt'), 404, 'ATTACHMENT_NOT_FOUND');
    for (const name of ['A.xml', 'z-data.bin', 'Rechnung ü/2026.csv']) status(await remove(doc, name), 204);
    const empty = await storedBytes(server, doc);
    assert.deepEqual(pdfdetachList(empty), []);
    const catalog = new QpdfDocument(empty).catalog();
    assert.equal(catalog['/AF'], undefined);
    assert.equal(catalog['/Names'], undefined, 'the emptied tree and its /Names dictionary go');
    assert.ok(qpdfCheck(empty).ok);
  });

  test('every write keeps a version: ?versionId= lists and reads an earlier version\'s attachments', async () => {
    const versions = await call(server, 'GET', `/documents/${doc}/versions`, { headers: { accept: 'application/json' } });
    status(versions, 200);
    const ids = versions.json().versions.map((v: { id: string; operation: string }) => [v.id, v.operation]);
    // Newest first: the deletes, the adds, then the upload.
    assert.ok(ids.some(([, op]: string[]) => op === 'addDocumentAttachment') && ids.some(([, op]: string[]) => op === 'deleteDocumentAttachment'), JSON.stringify(ids));
    const withFiles = ids.find(([, op]: string[]) => op === 'addDocumentAttachment')![0];
    const old = await call(server, 'GET', `${url(doc)}?versionId=${withFiles}`, { headers: { accept: 'application/json' } });
    status(old, 200);
    assert.ok(old.json().attachments.length > 0);
    const file = await download(doc, old.json().attachments[0].name, {}, `?versionId=${withFiles}`);
    status(file, 200);
    assert.equal(file.bytes.length, old.json().attachments[0].size);
    assert.deepEqual((await list(doc)).json().attachments, [], 'the current version has none left');
  });

  test('attachments written by another tool (qpdf) are listed and read', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'qpdf-attach-'));
    try {
      const source = path.join(dir, 'in.pdf');
      const file = path.join(dir, 'notes.txt');
      const out = path.join(dir, 'out.pdf');
      writeFileSync(source, makePdf({ pages: 1 }));
      writeFileSync(file, 'qpdf attached this');
      execFileSync('qpdf', [source, '--add-attachment', file, '--key=notes', '--mimetype=text/plain', '--description=From qpdf', '--', out]);
      await upload('attach/qpdf.pdf', readFileSync(out));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const listed = await list('attach/qpdf.pdf');
    status(listed, 200);
    const [one] = listed.json().attachments;
    assert.equal(one.name, 'notes');
    assert.equal(one.fileName, 'notes.txt');
    assert.equal(one.description, 'From qpdf');
    assert.equal(one.mediaType, 'text/plain');
    assert.equal(one.size, 18);
    assert.equal(one.checksum, md5(Buffer.from('qpdf attached this')));
    assert.equal(one.associated, false);
    assert.equal((await download('attach/qpdf.pdf', 'notes')).text, 'qpdf attached this');
  });
});

describe('document attachments: a damaged tree', () => {
  test('kids, a cycle, a key twice and an entry without a file: read as far as sound with warnings; a write keeps every sound entry, sorted in one node', async () => {
    const stream = (text: string) => `<< /Type /EmbeddedFile /Length ${text.length} >>\nstream\n${text}\nendstream`;
    // Root (5) has two kids: 6 (b.txt, and a.txt again) and 7 (c.txt, an external file, and a kid leading back to 5).
    const pdf = serializePdf([
      '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 5 0 R >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
      '<< /Names [(a.txt) 8 0 R] >>',
      '<< /Kids [4 0 R 6 0 R 7 0 R] >>',
      '<< /Names [(b.txt) 9 0 R (a.txt) 10 0 R] >>',
      '<< /Names [(c.txt) 11 0 R (external.txt) << /Type /Filespec /F (external.txt) >>] /Kids [5 0 R] >>',
      '<< /Type /Filespec /F (a.txt) /UF (a.txt) /EF << /F 12 0 R >> >>',
      '<< /Type /Filespec /F (b.txt) /EF << /F 13 0 R >> >>',
      '<< /Type /Filespec /F (a-again.txt) /EF << /F 13 0 R >> >>',
      '<< /Type /Filespec /F (c.txt) /EF << /F 14 0 R >> >>',
      stream('first'),
      stream('second'),
      stream('third'),
    ], '/Root 1 0 R');
    await upload('attach/damaged.pdf', pdf);
    const listed = await list('attach/damaged.pdf');
    status(listed, 200);
    assert.deepEqual(listed.json().attachments.map((a: { name: string; size: number }) => [a.name, a.size]), [['a.txt', 5], ['b.txt', 6], ['c.txt', 5]]);
    const warnings = listed.json().warnings.join('\n');
    assert.match(warnings, /cycle/);
    assert.match(warnings, /"a\.txt" twice/);
    assert.match(warnings, /"external\.txt" embeds no file/);
    status(await put('attach/damaged.pdf', 'B.txt', Buffer.from('new')), 201);
    const stored = await storedBytes(server, 'attach/damaged.pdf');
    assert.ok(qpdfCheck(stored).ok);
    const tree = qpdfTree(stored);
    // The external file specification is kept (a write loses nothing it read), in byte order: "B" < "a" < "b" < "c" < "e".
    assert.deepEqual(tree.keys, ['B.txt', 'a.txt', 'b.txt', 'c.txt', 'external.txt']);
    assert.deepEqual(pdfdetachList(stored), ['B.txt', 'a.txt', 'b.txt', 'c.txt', 'external.txt']);
    assert.equal((await download('attach/damaged.pdf', 'c.txt')).text, 'third');
  });
});

describe('document attachments: refusals leave the document unchanged', () => {
  const doc = 'attach/bad.pdf';
  const small = Buffer.from('x');
  const cases: [string, () => Promise<Reply>, number, string][] = [
    ['a multipart file past the upload limit', () => post(doc, { bytes: Buffer.alloc(LIMIT + 1), name: 'big.bin' }), 413, 'PAYLOAD_TOO_LARGE'],
    ['a raw body past the upload limit', () => put(doc, 'big.bin', Buffer.alloc(LIMIT + 1)), 413, 'PAYLOAD_TOO_LARGE'],
    ['an unknown relationship', () => post(doc, { bytes: small }, { relationship: 'Invoice' }), 400, 'VALIDATION_FAILED'],
    ['a media type that is not one', () => put(doc, 'a.bin', small, '?mediaType=text%20plain'), 400, 'VALIDATION_FAILED'],
    ['a date that is not ISO 8601', () => post(doc, { bytes: small }, { creationDate: 'yesterday' }), 400, 'VALIDATION_FAILED'],
    ['an unknown field', () => post(doc, { bytes: small }, { colour: 'red' }), 400, 'VALIDATION_FAILED'],
    ['no file part', () => post(doc, undefined, { name: 'a' }), 400, 'MALFORMED_MULTIPART'],
    ['a JSON part that is not JSON', () => post(doc, { bytes: small }, '{name'), 400, 'MALFORMED_JSON'],
    ['a stale If-Match', () => put(doc, 'late.bin', small, '', { 'if-match': '"not-the-etag"' }), 412, 'PRECONDITION_FAILED'],
    ['a JSON body instead of the file', () => call(server, 'PUT', url(doc, 'a.json'), { body: { a: 1 } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a write to an old version', () => put(doc, 'old.bin', small, '?versionId=1'), 400, 'VERSION_READ_ONLY'],
  ];
  test('each case answers its 4xx and writes nothing', async () => {
    await upload(doc, makePdf({ pages: 1 }));
    for (const [what, request, code, errorCode] of cases) {
      await test(what, async () => {
        await expectUnchanged(server, doc, request, code, errorCode);
      });
    }
    assert.deepEqual(pdfdetachList(await storedBytes(server, doc)), []);
  });

  test('a signed document gets the attachment appended (its signed bytes kept); a certified one is refused; permissions are obeyed', async () => {
    const signed = signedFieldPdf();
    await upload('attach/signed.pdf', signed);
    status(await put('attach/signed.pdf', 'note.txt', Buffer.from('after signing')), 201);
    const stored = await storedBytes(server, 'attach/signed.pdf');
    assert.ok(stored.subarray(0, signed.length).equals(signed), 'the signed revision is kept byte for byte');
    assert.deepEqual(pdfdetachList(stored), ['note.txt']);
    status(await remove('attach/signed.pdf', 'note.txt'), 204);
    const after = await storedBytes(server, 'attach/signed.pdf');
    assert.ok(after.subarray(0, stored.length).equals(stored), 'the delete is appended too');
    assert.deepEqual(pdfdetachList(after), []);

    const certified = serializePdf([
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /SigFlags 3 >> /Perms << /DocMDP 5 0 R >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>',
      '<< /Type /Annot /Subtype /Widget /FT /Sig /T (Certification) /Rect [0 0 0 0] /P 3 0 R /V 5 0 R >>',
      `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /ByteRange [0 0 0 0] /Contents <${'00'.repeat(64)}> /Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P 3 /V /1.2 >> >>] >>`,
    ], '/Root 1 0 R');
    await upload('attach/certified.pdf', certified);
    await expectUnchanged(server, 'attach/certified.pdf', () => put('attach/certified.pdf', 'note.txt', small), 409, 'DOCUMENT_CERTIFIED');

    const locked = encryptPdf(makePdf({ pages: 1 }), 'user-pw', 'owner-pw', '256', ['--modify=none']);
    await upload('attach/locked.pdf', locked);
    await expectUnchanged(server, 'attach/locked.pdf', () => put('attach/locked.pdf', 'n.txt', small, '', { 'x-service-documentpassword': 'user-pw' }), 403, 'DOCUMENT_PERMISSION_DENIED');
    status(await put('attach/locked.pdf', 'n.txt', Buffer.from('encrypted with the document'), '', { 'x-service-documentpassword': 'owner-pw' }), 201);
    const encrypted = await storedBytes(server, 'attach/locked.pdf');
    assert.ok(!encrypted.includes(Buffer.from('encrypted with the document')), 'the file is encrypted with the document');
    assert.deepEqual(pdfdetachList(encrypted, 'user-pw'), ['n.txt']);
    const read = await download('attach/locked.pdf', 'n.txt', { 'x-service-documentpassword': 'user-pw' });
    status(read, 200);
    assert.equal(read.text, 'encrypted with the document');
    await expectUnchanged(server, 'attach/locked.pdf', () => download('attach/locked.pdf', 'n.txt'), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    assert.equal(sha256(await storedBytes(server, 'attach/locked.pdf')), sha256(encrypted));
  });
});
