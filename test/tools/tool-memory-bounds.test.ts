/**
 * Issue 35 item 11: every external program runs under its memory bound while it runs, not only LibreOffice (whose
 * bound is exercised by office-pool.test.ts). The service is given a distinct address-space limit per program; while
 * OCRAction (Tesseract), a PDF/A conversion on the Ghostscript path and LinearizeAction (qpdf) run, the test reads
 * /proc/<pid>/limits of every process under the service whose name is the program's, and each must carry its limit.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { call, putPdf, type Reply } from '../helpers/http.js';
import { makeManyPagesPdf, makePdf, otherWidthsHelveticaPdf, renderPage } from '../helpers/pdf.js';
import { imagePdf } from '../helpers/ocr-fixtures.js';
import { descendants } from '../helpers/processes.js';
import { serverForSuite } from '../helpers/server.js';

const LIMITS_MB = { tesseract: 2111, gs: 3111, qpdf: 3222 };
const server = serverForSuite({
  env: {
    PDFSERVICE_TESSERACT_MEMORY_MB: String(LIMITS_MB.tesseract),
    PDFSERVICE_GHOSTSCRIPT_MEMORY_MB: String(LIMITS_MB.gs),
    PDFSERVICE_QPDF_MEMORY_MB: String(LIMITS_MB.qpdf),
  },
});
const WAIT = { prefer: 'wait=300' };

/** The soft "Max address space" of a process in bytes ('unlimited' as Infinity), or undefined once it has ended. */
function addressSpaceLimit(pid: number): number | undefined {
  try {
    const line = /^Max address space\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'latin1'));
    return line ? (line[1] === 'unlimited' ? Infinity : Number(line[1])) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `work` while sampling the service's descendants; answers the limits seen per program name of LIMITS_MB. */
async function limitsWhile(work: () => Promise<Reply>): Promise<{ reply: Reply; seen: Map<string, Set<number>> }> {
  const seen = new Map<string, Set<number>>();
  let running = true;
  const sampler = (async () => {
    while (running) {
      for (const [pid, name] of descendants(server.child.pid!)) {
        if (!(name in LIMITS_MB)) continue;
        const limit = addressSpaceLimit(pid);
        if (limit !== undefined) seen.set(name, (seen.get(name) ?? new Set()).add(limit));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  try {
    return { reply: await work(), seen };
  } finally {
    running = false;
    await sampler;
  }
}

let scan: Buffer;
let ghostscriptSource: Buffer;
before(() => {
  // A 300 dpi scan of a page of text (Tesseract reads it for a second or more).
  const text = makePdf({ pages: 1, text: (i) => `Page ${i + 1}: the bound holds while the program runs` });
  const render = renderPage(text, 1, 300);
  const pixels = Buffer.alloc(render.width * render.height);
  for (let y = 0; y < render.height; y++) for (let x = 0; x < render.width; x++) pixels[y * render.width + x] = render.rgb(x, y)[0];
  scan = imagePdf([{ image: { width: render.width, height: render.height, pixels }, dpi: 300 }]);
  // The PDF/A conversion takes the Ghostscript path for it.
  ghostscriptSource = otherWidthsHelveticaPdf();
});
const MB = 1024 * 1024;

test('Tesseract runs under PDFSERVICE_TESSERACT_MEMORY_MB', async () => {
  assert.equal((await putPdf(server, 'bounds/scan.pdf', scan)).status, 201);
  const { reply, seen } = await limitsWhile(() => call(server, 'POST', '/documents/bounds/scan.pdf/pages', { body: { OCRAction: { language: 'eng' } }, headers: WAIT }));
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual([...(seen.get('tesseract') ?? [])], [LIMITS_MB.tesseract * MB], `limits seen: ${JSON.stringify([...seen].map(([k, v]) => [k, [...v]]))}`);
});

test('Ghostscript runs under PDFSERVICE_GHOSTSCRIPT_MEMORY_MB', async () => {
  assert.equal((await putPdf(server, 'bounds/gs.pdf', ghostscriptSource)).status, 201);
  const { reply, seen } = await limitsWhile(() => call(server, 'POST', '/documents/bounds/gs.pdf', { body: { PDFAConvertAction: { profile: 'pdfa2b' } }, headers: WAIT }));
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.json().report.pipeline, 'ghostscript');
  assert.deepEqual([...(seen.get('gs') ?? [])], [LIMITS_MB.gs * MB], `limits seen: ${JSON.stringify([...seen].map(([k, v]) => [k, [...v]]))}`);
});

test('qpdf runs under PDFSERVICE_QPDF_MEMORY_MB', async () => {
  // 20,000 pages: qpdf takes a few hundred ms or more to linearize them, dozens of samples.
  assert.equal((await putPdf(server, 'bounds/many.pdf', makeManyPagesPdf(20_000))).status, 201);
  const { reply, seen } = await limitsWhile(() => call(server, 'POST', '/documents/bounds/many.pdf', { body: { LinearizeAction: {} }, headers: WAIT }));
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual([...(seen.get('qpdf') ?? [])], [LIMITS_MB.qpdf * MB], `limits seen: ${JSON.stringify([...seen].map(([k, v]) => [k, [...v]]))}`);
});
