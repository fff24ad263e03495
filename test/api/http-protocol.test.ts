import assert from 'node:assert/strict';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { call, expectUnchanged, putPdf, storedBytes } from '../helpers/http.js';
import { makePdf, pdfinfo } from '../helpers/pdf.js';
import { rawRequest } from '../helpers/raw-http.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();
const json = { accept: 'application/json' };

/** The problem document in a raw HTTP answer (status line, headers, body). */
function rawProblem(text: string): { headers: string; body: Record<string, unknown> } {
  const cut = text.indexOf('\r\n\r\n');
  return { headers: text.slice(0, cut).toLowerCase(), body: JSON.parse(text.slice(cut + 4)) as Record<string, unknown> };
}

describe('JSON bodies match their schema exactly; XML and query values are coerced', () => {
  test('POST /users with numbers for strings is 400 naming the field; no user is created', async () => {
    const reply = await call(server, 'POST', '/users', { body: { username: 4242, password: 12345678, rights: 'GET' }, headers: json });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.json().code, 'VALIDATION_FAILED');
    assert.match(reply.json().detail, /username/);
    assert.equal((await call(server, 'GET', '/users/4242', { headers: json })).status, 404);
  });

  test('POST /sessions with the body false is 400, not a login', async () => {
    const reply = await call(server, 'POST', '/sessions', { body: 'false', headers: { ...json, 'content-type': 'application/json' } });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.json().code, 'VALIDATION_FAILED');
    assert.equal(reply.headers.get('set-cookie'), null);
  });

  test('"caseSensitive":"false" and "rotation":"90" are 400 naming the field; the document is unchanged', async () => {
    const doc = 'strict/a.pdf';
    await putPdf(server, doc, makePdf({ text: () => 'Secret words' }));
    const marked = await expectUnchanged(server, doc, () => call(server, 'POST', `/documents/${doc}/annotations/redaction`, {
      body: { searchText: 'secret', caseSensitive: 'false' }, headers: json,
    }), 400, 'VALIDATION_FAILED');
    assert.match(marked.json().detail, /caseSensitive/);
    const rotated = await expectUnchanged(server, doc, () => call(server, 'POST', `/documents/${doc}/pages`, {
      body: { RotatePagesAction: { rotation: '90' } }, headers: json,
    }), 400, 'VALIDATION_FAILED');
    assert.match(rotated.json().detail, /rotation/);
  });

  test('the same values in XML are text and are coerced: rotation 90 turns the page', async () => {
    const doc = 'strict/xml.pdf';
    await putPdf(server, doc, makePdf());
    const reply = await call(server, 'POST', `/documents/${doc}/pages`, {
      body: '<RotatePagesAction><rotation>90</rotation></RotatePagesAction>', headers: { ...json, 'content-type': 'application/xml' },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(pdfinfo(await storedBytes(server, doc))['Page rot'], '90');
  });

  test('"namingMode": true is 400, and the existing target is not overwritten', async () => {
    await putPdf(server, 'strict/source.pdf', makePdf({ pages: 2 }));
    await putPdf(server, 'strict/target.pdf', makePdf({ pages: 1 }));
    const reply = await expectUnchanged(server, 'strict/target.pdf', () => call(server, 'POST', '/documents/strict/source.pdf', {
      body: { CopyAction: { savePath: 'strict/target.pdf', namingMode: true } }, headers: json,
    }), 400, 'VALIDATION_FAILED');
    assert.match(reply.json().detail, /namingMode/);
  });

  test('a misspelt action field is reported as unknown, not as the missing field it was meant to be', async () => {
    const doc = 'strict/copy.pdf';
    await putPdf(server, doc, makePdf());
    const reply = await expectUnchanged(server, doc, () => call(server, 'POST', `/documents/${doc}`, {
      body: { CopyAction: { savepath: 'strict/copy2.pdf' } }, headers: json,
    }), 400, 'VALIDATION_FAILED');
    assert.match(reply.json().detail, /unknown field/);
    assert.match(reply.json().detail, /savepath/);
    assert.match(reply.json().detail, /did you mean savePath/);
  });

  test('an unknown query parameter is 400 with "did you mean", on every route; the cache buster _ is ignored', async () => {
    const doc = 'strict/query.pdf';
    await putPdf(server, doc, makePdf({ pages: 2 }));
    // ?dip=150 rendered at the default resolution before; now it names the parameter it meant.
    const image = await call(server, 'GET', `/documents/${doc}/pages/0/image?dip=150`);
    assert.equal(image.status, 400, image.text);
    assert.equal(image.json().code, 'VALIDATION_FAILED');
    assert.match(image.json().detail, /query\.dip: unknown parameter \(did you mean dpi\?\); known parameters: dpi, format/);
    const list = await call(server, 'GET', '/documents/strict?detials=true', { headers: json });
    assert.equal(list.status, 400, list.text);
    assert.match(list.json().detail, /did you mean details\?/);
    // A route whose schema names no parameter takes none; nothing is far from close enough to be suggested.
    const session = await call(server, 'GET', '/sessions/current?zzz=1', { headers: json });
    assert.equal(session.status, 400, session.text);
    assert.match(session.json().detail, /query\.zzz: unknown parameter; this takes no parameters/);
    // Every read of a document takes versionId (docs/versions.md), and says so.
    const model = await call(server, 'GET', `/documents/${doc}/permissions?zzz=1`, { headers: json });
    assert.equal(model.status, 400, model.text);
    assert.match(model.json().detail, /query\.zzz: unknown parameter; known parameters: versionId$/);
    // Writes are refused before anything changes.
    const rotate = await expectUnchanged(server, doc, () => call(server, 'POST', `/documents/${doc}/pages?savepath=x.pdf`, {
      body: { RotatePagesAction: { rotation: 90 } }, headers: json,
    }), 400, 'VALIDATION_FAILED');
    assert.match(rotate.json().detail, /query\.savepath: unknown parameter/);
    // Parameters a route knows still work, and so does jQuery's cache buster.
    assert.equal((await call(server, 'GET', `/documents/${doc}/pages/0/image?dpi=20&_=1732838400000`)).status, 200);
    assert.equal((await call(server, 'GET', `/documents/strict?details=true&_=1`, { headers: json })).status, 200);
    assert.equal((await call(server, 'GET', '/sessions/current?_=2', { headers: json })).status, 200);
  });

  test('a page action posted to the document URL says to use /pages', async () => {
    const doc = 'strict/page-action.pdf';
    await putPdf(server, doc, makePdf());
    const reply = await expectUnchanged(server, doc, () => call(server, 'POST', `/documents/${doc}`, {
      body: { RotatePagesAction: { rotation: 90 } }, headers: json,
    }), 400, 'INVALID_ACTION');
    assert.match(reply.json().detail, /RotatePagesAction is a page action/);
    assert.match(reply.json().detail, /\/pages/);
  });
});

