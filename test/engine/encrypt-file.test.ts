/**
 * The encryption written in node (core/encrypt-file.ts, the key derivation in core/standard-security.ts): every method
 * read back by independent readers (qpdf, poppler, MuPDF, PDFBox) with each password; object numbers and the /ID kept;
 * /EncryptMetadata false leaves the metadata stream readable and a signature's /Contents stays as it was; the corpus's
 * encrypted files re-encrypted; and no two encryptions of a file share a key.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as mupdf from 'mupdf';
import { corpusDir } from '../../corpus/manifest.js';
import { encryptPdfFile, type FileEncryption } from '../../src/engine/core/encrypt-file.js';
import { encodePassword } from '../../src/engine/core/passwords.js';
import { fileKeyOf, isOwnerPassword, isUserPassword, newStandardKeys, permsMatch, type StandardEncryption } from '../../src/engine/core/standard-security.js';
import { setPasswordPermissions } from '../../src/engine/security/permissions.js';
import { makePdf, pdftotext, withTempFile } from '../helpers/pdf.js';
import { qpdfEncryption } from '../helpers/qpdf-encryption.js';

mupdf.setLog({ error: () => {}, warning: () => {} });

const source = makePdf({ pages: 2, text: (i) => `Secret page ${i + 1}`, title: 'Quarterly figures' });
/** The source with an /ID (qpdf writes one). */
const sourceWithId = new Uint8Array(withTempFile(source, (file) => execFileSync('qpdf', [file, '-'])));
const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const random = (n: number) => new Uint8Array(Array.from({ length: n }, () => Math.floor(Math.random() * 256)));

/** A document MuPDF saved in full without encryption (as setPasswordPermissions has it saved), after `edit`. */
function plainSave(pdf: Uint8Array, options = 'garbage=1,compress=yes,pretty', edit?: (doc: mupdf.PDFDocument) => void): Uint8Array {
  const doc = new mupdf.PDFDocument(pdf);
  try {
    edit?.(doc);
    const buffer = doc.saveToBuffer(`encrypt=none,${options}`);
    try {
      return buffer.asUint8Array().slice();
    } finally {
      buffer.destroy();
    }
  } finally {
    doc.destroy();
  }
}

