/**
 * The `pdfa` option of HTML and Markdown uploads (docs/html.md, "PDF/A"): the printed, finished PDF converted by the
 * project's PDF/A conversion, judged by veraPDF in a JVM of the test's own.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call } from '../helpers/http.js';
import { withTempFile } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';
import { verapdfVerdict } from '../helpers/verapdf.js';

const CHROMIUM = '/usr/lib/chromium/chromium';

function pdfinfo(bytes: Buffer): Record<string, string> {
  const out = execFileSync('pdfinfo', ['-'], { input: bytes }).toString('utf8');
  return Object.fromEntries(out.split('\n').filter((line) => line.includes(':')).map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]));
}

/** The catalog's XMP packet and its /Lang, by qpdf (the stream's data, decoded). */
function catalogOf(bytes: Buffer): { xmp: string; lang: unknown } {
  const out = withTempFile(bytes, (file) => execFileSync('qpdf', ['--json=2', '--json-key=qpdf', '--decode-level=all', '--json-stream-data=inline', file], { maxBuffer: 64 << 20 }));
  const json = JSON.parse(out.toString('utf8')) as {
    qpdf: [unknown, Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown>; data?: string } }>];
  };
  const objects = json.qpdf[1];
  const root = Object.values(objects).find((object) => object.value?.['/Type'] === '/Catalog')?.value;
  assert.ok(root, 'no catalog');
  const ref = root['/Metadata'] as string | undefined;
  assert.ok(ref, 'the catalog has no /Metadata');
  const stream = objects[`obj:${ref}`]?.stream;
  assert.ok(stream?.data, `no metadata stream ${ref}`);
  return { xmp: Buffer.from(stream.data, 'base64').toString('utf8'), lang: root['/Lang'] };
}

const page = '<!DOCTYPE html><html lang="en"><head><title>Archive copy</title></head><body><h1>Archive copy</h1><p>Kept for ten years.</p><h2>Terms</h2><p>Payable within 30 days.</p></body></html>';

describe('HTML and Markdown uploads with pdfa', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1', PDFSERVICE_CHROMIUM_TIMEOUT_MS: '8000' } });

  test('pdfa=pdfa2b: veraPDF finds the stored PDF PDF/A-2b, with its text, title, tags and outline; without it, it is not', async () => {
    const plain = await call(server, 'PUT', '/documents/pdfa/plain.pdf', { body: Buffer.from(page), headers: { 'content-type': 'text/html' } });
    assert.equal(plain.status, 201, plain.text);
    const before = await verapdfVerdict((await call(server, 'GET', '/documents/pdfa/plain.pdf')).bytes, '2b');
    assert.equal(before.compliant, false, 'Chromium alone writes no PDF/A: the option is what makes it');

    const reply = await call(server, 'PUT', '/documents/pdfa/archive.pdf?pdfa=pdfa2b&author=Jane%20Doe', { body: Buffer.from(page), headers: { 'content-type': 'text/html' } });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.json().pageCount, 1);
    const pdf = (await call(server, 'GET', '/documents/pdfa/archive.pdf')).bytes;
    const verdict = await verapdfVerdict(pdf, '2b');
    assert.ok(verdict.compliant, `PDF/A-2b failed: ${JSON.stringify(verdict.rules)}`);
    const text = execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString('utf8');
    assert.match(text, /Kept for ten years\./);
    const info = pdfinfo(pdf);
    assert.equal(info.Title, 'Archive copy');
    assert.equal(info.Author, 'Jane Doe');
    assert.equal(info.Tagged, 'yes', 'the structure tree is kept');
    const outline = await call(server, 'GET', '/documents/pdfa/archive.pdf/outline');
    assert.match(outline.text, /Terms/);
    const { xmp, lang } = catalogOf(pdf);
    assert.equal(lang, 'u:en', 'the catalog keeps the language');
    assert.match(xmp, /<pdfaid:part>2<\/pdfaid:part>/);
    assert.match(xmp, /<pdfaid:conformance>B<\/pdfaid:conformance>/);
    // The PDF/A conversion writes the XMP anew: the PDF/UA claim and dc:language do not survive (docs/html.md, "PDF/A").
    assert.doesNotMatch(xmp, /pdfuaid/);
    assert.doesNotMatch(xmp, /dc:language/);
  });

  test('Markdown with pdfa=pdfa1b is PDF/A-1b by veraPDF', async () => {
    const markdown = '# Minutes\n\n| Item | Owner |\n|---|---|\n| Budget | Ann |\n';
    const reply = await call(server, 'PUT', '/documents/pdfa/minutes.pdf?pdfa=pdfa1b&language=en', { body: Buffer.from(markdown), headers: { 'content-type': 'text/markdown' } });
    assert.equal(reply.status, 201, reply.text);
    const pdf = (await call(server, 'GET', '/documents/pdfa/minutes.pdf')).bytes;
    const verdict = await verapdfVerdict(pdf, '1b');
    assert.ok(verdict.compliant, `PDF/A-1b failed: ${JSON.stringify(verdict.rules)}`);
    assert.match(execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8'), /Budget\s+Ann/);
  });

  test('a form upload takes it too; an unknown flavour is 400 and nothing is stored', async () => {
    const form = new FormData();
    form.append('file', new Blob([page], { type: 'text/html' }), 'index.html');
    const reply = await call(server, 'POST', '/documents/pdfa?pdfa=pdfa3b&namingMode=1', { body: form });
    assert.equal(reply.status, 201, reply.text);
    const pdf = (await call(server, 'GET', `/documents/${String(reply.json().path).replace(/^\/+/, '')}`)).bytes;
    assert.ok((await verapdfVerdict(pdf, '3b')).compliant, 'PDF/A-3b expected');

    const bad = await call(server, 'PUT', '/documents/pdfa/bad.pdf?pdfa=pdfa2u', { body: Buffer.from(page), headers: { 'content-type': 'text/html' } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal((await call(server, 'GET', '/documents/pdfa/bad.pdf')).status, 404);
  });

  test('a one-shot conversion (/convert) of a page takes pdfa (and pageRange) as an upload does', async () => {
    const body = new FormData();
    const twoPages = page.replace('<h2>', '<h2 style="page-break-before: always">');
    body.append('file', new Blob([twoPages], { type: 'text/html' }), 'index.html');
    body.append('steps', '[]');
    const reply = await call(server, 'POST', '/convert?pdfa=pdfa2b&pageRange=2', { body });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(pdfinfo(reply.bytes).Pages, '1');
    assert.match(execFileSync('pdftotext', ['-', '-'], { input: reply.bytes }).toString('utf8'), /Payable within 30 days/);
    const verdict = await verapdfVerdict(reply.bytes, '2b');
    assert.ok(verdict.compliant, `PDF/A-2b failed: ${JSON.stringify(verdict.rules)}`);
  });
});
