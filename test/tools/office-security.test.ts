import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { BWRAP, sandboxArgs } from '../../src/tools/sandbox.js';
import { libreOffice, officeToPdf } from '../../src/tools/libreoffice.js';
import { ToolSupervisor } from '../../src/tools/supervisor.js';
import { officeFormatOf } from '../../src/operations/conversions/office/formats.js';
import { call, putPdf } from '../helpers/http.js';
import { compoundFileOf, docx, field, fodt, fodtImage, fodtSection, IMAGE_REL, linkedPicture, OLE_REL, oleLink, paragraph, workbook, zipOf } from '../helpers/office-fixtures.js';
import { convertOffice } from '../../src/operations/conversions/office/convert.js';
import { makePdf, pdftotext, withTempFile } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * A Word upload must not make LibreOffice fetch or read anything: every test
 * has a loopback listener that must receive nothing, and canaries outside the
 * data folder (and a document inside it) that must never reach a stored PDF.
 */
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** Word conversions run as background jobs unless the client asks to wait (docs/jobs.md): these uploads wait, and get the inline answer. */
const WAIT = { prefer: 'wait=300' };
const VISIBLE = 'Visible body text';
const PASSWD = 'root:x:0:0';
const tag = randomBytes(4).toString('hex');
const CANARY_TEXT = `CanaryText${tag}`;
const CANARY_PDF = `CanaryPdf${tag}`;
const INSIDE = `InsideData${tag}`;

let server: TestServer;
const requests: string[] = [];
let listener: Server;
let port = 0;
let canaries: string;
let inside: string;

before(async () => {
  server = await startServer();
  const png = execFileSync('convert', ['-size', '40x40', 'xc:red', 'png:-']);
  listener = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': req.url?.endsWith('.txt') ? 'text/plain' : 'image/png' });
    res.end(req.url?.endsWith('.txt') ? `Fetched${tag}` : png);
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  canaries = mkdtempSync(path.join(tmpdir(), 'pdfservice-canary-'));
  writeFileSync(path.join(canaries, 'canary.txt'), `${CANARY_TEXT}\n`);
  writeFileSync(path.join(canaries, 'canary.png'), png);
  writeFileSync(path.join(canaries, 'canary.pdf'), makePdf({ text: () => CANARY_PDF }));
  assert.equal((await putPdf(server, 'secret/inside.pdf', makePdf({ text: () => INSIDE }))).status, 201);
  inside = path.join(server.dataDir, 'documents', 'secret', 'inside.pdf');
});
after(async () => {
  await server.stop();
  await new Promise((resolve) => listener.close(resolve));
  rmSync(canaries, { recursive: true, force: true });
});

// Each test answers for what its own documents made LibreOffice fetch.
beforeEach(() => {
  requests.length = 0;
});

function imageCount(pdf: Buffer): number {
  return withTempFile(pdf, (file) => execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })).trim().split('\n').length - 2;
}

/** Nothing fetched, no canary and no /etc/passwd in the text or the bytes, no picture at all. */
function assertNothingLeaked(pdf: Buffer): void {
  assert.deepEqual(requests, [], 'the loopback listener received nothing');
  const text = pdftotext(pdf);
  for (const marker of [CANARY_TEXT, CANARY_PDF, INSIDE, PASSWD, `Fetched${tag}`]) {
    assert.ok(!text.includes(marker), `the PDF's text holds ${marker}`);
    assert.ok(!pdf.includes(marker), `the PDF's bytes hold ${marker}`);
  }
  assert.equal(imageCount(pdf), 0, 'no linked picture was embedded');
}

/** Uploads a .docx and returns the stored PDF, checking that the document itself was converted. */
async function convert(name: string, bytes: Buffer): Promise<Buffer> {
  const reply = await call(server, 'PUT', `/documents/office/${name}.pdf`, { body: bytes, headers: { 'content-type': DOCX, ...WAIT } });
  assert.equal(reply.status, 201, reply.text);
  const pdf = (await call(server, 'GET', `/documents/office/${name}.pdf`)).bytes;
  assert.match(pdftotext(pdf), new RegExp(VISIBLE));
  return pdf;
}