function qpdfLines(pdf: Uint8Array, args: string[]): string {
  return withTempFile(pdf, (file) => {
    const run = spawnSync('qpdf', [...args, file], { encoding: 'latin1' });
    // Exit 3: warnings, the file read.
    assert.ok(run.status === 0 || run.status === 3, `qpdf ${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  });
}

function encryptionKey(pdf: Uint8Array, password: string): string {
  return /Encryption key = ([0-9a-f]+)/.exec(qpdfLines(pdf, ['--show-encryption', '--show-encryption-key', `--password=${password}`]))![1]!;
}

const TYPES = [
  { encryptType: 2, revision: 2, method: 'RC4', bits: 40 },
  { encryptType: 0, revision: 3, method: 'RC4', bits: 128 },
  { encryptType: 1, revision: 4, method: 'AESv2', bits: 128 },
  { encryptType: 3, revision: 6, method: 'AESv3', bits: 256 },
] as const;

test('newStandardKeys: the owner and user checks of the handler (Algorithms 6, 7, 11-13) accept the passwords it was given and no others', () => {
  for (const revision of [2, 3, 4, 6] as const) {
    const user = encodePassword('user pw', revision)!;
    const owner = encodePassword('owner pw', revision)!;
    const permissionBits = -3904;
    const keys = newStandardKeys({ revision, userPassword: user, ownerPassword: owner, permissionBits, encryptMetadata: true, id0: random(16), random });
    const enc: StandardEncryption = { revision, lengthBits: revision === 2 ? 40 : revision === 6 ? 256 : 128, owner: keys.owner, user: keys.user, ownerKey: keys.ownerKey ?? new Uint8Array(0), userKey: keys.userKey ?? new Uint8Array(0), perms: keys.perms ?? new Uint8Array(0) };
    assert.equal(keys.fileKey.length, revision === 2 ? 5 : revision === 6 ? 32 : 16, `R${revision}`);
    assert.equal(keys.owner.length, revision === 6 ? 48 : 32, `R${revision}`);
    assert.equal(keys.user.length, revision === 6 ? 48 : 32, `R${revision}`);
    assert.ok(isOwnerPassword(enc, owner, user), `R${revision}: the owner password`);
    assert.ok(!isOwnerPassword(enc, user, user), `R${revision}: the user password is not the owner's`);
    assert.ok(!isOwnerPassword(enc, bytes('other'), user), `R${revision}: another password`);
    if (revision === 6) {
      assert.equal(isUserPassword(enc, user), true);
      assert.equal(isUserPassword(enc, owner), false);
      assert.deepEqual(fileKeyOf(enc, owner, 'owner'), keys.fileKey);
      assert.deepEqual(fileKeyOf(enc, user, 'user'), keys.fileKey);
      assert.ok(permsMatch(enc, keys.fileKey, permissionBits, true));
      assert.ok(!permsMatch(enc, keys.fileKey, permissionBits, false));
    }
  }
});

test('each encryptType written in node: qpdf --check and --show-encryption, poppler, MuPDF and PDFBox read it with either password; object numbers and /ID kept', () => {
  for (const t of TYPES) {
    const label = `encryptType ${t.encryptType}`;
    const { bytes: out, passwordPermissions } = setPasswordPermissions({ pdf: source, request: { encryptType: t.encryptType, openPassword: 'open-pw', permissionsPassword: 'perm-pw', printAllowed: false } });
    assert.equal(passwordPermissions.revision, t.revision, label);
    assert.equal(passwordPermissions.printAllowed, false, label);
    assert.match(qpdfLines(out, ['--check', '--password=open-pw']), /No syntax or stream encoding errors/, label);
    const shown = qpdfEncryption(out, 'perm-pw');
    assert.ok(shown?.ownerMatched, label);
    assert.equal(shown.R, t.revision, label);
    assert.equal(shown.bits, t.bits, label);
    assert.equal(shown.methods.stream ?? 'RC4', t.method, label);
    assert.equal(shown.methods.string ?? 'RC4', t.method, label);
    assert.equal(shown.capabilities['printlow'], false, label);
    assert.equal(qpdfEncryption(out, 'open-pw')?.userMatched, true, label);
    assert.equal(qpdfEncryption(out, 'wrong'), null, label);
    // Strings (the title) and streams (the text) decrypt with each password.
    for (const [option, password] of [['-upw', 'open-pw'], ['-opw', 'perm-pw']] as const) {
      const text = withTempFile(out, (file) => execFileSync('pdftotext', [option, password, file, '-'], { encoding: 'utf8' }));
      assert.match(text, /Secret page 1[\s\S]*Secret page 2/, `${label} ${option}`);
      const info = withTempFile(out, (file) => execFileSync('pdfinfo', [option, password, file], { encoding: 'utf8' }));
      assert.match(info, /Title:\s+Quarterly figures/, `${label} ${option}`);
    }
    assert.ok(!Buffer.from(out).includes('Quarterly figures'), `${label}: the title is not in the clear`);
    for (const password of ['open-pw', 'perm-pw']) {
      const doc = new mupdf.PDFDocument(out);
      try {
        assert.ok(doc.needsPassword(), label);
        assert.ok(doc.authenticatePassword(password) > 0, `${label}: MuPDF with ${password}`);
        assert.match(doc.loadPage(1).toStructuredText('preserve-whitespace').asText(), /Secret page 2/, label);
        assert.equal(doc.getMetaData('info:Title'), 'Quarterly figures', label);
      } finally {
        doc.destroy();
      }
    }
    // The same objects, under the same numbers, as MuPDF's unencrypted save; the /ID's first string the source's.
    const xref = (pdf: Uint8Array, password?: string) => qpdfLines(pdf, ['--show-xref', ...(password ? [`--password=${password}`] : [])]).split('\n').map((l) => l.split(':')[0]).filter(Boolean).sort();
    assert.deepEqual(xref(out, 'perm-pw'), xref(plainSave(source)), label);
    const id = (pdf: Uint8Array, password?: string) => /\/ID \[ <([0-9a-f]+)>/.exec(qpdfLines(pdf, ['--show-object=trailer', ...(password ? [`--password=${password}`] : [])]))?.[1];
    assert.equal(id(plainSave(source)), undefined, label);
    assert.match(id(out, 'perm-pw') ?? '', /^[0-9a-f]{32}$/, label);
    // A source without an /ID gets one (revisions 2-4 key with it); one with an /ID keeps it.
    const { bytes: idOut } = setPasswordPermissions({ pdf: sourceWithId, request: { encryptType: t.encryptType, openPassword: 'open-pw', permissionsPassword: 'perm-pw' } });
    assert.match(id(idOut, 'perm-pw') ?? '', /^[0-9a-f]{32}$/, label);
    assert.equal(id(idOut, 'perm-pw'), id(sourceWithId), label);
  }
});

test('PDFBox opens the output with either password and honours the permissions', { skip: existsSync('/usr/share/java/pdfbox2-tools.jar') ? false : 'no PDFBox tools (Debian libpdfbox2-java)' }, () => {
  const classPath = ['pdfbox2.jar', 'pdfbox2-tools.jar', 'fontbox2.jar', 'commons-logging.jar'].map((jar) => `/usr/share/java/${jar}`).join(':');
  for (const t of TYPES) {
    const { bytes: out } = setPasswordPermissions({ pdf: source, request: { encryptType: t.encryptType, openPassword: 'open-pw', permissionsPassword: 'perm-pw', extractTextAllowed: false } });
    const extract = (password: string) =>
      withTempFile(out, (file) => spawnSync('java', ['-cp', classPath, 'org.apache.pdfbox.tools.ExtractText', '-password', password, '-console', file], { encoding: 'utf8' }));
    const owner = extract('perm-pw');
    assert.equal(owner.status, 0, `encryptType ${t.encryptType}: ${owner.stderr}`);
    assert.match(owner.stdout, /Secret page 1[\s\S]*Secret page 2/, `encryptType ${t.encryptType}`);
    // The user password opens it, and PDFBox then refuses extraction, as /P says.
    const user = extract('open-pw');
    assert.match(user.stderr, /You do not have permission to extract text/, `encryptType ${t.encryptType}`);
    const wrong = extract('wrong');
    assert.match(wrong.stderr, /InvalidPasswordException|Cannot decrypt/, `encryptType ${t.encryptType}`);
  }
});

test('two encryptions of one document share no key: AES-256 draws its file key, salts and IVs from the OS', () => {
  const request = { encryptType: 3 as const, openPassword: 'open-pw', permissionsPassword: 'perm-pw' };
  const [a, b] = [setPasswordPermissions({ pdf: source, request }).bytes, setPasswordPermissions({ pdf: source, request }).bytes];
  assert.notEqual(encryptionKey(a, 'perm-pw'), encryptionKey(b, 'perm-pw'));
  const fields = (pdf: Uint8Array) => Object.fromEntries([...Buffer.from(pdf).toString('latin1').matchAll(/\/(O|U|OE|UE|Perms) <([0-9A-F]+)>/g)].map((m) => [m[1]!, m[2]!]));
  const [fa, fb] = [fields(a), fields(b)];
  for (const key of ['O', 'U', 'OE', 'UE', 'Perms']) assert.notEqual(fa[key], fb[key], `/${key}`);
  // Revisions 2-4 derive the file key from the passwords and the /ID (Algorithm 2): other passwords, another key.
  for (const encryptType of [0, 1, 2] as const) {
    const one = setPasswordPermissions({ pdf: source, request: { encryptType, openPassword: 'one', permissionsPassword: 'perm-one' } }).bytes;
    const two = setPasswordPermissions({ pdf: source, request: { encryptType, openPassword: 'two', permissionsPassword: 'perm-two' } }).bytes;
    assert.notEqual(encryptionKey(one, 'perm-one'), encryptionKey(two, 'perm-two'), `encryptType ${encryptType}`);
  }
});

test('a password with a comma is written (MuPDF\'s option string could not take one)', () => {
  for (const encryptType of [0, 3] as const) {
    const { bytes: out } = setPasswordPermissions({ pdf: source, request: { encryptType, openPassword: 'a,b', permissionsPassword: 'c,d' } });
    assert.equal(qpdfEncryption(out, 'a,b')?.userMatched, true);
    assert.equal(qpdfEncryption(out, 'c,d')?.ownerMatched, true);
  }
});

const XMP = '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:format>application/pdf</dc:format><dc:source>plain-metadata-marker</dc:source></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>';

test('/EncryptMetadata false (AES-128 and AES-256): the metadata stream is left readable, everything else encrypted; true: encrypted too', () => {
  // Saved without compression, so the XMP is in the file as text when it is not encrypted.
  const plain = plainSave(source, 'garbage=1,pretty', (doc) => {
    const dict = doc.newDictionary();
    dict.put('Type', doc.newName('Metadata'));
    dict.put('Subtype', doc.newName('XML'));
    doc.getTrailer().get('Root').put('Metadata', doc.addStream(XMP, dict));
  });
  for (const revision of [4, 6] as const) {
    for (const encryptMetadata of [false, true]) {
      const label = `R${revision}, EncryptMetadata ${encryptMetadata}`;
      const spec: FileEncryption = { revision, userPassword: bytes('u'), ownerPassword: bytes('o'), permissionBits: -4, encryptMetadata };
      const out = encryptPdfFile(plain, spec);
      const text = Buffer.from(out).toString('latin1');
      assert.equal(text.includes('plain-metadata-marker'), !encryptMetadata, label);
      assert.equal(/\/EncryptMetadata false/.test(text), !encryptMetadata, label);
      assert.ok(!text.includes('Secret page'), label);
      assert.match(qpdfLines(out, ['--check', '--password=u']), /No syntax or stream encoding errors/, label);
      assert.match(pdftotext(out, 'u'), /Secret page 2/, label);
      // qpdf decrypts the file with the password and finds the metadata whole. (MuPDF 1.28 and poppler decrypt a
      // metadata stream whatever /EncryptMetadata says, in qpdf's --cleartext-metadata output too: not asked here.)
      const decrypted = withTempFile(out, (file) => execFileSync('qpdf', ['--password=u', '--decrypt', '--stream-data=uncompress', file, '-']));
      assert.ok(decrypted.includes('plain-metadata-marker'), label);
    }
  }
});

test("a signature dictionary's /Contents is not encrypted; its other strings are", () => {
  const contents = 'DEADBEEF'.repeat(16);
  let sigNum = 0;
  const plain = plainSave(source, undefined, (doc) => {
    const sig = doc.newDictionary();
    sig.put('Type', doc.newName('Sig'));
    sig.put('Filter', doc.newName('Adobe.PPKLite'));
    sig.put('Contents', doc.newByteString(Buffer.from(contents, 'hex')));
    sig.put('Name', doc.newString('Signer of record'));
    const range = doc.newArray();
    for (const n of [0, 10, 20, 30]) range.push(n);
    sig.put('ByteRange', range);
    const ref = doc.addObject(sig);
    sigNum = ref.asIndirect();
    doc.getTrailer().get('Root').put('SigHolder', ref);
  });
  for (const revision of [3, 6] as const) {
    const out = encryptPdfFile(plain, { revision, userPassword: bytes(''), ownerPassword: bytes('o'), permissionBits: -4, encryptMetadata: true });
    const text = Buffer.from(out).toString('latin1');
    assert.ok(text.toUpperCase().includes(contents), `R${revision}: /Contents as it was`);
    assert.ok(!text.includes('Signer of record'), `R${revision}`);
    const shown = qpdfLines(out, [`--show-object=${sigNum}`, '--password=o']);
    assert.match(shown, new RegExp(`/Contents <${contents.toLowerCase()}>`), `R${revision}`);
    assert.match(shown, /\/Name \(Signer of record\)/, `R${revision}`);
    const doc = new mupdf.PDFDocument(out);
    try {
      assert.ok(doc.authenticatePassword('o') > 0);
      const sig = doc.newIndirect(sigNum).resolve();
      assert.equal(Buffer.from(sig.get('Contents').asByteString()).toString('hex').toUpperCase(), contents, `R${revision}: MuPDF`);
      assert.equal(sig.get('Name').asString(), 'Signer of record', `R${revision}: MuPDF`);
    } finally {
      doc.destroy();
    }
  }
});

const CORPUS = corpusDir();

test('the corpus\'s encrypted files re-encrypted with each method: the same text as the source with its own password', { skip: CORPUS ? false : 'no corpus at PDFSERVICE_CORPUS or ../shared/corpus' }, () => {
  // Files whose permissions password the corpus manifest gives, of each revision: 2, 3, 4 (AES-128), 5 and 6.
  const files: [string, string][] = [
    ['qpdf/encryption/enc-R2,V1,U=view,O=master.pdf', 'master'],
    ['qpdf/encryption/enc-R3,V2,U=view,O=master.pdf', 'master'],
    ['qpdf/encryption/20-pages.pdf', 'owner'],
    ['qpdf/encryption/V4-aes.pdf', ''],
    ['qpdf/encryption/enc-XI-R6,V5,U=view,O=master.pdf', 'master'],
    ['pypdf/encryption/r6-both-passwords.pdf', 'bar'],
    ['pypdf/encryption/r5-user-password.pdf', ''],
  ];
  let checked = 0;
  for (const [name, password] of files) {
    const file = path.join(CORPUS!, name);
    if (!existsSync(file)) continue;
    const pdf = new Uint8Array(readFileSync(file));
    const expected = withTempFile(pdf, (f) => execFileSync('pdftotext', [...(password ? ['-opw', password] : []), '-layout', f, '-'], { encoding: 'utf8' }));
    for (const t of TYPES) {
      const label = `${name} as encryptType ${t.encryptType}`;
      const { bytes: out } = setPasswordPermissions({ pdf, ...(password ? { password } : {}), request: { encryptType: t.encryptType, openPassword: 'new-open', permissionsPassword: 'new-perm' } });
      assert.match(qpdfLines(out, ['--check', '--password=new-open']), /No syntax or stream encoding errors/, label);
      assert.equal(qpdfEncryption(out, 'new-perm')?.R, t.revision, label);
      assert.equal(pdftotext(out, 'new-open'), expected, label);
      checked++;
    }
  }
  assert.ok(checked >= 20, `${checked} re-encryptions checked`);
});
