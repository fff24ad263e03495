import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { makeAnnotatedPdf } from '../helpers/annotated-pdf.js';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { call, putPdf, sha256, storedBytes, type Reply, expectUnchanged } from '../helpers/http.js';
import { encryptPdf, makePdf, pdftotext, qpdfCheck, serializePdf, withTempFile } from '../helpers/pdf.js';
import { signedFieldPdf } from '../helpers/signing.js';
import { FLAGS, QPDF_CAPABILITY, qpdfEncryption as readQpdfEncryption, type Flag } from '../helpers/qpdf-encryption.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

/** Whether qpdf opens the file with the password (or none). */
function qpdfOpens(bytes: Buffer, password?: string): boolean {
  return withTempFile(bytes, (file) => {
    try {
      execFileSync('qpdf', ['--check', ...(password !== undefined ? [`--password=${password}`] : []), file], { stdio: 'pipe' });
      return true;
    } catch (err) {
      // Exit 3 is warnings only: the file opened.
      return (err as { status?: number }).status === 3;
    }
  });
}

/** Whether poppler's pdfinfo opens the file with the user password (-upw), the owner password (-opw) or none. */
function pdfinfoOpens(bytes: Buffer, option?: '-upw' | '-opw', password?: string): boolean {
  return withTempFile(bytes, (file) => {
    try {
      execFileSync('pdfinfo', [...(option ? [option, password ?? ''] : []), file], { stdio: 'pipe' });
      return true;
    } catch {
      return false;
    }
  });
}

/** qpdf's reading with a password that must open the file. */
function qpdfEncryption(bytes: Buffer, password: string) {
  const found = readQpdfEncryption(bytes, password);
  assert.ok(found, `qpdf does not open the file with ${JSON.stringify(password)}`);
  return found;
}

const pw = (password: string) => ({ 'x-service-documentpassword': Buffer.from(password, 'utf8').toString('latin1') });
const getPermissions = (doc: string, headers: Record<string, string> = {}) => call(server, 'GET', `/documents/${doc}/permissions`, { headers: { accept: 'application/json', ...headers } });
const setPermissions = (doc: string, body: object | string, headers: Record<string, string> = {}) =>
  call(server, 'PUT', `/documents/${doc}/permissions/password-permissions`, { body: typeof body === 'string' ? Buffer.from(body) : body, headers: { accept: 'application/json', ...headers } });
const removePasswords = (doc: string, headers: Record<string, string> = {}) => call(server, 'DELETE', `/documents/${doc}/permissions/password-permissions`, { headers });

const unchanged = (doc: string, request: () => Promise<Reply>, status: number, code: string) => expectUnchanged(server, doc, request, status, code);

const plain = () => makePdf({ pages: 2, text: (i) => `Secret page ${i + 1}` });

describe('reading permissions', () => {
  test('an unencrypted document: not encrypted, every permission allowed, no usage rights, not certified; JSON and XML', async () => {
    await putPdf(server, 'perm/plain.pdf', plain());
    const reply = await getPermissions('perm/plain.pdf');
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json();
    assert.equal(model.passwordPermissions.encrypted, false);
    assert.equal(model.passwordPermissions.openPasswordSet, false);
    assert.equal(model.passwordPermissions.permissionsPasswordSet, false);
    for (const flag of FLAGS) assert.equal(model.passwordPermissions[flag], true, flag);
    assert.deepEqual(model.usageRights, { present: false });
    assert.deepEqual(model.certification, { certified: false });

    const xml = await call(server, 'GET', '/documents/perm/plain.pdf/permissions', { headers: { accept: 'application/xml' } });
    assert.equal(xml.status, 200);
    assert.match(xml.text, /<Permissions>\s*<passwordPermissions>\s*<encrypted>false<\/encrypted>/);
    const part = await call(server, 'GET', '/documents/perm/plain.pdf/permissions/password-permissions', { headers: { accept: 'application/json' } });
    assert.equal(part.status, 200);
    assert.deepEqual(part.json(), model.passwordPermissions);
  });

  test('a qpdf-encrypted document: what qpdf set is reported with either password; none or a wrong one is 403', async () => {
    const encrypted = encryptPdf(plain(), 'u-pw', 'o-pw', '256', ['--print=low', '--modify=form', '--extract=n']);
    await putPdf(server, 'perm/qpdf.pdf', encrypted);
    const none = await getPermissions('perm/qpdf.pdf');
    assert.equal(none.status, 403);
    assert.equal(none.json().code, 'DOCUMENT_PASSWORD_REQUIRED');
    const wrong = await getPermissions('perm/qpdf.pdf', pw('nope'));
    assert.equal(wrong.status, 403);
    assert.equal(wrong.json().code, 'DOCUMENT_PASSWORD_INVALID');
    const qpdf = qpdfEncryption(encrypted, 'u-pw');
    for (const password of ['u-pw', 'o-pw']) {
      const model = (await getPermissions('perm/qpdf.pdf', pw(password))).json().passwordPermissions;
      assert.equal(model.encrypted, true);
      assert.equal(model.encryptType, 3);
      assert.equal(model.revision, 6);
      assert.equal(model.keyLength, 256);
      assert.equal(model.permissionBits, qpdf.P);
      assert.equal(model.openPasswordSet, true);
      assert.equal(model.permissionsPasswordSet, true);
      for (const flag of FLAGS) assert.equal(model[flag], qpdf.capabilities[QPDF_CAPABILITY[flag]], `${flag} with ${password}`);
    }
    assert.equal((await getPermissions('perm/qpdf.pdf', pw('u-pw'))).json().passwordPermissions.printHighResolutionAllowed, false, '--print=low');
  });
});

