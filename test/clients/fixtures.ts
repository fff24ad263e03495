import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { jpegOf, renderGray } from '../helpers/ocr-fixtures.js';
import { docx, paragraph } from '../helpers/office-fixtures.js';
import { makePdf, pdftotext, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { pdfsig } from '../helpers/signing.js';
import { ADMIN } from '../helpers/server.js';
import { REPO } from '../helpers/doc-examples.js';

/** What the client tests share (test/clients/): where the packages are, and a small image to upload. */
export { REPO };
export const CLIENTS = path.join(REPO, 'clients');
/** A 16x16 PNG (the README's logo.png). */
export const PNG_16 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAMAAAAoLQ9TAAAAA1BMVEXMMzN0dFbYAAAADUlEQVQY02NgGAXIAAABEAAB7JfjegAAAABJRU5ErkJggg==', 'base64');

/**
 * What a client's flows example (clients/typescript/examples/flows.ts, clients/python/examples/flows.py) printed
 * and wrote in `folder`: the same flows, so the same lines, and a download that qpdf and pdftotext read.
 */
export async function checkFlows(stdout: string, folder: string): Promise<void> {
  const lines = stdout.trim().split('\n');
  assert.equal(lines[0], `signed in as ${ADMIN.username}`);
  assert.ok(lines.includes('q1.pdf: 3 pages'), stdout);
  assert.ok(lines.includes('minutes.pdf: 1 pages'), stdout);
  assert.equal(lines.filter((l) => l.startsWith('job ')).at(-1), 'job end succeeded 100%', stdout);
  assert.match(lines.at(-1)!, /^error 404 DOCUMENT_NOT_FOUND /);

  const approved = await readFile(path.join(folder, 'q1-approved.pdf'));
  assert.ok(qpdfCheck(approved).ok, 'qpdf --check passes on the download');
  const text = pdftotext(approved);
  assert.match(text, /Quarterly report page 1/);
  assert.match(text, /APPROVED/, 'the stamp the job made is in the downloaded document');
}

/** The inputs of the clients' convert example (clients/typescript/examples/convert.ts, clients/python/examples/convert.py): a Word file and a scanned page (a JPEG). */
export async function writeConvertInputs(folder: string): Promise<void> {
  await writeFile(path.join(folder, 'minutes.docx'), docx(paragraph('Minutes of the meeting')));
  await writeFile(path.join(folder, 'scan.jpg'), jpegOf(renderGray(makePdf({ text: () => 'Delivery note 42' }), 0, 100), 85));
}

/**
 * What a client's convert example printed and wrote: the Word file converted, made PDF/A-2b and optimized in one
 * request; the image converted and stamped by a job; the refused step's problem.
 */
export async function checkConvert(stdout: string, folder: string): Promise<void> {
  const lines = stdout.trim().split('\n');
  assert.deepEqual(lines, ['converted minutes.pdf application/pdf', 'job succeeded scan.pdf', 'error 404 PROFILE_NOT_FOUND'], stdout);
  const minutes = await readFile(path.join(folder, 'minutes.pdf'));
  assert.ok(qpdfCheck(minutes).ok, 'qpdf --check passes on the converted Word file');
  assert.match(pdftotext(minutes), /Minutes of the meeting/);
  assert.match(minutes.toString('latin1'), /pdfaid:part[^0-9]{0,4}2/, 'the result claims PDF/A-2 in its XMP metadata');
  const scan = await readFile(path.join(folder, 'scan.pdf'));
  assert.ok(qpdfCheck(scan).ok, 'qpdf --check passes on the job\'s result');
  assert.match(pdftotext(scan), /RECEIVED/, 'the stamp the job made is in its result');
}

/**
 * The inputs of the clients' areas example (clients/typescript/examples/areas.ts, clients/python/examples/areas.py),
 * as the docs pages' set-up blocks make them: a three-page report, a Word file, a letter scanned as a 150 dpi PNG, and Jane Doe's
 * self-signed key store (password "secret") made by the openssl commands the pages show.
 */
export async function writeAreasInputs(folder: string): Promise<void> {
  await writeFile(path.join(folder, 'q1.pdf'), makePdf({ pages: 3, text: (p) => `Quarterly report page ${p + 1}` }));
  await writeFile(path.join(folder, 'minutes.docx'), docx(paragraph('Minutes of the meeting')));
  await writeFile(path.join(folder, 'claim.pdf'), makeFormPdf());
  const letter = makePdf({ text: () => 'Dear Jane, the signed copy is enclosed.' });
  await writeFile(path.join(folder, 'letter.png'), withTempFile(letter, (file) => execFileSync('pdftoppm', ['-png', '-r', '150', '-singlefile', file])));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'jane.key', '-out', 'jane.crt', '-subj', '/CN=Jane Doe', '-days', '365');
  openssl('pkcs12', '-export', '-inkey', 'jane.key', '-in', 'jane.crt', '-passout', 'pass:secret', '-out', 'jane.p12');
}

