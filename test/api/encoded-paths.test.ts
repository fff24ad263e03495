/**
 * Document paths as generated clients and Swagger UI send them: `{filePath}` is one path parameter, so
 * its folders arrive as "%2F". Every route that takes a document or folder path must accept that (and
 * still refuse what path safety refuses), errors and logs must show the URL as sent, and a ".PDF"
 * spelling must never create a document that no URL reaches. Requests go out byte for byte (raw HTTP).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { call, storedBytes } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { rawRequest } from '../helpers/raw-http.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();
const DOCS = '/pdfservice/v1/documents';

/** A raw reply split into status, headers and body (chunked bodies joined). */
async function raw(method: string, target: string, headers: Record<string, string> = {}, body?: Buffer) {
  const reply = await rawRequest(server.baseUrl, method, target, { authorization: server.adminAuth, ...headers }, body);
  const bytes = Buffer.from(reply.text, 'latin1');
  const end = bytes.indexOf('\r\n\r\n');
  const head = bytes.subarray(0, end).toString('latin1').split('\r\n').slice(1);
  const fields = new Map(head.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let content = bytes.subarray(end + 4);
  if (fields.get('transfer-encoding') === 'chunked') {
    const parts: Buffer[] = [];
    for (let at = 0; ;) {
      const lineEnd = content.indexOf('\r\n', at);
      const size = parseInt(content.subarray(at, lineEnd).toString('latin1'), 16);
      if (!size) break;
      parts.push(content.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    content = Buffer.concat(parts);
  }
  const text = content.toString('utf8');
  return { status: reply.status, headers: fields, body: content, json: () => JSON.parse(text), text };
}

const pdf = makePdf({ pages: 2, text: (i) => `Encoded path page ${i + 1}` });

test('a document in folders is reachable with its folders sent as %2F or %2f on every route that takes a document path', async () => {
  const created = await raw('PUT', `${DOCS}/enc%2Fsub%2Fa%20b.pdf`, { 'content-type': 'application/pdf' }, pdf);
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('location'), `${DOCS}/enc/sub/a%20b.pdf`);
  assert.deepEqual(await storedBytes(server, 'enc/sub/a b.pdf'), pdf, 'stored in the folders, not under a name with a slash');

  for (const doc of ['enc%2Fsub%2Fa%20b', 'enc%2fsub%2fa%20b', 'enc/sub%2Fa%20b']) {
    const download = await raw('GET', `${DOCS}/${doc}.pdf`);
    assert.equal(download.status, 200, `${doc}: ${download.text}`);
    assert.deepEqual(download.body, pdf, `${doc}: the stored bytes`);
    const model = await raw('GET', `${DOCS}/${doc}.pdf`, { accept: 'application/json' });
    assert.equal(model.status, 200, model.text);
    assert.equal(model.json().pageCount, 2);
    for (const sub of ['annotations', 'fields', 'pages', 'pages/1/text', 'text', 'permissions', 'fields/signature-fields']) {
      const reply = await raw('GET', `${DOCS}/${doc}.pdf/${sub}`, { accept: sub.endsWith('text') ? 'text/plain' : 'application/json' });
      assert.equal(reply.status, 200, `${doc} ${sub}: ${reply.text}`);
      if (sub === 'pages/1/text') assert.match(reply.text, /Encoded path page 2/);
    }
  }
  const action = await raw('POST', `${DOCS}/enc%2Fsub%2Fa%20b.pdf`, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ CopyAction: { savePath: 'enc/copy.pdf' } })));
  assert.equal(action.status, 201, action.text);
  assert.deepEqual(await storedBytes(server, 'enc/copy.pdf'), pdf);
  const pageAction = await raw('POST', `${DOCS}/enc%2Fcopy.pdf/pages`, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ DeletePagesAction: { pageRange: '1' } })));
  assert.equal(pageAction.status, 200, pageAction.text);
  assert.equal(pageAction.json().pageCount, 1);

  // Folders: listing, creating and deleting with %2F.
  const listing = await raw('GET', `${DOCS}/enc%2Fsub`, { accept: 'application/json' });
  assert.equal(listing.status, 200, listing.text);
  assert.deepEqual(listing.json().entries.map((e: { name: string }) => e.name), ['a b.pdf']);
  const trailing = await raw('GET', `${DOCS}/enc%2Fsub%2F`, { accept: 'application/json' });
  assert.equal(trailing.status, 200, trailing.text);
  const folder = await raw('PUT', `${DOCS}/enc%2Fnew%2Fdeep`);
  assert.equal(folder.status, 201, folder.text);
  assert.ok(existsSync(path.join(server.dataDir, 'documents', 'enc', 'new', 'deep')));
  const form = Buffer.from(`--B\r\nContent-Disposition: form-data; name="file"; filename="up.pdf"\r\nContent-Type: application/pdf\r\n\r\n${pdf.toString('latin1')}\r\n--B--\r\n`, 'latin1');
  const upload = await raw('POST', `${DOCS}/enc%2Fnew%2Fdeep`, { 'content-type': 'multipart/form-data; boundary=B' }, form);
  assert.equal(upload.status, 201, upload.text);
  assert.deepEqual(await storedBytes(server, 'enc/new/deep/up.pdf'), pdf);

  const removed = await raw('DELETE', `${DOCS}/enc%2Fsub%2Fa%20b.pdf`);
  assert.equal(removed.status, 204, removed.text);
  assert.ok(!existsSync(path.join(server.dataDir, 'documents', 'enc', 'sub', 'a b.pdf')));
  const folderGone = await raw('DELETE', `${DOCS}/enc%2Fnew?recursive=true`);
  assert.equal(folderGone.status, 204, folderGone.text);
});

