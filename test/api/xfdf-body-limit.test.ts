import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { call, expectUnchanged, putPdf, type Reply } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { serverForSuite, type TestServer } from '../helpers/server.js';

const LIMIT = 8192;
const XFDF = 'application/vnd.adobe.xfdf';
const FDF = 'application/vnd.fdf';

const annotationsXfdf = (contents: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots>` +
  `<square page="0" rect="100,100,200,200" name="big-note" color="#FF0000"><contents>${contents}</contents></square></annots></xfdf>`;
const fieldsXfdf = (value: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><fields><field name="comment"><value>${value}</value></field></fields></xfdf>`;
const fieldsFdf = (value: string) => `%FDF-1.2\n1 0 obj\n<< /FDF << /Fields [ << /T (comment) /V (${value}) >> ] >> >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`;

/** POSTs a body with Content-Length, or chunked (no length declared: the limit is found while the body streams in). */
async function post(server: TestServer, url: string, type: string, body: string, chunked = false): Promise<Reply> {
  if (!chunked) return call(server, 'POST', url, { body: Buffer.from(body), headers: { 'content-type': type } });
  const bytes = Buffer.from(body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 1024) controller.enqueue(bytes.subarray(i, i + 1024));
      controller.close();
    },
  });
  const response = await fetch(`${server.api}${url}`, { method: 'POST', headers: { authorization: server.adminAuth, 'content-type': type }, body: stream, duplex: 'half' } as RequestInit);
  const text = await response.text();
  return { status: response.status, headers: response.headers, bytes: Buffer.from(text), text, json: () => JSON.parse(text) };
}

describe('XFDF and FDF bodies are staged with their own size limit (PDFSERVICE_MAX_XFDF_BYTES)', () => {
  const server = serverForSuite({ env: { PDFSERVICE_MAX_XFDF_BYTES: String(LIMIT) } });

  test('an annotation import over the limit is 413 PAYLOAD_TOO_LARGE, declared or found while streaming, and the document is unchanged; one under it is imported', async () => {
    await putPdf(server, 'limit/annots.pdf', makePdf({ pages: 1, text: () => 'Hello' }));
    const big = annotationsXfdf('x'.repeat(LIMIT));
    for (const chunked of [false, true]) {
      for (const url of ['annotations/content', 'annotations']) {
        const reply = await expectUnchanged(server, 'limit/annots.pdf', () => post(server, `/documents/limit/annots.pdf/${url}`, XFDF, big, chunked), 413, 'PAYLOAD_TOO_LARGE');
        assert.match(reply.json().detail, new RegExp(String(LIMIT)));
      }
    }
    const listed = await call(server, 'GET', '/documents/limit/annots.pdf/annotations');
    assert.deepEqual(listed.json().annotations, [], 'nothing was imported');

    const contents = 'y'.repeat(LIMIT - 600);
    const fine = await post(server, '/documents/limit/annots.pdf/annotations/content', XFDF, annotationsXfdf(contents), true);
    assert.equal(fine.status, 200, fine.text);
    assert.deepEqual(fine.json().created, ['big-note']);
    const note = await call(server, 'GET', '/documents/limit/annots.pdf/annotations/big-note');
    assert.equal(note.json().subtype, 'Square');
    assert.equal(note.json().contents, contents);
  });

  test('a form data import (XFDF or FDF) over the limit is 413 and the document is unchanged; under it the value is set', async () => {
    await putPdf(server, 'limit/form.pdf', makeFormPdf());
    for (const [type, body] of [[XFDF, fieldsXfdf('z'.repeat(LIMIT))], [FDF, fieldsFdf('z'.repeat(LIMIT))]] as const) {
      for (const chunked of [false, true]) {
        await expectUnchanged(server, 'limit/form.pdf', () => post(server, '/documents/limit/form.pdf/fields/content', type, body, chunked), 413, 'PAYLOAD_TOO_LARGE');
      }
    }
    const set = await post(server, '/documents/limit/form.pdf/fields/content', FDF, fieldsFdf('Imported from a staged body'), true);
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.json().set, ['comment']);
    const fields = (await call(server, 'GET', '/documents/limit/form.pdf/fields')).json().fields as { name: string; value: unknown }[];
    assert.equal(fields.find((f) => f.name === 'comment')?.value, 'Imported from a staged body');
  });

  test('an empty body is still 400 MALFORMED_XFDF or MALFORMED_FDF, the document unchanged', async () => {
    await putPdf(server, 'limit/empty.pdf', makeFormPdf());
    await expectUnchanged(server, 'limit/empty.pdf', () => post(server, '/documents/limit/empty.pdf/annotations/content', XFDF, ''), 400, 'MALFORMED_XFDF');
    await expectUnchanged(server, 'limit/empty.pdf', () => post(server, '/documents/limit/empty.pdf/fields/content', FDF, ''), 400, 'MALFORMED_FDF');
  });
});
