import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENGINE } from '../../src/config/engine.js';
import { call, putPdf, storedBytes } from '../helpers/http.js';
import { makePdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { startServer } from '../helpers/server.js';

test('a service whose workers warm up when they start (the default; the test helper turns it off) redacts as any', async () => {
  assert.equal(ENGINE.settings.engineWarmUp.default, 3);
  const server = await startServer({ env: { PDFSERVICE_ENGINE_WARMUP: '2', PDFSERVICE_WORKERS: '2' } });
  try {
    const text = (i: number) => `Page ${i + 1} holds a secret word`;
    assert.equal((await putPdf(server, 'warm/a.pdf', makePdf({ pages: 2, text }))).status, 201);
    const marked = await call(server, 'POST', '/documents/warm/a.pdf/annotations/redaction', { body: { searchText: 'secret' } });
    assert.equal(marked.status, 200, marked.text);
    assert.equal(marked.json().count, 2);
    const applied = await call(server, 'POST', '/documents/warm/a.pdf', { body: { ApplyRedactionsAction: {} } });
    assert.equal(applied.status, 200, applied.text);
    const bytes = await storedBytes(server, 'warm/a.pdf');
    assert.ok(qpdfCheck(bytes).ok);
    const left = pdftotext(bytes);
    assert.doesNotMatch(left, /secret/);
    assert.match(left, /Page 2 holds a/);
  } finally {
    await server.stop();
  }
});