describe('methods, limits and media types', () => {
  test('PATCH on an existing document is 405 with Allow; the document is unchanged', async () => {
    const doc = 'proto/a.pdf';
    await putPdf(server, doc, makePdf());
    const reply = await expectUnchanged(server, doc, () => call(server, 'PATCH', `/documents/${doc}`, { body: { x: 1 }, headers: json }), 405, 'METHOD_NOT_ALLOWED');
    const allow = (reply.headers.get('allow') ?? '').split(/,\s*/);
    for (const m of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE']) assert.ok(allow.includes(m), `Allow names ${m}: ${allow.join(', ')}`);
    assert.ok(!allow.includes('PATCH'));
    const health = await call(server, 'DELETE', '/health', { auth: false, headers: json });
    assert.equal(health.status, 405, health.text);
    assert.equal(health.headers.get('allow'), 'GET, HEAD');
  });

  test('TRACE and QUERY are 405 with Allow, before login; a method the service never has is 501', async () => {
    const doc = 'proto/methods.pdf';
    await putPdf(server, doc, makePdf());
    const before = await storedBytes(server, doc);
    for (const method of ['TRACE', 'QUERY']) {
      const reply = await rawRequest(server.baseUrl, method, `/pdfservice/v1/documents/${doc}`, { Accept: 'application/json' });
      assert.equal(reply.status, 405, `${method}: ${reply.text}`);
      assert.match(reply.text, /"code":"METHOD_NOT_ALLOWED"/);
      assert.match(reply.text, /\r\nallow: GET, HEAD, POST, PUT, DELETE\r\n/i);
    }
    const unknown = await rawRequest(server.baseUrl, 'PROPFIND', `/pdfservice/v1/documents/${doc}`, { Accept: 'application/json' });
    assert.equal(unknown.status, 501, unknown.text);
    assert.match(unknown.text, /"code":"METHOD_NOT_IMPLEMENTED"/);
    assert.deepEqual(await storedBytes(server, doc), before);
  });

  test('an over-long URL segment is a 414 problem document that does not echo the URL', async () => {
    const long = 'x'.repeat(9000);
    const reply = await call(server, 'GET', `/documents/${long}.pdf`, { auth: false, headers: json });
    assert.equal(reply.status, 414);
    assert.match(reply.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(reply.json().code, 'URI_TOO_LONG');
    assert.ok(!reply.text.includes('xxxxxxxxxx'), 'the URL is not echoed');
  });

  test('a request line or headers past the limit are a 431 problem document, not Node\'s raw answer', async () => {
    for (const [target, headers] of [[`/pdfservice/v1/documents/${'y'.repeat(20_000)}.pdf`, {}], ['/pdfservice/v1/health', { 'X-Big': 'z'.repeat(20_000) }]] as const) {
      const reply = await rawRequest(server.baseUrl, 'GET', target, headers);
      assert.equal(reply.status, 431, reply.text.slice(0, 300));
      const { headers: head, body } = rawProblem(reply.text);
      assert.match(head, /content-type: application\/problem\+json/);
      assert.match(head, /x-content-type-options: nosniff/);
      assert.equal(body['code'], 'HEADERS_TOO_LARGE');
      assert.ok(!reply.text.includes('yyyyyyyyyy') && !reply.text.includes('zzzzzzzzzz'), 'nothing sent is echoed');
    }
  });

  test('a body type the route does not take is 415 naming the accepted types', async () => {
    const doc = 'proto/types.pdf';
    await putPdf(server, doc, makePdf());
    const reply = await expectUnchanged(server, doc, () => call(server, 'POST', `/documents/${doc}/pages`, { body: 'a,b', headers: { ...json, 'content-type': 'text/csv' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    for (const type of ['application/json', 'application/xml', 'multipart/form-data']) {
      assert.ok(reply.json().detail.includes(type), reply.json().detail);
      assert.ok((reply.headers.get('accept') ?? '').includes(type));
    }
  });

  test('a gzip-encoded body is 415 naming the identity coding, not MALFORMED_JSON; the document is unchanged', async () => {
    const doc = 'proto/gzip.pdf';
    await putPdf(server, doc, makePdf());
    const body = gzipSync(JSON.stringify({ RotatePagesAction: { rotation: 90 } }));
    const reply = await expectUnchanged(server, doc, () => call(server, 'POST', `/documents/${doc}/pages`, {
      body, headers: { ...json, 'content-type': 'application/json', 'content-encoding': 'gzip' },
    }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assert.match(reply.json().detail, /identity/);
    assert.equal(reply.headers.get('accept-encoding'), 'identity');
  });

  test('bad percent-encoding in annotation and field names is a 400 problem document', async () => {
    const doc = 'proto/bad-url.pdf';
    await putPdf(server, doc, makePdf());
    for (const target of [`/pdfservice/v1/documents/${doc}/annotations/%E0%A4%A`, `/pdfservice/v1/documents/${doc}/fields/%zz`]) {
      const reply = await rawRequest(server.baseUrl, 'GET', target, { Authorization: server.adminAuth, Accept: 'application/json' });
      assert.equal(reply.status, 400, reply.text);
      const { headers, body } = rawProblem(reply.text);
      assert.match(headers, /content-type: application\/problem\+json/);
      assert.equal(body['code'], 'BAD_REQUEST');
      assert.doesNotMatch(reply.text, /FST_ERR_BAD_URL/);
    }
  });

  test('every answer says X-Content-Type-Options: nosniff', async () => {
    const doc = 'proto/sniff.pdf';
    await putPdf(server, doc, makePdf());
    const replies = [
      await call(server, 'GET', `/documents/${doc}`),
      await call(server, 'GET', `/documents/${doc}`, { auth: false }),
      await call(server, 'GET', '/documents/proto/none.pdf'),
      await call(server, 'GET', '/nothing-here'),
      await call(server, 'GET', '/health', { auth: false }),
      await call(server, 'GET', '/docs/', { auth: false }),
      await call(server, 'GET', '/openapi.json', { auth: false }),
    ];
    assert.deepEqual(replies.map((r) => r.status), [200, 401, 404, 404, 200, 200, 200]);
    for (const r of replies) assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  });
});

describe('client disconnects', () => {
  test('an upload the client abandons is logged at info, not as an error', async () => {
    const { hostname, port } = new URL(server.baseUrl);
    const from = server.output.length;
    for (const [target, type] of [['/pdfservice/v1/documents/gone/up.pdf', 'application/pdf'], ['/pdfservice/v1/documents/gone/up.pdf/pages', 'multipart/form-data; boundary=XX']]) {
      await new Promise<void>((resolve, reject) => {
        const socket = net.connect(Number(port), hostname, () => {
          socket.write(`${target.endsWith('pages') ? 'POST' : 'PUT'} ${target} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${server.adminAuth}\r\n` +
            `Content-Type: ${type}\r\nContent-Length: 1000000\r\n\r\n`);
          socket.write(type.startsWith('multipart') ? '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 ' : '%PDF-1.4 '.repeat(500), () => {
            // Written: the server reads the start of the body, then the client goes away.
            setImmediate(() => socket.resetAndDestroy());
            resolve();
          });
        });
        socket.on('error', reject);
      });
    }
    // The service notes each disconnect; wait until both are logged.
    const disconnects = () => server.output.slice(from).filter((l) => l.includes('client disconnected'));
    for (let i = 0; i < 400 && disconnects().length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(disconnects().length >= 2, 'both disconnects are logged');
    const lines = server.output.slice(from).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; msg: string });
    assert.deepEqual(lines.filter((l) => l.level >= 50), [], 'nothing is logged as an error');
    for (const l of lines.filter((x) => x.msg.includes('client disconnected'))) assert.equal(l.level, 30);
    assert.equal((await call(server, 'GET', '/health', { auth: false })).status, 200);
  });
});
