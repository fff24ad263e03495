/**
 * Page text benchmark (issue 7): the text of every page of a generated
 * 200-page document through the API (GET .../text as text/plain), end to end,
 * next to poppler's pdftotext on the same file in the same run. Both results
 * are checked to hold the same words, so a fast wrong answer fails the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { words } from '../test/helpers/poppler-text.js';
import { startServer } from '../test/helpers/server.js';
import type { Row } from './annotations.js';
import { makeTextDocument } from './fixtures.js';
import { median, timed } from './lib.js';

const PAGES = 200;
const LINES = 30;

/** pdftotext's wall time with its text read back through a pipe, as our client reads the response body. */
function popplerText(file: string): { ms: number; text: string } {
  const start = performance.now();
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { ms: performance.now() - start, text };
}

/** How long a client pauses between uploading and reading text in the prefetch row: enough for the idle workers to extract 200 pages. */
const THINK_MS = 1000;

export async function runPagesBench(quick: boolean): Promise<Row[]> {
  // Prefetching after writes is off here, so that the first request measures the extraction itself.
  const server = await startServer({ env: { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-pages-'));
  try {
    const auth = { authorization: server.adminAuth };
    const document = makeTextDocument(PAGES, LINES, 'confidential');
    const file = path.join(dir, 'text200.pdf');
    writeFileSync(file, document);
    const reps = quick ? 3 : 7;
    const cold: number[] = [];
    const warm: number[] = [];
    const peer: number[] = [];
    let characters = 0;
    const url = `${server.api}/documents/bench/text200.pdf`;
    const getText = async () => {
      const r = await fetch(`${url}/text`, { headers: { ...auth, accept: 'text/plain' } });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`GET .../text answered ${r.status}: ${text.slice(0, 200)}`);
      return text;
    };
    for (let i = 0; i < reps; i++) {
      // A distinct version each time (a comment after %%EOF changes the ETag, not the content), so no cache helps when cold.
      const body = Buffer.concat([document, Buffer.from(`%rep ${i} ${Date.now()}\n`)]);
      const put = await fetch(url, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, body });
      if (put.status >= 300) throw new Error(`upload answered ${put.status}`);
      await put.arrayBuffer();
      const first = await timed(getText);
      cold.push(first.ms);
      warm.push((await timed(getText)).ms);
      const poppler = popplerText(file);
      peer.push(poppler.ms);
      if (i === 0) {
        const ours = words(first.value);
        const theirs = words(poppler.text);
        if (ours.length !== theirs.length || ours.some((w, k) => w !== theirs[k])) throw new Error('our text and pdftotext\'s differ');
        if (first.value.split('\f').length !== PAGES + 1) throw new Error('not one form feed per page');
        characters = first.value.length;
      }
    }
    // Every page on its own after the whole document was extracted: served from the text cache.
    const pages = await timed(async () => {
      for (let p = 0; p < PAGES; p++) {
        const r = await fetch(`${url}/pages/${p}/text`, { headers: { ...auth, accept: 'text/plain' } });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`page ${p} answered ${r.status}`);
      }
    });
    // With prefetching on (the default): the text is extracted while the workers are idle after the upload.
    const prefetching = await startServer();
    const prefetched: number[] = [];
    try {
      const prefetchUrl = `${prefetching.api}/documents/bench/text200.pdf`;
      const prefetchAuth = { authorization: prefetching.adminAuth };
      for (let i = 0; i < reps; i++) {
        const body = Buffer.concat([document, Buffer.from(`%rep ${i} ${Date.now()}\n`)]);
        const put = await fetch(prefetchUrl, { method: 'PUT', headers: { ...prefetchAuth, 'content-type': 'application/pdf' }, body });
        await put.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, THINK_MS));
        prefetched.push((await timed(async () => {
          const r = await fetch(`${prefetchUrl}/text`, { headers: { ...prefetchAuth, accept: 'text/plain' } });
          const text = await r.text();
          if (r.status !== 200 || text.split('\f').length !== PAGES + 1) throw new Error(`GET .../text answered ${r.status}`);
        })).ms);
      }
    } finally {
      await prefetching.stop();
    }
    const size = `${PAGES} pages, ${Math.round(characters / 1000)}k characters`;
    const peerMs = median(peer);
    const coldMs = median(cold);
    const warmMs = median(warm);
    return [
      { operation: 'page text: whole document, first request, extracted then (GET .../text)', size, ours: coldMs, peer: peerMs, peerName: 'pdftotext', unit: 'ms', target: 'at least as fast', met: coldMs <= peerMs },
      { operation: `page text: whole document, ${THINK_MS / 1000} s after the upload (prefetched while idle)`, size, ours: median(prefetched), peer: peerMs, peerName: 'pdftotext', unit: 'ms', target: 'at least as fast', met: median(prefetched) <= peerMs },
      { operation: 'page text: whole document, again (cached by ETag)', size, ours: warmMs, peer: peerMs, peerName: 'pdftotext', unit: 'ms', target: 'at least as fast', met: warmMs <= peerMs },
      { operation: 'page text: each page after the whole document (sequential)', size: `${PAGES} requests`, ours: pages.ms / PAGES, unit: 'ms' },
    ];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
