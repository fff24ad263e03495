import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { call, expectUnchanged, putPdf, storedBytes } from '../helpers/http.js';
import { makePdf, pdfinfo, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { ADMIN, serverForSuite } from '../helpers/server.js';
import { makeKeyStores, pdfsig, STORE_PASSWORD } from '../helpers/signing.js';

/**
 * JSON parts of multipart requests, sent the three ways curl sends them (as
 * the README does): a typed field (-F 'x={..};type=application/json'), a plain
 * field (-F 'x={..}') and a file part (-F 'x=@x.json'). Each must be read the
 * same by every route that takes one.
 */
const server = serverForSuite();
const run = promisify(execFile);
let dir: string;
let p12: string;
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-multipart-'));
  p12 = path.join(dir, 'signer.p12');
  writeFileSync(p12, makeKeyStores().aes);
});
after(() => rmSync(dir, { recursive: true, force: true }));

type Form = 'typed' | 'plain' | 'file';
const FORMS: Form[] = ['typed', 'plain', 'file'];

/** curl's -F argument for a JSON part in one of the three forms. */
function jsonPart(name: string, value: unknown, form: Form): string {
  const text = JSON.stringify(value);
  if (form === 'file') {
    const file = path.join(dir, `${name}-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, text);
    return `${name}=@${file};type=application/json`;
  }
  return form === 'typed' ? `${name}=${text};type=application/json` : `${name}=${text}`;
}

/** POSTs a multipart body with curl itself; answers the status and the body. */
async function curlForm(urlPath: string, parts: string[]): Promise<{ status: number; body: any }> {
  const args = ['-sS', '-u', `${ADMIN.username}:${ADMIN.password}`, '-H', 'Accept: application/json', '-w', '\n%{http_code}'];
  for (const p of parts) args.push('-F', p);
  const { stdout } = await run('curl', [...args, `${server.api}${urlPath}`]);
  const cut = stdout.lastIndexOf('\n');
  const text = stdout.slice(0, cut);
  return { status: Number(stdout.slice(cut + 1)), body: text ? JSON.parse(text) : undefined };
}

describe('JSON parts of multipart requests', () => {
  for (const form of FORMS) {
    test(`annotation part as a ${form} part: a FileAttachment is added with the file`, async () => {
      const doc = `mp/annot-${form}.pdf`;
      await putPdf(server, doc, makePdf());
      const attachment = path.join(dir, `notes-${form}.txt`);
      writeFileSync(attachment, `attached ${form}`);
      const placement = { subtype: 'FileAttachment', pageIndex: 0, rectangle: { x: 20, y: 20, width: 16, height: 16 }, contents: `sent as ${form}` };
      const reply = await curlForm(`/documents/${doc}/annotations`, [jsonPart('annotation', placement, form), `file=@${attachment};type=text/plain`]);
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assert.equal(reply.body.subtype, 'FileAttachment');
      const list = await call(server, 'GET', `/documents/${doc}/annotations`, { headers: { accept: 'application/json' } });
      const found = (list.json().annotations as Array<{ subtype: string; contents?: string }>).filter((a) => a.subtype === 'FileAttachment');
      assert.deepEqual(found.map((a) => a.contents), [`sent as ${form}`]);
      assert.ok(qpdfCheck(await storedBytes(server, doc)).ok);
    });

    test(`pageAction/action part as a ${form} part: the page action runs`, async () => {
      const doc = `mp/rotate-${form}.pdf`;
      await putPdf(server, doc, makePdf({ pages: 2 }));
      const name = form === 'plain' ? 'action' : 'pageAction';
      const reply = await curlForm(`/documents/${doc}/pages`, [jsonPart(name, { RotatePagesAction: { rotation: 90, pageRange: '1' } }, form)]);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(pdfinfo(await storedBytes(server, doc))['Page rot'], '90');
    });

    test(`action part as a ${form} part on the document URL: CopyAction writes the copy`, async () => {
      const doc = `mp/copy-${form}.pdf`;
      await putPdf(server, doc, makePdf({ text: () => `copy ${form}` }));
      const reply = await curlForm(`/documents/${doc}`, [jsonPart('action', { CopyAction: { savePath: `mp/copied-${form}.pdf` } }, form)]);
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assert.match(pdftotext(await storedBytes(server, `mp/copied-${form}.pdf`)), new RegExp(`copy ${form}`));
    });

    test(`signature part as a ${form} part: the field is signed and verifies`, async () => {
      const doc = `mp/sign-${form}.pdf`;
      await putPdf(server, doc, makeFormPdf());
      const field = `/documents/${doc}/fields/signature-fields/approval`;
      const created = await call(server, 'PUT', field, { body: { widget: [{ pageIndex: 0, rectangle: { x: 100, y: 100, width: 200, height: 50 } }] } });
      assert.equal(created.status, 201, created.text);
      const reply = await curlForm(`${field}/signature`, [jsonPart('signature', { keystorePassword: STORE_PASSWORD, signReason: `sent as ${form}` }, form), `file=@${p12};type=application/x-pkcs12`]);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const sigs = pdfsig(await storedBytes(server, doc)).filter((s) => s.validation !== undefined);
      assert.equal(sigs.length, 1, JSON.stringify(sigs));
      assert.equal(sigs[0]!.validation, 'Signature is Valid.');
    });
  }

  test('a typed JSON part that is not JSON is 400 MALFORMED_JSON; the document is unchanged', async () => {
    const doc = 'mp/broken.pdf';
    await putPdf(server, doc, makePdf());
    await expectUnchanged(server, doc, async () => {
      const reply = await curlForm(`/documents/${doc}/pages`, ['pageAction={"RotatePagesAction":;type=application/json']);
      return { status: reply.status, json: () => reply.body, text: JSON.stringify(reply.body), headers: new Headers(), bytes: Buffer.alloc(0) };
    }, 400, 'MALFORMED_JSON');
  });

  test('a JSON part is JSON: its values are not coerced ("90" for an integer is 400 VALIDATION_FAILED)', async () => {
    const doc = 'mp/strict.pdf';
    await putPdf(server, doc, makePdf());
    for (const form of FORMS) {
      await expectUnchanged(server, doc, async () => {
        const reply = await curlForm(`/documents/${doc}/pages`, [jsonPart('pageAction', { RotatePagesAction: { rotation: '90' } }, form)]);
        assert.match(reply.body.detail, /rotation/);
        return { status: reply.status, json: () => reply.body, text: JSON.stringify(reply.body), headers: new Headers(), bytes: Buffer.alloc(0) };
      }, 400, 'VALIDATION_FAILED');
    }
  });
});

describe('multipart part limits (docs/api.md: at most 10 files and 30 parts)', () => {
  test('30 parts are read; a 31st is 413 PAYLOAD_TOO_LARGE and the document is unchanged', async () => {
    const doc = 'mp/limits.pdf';
    await putPdf(server, doc, makePdf());
    const form = (extra: number) => {
      const f = new FormData();
      f.append('pageAction', JSON.stringify({ RotatePagesAction: { rotation: 90 } }));
      for (let i = 0; i < extra; i++) f.append(`note${i}`, `text ${i}`);
      return f;
    };
    const ok = await call(server, 'POST', `/documents/${doc}/pages`, { body: form(29), headers: { accept: 'application/json' } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(pdfinfo(await storedBytes(server, doc))['Page rot'], '90');
    await expectUnchanged(server, doc, () => call(server, 'POST', `/documents/${doc}/pages`, { body: form(30), headers: { accept: 'application/json' } }), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('multipart part names (docs/api.md "Limits")', () => {
  test('an unknown part is ignored; a part named __proto__ or constructor is 400 BAD_REQUEST and nothing is stored', async () => {
    const upload = (extra: [string, string][], name: string) => {
      const f = new FormData();
      for (const [k, v] of extra) f.append(k, v);
      f.append('file', new Blob([new Uint8Array(makePdf())], { type: 'application/pdf' }), name);
      return call(server, 'POST', '/documents/mp-names?namingMode=0', { body: f, headers: { accept: 'application/json' } });
    };
    assert.equal((await call(server, 'PUT', '/documents/mp-names')).status, 201);
    const ok = await upload([['ùãd', '-24871'], ['comment', 'ignored']], 'kept.pdf');
    assert.equal(ok.status, 201, ok.text);
    assert.ok(qpdfCheck(await storedBytes(server, 'mp-names/kept.pdf')).ok);
    for (const refused of ['__proto__', 'constructor', 'toString']) {
      const reply = await upload([[refused, '[]']], `${refused}.pdf`);
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.json().code, 'BAD_REQUEST');
      assert.match(reply.json().detail, /Object\.prototype/);
      const listing = await call(server, 'GET', '/documents/mp-names', { headers: { accept: 'application/json' } });
      assert.doesNotMatch(listing.text, new RegExp(`${refused}\\.pdf`));
    }
    const spec = (await call(server, 'GET', '/openapi.json')).json();
    const schema = spec.paths['/pdfservice/v1/documents/{folderPath}'].post.requestBody.content['multipart/form-data'].schema;
    const allowed = new RegExp(schema.propertyNames.pattern);
    for (const refused of ['__proto__', 'constructor', 'toString']) assert.equal(allowed.test(refused), false, refused);
    for (const known of ['file', 'ùãd', '__proto__x']) assert.equal(allowed.test(known), true, known);
  });
});
