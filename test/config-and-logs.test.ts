import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { call } from './helpers/http.js';
import { encryptPdf, makePdf } from './helpers/pdf.js';
import { ADMIN, startServer } from './helpers/server.js';

const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

test('invalid settings stop the service at start with a message naming each one', () => {
  const run = spawnSync(process.execPath, [MAIN], {
    env: { ...process.env, PDFSERVICE_PORT: 'eighty', PDFSERVICE_WORKERS: '0', PDFSERVICE_LOG_LEVEL: 'loud' },
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /PDFSERVICE_PORT must be a whole number/);
  assert.match(run.stderr, /PDFSERVICE_WORKERS must be between 1 and 64/);
  assert.match(run.stderr, /PDFSERVICE_LOG_LEVEL must be one of/);
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
    await new Promise((r) => setTimeout(r, 200));
    const lines = server.output.filter((l) => l.startsWith('{'));
    assert.ok(lines.length > 0);
    const entries = lines.map((l) => JSON.parse(l) as { reqId?: string });
    assert.ok(entries.some((e) => e.reqId === 'trace-me-42'), 'the client request id is in the log');
    const all = server.output.join('\n');
    for (const secret of [ADMIN.password, 'wrong-secret-password', 'doc-user-secret', 'doc-owner-secret', Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')]) {
      assert.ok(!all.includes(secret), `a log line contains ${secret}`);
    }
  } finally {
    await server.stop();
  }
});