test('%2F does not get around path safety: "..%2F", absolute paths and double encoding are refused and nothing is written', async () => {
  await call(server, 'PUT', '/documents/safe/target.pdf', { body: pdf, headers: { 'content-type': 'application/pdf' } });
  const before = await readFile(path.join(server.dataDir, 'documents', 'safe', 'target.pdf'));
  const refused = [
    'safe%2F..%2F..%2Fescape.pdf',
    '..%2Fescape.pdf',
    '..%2fescape.pdf',
    'safe%2F.%2Ftarget.pdf',
    'safe%2F%2Ftarget.pdf',
    '%2Fetc%2Fescape.pdf',
    'safe%252Ftarget.pdf',
    'safe%2F.hidden.pdf',
    'safe%2Fx.pdf%2Ftarget.pdf',
  ];
  for (const target of refused) {
    for (const [method, headers, body] of [['GET', {}, undefined], ['PUT', { 'content-type': 'application/pdf' }, pdf], ['DELETE', {}, undefined]] as const) {
      const reply = await raw(method, `${DOCS}/${target}`, headers, body);
      assert.equal(reply.status, 400, `${method} ${target}: ${reply.status} ${reply.text}`);
      assert.equal(reply.json().code, 'INVALID_PATH');
    }
  }
  for (const folder of ['safe%2F..%2F..', '..%2F', '%2Fetc', 'safe%252Fx']) {
    const reply = await raw('PUT', `${DOCS}/${folder}`);
    assert.equal(reply.status, 400, `PUT folder ${folder}: ${reply.text}`);
  }
  assert.deepEqual(await readFile(path.join(server.dataDir, 'documents', 'safe', 'target.pdf')), before);
  assert.ok(!existsSync(path.join(server.dataDir, 'escape.pdf')) && !existsSync(path.join(server.dataDir, 'documents', 'escape.pdf')));
});

