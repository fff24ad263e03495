import * as mupdf from 'mupdf';
import { execFileSync } from 'child_process';
import { writeFileSync, readFileSync } from 'fs';
const src = readFileSync('/work/shared/corpus/pypdf/encryption/unencrypted.pdf');
const ALL = -4; // all bits
const bits = [3,4,5,6,9,10,11,12];
for (const enc of ['rc4-40','aes-128']) {
  for (const mode of ['only', 'except']) for (const b of bits) {
    let P = mode === 'except' ? (ALL & ~(1 << (b-1))) : (-3904 | (1 << (b-1)));
    const doc = mupdf.PDFDocument.openDocument(src, 'application/pdf');
    const bytes = doc.saveToBuffer(`encrypt=${enc},user-password=u,owner-password=o,permissions=${P}`).asUint8Array().slice();
    writeFileSync('/tmp/p.pdf', bytes);
    const out = execFileSync('qpdf', ['--show-encryption', '--password=u', '/tmp/p.pdf']).toString();
    const allowed = out.split('\n').filter(l => /: (allowed|not allowed)$/.test(l)).map(l => l.replace(/^\s+/, '')).map(l => (l.endsWith('not allowed') ? '-' : '+') + l.replace(/: .*$/, '').replace(/ /g, '_'));
    console.log(enc, mode, b, out.match(/P = (-?\d+)/)[1], allowed.join(' '));
  }
}
