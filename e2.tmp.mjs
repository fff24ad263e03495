import * as mupdf from 'mupdf';
import { readFileSync } from 'fs';
const src = readFileSync('/work/shared/corpus/pypdf/encryption/unencrypted.pdf');
for (const enc of ['rc4-128','aes-256']) {
  const doc = mupdf.PDFDocument.openDocument(src, 'application/pdf');
  const bytes = doc.saveToBuffer(`encrypt=${enc},user-password=,owner-password=,permissions=-3904`).asUint8Array().slice();
  const d2 = mupdf.PDFDocument.openDocument(bytes, 'application/pdf');
  console.log(enc, 'both empty: needs', d2.needsPassword(), 'auth empty', d2.authenticatePassword(''));
  const b2 = doc.saveToBuffer(`encrypt=${enc},user-password=same,owner-password=same,permissions=-3904`).asUint8Array().slice();
  const d3 = mupdf.PDFDocument.openDocument(b2, 'application/pdf');
  console.log(enc, 'same: auth same', d3.authenticatePassword('same'));
}
const C = '/work/shared/corpus/';
for (const [f, pws] of [['pypdf/encryption/r6-owner-password.pdf', ['', 'asdfzxcv']], ['pypdf/encryption/r6-user-password.pdf', ['', 'asdfzxcv']], ['pypdf/encryption/r5-user-password.pdf', ['', 'asdfzxcv']], ['pdfbox/encryption/PasswordSample-128bit.pdf', ['', 'user', 'owner']], ['pdfjs/encryption/bug900822.pdf', ['']], ['qpdf/encryption/V4-aes.pdf', ['']], ['pdfjs/encryption/empty_protected.pdf', ['']], ['pdfjs/encryption/issue21579.pdf', ['pässwört', 'pa\u0308sswo\u0308rt']]]) {
  for (const pw of pws) {
    const d = mupdf.PDFDocument.openDocument(readFileSync(C + f), 'application/pdf');
    console.log(f, JSON.stringify(pw), 'needs', d.needsPassword(), 'auth', d.authenticatePassword(pw));
  }
}
