import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { call, storedBytes } from '../test/helpers/http.js';
import { pdftotext, qpdfCheck } from '../test/helpers/pdf.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir } from './manifest.js';

const dir = corpusDir();
if (!dir) {
  console.log('# corpus redaction suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus redaction suite (no corpus found)');
} else {
  const server = serverForSuite();

  test('tracemonkey.pdf (14 pages, a paper we did not write): every "trace" redacted, pdftotext finds none, the rest of the text stays', async () => {
    const original = readFileSync(path.join(dir, 'pdfjs/text-extraction/tracemonkey.pdf'));
    const before = pdftotext(original);
    const occurrences = (before.match(/trace/gi) ?? []).length;
    assert.ok(occurrences > 300, `${occurrences}`);
    const put = await call(server, 'PUT', '/documents/corpus-redaction/tracemonkey.pdf', { body: original, headers: { 'content-type': 'application/pdf' } });
    assert.equal(put.status, 201, put.text);
    const created = await call(server, 'POST', '/documents/corpus-redaction/tracemonkey.pdf/annotations/redaction', { body: { searchText: 'trace' } });
    assert.equal(created.status, 200, created.text);
    // MuPDF and poppler split hyphenated and ligatured words differently; every occurrence poppler sees must have been found.
    assert.ok(created.json().count >= occurrences * 0.95, `${created.json().count} matches, pdftotext sees ${occurrences}`);
    const applied = await call(server, 'POST', '/documents/corpus-redaction/tracemonkey.pdf', { body: { ApplyRedactionsAction: {} } });
    assert.equal(applied.status, 200, applied.text);
    const bytes = await storedBytes(server, 'corpus-redaction/tracemonkey.pdf');
    const after = pdftotext(bytes);
    assert.deepEqual(after.match(/trace/gi) ?? [], []);
    assert.ok(qpdfCheck(bytes).ok);
    // Words that never touch "trace" survive: compare the counts of a few frequent ones.
    for (const word of ['compiler', 'JavaScript', 'loop']) {
      const was = before.split(word).length;
      const now = after.split(word).length;
      assert.ok(now >= was * 0.9, `${word}: ${now - 1} left of ${was - 1}`);
    }
  });
}
