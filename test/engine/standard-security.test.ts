/**
 * The standard security handler's checks the engine runs in native crypto instead of MuPDF's WebAssembly (issue 38):
 * needsPassword (the empty user password) answers as MuPDF does, the AES-256 password checks in full (file key through
 * /OE and /UE, /Perms) agree with files qpdf wrote, and the check of a freshly encrypted document
 * (withReopenedEncryption) refuses passwords that are not the ones the file holds, as MuPDF's authentication would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as mupdf from 'mupdf';
import { encryptionFacts, needsPassword } from '../../src/engine/core/encryption.js';
import { openPdf, withReopenedEncryption } from '../../src/engine/core/open.js';
import { setPasswordPermissions } from '../../src/engine/security/permissions.js';
import { fileKeyOf, permsMatch, withRememberedHashes } from '../../src/engine/core/standard-security.js';
import { EngineError } from '../../src/engine/errors.js';
import { encryptPdf, makePdf } from '../helpers/pdf.js';
import { qpdfEncryption } from '../helpers/qpdf-encryption.js';

mupdf.setLog({ error: () => {}, warning: () => {} });

const plain = makePdf({ pages: 2 });
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

function opened<T>(bytes: Uint8Array, use: (doc: mupdf.PDFDocument) => T): T {
  const doc = new mupdf.PDFDocument(bytes);
  try {
    return use(doc);
  } finally {
    doc.destroy();
  }
}

test('needsPassword answers as MuPDF does, with and without an open password, for revisions 3, 4, 5 and 6', () => {
  const cases: [string, Buffer][] = [
    ['R3', encryptPdf(plain, 'user', 'owner', '128', ['--use-aes=n'])],
    ['R4', encryptPdf(plain, 'user', 'owner', '128', ['--use-aes=y'])],
    ['R5', encryptPdf(plain, 'user', 'owner', '256', ['--force-R5'])],
    ['R6', encryptPdf(plain, 'user', 'owner', '256')],
    ['R6, empty open password', encryptPdf(plain, '', 'owner', '256')],
    ['R5, empty open password', encryptPdf(plain, '', 'owner', '256', ['--force-R5'])],
  ];
  for (const [label, bytes] of cases) {
    const ours = opened(bytes, (doc) => needsPassword(doc));
    const mupdfs = opened(bytes, (doc) => doc.needsPassword());
    assert.equal(ours, mupdfs, label);
    assert.equal(ours, !label.includes('empty'), label);
  }
});

test('AES-256: both passwords give the same file key, which decrypts /Perms to /P; other passwords give none', () => {
  for (const [label, options] of [['R6', []], ['R5', ['--force-R5']]] as const) {
    const bytes = encryptPdf(plain, 'view', 'master', '256', ['--extract=n', ...options]);
    opened(bytes, (doc) => {
      const facts = encryptionFacts(doc)!;
      const owner = fileKeyOf(facts.standard, utf8('master'), 'owner');
      const user = fileKeyOf(facts.standard, utf8('view'), 'user');
      assert.ok(owner && user, label);
      assert.deepEqual(owner, user, label);
      assert.equal(owner.length, 32, label);
      assert.ok(permsMatch(facts.standard, owner, facts.permissionBits, facts.encryptMetadata), label);
      // Another /P, or the other /EncryptMetadata, is not what /Perms holds.
      assert.ok(!permsMatch(facts.standard, owner, facts.permissionBits | 16, facts.encryptMetadata), label);
      assert.ok(!permsMatch(facts.standard, owner, facts.permissionBits, !facts.encryptMetadata), label);
      assert.equal(fileKeyOf(facts.standard, utf8('view'), 'owner'), undefined, label);
      assert.equal(fileKeyOf(facts.standard, utf8('master'), 'user'), undefined, label);
      assert.equal(fileKeyOf(facts.standard, utf8(''), 'user'), undefined, label);
    });
  }
});

test('the check of a freshly encrypted document refuses an open or permissions password the file does not hold', () => {
  const bytes = encryptPdf(plain, 'view', 'master', '256');
  const model = withReopenedEncryption(bytes, { open: 'view', permissions: 'master' }, (check) => ({ access: check.access, needsPassword: check.needsPassword, pages: check.doc.countPages() }));
  assert.deepEqual(model, { access: 'owner', needsPassword: true, pages: 2 });
  for (const passwords of [{ open: 'view', permissions: 'other' }, { open: 'other', permissions: 'master' }, { open: '', permissions: 'master' }]) {
    assert.throws(
      () => withReopenedEncryption(bytes, passwords, () => undefined),
      (err) => err instanceof EngineError && err.code === 'PROCESSING_FAILED',
      JSON.stringify(passwords),
    );
  }
  // An empty open password, when it is the file's, opens without one.
  const open = encryptPdf(plain, '', 'master', '256');
  assert.equal(withReopenedEncryption(open, { open: '', permissions: 'master' }, (check) => check.needsPassword), false);
});

test('the check of an AES-256 file the service wrote: bytes left as they were, other passwords refused, and a dictionary whose key is not the content\'s refused', () => {
  const passwords = { open: 'view', permissions: 'master' };
  const request = { encryptType: 3 as const, openPassword: passwords.open, permissionsPassword: passwords.permissions };
  const { bytes } = setPasswordPermissions({ pdf: plain, request });
  const before = Buffer.from(bytes);
  const model = withReopenedEncryption(bytes, passwords, (check) => ({ access: check.access, needsPassword: check.needsPassword, pages: check.doc.countPages(), revision: encryptionFacts(check.doc)?.revision }));
  assert.deepEqual(model, { access: 'owner', needsPassword: true, pages: 2, revision: 6 });
  // The trailer's /Encrypt is renamed for MuPDF's open only.
  assert.deepEqual(Buffer.from(bytes), before);
  assert.ok(!before.includes('/Xncrypt') && /\/Encrypt\s*<</.test(before.toString('latin1')), 'the output as it was written');
  // The same in a buffer of MuPDF's memory (as setPasswordPermissions passes the save's own output): opened where it
  // is, and left byte-identical.
  const inMupdf = new mupdf.Buffer(bytes);
  try {
    assert.equal(withReopenedEncryption(inMupdf, passwords, (check) => check.doc.countPages()), 2);
    assert.deepEqual(Buffer.from(inMupdf.asUint8Array()), before);
    assert.throws(() => withReopenedEncryption(inMupdf, { open: 'view', permissions: 'other' }, () => undefined), (err) => err instanceof EngineError && err.code === 'PROCESSING_FAILED');
    assert.deepEqual(Buffer.from(inMupdf.asUint8Array()), before);
  } finally {
    inMupdf.destroy();
  }
  for (const other of [{ open: 'view', permissions: 'other' }, { open: 'other', permissions: 'master' }, { open: '', permissions: 'master' }]) {
    assert.throws(() => withReopenedEncryption(bytes, other, () => undefined), (err) => err instanceof EngineError && err.code === 'PROCESSING_FAILED', JSON.stringify(other));
  }
  // The dictionary of another encryption with the same passwords (another random file key) spliced in: the passwords
  // and /Perms check out against it, the content was encrypted with the other key.
  const second = Buffer.from(setPasswordPermissions({ pdf: plain, request }).bytes).toString('latin1');
  const entries = (text: string) => new Map([...text.slice(text.lastIndexOf('trailer')).matchAll(/\/(O|U|OE|UE|Perms) <([0-9A-F]+)>/g)].map((m) => [m[1]!, m[2]!]));
  const theirs = entries(second);
  assert.equal(theirs.size, 5);
  const first = before.toString('latin1');
  const at = first.lastIndexOf('trailer');
  const spliced = Buffer.from(first.slice(0, at) + first.slice(at).replace(/\/(O|U|OE|UE|Perms) <([0-9A-F]+)>/g, (_, key: string) => `/${key} <${theirs.get(key)!}>`), 'latin1');
  assert.equal(spliced.length, before.length);
  assert.throws(
    () => withReopenedEncryption(new Uint8Array(spliced), passwords, () => undefined),
    (err) => err instanceof EngineError && err.code === 'PROCESSING_FAILED' && /does not decrypt/.test(err.message),
  );
});

test('hashes remembered while a document is encrypted and checked: the same keys, and a dictionary read back otherwise still refused', () => {
  const passwords = { open: 'view', permissions: 'master' };
  const request = { encryptType: 3 as const, openPassword: passwords.open, permissionsPassword: passwords.permissions };
  withRememberedHashes(() => {
    // setPasswordPermissions remembers its own hashes too: nested, it shares these.
    const { bytes } = setPasswordPermissions({ pdf: plain, request });
    const keys = (pdf: Uint8Array) => opened(pdf, (doc) => {
      const facts = encryptionFacts(doc)!;
      return [fileKeyOf(facts.standard, utf8(passwords.permissions), 'owner'), fileKeyOf(facts.standard, utf8(passwords.open), 'user')];
    });
    const remembered = keys(bytes);
    assert.ok(remembered[0] && remembered[0].length === 32);
    assert.deepEqual(remembered[0], remembered[1]);
    // /O changed in its hash (the hash's inputs, password, salt and /U, are the same: its remembered result is compared
    // with the bytes read) and in its validation salt (another input, hashed anew): both refused, as without memory.
    const text = Buffer.from(bytes).toString('latin1');
    const at = text.lastIndexOf('trailer');
    const o = /\/O <([0-9A-F]{96})>/.exec(text.slice(at))!;
    assert.ok(o, 'the trailer has a 48-byte /O');
    for (const hexAt of [0, 64]) {
      const flipped = o[1]!.slice(0, hexAt) + (o[1]![hexAt] === '0' ? '1' : '0') + o[1]!.slice(hexAt + 1);
      const changed = new Uint8Array(Buffer.from(text.slice(0, at) + text.slice(at).replace(o[0], `/O <${flipped}>`), 'latin1'));
      assert.throws(() => withReopenedEncryption(changed, passwords, () => undefined), (err) => err instanceof EngineError && err.code === 'PROCESSING_FAILED', `hex digit ${hexAt}`);
      assert.equal(keys(changed)[0], undefined, `hex digit ${hexAt}`);
    }
  });
  // Outside, nothing is remembered, and the same file gives the same keys.
  const { bytes } = setPasswordPermissions({ pdf: plain, request });
  opened(bytes, (doc) => {
    const facts = encryptionFacts(doc)!;
    const owner = fileKeyOf(facts.standard, utf8('master'), 'owner');
    assert.ok(owner && permsMatch(facts.standard, owner, facts.permissionBits, facts.encryptMetadata));
    assert.deepEqual(owner, fileKeyOf(facts.standard, utf8('view'), 'user'));
  });
});

test('setPasswordPermissions answers the same through the native check and through MuPDF (a password SASLprep changes)', () => {
  // "pass\u00a0word": SASLprep maps the no-break space to a space, so MuPDF authenticates it; the others are checked natively.
  for (const [open, permissions] of [['user-pw', 'owner-pw'], ['', 'owner-pw'], ['pass\u00a0word', 'owner-pw'], ['user-pw', 'Stra\u00dfe-\u00e9t\u00e9']]) {
    const label = JSON.stringify({ open, permissions });
    const { bytes, passwordPermissions } = setPasswordPermissions({ pdf: plain, request: { encryptType: 3, openPassword: open, permissionsPassword: permissions, printAllowed: false } });
    assert.equal(passwordPermissions.revision, 6, label);
    assert.equal(passwordPermissions.openPasswordSet, open !== '', label);
    assert.equal(passwordPermissions.permissionsPasswordSet, true, label);
    assert.equal(passwordPermissions.printAllowed, false, label);
    // As the service opens it afterwards: the open password as user (or none needed), the permissions password as owner.
    const asUser = openPdf(bytes, open === '' ? undefined : open, 'view');
    assert.equal(asUser.access, 'user', label);
    asUser.doc.destroy();
    const asOwner = openPdf(bytes, permissions, 'owner');
    assert.equal(asOwner.access, 'owner', label);
    asOwner.doc.destroy();
    assert.equal(qpdfEncryption(bytes, permissions)?.ownerMatched, true, label);
  }
});

test("an encryption's key and salts do not follow from the clock: two processes on the same clock write different ones", async () => {
  // MuPDF's generator is seeded from the clock; the encryption is written in node with keys from its CSPRNG
  // (core/encrypt-file.ts), and MuPDF's generator reseeded from it before each save (core/wasm.ts).
  // Each child loads MuPDF as a worker does (the handle first), with Date.now fixed, and encrypts the same document.
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const dir = mkdtempSync(path.join(tmpdir(), 'reseed-'));
  const input = path.join(dir, 'in.pdf');
  writeFileSync(input, plain);
  const src = new URL('../../src/engine/', import.meta.url).href;
  const script = `
    Date.now = () => 1700000000000;
    await import(${JSON.stringify(`${src}core/wasm.js`)});
    const { setPasswordPermissions } = await import(${JSON.stringify(`${src}security/permissions.js`)});
    const { readFileSync } = await import('node:fs');
    const pdf = new Uint8Array(readFileSync(${JSON.stringify(input)}));
    const { bytes } = setPasswordPermissions({ pdf, request: { encryptType: 3, openPassword: 'user-pw', permissionsPassword: 'owner-pw' } });
    process.stdout.write(Buffer.from(bytes).toString('base64'));`;
  const run = () => Buffer.from(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 << 20 }), 'base64');
  const [a, b] = [run(), run()];
  const fields = (bytes: Buffer) => {
    const text = bytes.toString('latin1');
    return Object.fromEntries([...text.matchAll(/\/(O|U|OE|UE|Perms)\s*<([0-9A-Fa-f]+)>/g)].map((m) => [m[1]!, m[2]!]));
  };
  const [fa, fb] = [fields(a), fields(b)];
  for (const key of ['O', 'U', 'OE', 'UE', 'Perms']) {
    assert.ok(fa[key] && fb[key], `/${key} is written`);
    assert.notEqual(fa[key], fb[key], `/${key} differs between the two processes`);
  }
  // Both still open with their passwords (the engine's own check ran in each child, and MuPDF agrees here).
  for (const bytes of [a, b]) {
    const doc = new mupdf.PDFDocument(new Uint8Array(bytes));
    try {
      assert.ok(doc.needsPassword());
      assert.ok(doc.authenticatePassword('owner-pw') > 0);
      assert.equal(doc.countPages(), 2);
    } finally {
      doc.destroy();
    }
  }
});
