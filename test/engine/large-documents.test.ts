/**
 * Documents over 16 MB reach the engine as their stored file, held open,
 * rather than as bytes (operations/documents.ts engineSource). These tests
 * make each fixture large by appending an incremental update that holds one
 * unreferenced 17 MB stream, so the large and the small document have the
 * same pages, annotations, fields and text, and compare what the service
 * answers for both.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { everySubtypeFixture } from '../helpers/annotated-pdf.js';
import { call, expectUnchanged, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { makePdf, paddedPdf as padded } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeKeyStores, pdfsig, STORE_PASSWORD, type KeyStores } from '../helpers/signing.js';

const MiB = 1024 * 1024;
const LIMIT = 40 * MiB;

let server: TestServer;
let keys: KeyStores;
before(async () => {
  keys = makeKeyStores();
  server = await startServer({ env: { PDFSERVICE_MAX_UPLOAD_BYTES: String(LIMIT) } });
});
after(async () => {
  await server.stop();
});

const json = { accept: 'application/json' };
const get = (doc: string, suffix: string, accept = 'application/json') => call(server, 'GET', `/documents/${doc}${suffix}`, { headers: { accept } });

async function stored(doc: string, pdf: Buffer): Promise<Reply> {
  const put = await putPdf(server, doc, pdf);
  assert.ok(put.status === 201 || put.status === 200, put.text);
  return put;
}

/** What the service answers for a document, for the reads a large document takes the file path for. */
async function reads(doc: string): Promise<Record<string, string>> {
  const answers: Record<string, string> = {};
  const ask = async (name: string, suffix: string, accept?: string) => {
    const reply = await get(doc, suffix, accept);
    assert.equal(reply.status, 200, `${name}: ${reply.text}`);
    answers[name] = reply.text;
  };
  await ask('annotations', '/annotations');
  await ask('xfdf', '/annotations/content', 'application/vnd.adobe.xfdf');
  await ask('text', '/text', 'text/plain');
  await ask('page text with words', '/pages/1/text?detail=words');
  await ask('pages', '/pages');
  await ask('fields', '/fields');
  await ask('signature fields', '/fields/signature-fields');
  await ask('permissions', '/permissions');
  const image = await call(server, 'GET', `/documents/${doc}/pages/0/image?dpi=36`);
  assert.equal(image.status, 200, image.text);
  answers['page image'] = sha256(image.bytes);
  return answers;
}

describe('documents over 16 MB, read from their file', () => {
  test('answer the same annotations, text, pages, fields and permissions as the same document read as bytes', async () => {
    for (const [name, small] of [['annotated', everySubtypeFixture().pdf], ['text', makePdf({ pages: 3, text: (p) => `Page ${p + 1} of the large document test` })]] as const) {
      const large = padded(small);
      assert.ok(large.length > 16 * MiB);
      // One name in two folders: the XFDF names the document's file.
      const smallModel = (await stored(`small/${name}.pdf`, small)).json();
      const largeModel = (await stored(`large/${name}.pdf`, large)).json();
      assert.equal(largeModel.size, large.length);
      assert.equal(largeModel.pageCount, smallModel.pageCount);
      assert.deepEqual(await reads(`large/${name}.pdf`), await reads(`small/${name}.pdf`), `${name}: the same answers`);
      const download = await call(server, 'GET', `/documents/large/${name}.pdf`);
      assert.equal(download.status, 200);
      assert.equal(sha256(download.bytes), sha256(large), 'downloaded byte-identical');
    }
  });

  test('a signed large document is edited by appending to its stored bytes, and can be signed again', async () => {
    const doc = 'large/signed.pdf';
    await stored('large/signed-small.pdf', makePdf({ pages: 1 }));
    const field = (target: string, name: string, x: number) =>
      call(server, 'PUT', `/documents/${target}/fields/signature-fields/${name}`, { body: { widget: [{ pageIndex: 0, rectangle: { x, y: 100, width: 150, height: 40 } }] }, headers: json });
    const sign = (target: string, name: string) => {
      const form = new FormData();
      form.append('signature', new Blob([JSON.stringify({ keystorePassword: STORE_PASSWORD })], { type: 'application/json' }), 'signature.json');
      form.append('file', new Blob([new Uint8Array(keys.aes)], { type: 'application/x-pkcs12' }), 'signer.p12');
      return call(server, 'POST', `/documents/${target}/fields/signature-fields/${name}/signature`, { body: form, headers: json });
    };
    assert.equal((await field('large/signed-small.pdf', 'First', 50)).status, 201);
    assert.equal((await sign('large/signed-small.pdf', 'First')).status, 200);
    const large = padded(await storedBytes(server, 'large/signed-small.pdf'));
    await stored(doc, large);

    // An edit of a signed document is an incremental update: the stored bytes, then the change.
    const created = await field(doc, 'Second', 300);
    assert.equal(created.status, 201, created.text);
    const edited = await storedBytes(server, doc);
    assert.ok(edited.length > large.length);
    assert.equal(sha256(edited.subarray(0, large.length)), sha256(large), 'the edit was appended to the stored bytes');

    const signed = await sign(doc, 'Second');
    assert.equal(signed.status, 200, signed.text);
    const after = await storedBytes(server, doc);
    assert.equal(sha256(after.subarray(0, edited.length)), sha256(edited), 'the signature was appended');
    const list = (await get(doc, '/fields/signature-fields')).json().signatureFields;
    assert.deepEqual(list.map((f: { name: string; signed: boolean }) => [f.name, f.signed]), [['First', true], ['Second', true]]);
    assert.equal(list[1].signature.coversWholeFile, true);
    const last = pdfsig(after).filter((s) => s.validation !== undefined).pop();
    assert.equal(last?.validation, 'Signature is Valid.', JSON.stringify(last));
  });

  test('a large upload that is not a PDF that opens is refused with 422 and changes nothing', async () => {
    const doc = 'large/kept.pdf';
    await stored(doc, padded(makePdf({ pages: 2 })));
    const damaged = Buffer.alloc(18 * MiB, 'garbage ');
    damaged.write('%PDF-1.7\n', 0, 'latin1');
    const notPdf = Buffer.alloc(18 * MiB, 'not a pdf ');
    for (const body of [damaged, notPdf]) {
      await expectUnchanged(server, doc, () => putPdf(server, doc, body), 422, 'MALFORMED_PDF');
    }
    assert.deepEqual(await readdir(path.join(server.dataDir, 'staging')), [], 'no staged upload is left behind');
  });

  test('an upload over the limit is refused with 413 and changes nothing', async () => {
    const doc = 'large/limit.pdf';
    await stored(doc, makePdf({ pages: 1 }));
    const tooLarge = padded(makePdf({ pages: 1 }), LIMIT);
    await expectUnchanged(server, doc, () => putPdf(server, doc, tooLarge), 413, 'PAYLOAD_TOO_LARGE');
    assert.deepEqual(await readdir(path.join(server.dataDir, 'staging')), [], 'no staged upload is left behind');
  });
});