const fileUrl = (file: string) => `file://${file}`;

/** The service's converter with `scratchRoot` as its own scratch folder (conversions run in folders directly below it). */
async function convertInSandbox(options: { scratchRoot: string; bytes: Buffer; format: 'fodt' | 'docx'; timeoutMs: number }): Promise<Buffer> {
  const tools = new ToolSupervisor([{ ...libreOffice(options.timeoutMs), scratch: '.' }], options.scratchRoot);
  await tools.init();
  const filters = { fodt: ['OpenDocument Text Flat XML', 'writer_pdf_Export'], docx: ['MS Word 2007 XML', 'writer_pdf_Export'] } as const;
  const [importFilter, exportFilter] = filters[options.format];
  try {
    return await officeToPdf(tools, { bytes: options.bytes, extension: options.format, importFilter, exportFilter });
  } finally {
    // The pool keeps its instance warm after the conversion: stopping it, as the service does at shutdown, ends it and removes its home.
    await tools.close();
  }
}

test('a picture linked by an external relationship to a loopback URL is not fetched', async () => {
  const pdf = await convert('http-picture', docx(paragraph(VISIBLE) + linkedPicture('rIdWeb', 1), [{ id: 'rIdWeb', type: IMAGE_REL, target: `http://127.0.0.1:${port}/x.png` }]));
  assertNothingLeaked(pdf);
});

test('pictures linked to file:// URLs outside and inside the data folder are not read', async () => {
  const targets = [path.join(canaries, 'canary.png'), path.join(canaries, 'canary.pdf'), inside, '/etc/passwd'];
  const body = paragraph(VISIBLE) + targets.map((_, i) => linkedPicture(`rIdFile${i}`, i + 1)).join('');
  const pdf = await convert('file-pictures', docx(body, targets.map((target, i) => ({ id: `rIdFile${i}`, type: IMAGE_REL, target: fileUrl(target) }))));
  assertNothingLeaked(pdf);
});

test('INCLUDEPICTURE and INCLUDETEXT fields fetch and read nothing', async () => {
  const fields = [
    `INCLUDEPICTURE "http://127.0.0.1:${port}/field.png" \\d`,
    `INCLUDEPICTURE "${fileUrl(path.join(canaries, 'canary.png'))}" \\d`,
    `INCLUDEPICTURE "${inside}" \\d`,
    `INCLUDETEXT "http://127.0.0.1:${port}/field.txt"`,
    'INCLUDETEXT "file:///etc/passwd"',
    'INCLUDETEXT "/etc/passwd"',
    `INCLUDETEXT "${path.join(canaries, 'canary.txt')}"`,
    `INCLUDETEXT "${fileUrl(path.join(canaries, 'canary.txt'))}"`,
  ];
  const pdf = await convert('fields', docx(paragraph(VISIBLE) + fields.map(field).join('')));
  assertNothingLeaked(pdf);
});

test('OLE links to files outside and inside the data folder are not followed', async () => {
  const body = paragraph(VISIBLE) + oleLink('rIdOle1', 'rIdPic1', 1) + oleLink('rIdOle2', 'rIdPic2', 2);
  const pdf = await convert('ole-link', docx(body, [
    { id: 'rIdOle1', type: OLE_REL, target: fileUrl(path.join(canaries, 'canary.pdf')) },
    { id: 'rIdPic1', type: IMAGE_REL, target: `http://127.0.0.1:${port}/ole.png` },
    { id: 'rIdOle2', type: OLE_REL, target: fileUrl(inside) },
    { id: 'rIdPic2', type: IMAGE_REL, target: fileUrl(path.join(canaries, 'canary.png')) },
  ]));
  assertNothingLeaked(pdf);
});

/** A compound file with one empty stream of that name (the structure of a .doc, .xls or .ppt). */
const compoundFile = (stream: string): Buffer => compoundFileOf([[stream, Buffer.alloc(0)]]);

