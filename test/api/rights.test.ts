import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const ALL = ['GET', 'POST', 'PUT', 'DELETE'] as const;
const password = 'a-long-test-password';
/** A user for each right, holding every other right but that one. */
const lacking = (right: string) => basicAuth(`no-${right.toLowerCase()}`, password);

before(async () => {
  server = await startServer();
  for (const right of ALL) {
    const reply = await call(server, 'POST', '/users', { body: { username: `no-${right.toLowerCase()}`, password, rights: ALL.filter((r) => r !== right) } });
    assert.equal(reply.status, 201, reply.text);
  }
  await call(server, 'PUT', '/documents/r/doc.pdf', { body: makePdf(), headers: { 'content-type': 'application/pdf' } });
});
after(async () => {
  await server.stop();
});

interface Endpoint {
  method: string;
  path: string;
  body?: () => Buffer | FormData | object;
  type?: string;
  right: string;
  /** Answers a model, so Accept: application/xml must give XML. */
  model?: boolean;
}

const form = () => {
  const data = new FormData();
  data.append('file', new Blob([makePdf() as BlobPart], { type: 'application/pdf' }), 'upload.pdf');
  return data;
};
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/documents', right: 'GET', model: true },
  { method: 'GET', path: '/documents/r', right: 'GET', model: true },
  { method: 'PUT', path: '/documents/r/sub', right: 'PUT', model: true },
  { method: 'POST', path: '/documents/r?namingMode=2', body: form, right: 'POST', model: true },
  { method: 'DELETE', path: '/documents/r/sub', right: 'DELETE' },
  { method: 'GET', path: '/documents/r/doc.pdf', right: 'GET' },
  { method: 'HEAD', path: '/documents/r/doc.pdf', right: 'GET' },
  { method: 'GET', path: '/documents/r/doc.pdf', right: 'GET', model: true },
  { method: 'PUT', path: '/documents/r/doc.pdf', body: () => makePdf(), type: 'application/pdf', right: 'PUT', model: true },
  { method: 'POST', path: '/documents/r/doc.pdf', body: () => ({ CopyAction: { savePath: 'r/copy.pdf', namingMode: 1 } }), right: 'POST', model: true },
  { method: 'POST', path: '/documents/r/doc.pdf/pages', body: () => ({ NoSuchAction: {} }), right: 'POST' },
  { method: 'DELETE', path: '/documents/r/other.pdf', right: 'DELETE' },
  { method: 'GET', path: '/sessions/current', right: 'any', model: true },
  { method: 'GET', path: '/users', right: 'admin', model: true },
];

for (const e of ENDPOINTS) {
  test(`${e.method} ${e.path}${e.model ? ' (model)' : ''}: 401 without credentials${e.right === 'any' ? '' : `, 403 without the ${e.right} right`}`, async () => {
    const headers = (extra: Record<string, string> = {}) => ({ ...(e.type ? { 'content-type': e.type } : {}), ...(e.model ? { accept: 'application/json' } : {}), ...extra });
    const anonymous = await call(server, e.method, e.path, { auth: false, headers: headers(), ...(e.body ? { body: e.body() } : {}) });
    assert.equal(anonymous.status, 401);
    if (e.method !== 'HEAD') assert.equal(anonymous.json().code, 'AUTHENTICATION_REQUIRED');
    if (e.right === 'any') return; // every logged-in user may ask who they are
    const auth = e.right === 'admin' ? basicAuth('no-put', password) : lacking(e.right);
    const refused = await call(server, e.method, e.path, { auth, headers: headers(), ...(e.body ? { body: e.body() } : {}) });
    assert.equal(refused.status, 403);
    if (e.method !== 'HEAD') assert.equal(refused.json().code, 'FORBIDDEN');
  });
  if (e.model) {
    test(`${e.method} ${e.path}: JSON by default, XML when asked`, async () => {
      // Documents answer the PDF by default; their model needs Accept. Other models are JSON by default.
      const defaultAccept: Record<string, string> = e.path.endsWith('.pdf') && e.method === 'GET' ? { accept: 'application/json' } : {};
      const json = await call(server, e.method, e.path, { headers: { ...defaultAccept, ...(e.type ? { 'content-type': e.type } : {}) }, ...(e.body ? { body: e.body() } : {}) });
      assert.ok(json.status < 300, json.text);
      assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
      json.json();
      const xml = await call(server, e.method, e.path, { headers: { accept: 'application/xml', ...(e.type ? { 'content-type': e.type } : {}) }, ...(e.body ? { body: e.body() } : {}) });
      assert.ok(xml.status < 300, xml.text);
      assert.match(xml.headers.get('content-type') ?? '', /^application\/xml/);
      assert.match(xml.text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<[A-Z]\w+>/);
    });
  }
}

test('public endpoints answer without credentials', async () => {
  for (const path of ['/health', '/openapi.json']) {
    assert.equal((await call(server, 'GET', path, { auth: false })).status, 200, path);
  }
});
