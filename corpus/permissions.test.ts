import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call, sha256, type Reply } from '../test/helpers/http.js';
import { qpdfCheck, withTempFile } from '../test/helpers/pdf.js';
import { FLAGS, QPDF_CAPABILITY, qpdfEncryption, runQpdf, type Flag, type QpdfEncryption } from '../test/helpers/qpdf-encryption.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir, readManifest, type CorpusEntry } from './manifest.js';

/**
 * The permissions resource over every encrypted corpus PDF, compared with
 * qpdf (an independent reader of the standard security handler) and poppler's
 * pdftotext: what GET .../permissions reports, that no or a wrong password is
 * refused, that removing and restoring the password security keeps pages and
 * text (or is refused without the owner's authority), and that a signed
 * document keeps its encryption.
 */

/** Signed and encrypted (a `signatures` row, not an `encryption` one). */
const SIGNED = 'qpdf/signatures/minimal-signed-restricted.pdf';

/**
 * KNOWN DISAGREEMENT (qpdf and poppler, not the service): this file is two
 * PDFs one after the other; the later one, which is encrypted (RC4-128 R3),
 * has its offsets counted from its own %PDF- header. qpdf 11.3 and poppler
 * reconstruct the cross-reference table by pairing the *earlier*, unencrypted
 * trailer with the *later* objects: they report "not encrypted" and read the
 * still-encrypted content stream as garbage. MuPDF, pdf.js and pypdf read it
 * as encrypted with the password "test" and show "Issue 15893 - password".
 * For this file qpdf and poppler are therefore given the later PDF alone
 * (the bytes from its %PDF- header on), which they read without complaint.
 */
const READ_FROM_LAST_HEADER = new Set(['pdfjs/encryption/issue15893_reduced.pdf']);

const NEW_PERMISSIONS_PASSWORD = 'corpus-owner-pw';

interface PasswordPermissions extends Record<Flag, boolean> {
  encrypted: boolean;
  encryptType?: 0 | 1 | 2 | 3;
  handler?: string;
  version?: number;
  revision?: number;
  keyLength?: number;
  permissionBits?: number;
  encryptMetadata?: boolean;
  attachmentsOnly?: boolean;
  openPasswordSet: boolean;
  permissionsPasswordSet: boolean;
}

/** The encryption method of the file as encryptType: the stream method, or for attachments-only files the embedded files' method. */
function qpdfEncryptType(q: QpdfEncryption): 0 | 1 | 2 | 3 {
  const none = (m: string | undefined) => m === undefined || m === 'none';
  const method = !none(q.methods.stream) ? q.methods.stream : !none(q.methods.file) ? q.methods.file : !none(q.methods.string) ? q.methods.string : 'RC4';
  if (method === 'AESv3') return 3;
  if (method === 'AESv2') return 1;
  assert.equal(method, 'RC4', `qpdf names an encryption method this suite does not know: ${method}`);
  return q.bits <= 40 ? 2 : 0;
}

function qpdfAttachmentsOnly(q: QpdfEncryption): boolean {
  return q.methods.stream === 'none' && q.methods.file !== undefined && q.methods.file !== 'none';
}

function qpdfPageCount(bytes: Buffer | Uint8Array, password: string): number {
  return withTempFile(bytes, (file) => {
    const r = runQpdf(['--show-npages', `--password=${password}`, file]);
    assert.ok(r.ok, `qpdf --show-npages: ${r.out.slice(0, 300)}`);
    return Number(r.out.trim());
  });
}