/** What a client's areas example printed and wrote: each page's flow done, its files read by poppler and qpdf. */
export async function checkAreas(stdout: string, folder: string): Promise<void> {
  const lines = stdout.trim().split('\n');
  assert.equal(lines.filter((l) => l.startsWith('job ')).at(-1), 'job end succeeded', stdout);
  assert.deepEqual(lines.filter((l) => !l.startsWith('job ')), [
    'OCR: /scans/letter-ocr.pdf',
    'PDF/A-2b: false', // the report is no PDF/A
    'PDF/A copy: /archive/contract-pdfa.pdf',
    'pages: 3',
    'signed by Jane Doe',
    'notes: note-1',
    'marked: 1',
    'encrypted: true',
    'bookmarks: 2',
    'title: Quarterly report',
    'attachments: figures.csv Q1;1200',
    'sanitized: /public/q1.pdf',
    'compared: changed 0 inserted 0 deleted 0', // compare.md: the sanitized copy draws the same pages
    'optimized: /small/q1.pdf',
    'pipeline: /archive/q1-house.pdf',
    'watched folder run: succeeded',
    'summary: 2 pages',
    'split: /reports/2026/summary-pages/summary-1.pdf /reports/2026/summary-pages/summary-2.pdf',
    'blank pages: []',
    'bates: ACME-000001 to ACME-000004 next set from 5', // page-numbers.md: the two-page summary, then its two single pages
    'handout: 2 sheets', // page-layout.md: 4-up of the report's pages
    'merged: 8 pages', // the table of contents, q1's five pages (three and the two inserted), the annex's first two
    'fields: 12',
    'versions: 2 restored: upload',
    'printed /reports/2026/report.pdf',
    'PDF/UA-1: true', // accessibility.md: the tagged Markdown print passes
    'exported: # Quarterly report', // export.md: its heading comes back as one
    'webhook secret rotated: yes', // webhooks.md: a rotation answers a new secret
  ], stdout);
  const read = (name: string) => readFile(path.join(folder, name));
  // Getting started: converted, OCR'd, signed.
  const letter = await read('letter.pdf');
  assert.match(pdftotext(letter), /signed copy is enclosed/);
  const [signature] = pdfsig(letter);
  assert.equal(signature?.commonName, 'Jane Doe');
  assert.match(signature?.validation ?? '', /Signature is Valid/);
  assert.match(pdftotext(await read('letter-ocr.pdf')), /signed copy is enclosed/);
  assert.match(await readFile(path.join(folder, 'q1.txt'), 'utf8'), /Quarterly report page 3/);
  assert.deepEqual([...(await read('page1.png')).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const stamped = await read('q1-stamped.pdf');
  assert.ok(qpdfCheck(stamped).ok);
  // Turned 45 degrees, the stamp comes out of pdftotext a letter a line: read in content order (-raw), spaces dropped.
  const raw = withTempFile(stamped, (file) => execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }));
  assert.equal((raw.replace(/\s+/g, '').match(/CONFIDENTIAL/g) ?? []).length, 3, `the stamp on every page: ${raw}`);
  // The set's last document: its one page carries the set's last number, the sequence having run through the others.
  const lastOfSet = await read('summary-2-bates.pdf');
  assert.ok(qpdfCheck(lastOfSet).ok);
  assert.match(pdftotext(lastOfSet), /ACME-000004/);
  assert.doesNotMatch(pdftotext(lastOfSet), /ACME-00000[1-3]/);
  const redacted = pdftotext(await read('annex-redacted.pdf'));
  assert.match(redacted, /Quarterly report page 1/);
  assert.doesNotMatch(redacted, /page 2/, 'the redacted text is gone');
  const minutes = await read('minutes-pdfa.pdf');
  assert.match(pdftotext(minutes), /Minutes of the meeting/);
  assert.match(minutes.toString('latin1'), /pdfaid:part[^0-9]{0,4}2/, 'LibreOffice wrote PDF/A-2');
  assert.match(await readFile(path.join(folder, 'claim.xfdf'), 'utf8'), /<value>Jane Doe<\/value>/, 'the value set is in the exported field data');
  // The form's first version, read back by versionId: the upload, before the value was set.
  const first = await read('claim-first.pdf');
  assert.ok(qpdfCheck(first).ok);
  assert.equal(first.compare(await readFile(path.join(folder, 'claim.pdf'))), 0, 'the first version is the uploaded bytes');
}
