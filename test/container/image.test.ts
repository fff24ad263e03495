/**
 * The container image (Containerfile, docs/container.md), built and run with podman on this machine: it runs as an
 * unprivileged user, keeps its data in a volume, takes settings from the environment, answers its HEALTHCHECK, stores
 * an uploaded PDF, converts an Office file (a generated DOCX and a real-world one from ../shared/corpus/office), runs
 * OCR and a PDF/A conversion, every result checked on the host with qpdf, pdftotext and pdfinfo (PDF/A also by the
 * image's veraPDF through the preflight route), and on SIGTERM finishes a request under way and exits 0. A second
 * container on the same volume finds the documents. Its own group (bash scripts/run.sh test container): the first
 * build takes many minutes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildImage, exitStatus, podman, removeAll, startContainer, testName, type Container } from '../helpers/container.js';
import { call, sha256 } from '../helpers/http.js';
import { imagePdf, renderGray, textPdfs } from '../helpers/ocr-fixtures.js';
import { wordDocument } from '../helpers/office-fixtures.js';
import { makePdf, paddedPdf, pdfinfo, pdftotext, qpdfCheck } from '../helpers/pdf.js';

const WAIT = { prefer: 'wait=300' };
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const CORPUS = process.env.PDFSERVICE_CORPUS ?? fileURLToPath(new URL('../../../../shared/corpus', import.meta.url));
const CORPUS_DOCX = path.join(CORPUS, 'office', 'tika', 'testWORD_various.docx');

let image: string;
let service: Container;
const volume = testName('data');
const containers: string[] = [];

before(async () => {
  const started = Date.now();
  image = await buildImage();
  console.log(`image ${image} (built or found in ${Math.round((Date.now() - started) / 1000)} s)`);
  service = await startContainer(image, volume, { PDFSERVICE_LOG_LEVEL: 'warn' });
  containers.push(service.name);
});

after(async () => {
  await removeAll(containers, [volume]);
});

async function stored(doc: string): Promise<Buffer> {
  const reply = await call(service, 'GET', `/documents/${doc}`);
  assert.equal(reply.status, 200, reply.text);
  return reply.bytes;
}

test('runs as an unprivileged user, from the environment, with every tool available and a passing HEALTHCHECK', async () => {
  assert.equal(await podman(['exec', service.name, 'id', '-un']), 'pdfservice');
  // The fixed ids docs/container.md gives for a bind-mounted data folder.
  assert.equal(await podman(['exec', service.name, 'id', '-u']), '10001');
  assert.equal(await podman(['exec', service.name, 'id', '-g']), '10001');
  // Every process of the container (tini, node, the tools it started), not only an exec'd command.
  const top = (await podman(['top', service.name, 'user', 'comm'])).split('\n').slice(1);
  assert.ok(top.length >= 2, top.join('\n'));
  assert.deepEqual([...new Set(top.map((line) => line.trim().split(/\s+/)[0]))], ['pdfservice'], top.join('\n'));
  const health = await call(service, 'GET', '/health', { auth: false });
  assert.equal(health.status, 200, health.text);
  const tools = health.json().tools as { name: string; available: boolean; reason?: string }[];
  console.log(tools.map((t) => `${t.name}: ${t.available ? 'available' : t.reason}`).join('; '));
  for (const tool of tools) assert.equal(tool.available, true, `${tool.name}: ${tool.reason}`);
  // The image's HEALTHCHECK command, as an orchestrator runs it.
  await podman(['healthcheck', 'run', service.name]);
  assert.equal(await podman(['inspect', '--format', '{{.State.Health.Status}}', service.name]), 'healthy');
  // A setting from the environment took effect: PDFSERVICE_DATA_DIR is the volume, where the user store now is.
  assert.match(await podman(['exec', service.name, 'ls', '/var/lib/pdfservice']), /state/);
  // The console is in the image (built in its build stage): its page and the script it names are served.
  const page = await fetch(`${service.baseUrl}/pdfservice/v1/console/`);
  const html = await page.text();
  assert.equal(page.status, 200, html);
  assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
  assert.ok(script, html);
  const js = await fetch(new URL(script, `${service.baseUrl}/pdfservice/v1/console/`));
  assert.equal(js.status, 200);
  assert.match(js.headers.get('content-type') ?? '', /javascript/);
});

test('stores an uploaded PDF', async () => {
  const pdf = makePdf({ pages: 2, text: (page) => `Container upload page ${page}` });
  const put = await call(service, 'PUT', '/documents/smoke/upload.pdf', { body: pdf, headers: { 'content-type': 'application/pdf' } });
  assert.equal(put.status, 201, put.text);
  const back = await stored('smoke/upload.pdf');
  assert.equal(sha256(back), sha256(pdf));
  assert.match(pdftotext(back), /Container upload page 1/);
});

test('converts Office files: a generated DOCX and a real-world one', async () => {
  const docx = wordDocument(['Container office first page', 'Container office second page']);
  const reply = await call(service, 'PUT', '/documents/smoke/office.pdf', { body: docx, headers: { 'content-type': DOCX, ...WAIT } });
  assert.equal(reply.status, 201, reply.text);
  const out = await stored('smoke/office.pdf');
  assert.ok(qpdfCheck(out).ok, qpdfCheck(out).output);
  assert.equal(pdfinfo(out).Pages, '2');
  assert.match(pdftotext(out), /Container office second page/);
  if (!existsSync(CORPUS_DOCX)) {
    console.log(`corpus not found at ${CORPUS}: the real-world DOCX is skipped`);
    return;
  }
  // MANIFEST.tsv: "converts; 2 pages; text starts: This is the header text." (the same fonts as on the host).
  const real = await call(service, 'PUT', '/documents/smoke/various.pdf', { body: readFileSync(CORPUS_DOCX), headers: { 'content-type': DOCX, ...WAIT } });
  assert.equal(real.status, 201, real.text);
  const various = await stored('smoke/various.pdf');
  assert.ok(qpdfCheck(various).ok, qpdfCheck(various).output);
  assert.equal(pdfinfo(various).Pages, '2');
  assert.match(pdftotext(various), /This is the header text/);
});

test('OCR makes a scanned page searchable', async () => {
  const text = 'Containers carry the service to every machine';
  const scan = imagePdf([{ image: renderGray(textPdfs({ scan: text }).scan!, 0, 200), dpi: 200 }]);
  assert.doesNotMatch(pdftotext(scan), /Containers/);
  assert.equal((await call(service, 'PUT', '/documents/smoke/scan.pdf', { body: scan, headers: { 'content-type': 'application/pdf' } })).status, 201);
  const reply = await call(service, 'POST', '/documents/smoke/scan.pdf/pages', { body: { OCRAction: { language: 'eng' } }, headers: WAIT });
  assert.equal(reply.status, 200, reply.text);
  const out = await stored('smoke/scan.pdf');
  assert.ok(qpdfCheck(out).ok, qpdfCheck(out).output);
  assert.match(pdftotext(out).replace(/\s+/g, ' '), /Containers carry the service to every machine/);
});

test('converts to PDF/A-2b, which veraPDF in the image passes', async () => {
  const reply = await call(service, 'POST', '/documents/smoke/upload.pdf', { body: { PDFAConvertAction: { profile: 'pdfa2b', savePath: 'smoke/upload-pdfa.pdf' } }, headers: WAIT });
  assert.equal(reply.status, 201, reply.text);
  assert.equal(reply.json().report.compliant, true, reply.text);
  const checked = await call(service, 'GET', '/documents/smoke/upload-pdfa.pdf/preflight-results?profile=pdfa2b');
  assert.equal(checked.status, 200, checked.text);
  assert.equal(checked.json().compliant, true, checked.text);
  const out = await stored('smoke/upload-pdfa.pdf');
  assert.ok(qpdfCheck(out).ok, qpdfCheck(out).output);
  assert.match(out.toString('latin1'), /pdfaid:part[>=]['"]?2/);
  assert.match(pdftotext(out), /Container upload page 1/);
});

/** Whether a new connection to the port is refused: the service closed its listener (podman still forwards the port). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      // Connected: the listener may still be open, or podman's forwarder answered and resets at once.
      socket.once('close', () => resolve(false));
      socket.end();
    });
    socket.once('error', () => resolve(true));
  });
}

test('SIGTERM: the upload under way finishes, the service exits 0, and a new container finds the documents on the volume', async () => {
  // 3 MiB, so that its first half reaches the staged file: the service writes a body to it a MiB at a time.
  const pdf = paddedPdf(makePdf({ pages: 3, text: (page) => `Sent while stopping, page ${page}` }), 3 * 1024 * 1024);
  const half = Math.floor(pdf.length / 2);
  // An upload whose body is half sent when SIGTERM arrives.
  const request = http.request(`${service.api}/documents/smoke/stopping.pdf`, {
    method: 'PUT',
    headers: { authorization: service.adminAuth, 'content-type': 'application/pdf', 'content-length': String(pdf.length) },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.once('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.once('error', reject);
  });
  // Awaited below; a reset before then is reported there, with the wait that preceded it.
  answered.catch(() => undefined);
  request.write(pdf.subarray(0, half));
  // The service has the request when the upload's first half is staged (the data folder's staging/, in the volume).
  for (let tries = 0; !(await podman(['exec', service.name, 'find', '/var/lib/pdfservice/staging', '-type', 'f', '-size', '+0']).catch(() => '')); tries++) {
    assert.ok(tries < 600, 'the upload never reached the staging folder');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await podman(['kill', '--signal', 'TERM', service.name]);
  // The listener closes (the stop began) while the upload is still open.
  const deadline = Date.now() + 60_000;
  while (!(await refused(service.port))) {
    assert.ok(Date.now() < deadline, 'the service kept accepting connections after SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  request.end(pdf.subarray(half));
  const reply = await answered;
  assert.equal(reply.status, 201, reply.body);
  assert.equal(await exitStatus(service.name), 0, await podman(['logs', service.name]).catch(String));

  const again = await startContainer(image, volume);
  containers.push(again.name);
  const back = await call(again, 'GET', '/documents/smoke/stopping.pdf');
  assert.equal(back.status, 200, back.text);
  assert.equal(sha256(back.bytes), sha256(pdf));
  assert.equal((await call(again, 'GET', '/documents/smoke/office.pdf')).status, 200);
  await podman(['stop', '--time', '60', again.name], 90_000);
  assert.equal(await exitStatus(again.name), 0);
});
