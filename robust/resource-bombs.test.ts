/**
 * Part 2 of the robustness suite (issue 10): resource bombs. Small files
 * that expand enormously (streams inflating to gigabytes: page content, an
 * embedded file, a font program; an image of 100,000 x 100,000 pixels; a
 * page tree declaring a million pages, and one that really has a million
 * pages through shared leaves) and 1 GiB uploads, streamed so the test never
 * holds them. Every answer must be 2xx or a documented 4xx (uploads: 413), the
 * service's peak memory must stay under the documented bound, and meanwhile
 * another client's health check and DocumentModel must keep being answered.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makePdf } from '../test/helpers/pdf.js';
import { startServer, type TestServer } from '../test/helpers/server.js';
import {
  attachmentBombPdf,
  contentBombPdf,
  declaredPagesPdf,
  fontBombPdf,
  imageBombPdf,
  millionPagesPdf,
  png,
  zeroZlib,
} from './lib/bombs.js';
import { checkAlive, ErrorLog, judge, Ledger, MemorySampler, problemCode, request, streamRequest, type Answer } from './lib/harness.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const WORKERS = 2;
const TASK_TIMEOUT_MS = 60_000;
/** A request answered later than this hangs. */
const DEADLINE_MS = TASK_TIMEOUT_MS + 15_000;
/**
 * The documented memory bound: MuPDF's WebAssembly memory can grow to 2 GiB
 * in each worker before an allocation fails (the worker is replaced after
 * the task), plus 1 GiB for the main thread (an XFDF body is buffered up to
 * the upload limit, 512 MiB).
 */
const MEMORY_BOUND_MIB = WORKERS * 2048 + 1024;
/** Another client's simple requests must be answered this fast while a bomb goes off. */
const SIDE_LIMIT_MS = 2_000;

let server: TestServer;
let memory: MemorySampler;
let errorLog: ErrorLog;
before(async () => {
  server = await startServer({ env: { PDFSERVICE_TASK_TIMEOUT_MS: String(TASK_TIMEOUT_MS), PDFSERVICE_WORKERS: String(WORKERS) } });
  memory = new MemorySampler(server.child.pid!);
  memory.resetHighWater();
  memory.start(50);
  errorLog = new ErrorLog(server);
});
after(async () => {
  memory.stop();
  await server.stop();
});

interface BombRequest {
  label: string;
  method: string;
  url: string;
  accept?: string;
  body?: Buffer;
  contentType?: string;
  /** A body of this many bytes, generated while it is sent; null length: chunked. */
  stream?: { bytes: number; declared: boolean; head?: Buffer; tail?: Buffer };
  /** The only acceptable answer, when there is one. */
  expect?: { status: number; code: string };
  /** Only sent when the upload before it was stored. */
  needsStored?: boolean;
}

interface Bomb {
  name: string;
  why: string;
  requests: BombRequest[];
}

const doc = (name: string) => `/documents/bombs/${name}.pdf`;
const reads = (name: string, extra: BombRequest[] = []): BombRequest[] => [
  { label: 'DocumentModel', method: 'GET', url: doc(name), accept: 'application/json', needsStored: true },
  { label: 'annotations', method: 'GET', url: `${doc(name)}/annotations`, needsStored: true },
  { label: 'XFDF export', method: 'GET', url: `${doc(name)}/annotations/content`, accept: 'application/vnd.adobe.xfdf', needsStored: true },
  { label: 'document text', method: 'GET', url: `${doc(name)}/text`, accept: 'text/plain', needsStored: true },
  { label: 'page text', method: 'GET', url: `${doc(name)}/pages/0/text`, accept: 'text/plain', needsStored: true },
  { label: 'page image', method: 'GET', url: `${doc(name)}/pages/0/image?dpi=20`, accept: 'image/png', needsStored: true },
  ...extra,
];
const upload = (name: string, body: Buffer, contentType = 'application/pdf', expect?: BombRequest['expect']): BombRequest => ({
  label: `upload (${(body.length / MiB).toFixed(1)} MiB)`,
  method: 'PUT',
  url: doc(name),
  body,
  contentType,
  ...(expect ? { expect } : {}),
});
const TOO_LARGE = { status: 413, code: 'PAYLOAD_TOO_LARGE' };

