/**
 * Foundation benchmark (issue 2): upload + DocumentModel of a 200-page document,
 * and GET /health latency while two heavy engine tasks run, next to a bare
 * Fastify route measured under the same load in the same run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { groupBySize, makeLargePng, oursOf, pagesLabel, peerOf, percentile, repetitions, sampleLatency, sizes, startBareServer, timeCommand, timed } from './lib.js';
import { cells, header } from './report.js';

export interface FoundationResult {
  rows: Row[];
}

/** The settings of the warm service foundation and annotations share (bench/build.ts sharedServer). */
export const WARM_SERVER_ENV = { PDFSERVICE_LOG_LEVEL: 'info', PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' };

export async function runFoundationBench(quick: boolean): Promise<FoundationResult> {
  const rows: Row[] = [];
  // Text prefetching after uploads is off, so that the cold DocumentModel does not wait for the text extraction.
  // Shared with the annotations benchmark, which asks for the same settings: one start fewer (issue 38, the bench's time).
  const server = await sharedServer(WARM_SERVER_ENV);
  const bare = await startBareServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-'));
  try {
    const auth = { authorization: server.adminAuth };
    for (const pages of sizes(quick)) {
      const document = makeBenchDocument(pages);
      const file = path.join(dir, `doc-${pages}.pdf`);
      writeFileSync(file, document);
      const url = `${server.api}/documents/bench/doc-${pages}.pdf`;
      const uploads: number[] = [];
      const modelsCold: number[] = [];
      const modelsWarm: number[] = [];
      const peer: number[] = [];
      for (let i = 0; i < repetitions(pages, quick); i++) {
        // A distinct document each time, so the DocumentModel is never served from the cache when cold.
        const body = Buffer.concat([document, Buffer.from(`%rep ${i} ${Date.now()}\n`)]);
        uploads.push((await timed(async () => {
          const r = await fetch(url, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, body });
          if (r.status >= 300) throw new Error(`upload failed: ${r.status}`);
          await r.arrayBuffer();
        })).ms);
        const getModel = async () => {
          const r = await fetch(url, { headers: { ...auth, accept: 'application/json' } });
          const model = (await r.json()) as { pageCount: number };
          if (model.pageCount !== pages) throw new Error(`page count ${model.pageCount}, expected ${pages}`);
        };
        modelsCold.push((await timed(getModel)).ms);
        modelsWarm.push((await timed(getModel)).ms);
        peer.push(await timeCommand('mutool', ['info', file]));
      }
      const size = pagesLabel(pages);
      rows.push({ operation: 'upload (PUT, checked by the engine)', size, pages, ...oursOf(uploads), unit: 'ms' });
      // Each repetition's upload and first DocumentModel together, as a client that uploads and then reads it waits for both.
      rows.push({ operation: 'upload + DocumentModel (cold)', size, pages, ...oursOf(uploads.map((u, k) => u + modelsCold[k]!)), ...peerOf(peer, 'mutool info'), unit: 'ms' });
      rows.push({ operation: 'DocumentModel, cached by ETag', size, pages, ...oursOf(modelsWarm), unit: 'ms' });
    }
    rows.splice(0, rows.length, ...groupBySize(rows));

    // Health latency while two heavy engine tasks keep both workers busy.
    // Each heavy task converts a 6000 x 6000 px PNG (a few hundred KB on the wire, over a second in the engine).
    const heavy = makeLargePng(6000, 6000);
    let loading = true;
    let heavyRuns = 0;
    const loader = async (n: number) => {
      while (loading) {
        const r = await fetch(`${server.api}/documents/bench/heavy-${n}.pdf`, { method: 'PUT', headers: { ...auth, 'content-type': 'image/png' }, body: new Uint8Array(heavy) });
        if (r.status !== 200 && r.status !== 201) throw new Error(`heavy task failed: ${r.status}`);
        await r.arrayBuffer();
        heavyRuns++;
      }
    };
    const count = quick ? 200 : 1000;
    const idleOurs = await sampleLatency(`${server.api}/health`, count / 2, 1);
    const idleBare = await sampleLatency(`${bare.url}/health`, count / 2, 1);
    const loaders = [loader(1), loader(2)];
    await new Promise((r) => setTimeout(r, 300));
    const busyOurs = await sampleLatency(`${server.api}/health`, count, 2);
    const busyBare = await sampleLatency(`${bare.url}/health`, count, 2);
    loading = false;
    await Promise.all(loaders);
    rows.push({ operation: 'GET /health p50, idle', size: '-', ours: percentile(idleOurs, 50), peer: percentile(idleBare, 50), peerName: 'bare Fastify', unit: 'ms' });
    rows.push({ operation: 'GET /health p99, idle', size: '-', ours: percentile(idleOurs, 99), peer: percentile(idleBare, 99), peerName: 'bare Fastify', unit: 'ms' });
    rows.push({ operation: 'GET /health p50, 2 heavy tasks', size: `${heavyRuns} image conversions`, ours: percentile(busyOurs, 50), peer: percentile(busyBare, 50), peerName: 'bare Fastify', unit: 'ms' });
    const p99 = percentile(busyOurs, 99);
    rows.push({ operation: 'GET /health p99, 2 heavy tasks', size: `${heavyRuns} image conversions`, ours: p99, peer: percentile(busyBare, 99), peerName: 'bare Fastify', unit: 'ms', target: '< 20 ms', met: p99 < 20 });
    return { rows };
  } finally {
    bare.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printRows(rows: Row[]): void {
  const withRef = rows.some((r) => r.ref !== undefined || r.refError !== undefined);
  const head = header(withRef, rows.find((r) => r.refName)?.refName);
  const lines = rows.map((r) => cells(r, withRef).map((c) => c.replace(/\*\*no\*\*/, 'NO')));
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(row(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(row(l));
}