/** The embedded files qpdf finds (--list-attachments), each with the sha256 of its content (--show-attachment). */
function qpdfAttachments(bytes: Buffer | Uint8Array, password: string): Record<string, string> {
  return withTempFile(bytes, (file) => {
    const pw = `--password=${password}`;
    const list = runQpdf(['--list-attachments', pw, file]);
    assert.ok(list.ok, `qpdf --list-attachments: ${list.out.slice(0, 300)}`);
    const found: Record<string, string> = {};
    for (const line of list.out.split('\n')) {
      const key = / -> \d+,\d+$/.test(line) ? line.slice(0, line.lastIndexOf(' -> ')) : undefined;
      if (key === undefined) continue;
      try {
        const content = execFileSync('qpdf', [pw, `--show-attachment=${key}`, file], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
        found[key] = sha256(content);
      } catch (err) {
        found[key] = `unreadable: ${String((err as { stderr?: Buffer }).stderr ?? err).slice(0, 200)}`;
      }
    }
    return found;
  });
}

function qpdfSaysNotEncrypted(bytes: Buffer | Uint8Array): boolean {
  return withTempFile(bytes, (file) => /^File is not encrypted/m.test(runQpdf(['--show-encryption', file]).out));
}

/**
 * pdftotext's text with whitespace runs collapsed. The password is given as
 * owner and as user password (poppler's -upw does not take an owner password).
 */
function popplerText(bytes: Buffer | Uint8Array, password: string): string {
  return withTempFile(bytes, (file) => {
    const args = password ? ['-opw', password, '-upw', password] : [];
    const out = execFileSync('pdftotext', [...args, '-layout', file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 });
    return out.replace(/\s+/g, ' ').trim();
  });
}

/** The bytes qpdf and poppler are given for a corpus file (see READ_FROM_LAST_HEADER). */
function referenceBytes(entry: CorpusEntry, bytes: Buffer): Buffer {
  if (!READ_FROM_LAST_HEADER.has(entry.file)) return bytes;
  return bytes.subarray(bytes.lastIndexOf('%PDF-'));
}

/** Every field of our passwordPermissions that qpdf also reports, compared with qpdf's answer. */
function assertAgreesWithQpdf(ours: PasswordPermissions, q: QpdfEncryption, label: string): void {
  assert.equal(ours.encrypted, q.encrypted, `${label}: encrypted (ours ${ours.encrypted}, qpdf ${q.encrypted})`);
  if (!q.encrypted) {
    for (const flag of FLAGS) assert.equal(ours[flag], true, `${label}: ${flag} of an unencrypted file`);
    return;
  }
  assert.equal(ours.handler, 'Standard', `${label}: handler`);
  assert.equal(ours.revision, q.R, `${label}: revision (ours ${ours.revision}, qpdf R = ${q.R})`);
  assert.equal(ours.version, q.V, `${label}: version (ours ${ours.version}, qpdf V = ${q.V})`);
  assert.equal(ours.permissionBits, q.P, `${label}: permissionBits (ours ${ours.permissionBits}, qpdf P = ${q.P})`);
  assert.equal(ours.keyLength, q.bits, `${label}: keyLength (ours ${ours.keyLength}, qpdf bits ${q.bits})`);
  assert.equal(ours.encryptType, qpdfEncryptType(q), `${label}: encryptType (ours ${ours.encryptType}, qpdf ${JSON.stringify(q.methods)} ${q.bits} bits)`);
  assert.equal(ours.attachmentsOnly, qpdfAttachmentsOnly(q), `${label}: attachmentsOnly (qpdf methods ${JSON.stringify(q.methods)})`);
  for (const flag of FLAGS) {
    const theirs = q.capabilities[QPDF_CAPABILITY[flag]];
    assert.equal(typeof theirs, 'boolean', `qpdf reports no capability ${QPDF_CAPABILITY[flag]}`);
    assert.equal(ours[flag], theirs, `${label}: ${flag} (ours ${ours[flag]}, qpdf ${QPDF_CAPABILITY[flag]} ${theirs})`);
  }
}

function assertError(reply: Reply, status: number, code: string, label: string): void {
  assert.equal(reply.status, status, `${label}: ${reply.status} ${reply.text.slice(0, 300)}`);
  assert.equal(reply.json().code, code, `${label}: ${reply.text.slice(0, 300)}`);
}

const dir = corpusDir();
if (!dir) {
  console.log('# corpus permissions suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus permissions suite (no corpus found)');
} else {
  const entries = readManifest(dir).filter((e) => e.file.toLowerCase().endsWith('.pdf') && (e.features.includes('encryption') || e.file === SIGNED));
  const isPasswordEncrypted = (e: CorpusEntry) => !e.publicKey && (e.expectation.startsWith('encrypted') || e.file === SIGNED);
  const unknownPassword = (e: CorpusEntry) => /password unknown/.test(e.expectation);
  const readable = entries.filter((e) => isPasswordEncrypted(e) && !unknownPassword(e));
  const plain = entries.filter((e) => !e.publicKey && !isPasswordEncrypted(e));
  const signed = entries.filter((e) => e.file === SIGNED);
  const refused = entries.filter((e) => e.publicKey || unknownPassword(e));
  assert.equal(signed.length, 1, `the manifest lists ${SIGNED}`);

  const server = serverForSuite();

  /** The document path of a corpus file; each describe block stores its own copy under its own folder. */
  const target = (folder: string, e: CorpusEntry) => `corpus-permissions/${folder}/${e.file.split('/').map(encodeURIComponent).join('/')}`;
  /** Headers carry bytes: a non-ASCII password is sent as its UTF-8 bytes, as curl sends it from a UTF-8 terminal. */
  const passwordHeader = (pw: string): Record<string, string> => (pw ? { 'x-service-documentpassword': Buffer.from(pw, 'utf8').toString('latin1') } : {});
  const json = { accept: 'application/json' };

  async function upload(folder: string, entry: CorpusEntry): Promise<{ url: string; bytes: Buffer; put: Reply }> {
    const bytes = readFileSync(entry.absolute);
    const url = `/documents/${target(folder, entry)}`;
    const put = await call(server, 'PUT', url, { body: bytes, headers: { 'content-type': 'application/pdf' } });
    assert.ok(put.status < 500, `${entry.file}: upload answered ${put.status} ${put.text.slice(0, 300)}`);
    return { url, bytes, put };
  }

  async function permissions(url: string, password: string): Promise<Reply> {
    return call(server, 'GET', `${url}/permissions`, { headers: { ...json, ...passwordHeader(password) } });
  }

  async function download(url: string): Promise<Buffer> {
    const reply = await call(server, 'GET', url, { headers: { accept: 'application/pdf' } });
    assert.equal(reply.status, 200, `download: ${reply.status} ${reply.text.slice(0, 300)}`);
    return reply.bytes;
  }

  async function pageCount(url: string, password: string): Promise<number> {
    const model = await call(server, 'GET', url, { headers: { ...json, ...passwordHeader(password) } });
    assert.equal(model.status, 200, `DocumentModel: ${model.text.slice(0, 300)}`);
    return model.json().pageCount as number;
  }

  /** The manifest's passwords with qpdf's reading of each (null: it does not open the file). */
  function knownPasswords(entry: CorpusEntry, reference: Buffer): { password: string; q: QpdfEncryption | null }[] {
    const list = entry.passwords.map((p) => p.password);
    if (!list.includes('')) list.unshift('');
    return list.map((password) => ({ password, q: qpdfEncryption(reference, password) }));
  }

  describe(`GET permissions agrees with qpdf on every password-encrypted corpus PDF, and refuses no or a wrong password; ${readable.length + plain.length} files`, () => {
    for (const entry of [...readable, ...plain]) {
      test(entry.file, async () => {
        const { url, bytes, put } = await upload('read', entry);
        assert.equal(put.status, 201, `${entry.file}: ${put.text.slice(0, 300)}`);
        const reference = referenceBytes(entry, bytes);
        if (!isPasswordEncrypted(entry)) {
          const reply = await permissions(url, '');
          assert.equal(reply.status, 200, reply.text.slice(0, 300));
          const ours = reply.json().passwordPermissions as PasswordPermissions;
          assertAgreesWithQpdf(ours, qpdfEncryption(reference, '')!, `${entry.file} (not encrypted)`);
          assert.equal(ours.openPasswordSet, false);
          assert.equal(ours.permissionsPasswordSet, false);
          return;
        }
        const passwords = knownPasswords(entry, reference);
        const empty = passwords.find((p) => p.password === '')!.q;
        // The empty password opens a file where it is the user password, or the owner password (r5/r6-user-password.pdf,
        // as qpdf and pypdf open them).
        const opening = passwords.filter((p) => p.q !== null && (p.password !== '' || p.q.userMatched || p.q.ownerMatched));
        assert.ok(opening.length > 0, `${entry.file}: qpdf opens it with none of the manifest's passwords`);
        // An open password is set when the empty password is not the user password; a permissions
        // password when it is not the owner password (qpdf's reading of the empty password).
        const expectOpenPasswordSet = !(empty?.userMatched ?? false);
        const expectPermissionsPasswordSet = !(empty?.ownerMatched ?? false);

        for (const { password, q } of opening) {
          const label = `${entry.file} with ${password === '' ? 'no password' : `password ${JSON.stringify(password)}`}`;
          const reply = await permissions(url, password);
          assert.equal(reply.status, 200, `${label}: ${reply.status} ${reply.text.slice(0, 300)}`);
          const body = reply.json();
          const ours = body.passwordPermissions as PasswordPermissions;
          assertAgreesWithQpdf(ours, q!, label);
          assert.equal(ours.openPasswordSet, expectOpenPasswordSet, `${label}: openPasswordSet (qpdf: the empty password ${expectOpenPasswordSet ? 'is not' : 'is'} the user password)`);
          assert.equal(ours.permissionsPasswordSet, expectPermissionsPasswordSet, `${label}: permissionsPasswordSet (qpdf: the empty password ${expectPermissionsPasswordSet ? 'is not' : 'is'} the owner password)`);
          assert.equal(typeof ours.encryptMetadata, 'boolean', `${label}: encryptMetadata`);
          assert.equal(typeof body.usageRights?.present, 'boolean', `${label}: usageRights.present`);
          assert.equal(typeof body.certification?.certified, 'boolean', `${label}: certification.certified`);
        }

        if (expectOpenPasswordSet && expectPermissionsPasswordSet) {
          // Where the empty password is the owner password instead, it opens the document (the loop above).
          assertError(await permissions(url, ''), 403, 'DOCUMENT_PASSWORD_REQUIRED', `${entry.file} without a password`);
        }
        assertError(await permissions(url, 'definitely-wrong'), 403, 'DOCUMENT_PASSWORD_INVALID', `${entry.file} with a wrong password`);
      });
    }
  });

  // The signed file has its own block: its encryption must not be removed at all.
  const roundTrip = readable.filter((e) => e.file !== SIGNED);
  describe(`DELETE then PUT password-permissions keeps pages and text (qpdf, pdftotext); without the owner's authority 403; ${roundTrip.length} files`, () => {
    for (const entry of roundTrip) {
      test(entry.file, async (t) => {
        const { url, bytes, put } = await upload('round-trip', entry);
        assert.equal(put.status, 201, `${entry.file}: ${put.text.slice(0, 300)}`);
        const reference = referenceBytes(entry, bytes);
        const passwords = knownPasswords(entry, reference).filter((p) => p.q !== null && (p.password !== '' || p.q.userMatched));
        // The password that opens it with the most authority: an owner password first.
        const opener = passwords.find((p) => p.q!.ownerMatched && p.password !== '') ?? passwords.find((p) => p.q!.userMatched)!;
        const original = (await permissions(url, opener.password)).json().passwordPermissions as PasswordPermissions;
        assert.equal(original.encrypted, true);
        const ownerPassword = passwords.find((p) => p.q!.ownerMatched && p.password !== '')?.password;
        const userPasswords = passwords.filter((p) => p.q!.userMatched && !(p.q!.ownerMatched && p.password !== ''));

        // The user password alone does not lift the security (where a permissions password is set).
        if (original.permissionsPasswordSet) {
          for (const { password } of userPasswords) {
            const label = `${entry.file}: DELETE with the user password ${JSON.stringify(password)}`;
            const before = sha256(await download(url));
            const denied = await call(server, 'DELETE', `${url}/permissions/password-permissions`, { headers: passwordHeader(password) });
            assertError(denied, 403, 'DOCUMENT_PERMISSION_DENIED', label);
            assert.equal(denied.json().permission, 'owner', `${label}: ${denied.text.slice(0, 300)}`);
            assert.equal(sha256(await download(url)), before, `${label}: the stored document is unchanged`);
          }
          if (ownerPassword === undefined) {
            t.diagnostic(`only a user password is known: DELETE refused ${userPasswords.length} time(s), no round trip`);
            return;
          }
        }
        const authority = ownerPassword ?? opener.password;
        t.diagnostic(`round trip with ${ownerPassword !== undefined ? 'the owner password' : 'the user password (no permissions password set)'}`);

        // Before: pages (service and qpdf) and text (poppler).
        const pagesBefore = await pageCount(url, authority);
        assert.equal(pagesBefore, qpdfPageCount(reference, authority), `${entry.file}: page count, ours vs qpdf`);
        const textBefore = popplerText(reference, authority);
        const attachmentsBefore = qpdfAttachments(reference, authority);

        // DELETE: the stored file is not encrypted any more.
        const removed = await call(server, 'DELETE', `${url}/permissions/password-permissions`, { headers: passwordHeader(authority) });
        assert.equal(removed.status, 204, `${entry.file}: DELETE ${removed.status} ${removed.text.slice(0, 300)}`);
        const decrypted = await download(url);
        assert.ok(qpdfSaysNotEncrypted(decrypted), `${entry.file}: qpdf --show-encryption still finds encryption after DELETE`);
        assert.deepEqual(qpdfAttachments(decrypted, ''), attachmentsBefore, `${entry.file}: the embedded files (qpdf --show-attachment) after DELETE`);
        const checkDecrypted = qpdfCheck(decrypted);
        assert.ok(checkDecrypted.ok, `${entry.file}: qpdf --check after DELETE: ${checkDecrypted.output.slice(0, 500)}`);
        const bare = await permissions(url, '');
        assert.equal(bare.status, 200, `${entry.file}: permissions without password after DELETE: ${bare.text.slice(0, 300)}`);
        assert.equal(bare.json().passwordPermissions.encrypted, false);
        assert.equal(popplerText(decrypted, ''), textBefore, `${entry.file}: pdftotext after DELETE`);
        assert.equal(await pageCount(url, ''), pagesBefore, `${entry.file}: page count after DELETE`);

        // PUT the security back: the original method and permissions, the user password when one was set.
        const encryptType = original.encryptType ?? 3;
        let openPassword = '';
        if (original.openPasswordSet) {
          // The user password: one the manifest knows, or qpdf's recovery from the owner password (R2-R4);
          // for an R5/R6 file known only by its owner password, that password (it still opens the file).
          openPassword = userPasswords[0]?.password || passwords.find((p) => p.q!.recoveredUserPassword)?.q!.recoveredUserPassword || authority;
        }
        const flags = Object.fromEntries(FLAGS.map((f) => [f, original[f]])) as Record<Flag, boolean>;
        const request = { encryptType, openPassword, permissionsPassword: NEW_PERMISSIONS_PASSWORD, ...flags };
        t.diagnostic(`PUT encryptType ${encryptType}, openPassword ${openPassword ? 'set' : 'empty'}`);
        const restored = await call(server, 'PUT', `${url}/permissions/password-permissions`, { body: request, headers: json });
        assert.equal(restored.status, 200, `${entry.file}: PUT ${JSON.stringify(request)}: ${restored.status} ${restored.text.slice(0, 300)}`);
        const answered = restored.json() as PasswordPermissions;
        assert.equal(answered.encrypted, true);
        assert.equal(answered.encryptType, encryptType, `${entry.file}: encryptType written`);
        assert.equal(answered.openPasswordSet, openPassword !== '');
        assert.equal(answered.permissionsPasswordSet, true);
        for (const flag of FLAGS) assert.equal(answered[flag], original[flag], `${entry.file}: ${flag} written`);

        // After: qpdf reads the new security as the service answered it, and pages and text are the same.
        const encrypted = await download(url);
        const qOwner = qpdfEncryption(encrypted, NEW_PERMISSIONS_PASSWORD);
        assert.ok(qOwner?.ownerMatched, `${entry.file}: qpdf does not take ${NEW_PERMISSIONS_PASSWORD} as the owner password`);
        assertAgreesWithQpdf(answered, qOwner, `${entry.file} after PUT`);
        const qOriginal = opener.q!;
        for (const flag of FLAGS) {
          const cap = QPDF_CAPABILITY[flag];
          assert.equal(qOwner.capabilities[cap], qOriginal.capabilities[cap], `${entry.file}: qpdf reads ${cap} on the restored file as on the original`);
        }
        assert.deepEqual(qpdfAttachments(encrypted, NEW_PERMISSIONS_PASSWORD), attachmentsBefore, `${entry.file}: the embedded files after PUT`);
        const qEmpty = qpdfEncryption(encrypted, '');
        assert.equal(qEmpty?.userMatched ?? false, openPassword === '', `${entry.file}: after PUT the empty password ${openPassword === '' ? 'opens' : 'does not open'} it (qpdf)`);
        if (openPassword !== '') assert.ok(qpdfEncryption(encrypted, openPassword)?.userMatched, `${entry.file}: qpdf takes the new open password`);
        const check = withTempFile(encrypted, (file) => runQpdf(['--check', `--password=${NEW_PERMISSIONS_PASSWORD}`, file]));
        assert.ok(check.ok && !/WARNING/.test(check.out), `${entry.file}: qpdf --check after PUT: ${check.out.slice(0, 500)}`);
        assert.equal(qpdfPageCount(encrypted, NEW_PERMISSIONS_PASSWORD), pagesBefore, `${entry.file}: page count after PUT (qpdf)`);
        assert.equal(await pageCount(url, openPassword || NEW_PERMISSIONS_PASSWORD), pagesBefore, `${entry.file}: page count after PUT (service)`);
        assert.equal(popplerText(encrypted, openPassword || NEW_PERMISSIONS_PASSWORD), textBefore, `${entry.file}: pdftotext after PUT`);
        const readBack = await permissions(url, NEW_PERMISSIONS_PASSWORD);
        assert.equal(readBack.status, 200);
        assert.deepEqual(readBack.json().passwordPermissions, answered, `${entry.file}: GET permissions answers what PUT answered`);
      });
    }
  });

  // Its owner password is unknown: authority is checked before the document's state, so the answer is 403
  // (owner needed); the 409 DOCUMENT_SIGNED refusal of signed documents is tested in test/api/permissions.test.ts.
  describe('a signed encrypted document keeps its encryption: DELETE password-permissions without the owner password is 403', () => {
    for (const entry of signed) {
      test(entry.file, async () => {
        const { url, put } = await upload('signed', entry);
        assert.equal(put.status, 201, `${entry.file}: ${put.text.slice(0, 300)}`);
        const reply = await permissions(url, '');
        assert.equal(reply.status, 200, reply.text.slice(0, 300));
        assert.equal(reply.json().passwordPermissions.encrypted, true);
        const before = sha256(await download(url));
        const removed = await call(server, 'DELETE', `${url}/permissions/password-permissions`);
        assert.equal(sha256(await download(url)), before, `${entry.file}: the stored document is unchanged`);
        assert.ok(!qpdfSaysNotEncrypted(await download(url)), `${entry.file}: still encrypted (qpdf)`);
        assertError(removed, 403, 'DOCUMENT_PERMISSION_DENIED', `${entry.file}: DELETE password-permissions`);
        assert.equal(removed.json().permission, 'owner');
      });
    }
  });

  describe(`certificate encryption and unknown passwords answer a 4xx with a code, never 5xx; ${refused.length} files`, () => {
    for (const entry of refused) {
      test(entry.file, async () => {
        const { url, put } = await upload('refused', entry);
        if (entry.publicKey && put.status === 422) {
          // Refused at upload already.
          assert.equal(put.json().code, 'UNSUPPORTED_ENCRYPTION', `${entry.file}: ${put.text.slice(0, 300)}`);
          return;
        }
        assert.equal(put.status, 201, `${entry.file}: ${put.text.slice(0, 300)}`);
        const reply = await permissions(url, '');
        assert.ok(reply.status >= 400 && reply.status < 500, `${entry.file}: GET permissions ${reply.status} ${reply.text.slice(0, 300)}`);
        assert.equal(typeof reply.json().code, 'string', `${entry.file}: ${reply.text.slice(0, 300)}`);
        if (entry.publicKey) {
          assertError(reply, 422, 'UNSUPPORTED_ENCRYPTION', `${entry.file}: GET permissions`);
        } else {
          assertError(reply, 403, 'DOCUMENT_PASSWORD_REQUIRED', `${entry.file}: GET permissions without a password`);
          assertError(await permissions(url, 'definitely-wrong'), 403, 'DOCUMENT_PASSWORD_INVALID', `${entry.file}: GET permissions with a wrong password`);
        }
        const removed = await call(server, 'DELETE', `${url}/permissions/password-permissions`);
        assert.ok(removed.status >= 400 && removed.status < 500, `${entry.file}: DELETE password-permissions ${removed.status} ${removed.text.slice(0, 300)}`);
      });
    }
  });

  test('the server process survived the whole run', async () => {
    assert.equal(server.child.exitCode, null);
    const health = await fetch(`${server.api}/health`);
    assert.equal(health.status, 200);
  });
}
