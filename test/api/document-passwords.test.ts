/**
 * Passwords HTTP cannot carry as plain header values: spaces at either end are dropped from a header, so
 * a document whose passwords are " " and "  x " (a real signed file had such passwords) could not be
 * opened. The exact forms: X-Service-DocumentPassword: UTF-8''<percent-encoded> (RFC 8187) and
 * X-Service-DocumentPassword-Base64. Bodies (JSON and XML) carry such passwords as they are.
 * Header values go out byte for byte (raw HTTP), so no client library trims or re-encodes them.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sha256, storedBytes } from '../helpers/http.js';
import { makePdf, pdftotext } from '../helpers/pdf.js';
import { qpdfEncryption } from '../helpers/qpdf-encryption.js';
import { rawRequest } from '../helpers/raw-http.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();
const DOCS = '/pdfservice/v1/documents';
const USER = ' ';
const OWNER = '  x ';

/** AES-256 by qpdf, text extraction forbidden to the user password (so user and owner can be told apart). */
function encrypt(bytes: Buffer, user: string, owner: string): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-pw-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), bytes);
    execFileSync('qpdf', ['--encrypt', user, owner, '256', '--extract=n', '--', path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')]);
    return readFileSync(path.join(dir, 'out.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function raw(method: string, target: string, headers: Record<string, string> = {}, body?: Buffer) {
  const reply = await rawRequest(server.baseUrl, method, `${DOCS}/${target}`, { authorization: server.adminAuth, ...headers }, body);
  const text = Buffer.from(reply.text.slice(reply.text.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8');
  const code = reply.status >= 400 ? (JSON.parse(text) as { code: string }).code : undefined;
  return { status: reply.status, text, code };
}

const plain = (password: string) => ({ 'X-Service-DocumentPassword': password });
const base64 = (password: string) => ({ 'X-Service-DocumentPassword-Base64': Buffer.from(password, 'utf8').toString('base64') });
const ext = (password: string) => ({ 'X-Service-DocumentPassword': `UTF-8''${encodeURIComponent(password)}` });
const source = makePdf({ pages: 2, text: (i) => `Spaced password page ${i + 1}` });

test('a document whose passwords are " " and "  x " opens with the UTF-8\'\' form and the base64 header, as user and as owner', async () => {
  const locked = encrypt(source, USER, OWNER);
  assert.equal((await raw('PUT', 'pw/spaces.pdf', { 'content-type': 'application/pdf' }, locked)).status, 201);
  const model = (headers: Record<string, string>) => raw('GET', 'pw/spaces.pdf', { accept: 'application/json', ...headers });
  const text = (headers: Record<string, string>) => raw('GET', 'pw/spaces.pdf/text', { accept: 'text/plain', ...headers });

  // The plain header cannot carry them: HTTP drops the spaces.
  assert.equal((await model(plain(USER))).status, 403);
  assert.equal((await text(plain(OWNER))).status, 403);

  for (const user of [ext(USER), { 'X-Service-DocumentPassword': "utf-8'en'%20" }, base64(USER)]) {
    const opened = await model(user);
    assert.equal(opened.status, 200, `${JSON.stringify(user)}: ${opened.text}`);
    assert.equal(JSON.parse(opened.text).encrypted, true);
    // Opened as the user, whose permissions forbid text extraction.
    const refused = await text(user);
    assert.equal(refused.code, 'DOCUMENT_PERMISSION_DENIED', JSON.stringify(user));
  }
  for (const owner of [ext(OWNER), { 'X-Service-DocumentPassword': "UTF-8''%20%20%78%20" }, base64(OWNER)]) {
    const extracted = await text(owner);
    assert.equal(extracted.status, 200, `${JSON.stringify(owner)}: ${extracted.text}`);
    assert.match(extracted.text, /Spaced password page 2/);
  }
  // Near misses are wrong passwords, not something else.
  for (const wrong of [ext('  '), ext(' x '), base64('x '), plain('x')]) {
    assert.equal((await model(wrong)).code, 'DOCUMENT_PASSWORD_INVALID', JSON.stringify(wrong));
  }
  // Malformed exact forms are 400, never a guess.
  const malformed: Record<string, string>[] = [
    { 'X-Service-DocumentPassword-Base64': 'not base64!' },
    { 'X-Service-DocumentPassword-Base64': 'IA=' },
    { ...ext(USER), ...base64(USER) },
    { 'X-Service-DocumentPassword': "UTF-8''%FF%20" },
  ];
  for (const bad of malformed) {
    const reply = await model(bad);
    assert.equal(reply.status, 400, JSON.stringify(bad));
    assert.equal(reply.code, 'VALIDATION_FAILED');
  }
  assert.equal(sha256(await storedBytes(server, 'pw/spaces.pdf')), sha256(locked), 'the stored document is unchanged');
});

test('plain passwords keep working, "\'\'" included; only a value shaped exactly like UTF-8\'\'<escapes> is decoded', async () => {
  const cases: { user: string; send: Record<string, string> }[] = [
    { user: "it''s", send: plain("it''s") },
    { user: "UTF-8''a b", send: plain("UTF-8''a b") }, // a space is not an ext-value character: plain
    { user: "x UTF-8''y", send: plain("x UTF-8''y") },
    { user: 'päss', send: { 'X-Service-DocumentPassword': Buffer.from('päss', 'utf8').toString('latin1') } },
    { user: ' päss ', send: ext(' päss ') },
    { user: ' päss ', send: base64(' päss ') },
    // A password that itself has the ext-value shape is sent encoded (or as base64).
    { user: "UTF-8''abc", send: { 'X-Service-DocumentPassword': "UTF-8''UTF-8%27%27abc" } },
    { user: "UTF-8''abc", send: base64("UTF-8''abc") },
  ];
  for (const [i, { user, send }] of cases.entries()) {
    const doc = `pw/plain-${i}.pdf`;
    assert.equal((await raw('PUT', doc, { 'content-type': 'application/pdf' }, encrypt(source, user, 'the-owner'))).status, 201);
    const opened = await raw('GET', doc, { accept: 'application/json', ...send });
    assert.equal(opened.status, 200, `password ${JSON.stringify(user)} sent as ${JSON.stringify(send)}: ${opened.text}`);
  }
  assert.equal((await raw('GET', 'pw/plain-6.pdf', { accept: 'application/json', ...plain("UTF-8''abc") })).code, 'DOCUMENT_PASSWORD_INVALID');
});

test('XML bodies carry passwords with spaces: encryption, its removal, and inserting pages of such a document', async () => {
  const doc = 'pw/xml.pdf';
  assert.equal((await raw('PUT', doc, { 'content-type': 'application/pdf' }, source)).status, 201);
  const xml = Buffer.from(
    '<?xml version="1.0"?>\n<PasswordPermissions>\n  <encryptType>3</encryptType>\n  <openPassword> </openPassword>\n' +
      '  <permissionsPassword>  x </permissionsPassword>\n  <extractTextAllowed>false</extractTextAllowed>\n</PasswordPermissions>\n',
  );
  const set = await raw('PUT', `${doc}/permissions/password-permissions`, { 'content-type': 'application/xml', accept: 'application/json' }, xml);
  assert.equal(set.status, 200, set.text);
  const written = await storedBytes(server, doc);
  const asUser = qpdfEncryption(written, USER);
  assert.ok(asUser?.userMatched && !asUser.ownerMatched, 'qpdf: " " is the user password');
  assert.ok(qpdfEncryption(written, OWNER)?.ownerMatched, 'qpdf: "  x " is the owner password');
  assert.equal(qpdfEncryption(written, 'x'), null, 'qpdf: trimmed passwords do not open it');

  // Pages of that document inserted into another, its password in an XML action body.
  const target = 'pw/target.pdf';
  assert.equal((await raw('PUT', target, { 'content-type': 'application/pdf' }, makePdf({ text: () => 'Target page' }))).status, 201);
  const insert = Buffer.from(`<InsertUploadedPagesAction><appendFilePath>${doc}</appendFilePath><appendPassword> </appendPassword></InsertUploadedPagesAction>`);
  const inserted = await raw('POST', `${target}/pages`, { 'content-type': 'application/xml', accept: 'application/json' }, insert);
  assert.equal(inserted.status, 200, inserted.text);
  assert.equal(JSON.parse(inserted.text).pageCount, 3);
  assert.match(pdftotext(await storedBytes(server, target)), /Target page[\s\S]*Spaced password page 1[\s\S]*Spaced password page 2/);

  const removed = await raw('DELETE', `${doc}/permissions/password-permissions`, ext(OWNER));
  assert.equal(removed.status, 204, removed.text);
  assert.equal(qpdfEncryption(await storedBytes(server, doc), '')?.encrypted, false);
});

test('a malformed password header is 400 on every route, also where the document is not encrypted', async () => {
  const doc = 'pw/open.pdf';
  assert.equal((await raw('PUT', doc, { 'content-type': 'application/pdf' }, source)).status, 201);
  for (const [target, accept] of [[doc, 'application/pdf'], [doc, 'application/json'], [`${doc}/annotations`, 'application/json']] as const) {
    const reply = await raw('GET', target, { accept, 'X-Service-DocumentPassword-Base64': 'not base64!' });
    assert.equal(reply.status, 400, `${target} as ${accept}: ${reply.text}`);
    assert.equal(reply.code, 'VALIDATION_FAILED');
  }
  assert.equal((await raw('GET', doc, { accept: 'application/pdf', ...base64('unused') })).status, 200, 'a well-formed password a plain document does not need is ignored');
});
