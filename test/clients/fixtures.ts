import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { jpegOf, renderGray } from '../helpers/ocr-fixtures.js';
import { docx, paragraph } from '../helpers/office-fixtures.js';
import { makePdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
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
