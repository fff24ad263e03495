/**
 * Compare's cache of page digests (docs/compare.md): a version compared again is not hashed again, counted as the
 * engine tasks the server ran (its /metrics), with the reports checked to be the same as without the cache.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, putPdf } from '../helpers/http.js';
import { encryptPdf, pdftotext, redactablePdf } from '../helpers/pdf.js';
import { comparePdf, pageLines, type ComparePageSpec } from '../helpers/compare-fixtures.js';
import { serverForSuite } from '../helpers/server.js';

// No text prefetch: it would run engine tasks in the background while the test counts them.
const server = serverForSuite({ env: { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });

const pagesOf = (n: number): ComparePageSpec[] => Array.from({ length: n }, (_, i) => ({ lines: pageLines(i + 1) }));
const upload = async (doc: string, pdf: Buffer) => {
  const reply = await putPdf(server, doc, pdf);
  assert.ok(reply.status === 201 || reply.status === 200, reply.text);
};

/** Engine tasks completed so far, from the server's /metrics. */
async function tasksDone(): Promise<number> {
  const reply = await call(server, 'GET', '/metrics');
  assert.equal(reply.status, 200, reply.text);
  const line = /^pdfservice_engine_tasks_total\{outcome="completed"\} (\d+)$/m.exec(reply.text);
  assert.ok(line, 'the completed-tasks sample');
  return Number(line[1]);
}

/** A compare's report and the engine tasks it ran. */
async function counted(doc: string, body: object): Promise<{ report: any; tasks: number }> {
  const before = await tasksDone();
  const reply = await call(server, 'POST', `/documents/${doc}/compare`, { body, headers: { accept: 'application/json' } });
  assert.equal(reply.status, 200, reply.text);
  return { report: reply.json(), tasks: (await tasksDone()) - before };
}

describe('compare: page digests and words cached by version', () => {
  test('a base compared again is not hashed again; a pair compared again hashes neither', async () => {
    const base = pagesOf(3);
    const draft1 = pagesOf(3);
    draft1[1]!.lines[2] = `${draft1[1]!.lines[2]} first`;
    const draft2 = pagesOf(3);
    draft2[2]!.lines[5] = `${draft2[2]!.lines[5]} second`;
    await upload('compare-cache/base.pdf', comparePdf(base));
    await upload('compare-cache/draft1.pdf', comparePdf(draft1));
    await upload('compare-cache/draft2.pdf', comparePdf(draft2));
    const against = { with: { filePath: 'compare-cache/base.pdf' } };

    // Nothing cached: two digest tasks, a match, the content of both unmatched pages, a rematch, one share of pairs.
    const first = await counted('compare-cache/draft1.pdf', against);
    assert.equal(first.tasks, 7);
    assert.deepEqual(first.report.pages[1].insertedWords.map((w: any) => w.text), ['first']);
    // Another draft against the same base: the base's digests come from the cache, one task fewer.
    const second = await counted('compare-cache/draft2.pdf', against);
    assert.equal(second.tasks, first.tasks - 1);
    assert.deepEqual(second.report.pages[2].insertedWords.map((w: any) => w.text), ['second']);
    assert.equal(second.report.summary.changedPages, 1);
    // The first pair again (no If-None-Match): neither is hashed, nor are the words of their changed pages extracted
    // again; the same report.
    const again = await counted('compare-cache/draft1.pdf', against);
    assert.equal(again.tasks, first.tasks - 4, 'the matches and the pairs only');
    assert.deepEqual(again.report, first.report);

    // A new version of the base is another ETag: its digests are its own, so the change on page 1 is found.
    const edited = pagesOf(3);
    edited[0]!.lines[1] = `${edited[0]!.lines[1]} later`;
    await upload('compare-cache/base.pdf', comparePdf(edited));
    const newBase = await counted('compare-cache/draft1.pdf', against);
    assert.equal(newBase.report.summary.changedPages, 2);
    assert.deepEqual(newBase.report.pages[0].deletedWords.map((w: any) => w.text), ['later']);
  });

  test('digests cached for text: false do not let text: true past an encrypted document\'s copy refusal', async () => {
    const doc = 'compare-cache/nocopy.pdf';
    await upload(doc, encryptPdf(comparePdf(pagesOf(2)), 'user-pw', 'owner-pw', '256', ['--extract=n']));
    // The document against itself: equal digests, so after them no task would read its text and meet the refusal.
    const body = (text: boolean) => ({ with: { filePath: doc, password: 'user-pw' }, text });
    const headers = { accept: 'application/json', 'x-service-documentpassword': 'user-pw' };
    const visual = await call(server, 'POST', `/documents/${doc}/compare`, { body: body(false), headers });
    assert.equal(visual.status, 200, visual.text);
    assert.equal(visual.json().identical, true);
    const refused = await call(server, 'POST', `/documents/${doc}/compare`, { body: body(true), headers });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.json().code, 'DOCUMENT_PERMISSION_DENIED');
  });

  test('a redaction that purges earlier versions drops the cached words: the next compares extract them again', async () => {
    const secret = 'compare-cache/secret.pdf';
    await upload(secret, redactablePdf(2));
    // Pages sharing enough words with the secret's ("Secret i" then "Kept i") to be paired and diffed.
    await upload('compare-cache/other.pdf', comparePdf([1, 2].map((i) => ({ lines: [`Kept ${i}`, `Public ${i}`] }))));
    const pair = { with: { filePath: 'compare-cache/other.pdf' } };
    const first = await counted(secret, pair);
    assert.ok(first.report.pages[0].insertedWords.some((w: any) => w.text === 'Secret'), JSON.stringify(first.report.pages[0]));
    const cached = await counted(secret, pair);
    assert.equal(cached.tasks, first.tasks - 4, 'digests and words cached');
    const before = (await call(server, 'GET', `/documents/${secret}/versions`, { headers: { accept: 'application/json' } })).json().versions[0].id;
    const applied = await call(server, 'POST', `/documents/${secret}`, { body: { ApplyRedactionsAction: {} } });
    assert.equal(applied.status, 200, applied.text);
    assert.equal(applied.json().versionsPurged, 1);
    // The purged version cannot be named any more.
    const gone = await call(server, 'POST', `/documents/${secret}/compare`, { body: { versionId: before, ...pair }, headers: { accept: 'application/json' } });
    assert.equal(gone.status, 404, gone.text);
    assert.equal(gone.json().code, 'VERSION_NOT_FOUND');
    // The words of every version were dropped, the other document's with them: its pages are extracted again (its
    // digests are kept), and the redacted document's text no longer has the secret.
    const after = await counted(secret, pair);
    assert.equal(after.tasks, first.tasks - 1, 'the other document not hashed again, its words extracted again');
    assert.ok(!JSON.stringify(after.report).includes('Secret'), 'no redacted word in the report');
    const redacted = await call(server, 'GET', `/documents/${secret}`, { headers: { accept: 'application/pdf' } });
    assert.doesNotMatch(pdftotext(redacted.bytes), /Secret/);
  });
});