test('Word uploads are recognised by their structure: other packages and compound files are 422 MALFORMED_DOCUMENT', async () => {
  const contentTypes = (type: string, part: string) =>
    `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/${part}" ContentType="${type}"/></Types>`;
  const xlsx = zipOf({ '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml', 'xl/workbook.xml'), 'xl/workbook.xml': '<workbook/>', 'word/document.xml': '<w/>' });
  // A text document LibreOffice opens, whose uncompressed text says "word/" (once enough to pass for a .docx).
  const odt = zipOf({
    mimetype: 'application/vnd.oasis.opendocument.text',
    'META-INF/manifest.xml':
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
      '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
      '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    'content.xml':
      '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
      `xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"><office:body><office:text><text:p>${VISIBLE} in word/</text:p></office:text></office:body></office:document-content>`,
  }, ['mimetype', 'content.xml']);
  const missingPart = zipOf({ '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml', 'word/document.xml') });
  const cases: Array<[string, Buffer, string, RegExp]> = [
    ['odt', odt, DOCX, /is an OpenDocument text \(\.odt\), not a Word \.docx document/],
    ['xlsx', xlsx, DOCX, /is an Excel \.xlsx workbook, not a Word \.docx document/],
    ['missing-part', missingPart, DOCX, /no Word, Excel or PowerPoint main part/],
    ['xls', compoundFile('Workbook'), 'application/msword', /is an Excel 97-2003 \.xls workbook, not a Word 97-2003 \.doc document/],
    ['fodt-as-docx', fodt(`<text:p>${VISIBLE}</text:p>`), DOCX, /is a flat OpenDocument text \(\.fodt\), not a Word \.docx document/],
  ];
  for (const [name, body, type, detail] of cases) {
    const reply = await call(server, 'PUT', `/documents/office/${name}.pdf`, { body, headers: { 'content-type': type, ...WAIT } });
    assert.equal(reply.status, 422, `${name}: ${reply.text}`);
    assert.equal(reply.json().code, 'MALFORMED_DOCUMENT');
    assert.match(reply.json().detail, detail);
    assert.equal((await call(server, 'GET', `/documents/office/${name}.pdf`)).status, 404, `${name} was not stored`);
  }
  assert.equal(officeFormatOf(compoundFile('WordDocument'), 'doc'), 'doc');
  assert.deepEqual(requests, []);
});

test('a flat ODF (.fodt) with a linked picture converts without the picture and fetches nothing; declared as a zipped .odt it is 422', async () => {
  const body = fodt(`<text:p>${VISIBLE}</text:p>` + fodtImage(`http://127.0.0.1:${port}/fodt.png`, 1));
  const typed = await call(server, 'PUT', '/documents/office/typed-fodt.pdf', { body, headers: { 'content-type': 'application/vnd.oasis.opendocument.text', ...WAIT } });
  assert.equal(typed.status, 422, typed.text);
  assert.equal(typed.json().code, 'MALFORMED_DOCUMENT');
  assert.match(typed.json().detail, /flat OpenDocument text/);
  await call(server, 'PUT', '/documents/office-form');
  const form = new FormData();
  form.append('file', new Blob([body as BlobPart], { type: 'application/octet-stream' }), 'linked.fodt');
  const posted = await call(server, 'POST', '/documents/office-form', { body: form, headers: WAIT });
  assert.equal(posted.status, 201, posted.text);
  const pdf = (await call(server, 'GET', '/documents/office-form/linked.pdf')).bytes;
  assert.match(pdftotext(pdf), new RegExp(VISIBLE));
  assert.equal(imageCount(pdf), 0, 'no picture in the PDF');
  assert.equal((await call(server, 'GET', '/documents/office/typed-fodt.pdf')).status, 404);
  assert.deepEqual(requests, []);
});

