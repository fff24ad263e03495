import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { call, expectUnchanged, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { encryptPdf, makePdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { QpdfDocument } from '../helpers/qpdf-json.js';
import { serverForSuite } from '../helpers/server.js';
import { makeKeyStores, opensslCertificateSubjects, pdfsig, signatureValue, STORE_PASSWORD, type KeyStores } from '../helpers/signing.js';

const server = serverForSuite();
let keys: KeyStores;
before(() => {
  keys = makeKeyStores();
});

const json = { accept: 'application/json' };
const fieldUrl = (doc: string, name: string) => `/documents/${doc}/fields/signature-fields/${encodeURIComponent(name)}`;
const createField = (doc: string, name: string, body: object, headers: Record<string, string> = {}) =>
  call(server, 'PUT', fieldUrl(doc, name), { body, headers: { ...json, ...headers } });
const listFields = (doc: string, headers: Record<string, string> = {}) => call(server, 'GET', `/documents/${doc}/fields/signature-fields`, { headers: { ...json, ...headers } });

interface SignOptions {
  keyStore?: Buffer;
  params?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Part names other than file/signature, to check the fallback. */
  partNames?: [string, string];
  query?: string;
}

function sign(doc: string, name: string, options: SignOptions = {}): Promise<Reply> {
  const form = new FormData();
  const [fileName, jsonName] = options.partNames ?? ['file', 'signature'];
  form.append(jsonName, new Blob([JSON.stringify({ keystorePassword: STORE_PASSWORD, ...(options.params ?? {}) })], { type: 'application/json' }), 'signature.json');
  form.append(fileName, new Blob([new Uint8Array(options.keyStore ?? keys.aes)], { type: 'application/x-pkcs12' }), 'signer.p12');
  return call(server, 'POST', `${fieldUrl(doc, name)}/signature${options.query ?? ''}`, { body: form, headers: { ...json, ...(options.headers ?? {}) } });
}

/** Every signature pdfsig finds is "Signature is Valid.", and there are `count` of them. */
function assertAllValid(bytes: Buffer, count: number, password?: string): void {
  // pdfsig also lists unsigned signature fields, without a validation line.
  const sigs = pdfsig(bytes, password).filter((s) => s.validation !== undefined);
  assert.equal(sigs.length, count, `pdfsig finds ${count} signature(s): ${JSON.stringify(sigs)}`);
  for (const s of sigs) assert.equal(s.validation, 'Signature is Valid.', `pdfsig: ${JSON.stringify(s)}`);
  const check = qpdfCheck(bytes);
  if (!password) assert.ok(check.ok, check.output);
}

const unchanged = (doc: string, request: () => Promise<Reply>, status: number, code: string) => expectUnchanged(server, doc, request, status, code);

/** The /P of the DocMDP transform /Perms names, read by qpdf. */
function docMdpLevel(bytes: Buffer, password?: string): number | undefined {
  const q = new QpdfDocument(bytes, password);
  const perms = q.get(q.catalog(), '/Perms') as Record<string, unknown> | undefined;
  if (!perms) return undefined;
  const sig = q.get(perms, '/DocMDP') as Record<string, unknown>;
  const refs = q.get(sig, '/Reference') as unknown[];
  const ref = q.resolve(refs[0]) as Record<string, unknown>;
  const params = q.get(ref, '/TransformParams') as Record<string, unknown>;
  return q.get(params, '/P') as number;
}

const WIDGET = { widget: [{ pageIndex: 0, rectangle: { x: 100, y: 100, width: 200, height: 50 } }] };

describe('signature fields', () => {
  test('PUT creates an empty field (visible, several widgets, or invisible); a taken name is 409; GET lists and reads them', async () => {
    const doc = 'sign/fields.pdf';
    await putPdf(server, doc, makeFormPdf());
    const created = await createField(doc, 'approval', WIDGET);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.get('location'), `/pdfservice/v1/documents/sign/fields.pdf/fields/signature-fields/approval`);
    assert.deepEqual(created.json(), { name: 'approval', widgets: [{ pageIndex: 0, rectangle: { x: 100, y: 100, width: 200, height: 50 } }], visible: true, signed: false });
    assert.ok(qpdfCheck(await storedBytes(server, doc)).ok);

    const two = await createField(doc, 'twice', { widget: [{ pageIndex: 0, rectangle: { x: 10, y: 10, width: 50, height: 20 } }, { pageIndex: 0, rectangle: { x: 300, y: 10, width: 50, height: 20 } }] });
    assert.equal(two.status, 201, two.text);
    assert.equal(two.json().widgets.length, 2);
    const invisible = await createField(doc, 'hidden', { widget: [] });
    assert.equal(invisible.status, 201, invisible.text);
    assert.equal(invisible.json().visible, false);

    await unchanged(doc, () => createField(doc, 'approval', WIDGET), 409, 'FIELD_EXISTS');
    await unchanged(doc, () => createField(doc, 'comment', WIDGET), 409, 'FIELD_EXISTS');
    await unchanged(doc, () => createField(doc, 'new', { widget: [{ pageIndex: 5, rectangle: { x: 0, y: 0, width: 10, height: 10 } }] }), 400, 'PAGE_OUT_OF_RANGE');
    await unchanged(doc, () => createField(doc, 'a.b', WIDGET), 400, 'VALIDATION_FAILED');

    const list = (await listFields(doc)).json();
    assert.deepEqual(list.signatureFields.map((f: any) => f.name), ['sig', 'approval', 'twice', 'hidden']);
    const one = await call(server, 'GET', fieldUrl(doc, 'approval'), { headers: json });
    assert.equal(one.status, 200);
    assert.equal(one.json().name, 'approval');
    assert.equal((await call(server, 'GET', fieldUrl(doc, 'nope'), { headers: json })).json().code, 'FIELD_NOT_FOUND');
    assert.equal((await call(server, 'GET', fieldUrl(doc, 'comment'), { headers: json })).status, 404);
    const xml = await call(server, 'GET', `/documents/${doc}/fields/signature-fields`, { headers: { accept: 'application/xml' } });
    assert.match(xml.text, /<SignatureFields>\s*<signatureField>\s*<name>sig<\/name>/);
    // The fields resource lists them too, as signature fields.
    const fields = (await call(server, 'GET', `/documents/${doc}/fields`, { headers: json })).json();
    assert.equal(fields.fields.find((f: any) => f.name === 'approval').type, 'signature');
  });

  test('an XML body with one <widget> makes a field with that widget, as the description shows it (XML has no list of one; found by the conformance run)', async () => {
    const doc = 'sign/xml-fields.pdf';
    await putPdf(server, doc, makeFormPdf());
    const widget = (x: number) => `<widget><pageIndex>0</pageIndex><rectangle><x>${x}</x><y>100</y><width>200</width><height>50</height></rectangle></widget>`;
    const xml = { 'content-type': 'application/xml', accept: 'application/json' };
    const one = await call(server, 'PUT', fieldUrl(doc, 'single'), { body: Buffer.from(`<SignatureField>${widget(100)}</SignatureField>`), headers: xml });
    assert.equal(one.status, 201, one.text);
    assert.deepEqual(one.json().widgets, [{ pageIndex: 0, rectangle: { x: 100, y: 100, width: 200, height: 50 } }]);
    const two = await call(server, 'PUT', fieldUrl(doc, 'double'), { body: Buffer.from(`<SignatureField>${widget(10)}${widget(300)}</SignatureField>`), headers: xml });
    assert.equal(two.status, 201, two.text);
    assert.equal(two.json().widgets.length, 2);
  });

  test('DELETE removes an unsigned field with its widgets', async () => {
    const doc = 'sign/delete-unsigned.pdf';
    await putPdf(server, doc, makePdf());
    await createField(doc, 'a', WIDGET);
    assert.equal((await call(server, 'DELETE', fieldUrl(doc, 'a'))).status, 204);
    assert.deepEqual((await listFields(doc)).json().signatureFields, []);
    const q = new QpdfDocument(await storedBytes(server, doc));
    const page = q.resolve(q.pages[0]) as Record<string, unknown>;
    assert.equal(((q.get(page, '/Annots') as unknown[] | undefined) ?? []).length, 0, 'the widget left the page');
    await unchanged(doc, () => call(server, 'DELETE', fieldUrl(doc, 'a')), 404, 'FIELD_NOT_FOUND');
  });
});

describe('signing', () => {
  test('an approval signature (AES-256 key store): pdfsig finds it valid; the field shows signer, date and reason; the chain is embedded', async () => {
    const doc = 'sign/approval.pdf';
    await putPdf(server, doc, makePdf({ pages: 2 }));
    await createField(doc, 'approval', WIDGET);
    const before = await storedBytes(server, doc);
    const reply = await sign(doc, 'approval', { params: { signReason: 'I approve this document', signLocation: 'Berlin', signContactInformation: 'jane@example.org' } });
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json();
    assert.equal(model.signed, true);
    const s = model.signature;
    assert.equal(s.integrity, true, s.integrityReason);
    assert.equal(s.signer, 'CN=Jane Signer, O=Example');
    assert.equal(s.reason, 'I approve this document');
    assert.equal(s.location, 'Berlin');
    assert.equal(s.contactInfo, 'jane@example.org');
    assert.equal(s.subFilter, 'adbe.pkcs7.detached');
    assert.equal(s.certification, false);
    assert.equal(s.coversWholeFile, true);
    assert.ok(Math.abs(Date.parse(s.signingTime) - Date.now()) < 120_000, s.signingTime);
    assert.deepEqual(s.certificates.map((c: any) => c.subject), ['CN=Jane Signer, O=Example', 'CN=Test CA, O=pdfservice tests']);

    const after = await storedBytes(server, doc);
    assert.ok(after.subarray(0, before.length).equals(before), 'an incremental update: the earlier bytes are untouched');
    assertAllValid(after, 1);
    const [sig] = pdfsig(after);
    assert.equal(sig!.field, 'approval');
    assert.equal(sig!.commonName, 'Jane Signer');
    assert.equal(sig!.total, true);
    // openssl reads the embedded chain: signer and CA.
    const subjects = opensslCertificateSubjects(signatureValue(after, s.byteRange));
    assert.equal(subjects.length, 2, subjects.join('\n'));
    assert.ok(subjects.some((l) => l.includes('Test CA')));
    // The appearance (drawn text, extracted by poppler) shows who, when and why.
    const text = pdftotext(after);
    assert.match(text, /Digitally signed by Jane Signer/);
    assert.match(text, /Reason: I approve this document/);
    assert.match(text, /Date: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);

    // GET computes the same verdict; a byte flipped inside the signed range turns it false.
    const listed = (await listFields(doc)).json().signatureFields[0].signature;
    assert.equal(listed.integrity, true);
    const flipped = Buffer.from(after);
    flipped[200] = flipped[200]! ^ 0x01;
    await putPdf(server, 'sign/flipped.pdf', flipped);
    const broken = (await listFields('sign/flipped.pdf')).json().signatureFields[0].signature;
    assert.equal(broken.integrity, false);
    assert.match(broken.integrityReason, /digest/);
    assert.notEqual(pdfsig(flipped)[0]!.validation, 'Signature is Valid.', 'pdfsig agrees');

    await unchanged(doc, () => sign(doc, 'approval'), 409, 'FIELD_SIGNED');
  });

  test('3DES and legacy (RC2/3DES) key stores, EC keys, and the PAdES subfilter are valid per pdfsig', async () => {
    const doc = 'sign/variants.pdf';
    await putPdf(server, doc, makePdf());
    for (const [name, keyStore, subFilter] of [['des', keys.des, 'adbe.pkcs7.detached'], ['legacy', keys.legacy, 'ETSI.CAdES.detached'], ['ec', keys.ec, 'ETSI.CAdES.detached']] as const) {
      await createField(doc, name, { widget: [{ pageIndex: 0, rectangle: { x: 50, y: 50 + 80 * ['des', 'legacy', 'ec'].indexOf(name), width: 180, height: 60 } }] });
      const reply = await sign(doc, name, { keyStore, params: { subFilter } });
      assert.equal(reply.status, 200, `${name}: ${reply.text}`);
      assert.equal(reply.json().signature.subFilter, subFilter);
      if (subFilter === 'ETSI.CAdES.detached') assert.equal(reply.json().signature.signingCertificateAttribute, true);
    }
    const bytes = await storedBytes(server, doc);
    assertAllValid(bytes, 3);
    assert.deepEqual(pdfsig(bytes).map((s) => s.type), ['adbe.pkcs7.detached', 'ETSI.CAdES.detached', 'ETSI.CAdES.detached']);
    const list = (await listFields(doc)).json().signatureFields;
    assert.deepEqual(list.map((f: any) => f.signature.integrity), [true, true, true]);
    assert.deepEqual(list.map((f: any) => f.signature.coversWholeFile), [false, false, true], 'only the last signature reaches the end of the file');
  });

  test('certification level 2, then a field filled and an approval signature: both stay valid; certifying again, or after a signature, is 409', async () => {
    const doc = 'sign/certified.pdf';
    await putPdf(server, doc, makeFormPdf());
    const certified = await sign(doc, 'sig', { params: { certifyingSignature: true, certifyingPermissions: 2, signReason: 'Certified' } });
    assert.equal(certified.status, 200, certified.text);
    assert.equal(certified.json().signature.certification, true);
    assert.equal(certified.json().signature.certificationLevel, 2);
    assert.equal(docMdpLevel(await storedBytes(server, doc)), 2, 'qpdf reads /Perms /DocMDP with /P 2');
    assertAllValid(await storedBytes(server, doc), 1);

    const filled = await call(server, 'PUT', `/documents/${doc}/fields/comment`, { body: { value: 'Filled after certification' }, headers: json });
    assert.equal(filled.status, 200, filled.text);
    await createField(doc, 'approval', WIDGET);
    const approval = await sign(doc, 'approval', { keyStore: keys.des });
    assert.equal(approval.status, 200, approval.text);
    const bytes = await storedBytes(server, doc);
    assertAllValid(bytes, 2);
    const list = (await listFields(doc)).json().signatureFields;
    assert.deepEqual(list.map((f: any) => [f.name, f.signature.integrity, f.signature.certification]), [['sig', true, true], ['approval', true, false]]);

    await createField(doc, 'late', WIDGET);
    await unchanged(doc, () => sign(doc, 'late', { params: { certifyingSignature: true } }), 409, 'CERTIFICATION_NOT_FIRST');
    const permissions = (await call(server, 'GET', `/documents/${doc}/permissions`, { headers: json })).json();
    assert.deepEqual(permissions.certification, { certified: true, level: 2 });
  });

  test('a certification that allows no changes (level 1) refuses further signatures and fields', async () => {
    const doc = 'sign/locked.pdf';
    await putPdf(server, doc, makePdf());
    await createField(doc, 'cert', WIDGET);
    await createField(doc, 'second', { widget: [] });
    const reply = await sign(doc, 'cert', { params: { certifyingSignature: true, certifyingPermissions: 1 } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(docMdpLevel(await storedBytes(server, doc)), 1);
    await unchanged(doc, () => sign(doc, 'second'), 409, 'DOCUMENT_CERTIFIED');
    await unchanged(doc, () => createField(doc, 'third', WIDGET), 409, 'DOCUMENT_CERTIFIED');
    await unchanged(doc, () => call(server, 'DELETE', fieldUrl(doc, 'second')), 409, 'DOCUMENT_CERTIFIED');
  });

  test('a field that does not exist: 404, or an invisible one with createField', async () => {
    const doc = 'sign/create.pdf';
    await putPdf(server, doc, makePdf());
    await unchanged(doc, () => sign(doc, 'Signature1'), 404, 'FIELD_NOT_FOUND');
    const reply = await sign(doc, 'Signature1', { params: { createField: true } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json().visible, false);
    const query = await sign(doc, 'Signature2', { query: '?createField=true', keyStore: keys.legacy });
    assert.equal(query.status, 200, query.text);
    assertAllValid(await storedBytes(server, doc), 2);
  });

  test('an encrypted document is signed with the password from the header and stays encrypted', async () => {
    const doc = 'sign/encrypted.pdf';
    await putPdf(server, doc, encryptPdf(makePdf(), 'user-pw', 'owner-pw'));
    await unchanged(doc, () => sign(doc, 'S', { params: { createField: true } }), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    const created = await createField(doc, 'S', WIDGET, { 'x-service-documentpassword': 'user-pw' });
    assert.equal(created.status, 201, created.text);
    const reply = await sign(doc, 'S', { headers: { 'x-service-documentpassword': 'user-pw' }, params: { signReason: 'Encrypted' } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json().signature.integrity, true);
    assert.equal(reply.json().signature.reason, 'Encrypted');
    const bytes = await storedBytes(server, doc);
    assertAllValid(bytes, 1, 'user-pw');
    const check = qpdfCheck(bytes);
    assert.match(check.output, /password|encrypt/i, 'qpdf sees it encrypted');
    assert.match(pdftotext(bytes, 'user-pw'), /Digitally signed by Jane Signer/);
    const list = (await listFields(doc, { 'x-service-documentpassword': 'user-pw' })).json();
    assert.equal(list.signatureFields[0].signature.integrity, true);
  });

  test('bad key stores and requests: 400 with the code, nothing written; the key store and its password reach neither disk nor log', async () => {
    const doc = 'sign/bad.pdf';
    await putPdf(server, doc, makePdf());
    await createField(doc, 'S', WIDGET);
    await unchanged(doc, () => sign(doc, 'S', { params: { keystorePassword: 'wrong' } }), 400, 'KEYSTORE_PASSWORD_INVALID');
    await unchanged(doc, () => sign(doc, 'S', { keyStore: keys.legacy, params: { keystorePassword: 'wrong' } }), 400, 'KEYSTORE_PASSWORD_INVALID');
    const alias = await unchanged(doc, () => sign(doc, 'S', { params: { keyAlias: 'john' } }), 400, 'KEYSTORE_ALIAS_NOT_FOUND');
    assert.deepEqual(alias.json().aliases, ['jane']);
    assert.match(alias.json().detail, /jane/);
    await unchanged(doc, () => sign(doc, 'S', { keyStore: keys.noKey }), 400, 'KEYSTORE_NO_PRIVATE_KEY');
    await unchanged(doc, () => sign(doc, 'S', { keyStore: makePdf() }), 400, 'KEYSTORE_INVALID');
    await unchanged(doc, () => sign(doc, 'S', { params: { certifyingPermissions: 4 } }), 400, 'VALIDATION_FAILED');
    await unchanged(doc, () => sign(doc, 'S', { params: { unknown: 1 } }), 400, 'VALIDATION_FAILED');
    const noJson = new FormData();
    noJson.append('file', new Blob([new Uint8Array(keys.aes)]), 'a.p12');
    await unchanged(doc, () => call(server, 'POST', `${fieldUrl(doc, 'S')}/signature`, { body: noJson, headers: json }), 400, 'MALFORMED_MULTIPART');

    // Parts named otherwise: the one JSON part and the one other file part are taken.
    const other = await sign(doc, 'S', { partNames: ['keystore', 'params'], params: { keyAlias: 'jane' } });
    assert.equal(other.status, 200, other.text);

    const logs = server.output.join('\n');
    assert.ok(!logs.includes(STORE_PASSWORD), 'the key store password is not logged');
    const marker = keys.aes.subarray(keys.aes.length - 64);
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((e) => (statSync(path.join(dir, e)).isDirectory() ? walk(path.join(dir, e)) : [path.join(dir, e)]));
    for (const file of walk(server.dataDir)) assert.ok(!readFileSync(file).includes(marker), `no key store bytes in ${path.relative(server.dataDir, file)}`);
  });

  test('DELETE of a signed field clears its signature; the other signatures stay valid', async () => {
    const doc = 'sign/clear.pdf';
    await putPdf(server, doc, makePdf());
    await createField(doc, 'first', WIDGET);
    await createField(doc, 'second', { widget: [{ pageIndex: 0, rectangle: { x: 100, y: 300, width: 200, height: 50 } }] });
    await sign(doc, 'first', { params: { certifyingSignature: true, certifyingPermissions: 3 } });
    await sign(doc, 'second');
    assert.equal((await call(server, 'DELETE', fieldUrl(doc, 'second'))).status, 204);
    let list = (await listFields(doc)).json().signatureFields;
    assert.deepEqual(list.map((f: any) => [f.name, f.signed]), [['first', true], ['second', false]]);
    assertAllValid(await storedBytes(server, doc), 1);
    // Clearing the certifying signature withdraws the certification.
    assert.equal((await call(server, 'DELETE', fieldUrl(doc, 'first'))).status, 204);
    list = (await listFields(doc)).json().signatureFields;
    assert.deepEqual(list.map((f: any) => f.signed), [false, false]);
    assert.equal(docMdpLevel(await storedBytes(server, doc)), undefined);
    assert.equal(pdfsig(await storedBytes(server, doc)).filter((s) => s.validation).length, 0);
    assert.ok(qpdfCheck(await storedBytes(server, doc)).ok);
  });
});

describe('other operations on a signed document', () => {
  const source = 'sign/ops-source.pdf';
  before(async () => {
    await putPdf(server, source, makeFormPdf());
    // A page 2 without the signature, and a Redact annotation to apply.
    await call(server, 'POST', `/documents/${source}/pages`, { body: { NewPageAction: {} }, headers: json });
    await call(server, 'POST', `/documents/${source}/pages`, { body: { TextStampAction: { text: 'Confidential', x: 72, y: 700, pageIndex: 1 } }, headers: json });
    const marked = await call(server, 'POST', `/documents/${source}/annotations/redaction`, { body: { searchText: 'Confidential' }, headers: json });
    assert.ok(marked.status < 300, marked.text);
    const reply = await sign(source, 'sig', { params: { certifyingSignature: true, certifyingPermissions: 3 } });
    assert.equal(reply.status, 200, reply.text);
  });

  let copies = 0;
  async function copy(): Promise<string> {
    const target = `sign/ops-${++copies}.pdf`;
    const reply = await call(server, 'POST', `/documents/${source}`, { body: { CopyAction: { savePath: target } }, headers: json });
    assert.equal(reply.status, 201, reply.text);
    return target;
  }

  const appended: [string, (doc: string) => Promise<Reply>][] = [
    ['TextStampAction', (doc) => call(server, 'POST', `/documents/${doc}/pages`, { body: { TextStampAction: { text: 'COPY', x: 100, y: 500 } }, headers: json })],
    ['RotatePagesAction', (doc) => call(server, 'POST', `/documents/${doc}/pages`, { body: { RotatePagesAction: { pageRange: '2', rotation: 90 } }, headers: json })],
    ['NewPageAction', (doc) => call(server, 'POST', `/documents/${doc}/pages`, { body: { NewPageAction: {} }, headers: json })],
    ['MovePagesAction', (doc) => call(server, 'POST', `/documents/${doc}/pages`, { body: { MovePagesAction: { pageRange: '2', toIndex: 0 } }, headers: json })],
    ['DeletePagesAction (a page without the signature)', (doc) => call(server, 'POST', `/documents/${doc}/pages`, { body: { DeletePagesAction: { pageRange: '2' } }, headers: json })],
    ['FlattenAnnotationsAction', (doc) => call(server, 'POST', `/documents/${doc}`, { body: { FlattenAnnotationsAction: {} }, headers: json })],
    ['PUT a field value', (doc) => call(server, 'PUT', `/documents/${doc}/fields/comment`, { body: { value: 'changed' }, headers: json })],
    ['DELETE .../fields (reset)', (doc) => call(server, 'DELETE', `/documents/${doc}/fields`, { headers: json })],
    ['DELETE .../annotations', (doc) => call(server, 'DELETE', `/documents/${doc}/annotations`, { headers: json })],
    ['DELETE usage rights', (doc) => call(server, 'DELETE', `/documents/${doc}/permissions/usage-rights`, { headers: json })],
  ];
  for (const [label, run] of appended) {
    test(`${label}: appended, the signature stays valid`, async () => {
      const doc = await copy();
      const before = await storedBytes(server, doc);
      const reply = await run(doc);
      assert.ok(reply.status < 300, `${label}: ${reply.status} ${reply.text}`);
      const after = await storedBytes(server, doc);
      assert.ok(after.subarray(0, before.length).equals(before), 'appended to');
      assertAllValid(after, 1);
    });
  }

  const refused: [string, (doc: string) => Promise<Reply>][] = [
    ['ApplyRedactionsAction', (doc) => call(server, 'POST', `/documents/${doc}`, { body: { ApplyRedactionsAction: {} }, headers: json })],
    ['FlattenFieldsAction', (doc) => call(server, 'POST', `/documents/${doc}`, { body: { FlattenFieldsAction: {} }, headers: json })],
    ['DeletePagesAction (the signed page)', (doc) => call(server, 'POST', `/documents/${doc}/pages`, { body: { DeletePagesAction: { pageRange: '1' } }, headers: json })],
    ['PUT password-permissions', (doc) => call(server, 'PUT', `/documents/${doc}/permissions/password-permissions`, { body: { permissionsPassword: 'owner-x' }, headers: json })],
  ];
  test('ExtractPagesAction: the extract is a new document written in full, its signatures cleared; the source stays signed', async () => {
    const doc = await copy();
    const before = sha256(await storedBytes(server, doc));
    const reply = await call(server, 'POST', `/documents/${doc}/pages`, { body: { ExtractPagesAction: { pageRange: '1', savePath: 'sign/extract.pdf' } }, headers: json });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(sha256(await storedBytes(server, doc)), before);
    assertAllValid(await storedBytes(server, doc), 1);
    const extract = await storedBytes(server, 'sign/extract.pdf');
    assert.ok(qpdfCheck(extract).ok);
    assert.equal(pdfsig(extract).filter((s) => s.validation).length, 0, 'no signature left to be reported invalid');
    assert.equal(new QpdfDocument(extract).get(new QpdfDocument(extract).catalog(), '/Perms'), undefined);
    assert.deepEqual((await listFields('sign/extract.pdf')).json().signatureFields.map((f: any) => f.signed), [false]);
  });

  for (const [label, run] of refused) {
    test(`${label}: refused with 409 DOCUMENT_SIGNED, the document unchanged`, async () => {
      const doc = await copy();
      await unchanged(doc, () => run(doc), 409, 'DOCUMENT_SIGNED');
      assertAllValid(await storedBytes(server, doc), 1);
    });
  }
});
