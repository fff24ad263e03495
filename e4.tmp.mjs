import * as mupdf from 'mupdf';
import { readFileSync } from 'fs';
import { passwordSecurity } from './dist/src/engine/pdf/security.js';
const C = '/work/shared/corpus/';
const src = readFileSync(C + 'pypdf/encryption/unencrypted.pdf');
const extra = {};
for (const [enc, u, o] of [['rc4-128','u',''],['rc4-40','u','o'],['aes-128','','o'],['aes-256','u',''],['aes-256','u','o']]) {
  const doc = mupdf.PDFDocument.openDocument(src, 'application/pdf');
  extra[`${enc} u=${u} o=${o}`] = [doc.saveToBuffer(`encrypt=${enc},user-password=${u},owner-password=${o},permissions=-3904`).asUint8Array().slice(), [u]];
}
const files = { ...extra };
for (const [f, pws] of [['pypdf/encryption/r6-owner-password.pdf', ['', 'asdfzxcv']], ['pypdf/encryption/r6-user-password.pdf', ['asdfzxcv']], ['pypdf/encryption/r6-both-passwords.pdf', ['foo','bar']], ['pypdf/encryption/r5-user-password.pdf', ['asdfzxcv']], ['pdfbox/encryption/PasswordSample-128bit.pdf', ['user', 'owner']], ['pdfbox/encryption/PasswordSample-40bit.pdf', ['user', 'owner']], ['pdfjs/encryption/bug900822.pdf', ['']], ['qpdf/encryption/V4-aes.pdf', ['']], ['pdfjs/encryption/empty_protected.pdf', ['']], ['qpdf/encryption/enc-XI-R6,V5,U=attachment,encrypted-attachments.pdf', ['attachment']], ['qpdf/encryption/metadata-crypt-filter.pdf', ['']], ['qpdf/encryption/encrypted-40-bit-R3.pdf', ['623']], ['pypdf/encryption/r4-user-password.pdf', ['asdfzxcv']]]) files[f] = [readFileSync(C + f), pws];
for (const [f, [bytes, pws]] of Object.entries(files)) for (const pw of pws) {
  const d = mupdf.PDFDocument.openDocument(bytes, 'application/pdf');
  const a = d.authenticatePassword(pw);
  const s = passwordSecurity(d, pw);
  console.log(f.slice(0, 60).padEnd(60), JSON.stringify(pw).padEnd(12), a, 'type', s.encryptType, 'R', s.revision, 'open', s.openPasswordSet, 'perm', s.permissionsPasswordSet, 'att', s.attachmentsOnly, 'meta', s.encryptMetadata);
}