test('the converter itself, given a .fodt with linked pictures and sections, fetches and reads nothing', async () => {
  const scratchRoot = mkdtempSync(path.join(tmpdir(), 'pdfservice-office-engine-'));
  try {
    const body = fodt(
      `<text:p>${VISIBLE}</text:p>` +
        fodtImage(`http://127.0.0.1:${port}/fodt.png`, 1) +
        fodtImage(fileUrl(path.join(canaries, 'canary.png')), 2) +
        fodtImage(fileUrl(path.join(canaries, 'canary.pdf')), 3) +
        fodtImage(fileUrl(inside), 4) +
        fodtSection('file:///etc/passwd', 1) +
        fodtSection(fileUrl(path.join(canaries, 'canary.txt')), 2) +
        fodtSection(`http://127.0.0.1:${port}/section.txt`, 3),
    );
    const pdf = await convertInSandbox({ scratchRoot, bytes: body, format: 'fodt', timeoutMs: 120_000 });
    assert.match(pdftotext(pdf), new RegExp(VISIBLE));
    assertNothingLeaked(pdf);
    assert.deepEqual(readdirSync(scratchRoot), [], 'the scratch folder is removed');
  } finally {
    rmSync(scratchRoot, { recursive: true, force: true });
  }
});

test('the sandbox has an empty environment, no network, and sees neither the data folder nor the host files', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'pdfservice-sandbox-'));
  try {
    const run = (command: string[]) => spawnSync(BWRAP, sandboxArgs(scratch, command), { encoding: 'utf8', env: { ...process.env, PDFSERVICE_ADMIN_PASSWORD: 'secret-admin-password' } });
    const env = run(['/usr/bin/env']);
    assert.equal(env.status, 0, env.stderr);
    const names = env.stdout.trim().split('\n').map((line) => line.split('=')[0]).sort();
    assert.deepEqual(names, ['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR']); // PWD: bwrap's --chdir
    assert.match(env.stdout, new RegExp(`^HOME=${scratch}$`, 'm'));
    for (const hidden of ['/etc/passwd', path.join(canaries, 'canary.txt'), inside, server.dataDir, '/root', '/home']) {
      assert.notEqual(run(['/usr/bin/ls', hidden]).status, 0, `${hidden} is visible in the sandbox`);
    }
    // Only the mount point of the scratch folder itself, when it lies in /tmp.
    const tmp = run(['/usr/bin/ls', '-A', '/tmp']).stdout.trim().split('\n').filter(Boolean);
    assert.deepEqual(tmp, scratch.startsWith('/tmp/') ? [scratch.split('/')[2]] : [], "the host's /tmp is not in the sandbox");
    writeFileSync(path.join(scratch, 'written'), 'x');
    assert.equal(run(['/usr/bin/cat', path.join(scratch, 'written')]).stdout, 'x', 'the scratch folder is');
    // A tool's read-only folder (the veraPDF jars) is visible even under the host's /tmp, which the sandbox replaces.
    const toolDir = mkdtempSync(path.join(tmpdir(), 'pdfservice-tool-dir-'));
    try {
      writeFileSync(path.join(toolDir, 'tool.jar'), 'jar');
      const seen = spawnSync(BWRAP, sandboxArgs(scratch, ['/usr/bin/cat', path.join(toolDir, 'tool.jar')], [toolDir]), { encoding: 'utf8' });
      assert.equal(seen.stdout, 'jar', `a read-only tool folder in ${tmpdir()} is visible: ${seen.stderr}`);
    } finally {
      rmSync(toolDir, { recursive: true, force: true });
    }
    const connect = run(['/usr/bin/bash', '-c', `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET /from-sandbox HTTP/1.0\\r\\n\\r\\n' >&3`]);
    assert.notEqual(connect.status, 0, 'a connection to the loopback listener failed');
    assert.deepEqual(requests, []);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

/** Processes whose command line names `text`, with their argv[0] and environment. */
function processesNaming(text: string): Array<{ pid: number; argv0: string; environ: string[] }> {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!argv.some((arg) => arg.includes(text))) continue;
      found.push({ pid: Number(entry), argv0: argv[0]!, environ: readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').filter(Boolean) });
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

async function waitFor<T>(what: string, seconds: number, probe: () => T | undefined): Promise<T> {
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
    const value = probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting until ${what}`);
}

test('a conversion over its time limit is stopped with all its processes, and its scratch folder removed', async () => {
  const scratchRoot = mkdtempSync(path.join(tmpdir(), 'pdfservice-office-timeout-'));
  try {
    // The limit is the conversion's (a warm instance's start has its own, startTimeoutMs): a document of 6,000
    // paragraphs takes LibreOffice far longer than this to lay out and export, so the limit strikes mid-conversion.
    const long = docx(Array.from({ length: 6000 }, (_, i) => paragraph(`${VISIBLE} ${i} ${'lorem ipsum dolor sit amet '.repeat(6)}`)).join(''));
    await assert.rejects(
      convertInSandbox({ scratchRoot, bytes: long, format: 'docx', timeoutMs: 300 }),
      (err: Error & { code?: string }) => err.code === 'ENGINE_TIMEOUT',
    );
    await waitFor('no process of the conversion is left', 5, () => (processesNaming(scratchRoot).length === 0 ? true : undefined));
    assert.deepEqual(readdirSync(scratchRoot), []);
  } finally {
    rmSync(scratchRoot, { recursive: true, force: true });
  }
});

test('a conversion over its time limit names the format it converted, not "Word conversion"', async () => {
  const scratchRoot = mkdtempSync(path.join(tmpdir(), 'pdfservice-office-timeout-name-'));
  // A limit no conversion meets (the instance's start has its own limit): the request to the warm instance times out.
  const tools = new ToolSupervisor([{ ...libreOffice(1), scratch: '.' }], scratchRoot);
  try {
    await tools.init();
    // The conversion stops before its output is finished: no engine task may run.
    const noEngine = { run: () => Promise.reject(new Error('no engine task runs after a timed-out conversion')) };
    await assert.rejects(convertOffice(tools, noEngine, { bytes: workbook(['Timed']), format: 'xlsx' }), (err: Error & { code?: string; detail?: string }) => {
      assert.equal(err.code, 'ENGINE_TIMEOUT');
      assert.match(err.detail ?? '', /The conversion of an Excel \.xlsx workbook took too long/);
      assert.doesNotMatch(err.detail ?? '', /Word/);
      return true;
    });
  } finally {
    await tools.close();
    rmSync(scratchRoot, { recursive: true, force: true });
  }
});

test('soffice runs with a minimal environment, dies with a killed service, and a restart removes its scratch folder', async () => {
  const killed = await startServer();
  const scratchRoot = path.join(killed.dataDir, 'office-scratch');
  try {
    // Long enough that soffice is still converting when the service is killed.
    const long = docx(Array.from({ length: 6000 }, (_, i) => paragraph(`${VISIBLE} ${i} ${'lorem ipsum dolor sit amet '.repeat(6)}`)).join(''));
    const upload = call(killed, 'PUT', '/documents/long.pdf', { body: long, headers: { 'content-type': DOCX, ...WAIT } }).catch(() => undefined);
    const soffice = await waitFor('soffice runs', 60, () => processesNaming(scratchRoot).find((p) => p.argv0.endsWith('soffice.bin')));
    const names = soffice.environ.map((line) => line.split('=')[0]!);
    assert.deepEqual(names.filter((name) => name.startsWith('PDFSERVICE_')), []);
    assert.ok(!soffice.environ.some((line) => line.includes('admin-test-password')), 'the admin password is not in its environment');
    assert.ok(soffice.environ.some((line) => line.startsWith(`HOME=${scratchRoot}/`)), 'HOME is the scratch folder');
    assert.ok(readdirSync(scratchRoot).length > 0);
    killed.child.kill('SIGKILL');
    await upload;
    await waitFor('no process of the conversion is left', 5, () => (processesNaming(scratchRoot).length === 0 ? true : undefined));
    assert.ok(readdirSync(scratchRoot).length > 0, 'the killed service left its scratch folder');
    const restarted = await startServer({ dataDir: killed.dataDir });
    await restarted.stop();
    assert.ok(existsSync(scratchRoot));
    assert.deepEqual(readdirSync(scratchRoot), [], 'the restart removed the scratch folder of the killed conversion');
  } finally {
    await killed.stop();
    rmSync(killed.dataDir, { recursive: true, force: true });
  }
});