test('problem documents and logs show the URL as the client sent it', async () => {
  for (const target of [`${DOCS}/no%20such.pdf`, `${DOCS}/in/a/folder/missing.pdf/annotations`, `${DOCS}/in%2Fa%2Ffolder%2Fmissing.pdf`, `${DOCS}/missing%20folder/x`]) {
    const reply = await raw('GET', `${target}?_=1764374400`, { accept: 'application/json' });
    assert.equal(reply.status, 404, `${target}: ${reply.text}`);
    assert.equal(reply.json().instance, target);
    // The request's one line at info (src/http/request-log.ts) is written when its answer has been sent: it may come a moment after.
    const lineOf = () => server.output.filter((l) => l.includes('"request completed"') && l.includes(`"reqId":"${reply.json().requestId}"`));
    for (let wait = 0; lineOf().length === 0 && wait < 50; wait++) await new Promise((r) => setTimeout(r, 20));
    const logged = lineOf();
    assert.equal(logged.length, 1, `one log line for ${target}`);
    assert.equal(JSON.parse(logged[0]!).req.url, `${target}?_=1764374400`);
  }
  const xml = await raw('GET', `${DOCS}/x%2F..%2Fy.pdf`, { accept: 'application/xml' });
  assert.equal(xml.status, 400);
  assert.match(xml.text, new RegExp(`<instance>${DOCS}/x%2F..%2Fy.pdf</instance>`));
});

test('a ".PDF" savePath, URL or upload name names the one document "x.pdf" that every URL reaches', async () => {
  await call(server, 'PUT', '/documents/case/source.pdf', { body: pdf, headers: { 'content-type': 'application/pdf' } });
  const copied = await raw('POST', `${DOCS}/case/source.pdf`, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ CopyAction: { savePath: 'case/UPPER.PDF' } })));
  assert.equal(copied.status, 201, copied.text);
  assert.equal(copied.headers.get('location'), `${DOCS}/case/UPPER.pdf`);
  assert.deepEqual(await storedBytes(server, 'case/UPPER.pdf'), pdf);
  for (const spelling of ['UPPER.pdf', 'UPPER.PDF', 'UPPER.Pdf']) {
    const reply = await raw('GET', `${DOCS}/case/${spelling}`);
    assert.equal(reply.status, 200, spelling);
    assert.deepEqual(reply.body, pdf);
  }
  // The same name in another spelling is the same document: namingMode 0 refuses to overwrite it.
  const clash = await raw('POST', `${DOCS}/case/source.pdf`, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ CopyAction: { savePath: 'case/UPPER.pDf' } })));
  assert.equal(clash.status, 409, clash.text);
  const xmlCopy = await raw('POST', `${DOCS}/case/source.pdf`, { 'content-type': 'application/xml' }, Buffer.from('<CopyAction><savePath>case/Xml.PDF</savePath></CopyAction>'));
  assert.equal(xmlCopy.status, 201, xmlCopy.text);
  const form = Buffer.from(`--B\r\nContent-Disposition: form-data; name="file"; filename="SCAN.PDF"\r\nContent-Type: application/pdf\r\n\r\n${pdf.toString('latin1')}\r\n--B--\r\n`, 'latin1');
  const upload = await raw('POST', `${DOCS}/case`, { 'content-type': 'multipart/form-data; boundary=B' }, form);
  assert.equal(upload.status, 201, upload.text);
  const listing = await raw('GET', `${DOCS}/case`, { accept: 'application/json' });
  assert.deepEqual(listing.json().entries.map((e: { name: string }) => e.name), ['SCAN.pdf', 'UPPER.pdf', 'Xml.pdf', 'source.pdf']);
  // A folder name ending in ".PDF" is refused like one ending in ".pdf".
  const folderish = await raw('POST', `${DOCS}/case/source.pdf`, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ CopyAction: { savePath: 'case/dir.PDF/x.pdf' } })));
  assert.equal(folderish.status, 400, folderish.text);
  assert.equal(folderish.json().code, 'INVALID_PATH');
  for (const name of ['UPPER.PDF', 'Xml.pdf', 'SCAN.Pdf']) {
    const removed = await raw('DELETE', `${DOCS}/case/${name}`);
    assert.equal(removed.status, 204, name);
  }
  const after = await raw('GET', `${DOCS}/case`, { accept: 'application/json' });
  assert.deepEqual(after.json().entries.map((e: { name: string }) => e.name), ['source.pdf']);
});