describe('setting password permissions', () => {
  /** Each encryptType with a spread of permissions; RC4-40 only with combinations revision 2 can express. */
  const cases: { encryptType: 0 | 1 | 2 | 3; method: string; revision: number; bits: number; flags: Partial<Record<Flag, boolean>>; open: string }[] = [
    { encryptType: 0, method: 'RC4', revision: 3, bits: 128, flags: { printAllowed: false, printHighResolutionAllowed: false, modifyAnnotationsAllowed: false }, open: 'open-0' },
    { encryptType: 0, method: 'RC4', revision: 3, bits: 128, flags: { extractTextAllowed: false, assembleDocumentAllowed: false }, open: '' },
    { encryptType: 1, method: 'AESv2', revision: 4, bits: 128, flags: { changeDocumentAllowed: false, fillFormFieldsAllowed: false, extractTextForAccessibilityAllowed: false }, open: 'open-1' },
    { encryptType: 1, method: 'AESv2', revision: 4, bits: 128, flags: {}, open: 'open-1b' },
    { encryptType: 2, method: 'RC4', revision: 2, bits: 40, flags: { printAllowed: false, changeDocumentAllowed: false }, open: 'open-2' },
    { encryptType: 2, method: 'RC4', revision: 2, bits: 40, flags: { extractTextAllowed: false, modifyAnnotationsAllowed: false }, open: '' },
    { encryptType: 3, method: 'AESv3', revision: 6, bits: 256, flags: Object.fromEntries(FLAGS.map((f) => [f, false])), open: 'open-3' },
    { encryptType: 3, method: 'AESv3', revision: 6, bits: 256, flags: { printHighResolutionAllowed: false, assembleDocumentAllowed: false, fillFormFieldsAllowed: false }, open: 'pässwört' },
  ];
  cases.forEach((c, i) => {
    test(`encryptType ${c.encryptType} (${c.method} R${c.revision}), ${JSON.stringify(c.flags)}, open password ${JSON.stringify(c.open)}: qpdf and pdfinfo agree`, async () => {
      const doc = `perm/set-${i}.pdf`;
      const source = plain();
      await putPdf(server, doc, source);
      const owner = `owner-${i}`;
      const reply = await setPermissions(doc, { encryptType: c.encryptType, openPassword: c.open, permissionsPassword: owner, ...c.flags });
      assert.equal(reply.status, 200, reply.text);
      const model = reply.json();
      const stored = await storedBytes(server, doc);

      // qpdf reads the method, the revision and the same permission bits, with either password.
      const qpdf = qpdfEncryption(stored, owner);
      assert.equal(qpdf.encrypted, true);
      assert.equal(qpdf.ownerMatched, true);
      assert.equal(qpdf.R, c.revision);
      assert.equal(qpdf.bits, c.bits);
      assert.equal(qpdf.methods.stream ?? 'RC4', c.method);
      assert.equal(model.permissionBits, qpdf.P);
      assert.equal(model.revision, c.revision);
      assert.equal(model.encryptType, c.encryptType);
      for (const flag of FLAGS) {
        assert.equal(model[flag], qpdf.capabilities[QPDF_CAPABILITY[flag]], `${flag}: ours and qpdf's`);
        // What was asked is what the file says (RC4-40's derived flags follow their base flag).
        const asked = c.flags[flag] ?? true;
        if (c.encryptType !== 2 && flag !== 'printHighResolutionAllowed') assert.equal(model[flag], asked, `${flag} as asked`);
      }
      if (c.encryptType !== 2) assert.equal(model.printHighResolutionAllowed, (c.flags.printAllowed ?? true) && (c.flags.printHighResolutionAllowed ?? true));

      // The passwords: the open password (when set) and the owner password open it, and nothing else does.
      assert.ok(qpdfOpens(stored, owner));
      if (c.open) {
        assert.equal(qpdfOpens(stored), false, 'qpdf needs a password');
        assert.equal(qpdfOpens(stored, 'wrong-password'), false, 'qpdf rejects a wrong password');
        assert.ok(qpdfOpens(stored, c.open));
        assert.ok(pdfinfoOpens(stored, '-upw', c.open));
        assert.equal(pdfinfoOpens(stored), false, 'pdfinfo needs a password');
        assert.equal(pdfinfoOpens(stored, '-upw', 'wrong-password'), false);
        assert.equal(model.openPasswordSet, true);
      } else {
        assert.ok(pdfinfoOpens(stored));
        assert.equal(model.openPasswordSet, false);
      }
      assert.ok(pdfinfoOpens(stored, '-opw', owner));
      assert.equal(model.permissionsPasswordSet, true);
      // The content survived.
      assert.match(pdftotext(stored, c.open || undefined), /Secret page 2/);

      // Reading it back through the service gives the same model.
      const read = await getPermissions(doc, pw(c.open || owner));
      assert.deepEqual(read.json().passwordPermissions, model);
    });
  });

  test('re-encrypting a protected document needs its permissions password: none 403, the open password 403, the owner password 200', async () => {
    const doc = 'perm/re.pdf';
    await putPdf(server, doc, encryptPdf(plain(), 'u1', 'o1'));
    const body = { encryptType: 1, openPassword: 'u2', permissionsPassword: 'o2' };
    await unchanged(doc, () => setPermissions(doc, body), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    const denied = await unchanged(doc, () => setPermissions(doc, body, pw('u1')), 403, 'DOCUMENT_PERMISSION_DENIED');
    assert.equal(denied.json().permission, 'owner');
    const ok = await setPermissions(doc, body, pw('o1'));
    assert.equal(ok.status, 200, ok.text);
    assert.ok(ok.headers.get('etag'));
    const stored = await storedBytes(server, doc);
    assert.equal(qpdfOpens(stored, 'u1'), false, 'the old password no longer opens it');
    assert.equal(qpdfEncryption(stored, 'o2').methods.stream, 'AESv2');
    assert.ok(qpdfOpens(stored, 'u2'));
  });

  test('an XML body with root <PasswordPermissions> works; another root, entities and malformed XML are 400', async () => {
    const doc = 'perm/xml.pdf';
    await putPdf(server, doc, plain());
    const xml = (root: string) => `<?xml version="1.0"?><${root}><encryptType>1</encryptType><permissionsPassword>xml-owner</permissionsPassword><printAllowed>false</printAllowed></${root}>`;
    await unchanged(doc, () => setPermissions(doc, xml('Other'), { 'content-type': 'application/xml' }), 400, 'VALIDATION_FAILED');
    await unchanged(doc, () => setPermissions(doc, '<!DOCTYPE x [<!ENTITY e "owner">]><PasswordPermissions><permissionsPassword>&e;</permissionsPassword></PasswordPermissions>', { 'content-type': 'application/xml' }), 400, 'MALFORMED_XML');
    await unchanged(doc, () => setPermissions(doc, '<PasswordPermissions><permissionsPassword>', { 'content-type': 'application/xml' }), 400, 'MALFORMED_XML');
    const ok = await call(server, 'PUT', `/documents/${doc}/permissions/password-permissions`, { body: Buffer.from(xml('PasswordPermissions')), headers: { 'content-type': 'application/xml', accept: 'application/xml' } });
    assert.equal(ok.status, 200, ok.text);
    assert.match(ok.text, /<PasswordPermissions>.*<encryptType>1<\/encryptType>.*<printAllowed>false<\/printAllowed>/s);
    assert.equal(qpdfEncryption(await storedBytes(server, doc), 'xml-owner').capabilities['printlow'], false);
  });

  test('bad input is 400 with the error shape and leaves the document unchanged', async () => {
    const doc = 'perm/bad.pdf';
    await putPdf(server, doc, plain());
    const bad: [string, object | string, string?][] = [
      ['encryptType 4', { encryptType: 4, permissionsPassword: 'x' }],
      ['encryptType -1', { encryptType: -1, permissionsPassword: 'x' }],
      ['encryptType text', { encryptType: 'aes', permissionsPassword: 'x' }],
      ['a non-boolean permission', { permissionsPassword: 'x', printAllowed: 'yes' }],
      ['a permission as a number', { permissionsPassword: 'x', modifyAnnotationsAllowed: 7 }],
      ['an unknown property', { permissionsPassword: 'x', everythingAllowed: true }],
      ['no permissions password', { openPassword: 'open' }],
      ['an empty permissions password', { openPassword: 'open', permissionsPassword: '' }],
      ['the same password twice', { openPassword: 'same', permissionsPassword: 'same' }],
      ['RC4 password of 33 bytes', { encryptType: 0, permissionsPassword: 'a'.repeat(33) }],
      ['AES-128 password of 33 bytes', { encryptType: 1, openPassword: 'b'.repeat(33), permissionsPassword: 'x' }],
      ['AES-256 password of 128 UTF-8 bytes', { encryptType: 3, permissionsPassword: 'é'.repeat(64) }],
      ['an RC4 password outside Latin-1', { encryptType: 0, permissionsPassword: 'пароль' }],
      ['an AES-256 password SASLprep prohibits', { encryptType: 3, permissionsPassword: 'bad\u0007bell' }],
      ['RC4-40 with high-resolution printing unlike printing', { encryptType: 2, permissionsPassword: 'x', printAllowed: true, printHighResolutionAllowed: false }],
      ['a body that is not JSON', '{"permissionsPassword":', 'MALFORMED_JSON'],
    ];
    for (const [label, body, code] of bad) {
      // Schema violations and the engine's password rules are both VALIDATION_FAILED.
      const reply = await unchanged(doc, () => setPermissions(doc, body, typeof body === 'string' ? { 'content-type': 'application/json' } : {}), 400, code ?? 'VALIDATION_FAILED');
      assert.equal(reply.headers.get('content-type')?.split(';')[0], 'application/problem+json', label);
      assert.ok(reply.json().detail, label);
    }
    // An AES-256 password of exactly 127 bytes is fine, and one of 127 bytes only after SASLprep too.
    const ok = await setPermissions(doc, { encryptType: 3, permissionsPassword: `${'é'.repeat(63)}x` });
    assert.equal(ok.status, 200, ok.text);
    // No body at all.
    const empty = await call(server, 'PUT', `/documents/${doc}/permissions/password-permissions`, { headers: { 'content-type': 'application/json' } });
    assert.equal(empty.status, 400, empty.text);
  });

  test('RC4-40 fills in omitted flags from the flag revision 2 ties them to', async () => {
    const doc = 'perm/r2.pdf';
    await putPdf(server, doc, plain());
    const reply = await setPermissions(doc, { encryptType: 2, permissionsPassword: 'r2-owner', printAllowed: false, modifyAnnotationsAllowed: false });
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json();
    assert.equal(model.printHighResolutionAllowed, false);
    assert.equal(model.fillFormFieldsAllowed, false);
    assert.equal(model.assembleDocumentAllowed, true);
    assert.equal(model.revision, 2);
  });

  test('a document with a signed signature field is refused (409) rather than having its signatures broken', async () => {
    const doc = 'perm/signed.pdf';
    await putPdf(server, doc, signedFieldPdf());
    await unchanged(doc, () => setPermissions(doc, { permissionsPassword: 'x' }), 409, 'DOCUMENT_SIGNED');
  });
});

describe('removing password permissions', () => {
  test('needs the owner password when one is set (403 with the open password); the content round-trips', async () => {
    const doc = 'perm/remove.pdf';
    const source = plain();
    await putPdf(server, doc, encryptPdf(source, 'user-pw', 'owner-pw'));
    await unchanged(doc, () => removePasswords(doc), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    const denied = await unchanged(doc, () => removePasswords(doc, pw('user-pw')), 403, 'DOCUMENT_PERMISSION_DENIED');
    assert.equal(denied.json().permission, 'owner');
    const removed = await removePasswords(doc, pw('owner-pw'));
    assert.equal(removed.status, 204, removed.text);
    const stored = await storedBytes(server, doc);
    assert.ok(qpdfCheck(stored).ok);
    assert.match(withTempFile(stored, (file) => execFileSync('qpdf', ['--show-encryption', file], { encoding: 'utf8' })), /File is not encrypted/);
    assert.equal(pdftotext(stored), pdftotext(source));
    assert.equal((await getPermissions(doc)).json().passwordPermissions.encrypted, false);
    // Removing again: nothing to do, nothing written.
    const before = sha256(stored);
    assert.equal((await removePasswords(doc)).status, 204);
    assert.equal(sha256(await storedBytes(server, doc)), before);
  });

  test('with both passwords empty, anyone may remove the encryption', async () => {
    const doc = 'perm/empty-owner.pdf';
    await putPdf(server, doc, plain());
    // qpdf writes an empty owner password as given.
    const both = encryptPdf(plain(), '', '', '256', ['--print=none']);
    await putPdf(server, doc, both);
    const model = (await getPermissions(doc)).json().passwordPermissions;
    assert.equal(model.encrypted, true);
    assert.equal(model.openPasswordSet, false);
    assert.equal(model.permissionsPasswordSet, false);
    assert.equal((await removePasswords(doc)).status, 204);
  });

  test('a user password with an empty owner password (AES-256 R6, written by qpdf): no permissions password, so the user password is enough', async () => {
    const doc = 'perm/user-only.pdf';
    const userOnly = encryptPdf(plain(), 'only-user', '', '256', ['--allow-insecure', '--modify=none']);
    await putPdf(server, doc, userOnly);
    const model = (await getPermissions(doc, pw('only-user'))).json().passwordPermissions;
    assert.equal(model.openPasswordSet, true);
    assert.equal(model.permissionsPasswordSet, false);
    assert.equal((await removePasswords(doc, pw('only-user'))).status, 204);
  });
});

describe('usage rights and certification', () => {
  /** A document carrying Adobe usage rights (/Perms /UR3, a signature dictionary with UR3 transform parameters), as Acrobat's "Reader extensions" write it. */
  function withUsageRights(extraPerms = ''): Buffer {
    const objects = [
      `<< /Type /Catalog /Pages 2 0 R /Perms << /UR3 5 0 R ${extraPerms}>> >>`,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 6 0 R >> >> /Contents 4 0 R >>',
      '<< /Length 44 >>\nstream\nBT /F1 18 Tf 20 200 Td (Reader extended) Tj ET\nendstream',
      `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /Name (ARE Acrobat Product v8.0 P23 0002337) /M (D:20200101000000Z) /ByteRange [0 0 0 0] /Contents <${'00'.repeat(32)}> ` +
        '/Reference [<< /Type /SigRef /TransformMethod /UR3 /Data 1 0 R /TransformParams << /Type /TransformParams /V /2.2 /Document [/FullSave] ' +
        '/Annots [/Create /Delete /Modify /Copy /Import /Export] /Form [/FillIn /Import /Export] /Signature [/Modify] /EF [/Create /Import] /Msg (Extended features) >> >>] >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ];
    return serializePdf(objects, '/Root 1 0 R');
  }

  test('GET reports the rights the UR3 signature grants; DELETE removes /Perms /UR3 and the file still passes qpdf --check', async () => {
    const doc = 'perm/ur3.pdf';
    await putPdf(server, doc, withUsageRights());
    const model = (await getPermissions(doc)).json();
    assert.deepEqual(model.usageRights, {
      present: true,
      document: ['FullSave'],
      annotations: ['Create', 'Delete', 'Modify', 'Copy', 'Import', 'Export'],
      form: ['FillIn', 'Import', 'Export'],
      signature: ['Modify'],
      embeddedFiles: ['Create', 'Import'],
      message: 'Extended features',
    });
    const xml = await call(server, 'GET', `/documents/${doc}/permissions`, { headers: { accept: 'application/xml' } });
    assert.match(xml.text, /<annotations>\s*<right>Create<\/right>\s*<right>Delete<\/right>/);

    const removed = await call(server, 'DELETE', `/documents/${doc}/permissions/usage-rights`);
    assert.equal(removed.status, 204, removed.text);
    const stored = await storedBytes(server, doc);
    assert.ok(qpdfCheck(stored).ok, qpdfCheck(stored).output);
    const root = withTempFile(stored, (file) => execFileSync('qpdf', ['--show-object=trailer', file], { encoding: 'utf8' }));
    const catalogRef = /\/Root (\d+) 0 R/.exec(root)![1]!;
    const catalog = withTempFile(stored, (file) => execFileSync('qpdf', [`--show-object=${catalogRef}`, file], { encoding: 'utf8' }));
    assert.doesNotMatch(catalog, /\/Perms|\/UR3/, 'no usage rights left in the catalog');
    assert.doesNotMatch(stored.toString('latin1'), /TransformMethod \/UR3|\/UR3/, 'the signature dictionary is gone from the file');
    assert.match(pdftotext(stored), /Reader extended/);
    assert.deepEqual((await getPermissions(doc)).json().usageRights, { present: false });

    // None left: 204 again, nothing written.
    const before = sha256(stored);
    assert.equal((await call(server, 'DELETE', `/documents/${doc}/permissions/usage-rights`)).status, 204);
    assert.equal(sha256(await storedBytes(server, doc)), before);
  });

  test('DELETE usage-rights keeps a DocMDP certification beside it, and the certification level is reported', async () => {
    const doc = 'perm/certified.pdf';
    const docMdp = '/DocMDP 7 0 R ';
    const pdf = withUsageRights(docMdp);
    // Object 7: a certifying signature allowing no changes (/P 1).
    const objects = pdf.toString('latin1');
    const certified = serializePdf(
      [...extractObjects(objects), `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /ByteRange [0 0 0 0] /Contents <${'00'.repeat(32)}> /Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P 1 /V /1.2 >> >>] >>`],
      '/Root 1 0 R',
    );
    await putPdf(server, doc, certified);
    assert.deepEqual((await getPermissions(doc)).json().certification, { certified: true, level: 1 });
    assert.equal((await call(server, 'DELETE', `/documents/${doc}/permissions/usage-rights`)).status, 204);
    const model = (await getPermissions(doc)).json();
    assert.equal(model.usageRights.present, false);
    assert.deepEqual(model.certification, { certified: true, level: 1 });
  });

  /** The object bodies of a PDF written by serializePdf, in order. */
  function extractObjects(pdf: string): string[] {
    return [...pdf.matchAll(/\d+ 0 obj\n([\s\S]*?)\nendobj\n/g)].map((m) => m[1]!);
  }
});

describe('the permission bits are enforced for every operation opened with the user password', () => {
  /** Encrypts through the service itself, so the test also covers PUT. */
  async function protect(doc: string, source: Buffer, flags: Partial<Record<Flag, boolean>>): Promise<void> {
    await putPdf(server, doc, source);
    const reply = await setPermissions(doc, { encryptType: 3, openPassword: 'reader', permissionsPassword: 'author', ...flags });
    assert.equal(reply.status, 200, reply.text);
  }

  test('annotations: no change without modifyAnnotationsAllowed, reading allowed; the owner password lifts it', async () => {
    const doc = 'perm/enforce-annots.pdf';
    const source = makeAnnotatedPdf({ pages: 1, annotations: [{ subtype: 'Text', page: 0, name: 'note-1', rect: [10, 10, 30, 30], contents: 'hello' }] });
    await protect(doc, source, { modifyAnnotationsAllowed: false });
    const list = await call(server, 'GET', `/documents/${doc}/annotations`, { headers: { accept: 'application/json', ...pw('reader') } });
    assert.equal(list.status, 200, list.text);
    const refused = await unchanged(doc, () => call(server, 'DELETE', `/documents/${doc}/annotations/note-1`, { headers: pw('reader') }), 403, 'DOCUMENT_PERMISSION_DENIED');
    assert.equal(refused.json().permission, 'modifyAnnotationsAllowed');
    await unchanged(doc, () => call(server, 'POST', `/documents/${doc}/annotations/redaction`, { body: { searchText: 'x' }, headers: pw('reader') }), 403, 'DOCUMENT_PERMISSION_DENIED');
    assert.equal((await call(server, 'DELETE', `/documents/${doc}/annotations/note-1`, { headers: pw('author') })).status, 204);
  });

  test('applying redactions needs changeDocumentAllowed', async () => {
    const doc = 'perm/enforce-edit.pdf';
    await protect(doc, plain(), { changeDocumentAllowed: false });
    const created = await call(server, 'POST', `/documents/${doc}/annotations/redaction`, { body: { searchText: 'Secret' }, headers: pw('reader') });
    assert.equal(created.status, 200, 'creating Redact annotations is an annotation change, which is allowed');
    const refused = await unchanged(doc, () => call(server, 'POST', `/documents/${doc}`, { body: { ApplyRedactionsAction: {} }, headers: pw('reader') }), 403, 'DOCUMENT_PERMISSION_DENIED');
    assert.equal(refused.json().permission, 'changeDocumentAllowed');
    const applied = await call(server, 'POST', `/documents/${doc}`, { body: { ApplyRedactionsAction: {} }, headers: pw('author') });
    assert.equal(applied.status, 200, applied.text);
  });

  test('form filling needs fillFormFieldsAllowed (or modifyAnnotationsAllowed, as ISO 32000 has it)', async () => {
    const xfdf = '<?xml version="1.0"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field name="comment"><value>Changed</value></field></fields></xfdf>';
    const fill = (doc: string) => call(server, 'POST', `/documents/${doc}/fields/content`, { body: Buffer.from(xfdf), headers: { 'content-type': 'application/vnd.adobe.xfdf', accept: 'application/json', ...pw('reader') } });
    await protect('perm/enforce-form.pdf', makeFormPdf(), { fillFormFieldsAllowed: false, modifyAnnotationsAllowed: false });
    const refused = await unchanged('perm/enforce-form.pdf', () => fill('perm/enforce-form.pdf'), 403, 'DOCUMENT_PERMISSION_DENIED');
    assert.equal(refused.json().permission, 'fillFormFieldsAllowed');
    await protect('perm/enforce-form-annots.pdf', makeFormPdf(), { fillFormFieldsAllowed: false, modifyAnnotationsAllowed: true });
    assert.equal((await fill('perm/enforce-form-annots.pdf')).status, 200);
    await protect('perm/enforce-form-ok.pdf', makeFormPdf(), { fillFormFieldsAllowed: true, modifyAnnotationsAllowed: false });
    assert.equal((await fill('perm/enforce-form-ok.pdf')).status, 200);
  });

  test('removing usage rights is a change of the document: changeDocumentAllowed', async () => {
    const doc = 'perm/enforce-ur.pdf';
    await protect(doc, plain(), { changeDocumentAllowed: false });
    const refused = await unchanged(doc, () => call(server, 'DELETE', `/documents/${doc}/permissions/usage-rights`, { headers: pw('reader') }), 403, 'DOCUMENT_PERMISSION_DENIED');
    assert.equal(refused.json().permission, 'changeDocumentAllowed');
  });

  test('a non-ASCII AES-256 password opens the document in composed and decomposed form (SASLprep)', async () => {
    const doc = 'perm/unicode.pdf';
    await putPdf(server, doc, plain());
    assert.equal((await setPermissions(doc, { openPassword: 'Grüße', permissionsPassword: 'Schlüssel' })).status, 200);
    const stored = await storedBytes(server, doc);
    assert.ok(pdfinfoOpens(stored, '-upw', 'Grüße'), 'poppler opens it with the UTF-8 password');
    assert.equal((await getPermissions(doc, pw('Grüße'))).status, 200);
    assert.equal((await getPermissions(doc, pw('Gru\u0308ße'))).status, 200, 'the decomposed form is the same password after SASLprep');
    assert.equal((await getPermissions(doc, pw('Grusse'))).status, 403);
  });
});
