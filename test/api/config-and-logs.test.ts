import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { call } from '../helpers/http.js';
import { encryptPdf, makePdf } from '../helpers/pdf.js';
import { ADMIN, startServer } from '../helpers/server.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

test('invalid settings stop the service at start with a message naming each one', () => {
  const run = spawnSync(process.execPath, [MAIN], {
    env: { ...process.env, PDFSERVICE_PORT: 'eighty', PDFSERVICE_WORKERS: '0', PDFSERVICE_LOG_LEVEL: 'loud', PDFSERVICE_TRUST_PROXY: '127.0.0.1,proxy.example' },
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /PDFSERVICE_PORT must be a whole number/);
  assert.match(run.stderr, /PDFSERVICE_WORKERS must be between 1 and 64/);
  assert.match(run.stderr, /PDFSERVICE_LOG_LEVEL must be one of/);
  assert.match(run.stderr, /PDFSERVICE_TRUST_PROXY has "proxy.example", which is not an address/);
});

test('logs are JSON lines with a request id, and never contain passwords', async () => {
  const server = await startServer();
  try {
    const login = await call(server, 'POST', '/sessions', { auth: false, body: { username: ADMIN.username, password: ADMIN.password } });
    assert.equal(login.status, 201);
    await call(server, 'POST', '/sessions', { auth: false, body: { username: ADMIN.username, password: 'wrong-secret-password' } });
    await call(server, 'PUT', '/documents/logs/secret.pdf', { body: encryptPdf(makePdf(), 'doc-user-secret', 'doc-owner-secret'), headers: { 'content-type': 'application/pdf' } });
    const model = await call(server, 'GET', '/documents/logs/secret.pdf', { headers: { accept: 'application/json', 'x-service-documentpassword': 'doc-user-secret', 'x-request-id': 'trace-me-42' } });
    assert.equal(model.status, 200);
    assert.equal(model.headers.get('x-request-id'), 'trace-me-42');
    // Secrets a client wrongly put in a query (issue 35 item 12): the URL is logged with their values hidden.
    const query = '?access_token=tok-in-query-1&page=2&Password=pw-in-query-2&X-Amz-Signature=sig-in-query-3&api_key=key-in-query-4&code=code-in-query-5';
    await call(server, 'GET', `/documents/logs/secret.pdf${query}&key=key-in-query-6`, { headers: { accept: 'application/json', 'x-service-documentpassword': 'doc-user-secret' } });
    await call(server, 'GET', `/no/such/route${query}`, { auth: false });
    await new Promise((r) => setTimeout(r, 200));
    const urls = server.output.filter((l) => l.startsWith('{')).map((l) => (JSON.parse(l) as { req?: { url?: string } }).req?.url).filter((u) => u !== undefined);
    assert.ok(urls.includes('/pdfservice/v1/documents/logs/secret.pdf?access_token=[REDACTED]&page=2&Password=[REDACTED]&X-Amz-Signature=[REDACTED]&api_key=[REDACTED]&code=[REDACTED]&key=[REDACTED]'), urls.join('\n'));
    assert.ok(urls.includes('/pdfservice/v1/no/such/route?access_token=[REDACTED]&page=2&Password=[REDACTED]&X-Amz-Signature=[REDACTED]&api_key=[REDACTED]&code=[REDACTED]'), urls.join('\n'));
    const lines = server.output.filter((l) => l.startsWith('{'));
    assert.ok(lines.length > 0);
    const entries = lines.map((l) => JSON.parse(l) as { reqId?: string });
    assert.ok(entries.some((e) => e.reqId === 'trace-me-42'), 'the client request id is in the log');
    const all = server.output.join('\n');
    for (const secret of ['tok-in-query-1', 'pw-in-query-2', 'sig-in-query-3', 'key-in-query-4', 'code-in-query-5', 'key-in-query-6', ADMIN.password, 'wrong-secret-password', 'doc-user-secret', 'doc-owner-secret', Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')]) {
      assert.ok(!all.includes(secret), `a log line contains ${secret}`);
    }
  } finally {
    await server.stop();
  }
});
