import * as mupdf from 'mupdf';
import { readFileSync, writeFileSync } from 'fs';
import { execFileSync } from 'child_process';
const src = readFileSync('/work/shared/corpus/pypdf/encryption/unencrypted.pdf');
for (const pw of ['a,b', 'x=y', 'sp ace', 'pässwört', 'a\\,b']) {
  const doc = mupdf.PDFDocument.openDocument(src, 'application/pdf');
  try {
  const b = doc.saveToBuffer(`encrypt=aes-256,user-password=${pw},owner-password=own,permissions=-3904`).asUint8Array().slice();
  writeFileSync('/tmp/pw.pdf', b);
  const d = mupdf.PDFDocument.openDocument(b, 'application/pdf');
  let q; try { execFileSync('qpdf', ['--check', `--password=${pw}`, '/tmp/pw.pdf'], {stdio: 'pipe'}); q = 'qpdf ok'; } catch (e) { q = 'qpdf fail'; }
  console.log(JSON.stringify(pw), 'auth', d.authenticatePassword(pw), q);
  } catch (e) { console.log(JSON.stringify(pw), 'ERR', String(e).slice(0, 100)); }
}
