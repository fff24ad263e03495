import * as mupdf from 'mupdf';
import { execFileSync } from 'child_process';
import { writeFileSync, readFileSync } from 'fs';
mupdf.setLog?.(()=>{});
const src = readFileSync('/work/shared/corpus/pypdf/encryption/unencrypted.pdf');
for (const enc of ['rc4-40','rc4-128','aes-128','aes-256']) {
  const doc = mupdf.PDFDocument.openDocument(src, 'application/pdf');
  const perms = -3904 | 4 | 16; // print + copy
  const buf = doc.saveToBuffer(`encrypt=${enc},user-password=,owner-password=own,permissions=${perms},garbage=1,compress=yes`);
  const bytes = buf.asUint8Array().slice();
  writeFileSync(`/tmp/enc-${enc}.pdf`, bytes);
  let out; try { out = execFileSync('qpdf', ['--show-encryption', '--password=own', `/tmp/enc-${enc}.pdf`]).toString(); } catch (e) { out = 'ERR ' + e.stdout + e.stderr; }
  console.log('==', enc, out.split('\n').slice(0, 14).join(' | '));
  const d2 = mupdf.PDFDocument.openDocument(bytes, 'application/pdf');
  console.log('needsPw', d2.needsPassword(), 'auth empty', d2.authenticatePassword(''), 'auth own', d2.authenticatePassword('own'), 'enc meta', d2.getMetaData('encryption'));
  const e = d2.getTrailer().get('Encrypt');
  console.log('Encrypt', e.toString().slice(0, 300).replace(/<[0-9a-f]{20,}>/g, '<hex>'));
}