function multipartAround(field: string, filename: string, type: string, before = ''): { head: Buffer; tail: Buffer; contentType: string } {
  const boundary = 'robust-bomb-boundary';
  return {
    head: Buffer.from(`${before}--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function bombs(): Bomb[] {
  const attachmentForm = multipartAround('file', 'zeros.bin', 'application/octet-stream', `--robust-bomb-boundary\r\nContent-Disposition: form-data; name="annotation"\r\n\r\n{"subtype":"FileAttachment","pageIndex":0}\r\n`);
  const uploadForm = multipartAround('file', 'big.pdf', 'application/pdf');
  return [
    {
      name: 'content-2gib',
      why: 'a page content stream inflating to 2 GiB of zeros (4 MB on the wire)',
      requests: [upload('content-2gib', contentBombPdf(2 * GiB)), ...reads('content-2gib')],
    },
    {
      name: 'image-100000',
      why: 'an image XObject of 100,000 x 100,000 pixels (1-bit, inflating to 1.2 GB) drawn over the page',
      requests: [upload('image-100000', imageBombPdf(100_000, 100_000, 1, 1192 * MiB)), ...reads('image-100000', [{ label: 'page image 300 dpi', method: 'GET', url: `${doc('image-100000')}/pages/0/image?dpi=300`, accept: 'image/png', needsStored: true }])],
    },
    {
      name: 'png-100000',
      why: 'a PNG upload declaring 100,000 x 100,000 pixels',
      requests: [upload('png-100000', png(100_000, 100_000, zeroZlib(16 * MiB)), 'image/png', { status: 422, code: 'IMAGE_TOO_LARGE' })],
    },
    {
      name: 'png-196mp',
      why: 'the largest PNG the limits let through (14,000 x 14,000 grey, 196 MP, 192 KB on the wire)',
      requests: [upload('png-196mp', png(14_000, 14_000, zeroZlib(14_001 * 14_000, 14_001)), 'image/png'), ...reads('png-196mp').slice(0, 1), { label: 'page image', method: 'GET', url: `${doc('png-196mp')}/pages/0/image?dpi=20`, accept: 'image/png', needsStored: true }],
    },
    {
      name: 'attachment-4gib',
      why: 'a FileAttachment whose embedded file inflates to 4 GiB',
      requests: [
        upload('attachment-4gib', attachmentBombPdf(4 * GiB)),
        ...reads('attachment-4gib', [
          { label: 'FDF export', method: 'GET', url: `${doc('attachment-4gib')}/annotations/content`, accept: 'application/vnd.fdf', needsStored: true },
          { label: 'attachment', method: 'GET', url: `${doc('attachment-4gib')}/annotations/bomb/attachment`, needsStored: true },
          { label: 'attachment content', method: 'GET', url: `${doc('attachment-4gib')}/annotations/bomb/attachment/content`, accept: '*/*', needsStored: true },
        ]),
      ],
    },
    {
      name: 'font-2gib',
      why: 'a TrueType font program inflating to 2 GiB, used by the page text',
      requests: [upload('font-2gib', fontBombPdf(2 * GiB)), ...reads('font-2gib')],
    },
    {
      name: 'declared-million-pages',
      why: 'a page tree whose /Count declares 1,000,000 pages and holds one',
      requests: [upload('declared-million-pages', declaredPagesPdf(1_000_000)), ...reads('declared-million-pages', [{ label: 'page 999999 text', method: 'GET', url: `${doc('declared-million-pages')}/pages/999999/text`, accept: 'text/plain', needsStored: true }])],
    },
    {
      name: 'million-pages',
      why: 'a page tree that really lists 1,000,000 pages (1,000 nodes of 1,000 references to one page object, 6 MB)',
      requests: [upload('million-pages', millionPagesPdf(1000, 1000)), ...reads('million-pages', [{ label: 'page 999999 image', method: 'GET', url: `${doc('million-pages')}/pages/999999/image?dpi=20`, accept: 'image/png', needsStored: true }])],
    },
    {
      name: 'upload-1gib',
      why: '1 GiB uploads of every kind, generated while sent (the limit is the default 512 MiB)',
      requests: [
        { label: 'PUT, Content-Length 1 GiB', method: 'PUT', url: doc('upload-1gib'), contentType: 'application/pdf', stream: { bytes: GiB, declared: true, head: Buffer.from('%PDF-1.7\n') }, expect: TOO_LARGE },
        { label: 'PUT, chunked 1 GiB', method: 'PUT', url: doc('upload-1gib'), contentType: 'application/pdf', stream: { bytes: GiB, declared: false, head: Buffer.from('%PDF-1.7\n') }, expect: TOO_LARGE },
        { label: 'PUT image, chunked 1 GiB', method: 'PUT', url: doc('upload-1gib'), contentType: 'image/png', stream: { bytes: GiB, declared: false, head: png(4, 4, zeroZlib(MiB)) }, expect: TOO_LARGE },
        { label: 'form upload, 1 GiB file part', method: 'POST', url: '/documents/bombs', contentType: uploadForm.contentType, stream: { bytes: GiB, declared: false, head: uploadForm.head, tail: uploadForm.tail }, expect: TOO_LARGE },
        { label: 'file attachment, 1 GiB file part', method: 'POST', url: `${doc('small')}/annotations`, contentType: attachmentForm.contentType, stream: { bytes: GiB, declared: true, head: attachmentForm.head, tail: attachmentForm.tail }, expect: TOO_LARGE },
        { label: 'XFDF import, chunked 1 GiB', method: 'POST', url: `${doc('small')}/annotations/content`, contentType: 'application/vnd.adobe.xfdf', stream: { bytes: GiB, declared: false, head: Buffer.from('<?xml version="1.0"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text page="0" rect="0,0,1,1"><contents>') }, expect: TOO_LARGE },
        { label: 'FDF field import, Content-Length 1 GiB', method: 'POST', url: `${doc('small')}/fields/content`, contentType: 'application/vnd.fdf', stream: { bytes: GiB, declared: true, head: Buffer.from('%FDF-1.2\n') }, expect: TOO_LARGE },
        { label: 'JSON action, chunked 1 GiB', method: 'POST', url: doc('small'), contentType: 'application/json', stream: { bytes: GiB, declared: false, head: Buffer.from('{"CopyAction":{"savePath":"') }, expect: TOO_LARGE },
      ],
    },
  ];
}

/** Another client: health and a small document's DocumentModel, over and over, while `work` runs. */
async function whileServingOthers<T>(work: () => Promise<T>): Promise<{ result: T; slowest: number; slowestEngine: number; failures: string[] }> {
  let running = true;
  let slowest = 0;
  let slowestEngine = 0;
  const failures: string[] = [];
  const side = (async () => {
    while (running) {
      for (const [label, url, accept] of [['health', '/health', 'application/json'], ['small DocumentModel', doc('small'), 'application/json']] as const) {
        const a = await request(server, 'GET', url, { headers: { accept }, timeoutMs: 30_000 });
        slowest = Math.max(slowest, a.ms);
        if (a.status !== 200 || a.ms > SIDE_LIMIT_MS) failures.push(`${label}: ${a.status || a.error} after ${Math.round(a.ms)} ms`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  // And a request that needs an engine worker (a page image is never cached): it may wait for one, but must be answered.
  const engine = (async () => {
    while (running) {
      const a = await request(server, 'GET', `${doc('small')}/pages/1/image?dpi=30`, { headers: { accept: 'image/png' }, timeoutMs: DEADLINE_MS });
      slowestEngine = Math.max(slowestEngine, a.ms);
      if (a.status !== 200) failures.push(`small page image: ${a.status || a.error} after ${Math.round(a.ms)} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  try {
    const result = await work();
    return { result, slowest, slowestEngine, failures };
  } finally {
    running = false;
    await Promise.all([side, engine]);
  }
}

async function send(r: BombRequest): Promise<Answer> {
  const headers: Record<string, string> = { accept: r.accept ?? 'application/json' };
  if (r.contentType) headers['content-type'] = r.contentType;
  if (!r.stream) return request(server, r.method, r.url, { ...(r.body ? { body: r.body } : {}), headers, timeoutMs: DEADLINE_MS + 15_000 });
  const { bytes, declared, head = Buffer.alloc(0), tail = Buffer.alloc(0) } = r.stream;
  const zeros = Buffer.alloc(MiB, 0x30);
  const total = head.length + bytes + tail.length;
  const chunk = (offset: number, size: number): Buffer => {
    if (offset < head.length) return head.subarray(offset, Math.min(head.length, offset + size));
    if (offset >= head.length + bytes) return tail.subarray(offset - head.length - bytes, offset - head.length - bytes + size);
    return zeros.subarray(0, Math.min(size, head.length + bytes - offset));
  };
  return streamRequest(`${server.api}${r.url}`, r.method, { ...headers, authorization: server.adminAuth }, declared ? total : null, chunk, DEADLINE_MS + 15_000, total);
}

test('resource bombs: bounded memory, documented answers, other clients served meanwhile', async () => {
  const ledger = new Ledger('resource-bombs');
  const small = await request(server, 'PUT', doc('small'), { body: makePdf({ pages: 2 }), headers: { 'content-type': 'application/pdf' } });
  assert.equal(small.status, 201, small.text);
  const perBomb: string[] = [];
  for (const bomb of bombs()) {
    if (process.env['ROBUST_BOMBS'] && !process.env['ROBUST_BOMBS'].split(',').includes(bomb.name)) continue;
    ledger.cases++;
    const before = memory.peakMiB();
    const started = performance.now();
    const { result: outcomes, slowest, slowestEngine, failures } = await whileServingOthers(async () => {
      const seen: string[] = [];
      let stored = false;
      for (const r of bomb.requests) {
        if (r.needsStored && !stored) continue;
        const a = await send(r);
        const id = `${bomb.name} (${bomb.why})`;
        if (r.method === 'PUT' && r.url === doc(bomb.name)) stored = a.status >= 200 && a.status < 300;
        ledger.requests++;
        const problem = judge(a, DEADLINE_MS);
        if (problem) ledger.fail(id, `${r.label}: ${problem}`);
        else if (r.expect && (a.status !== r.expect.status || problemCode(a) !== r.expect.code)) ledger.fail(id, `${r.label}: expected ${r.expect.status} ${r.expect.code}, got ${a.status} ${problemCode(a)}`);
        seen.push(`${r.label} ${a.status}${a.status >= 300 ? ` ${problemCode(a)}` : ''} ${(a.ms / 1000).toFixed(1)} s`);
      }
      return seen;
    });
    for (const f of failures.slice(0, 5)) ledger.fail(`${bomb.name}: another client`, f);
    const dead = await checkAlive(server);
    if (dead) ledger.fail(bomb.name, `after the bomb: ${dead}`);
    const line = `${bomb.name}: ${outcomes.join(', ')}; others answered within ${Math.round(slowest)} ms (a small page image within ${Math.round(slowestEngine)} ms); ${((performance.now() - started) / 1000).toFixed(0)} s; peak RSS so far ${Math.max(before, memory.peakMiB())} MiB`;
    perBomb.push(line);
    if (process.env['ROBUST_VERBOSE']) console.log(line);
    if (dead) break;
  }
  const peak = memory.peakMiB();
  if (peak > MEMORY_BOUND_MIB) ledger.fail('memory', `peak RSS ${peak} MiB is over the bound of ${MEMORY_BOUND_MIB} MiB`);
  for (const line of perBomb) console.log(`robust resource-bombs: ${line}`);
  ledger.notes.push(`peak RSS ${peak} MiB (bound ${MEMORY_BOUND_MIB} MiB for ${WORKERS} workers)`);
  ledger.notes.push(errorLog.describe(4));
  ledger.finish();
});
