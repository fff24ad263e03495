/**
 * Foundation benchmark (issue 2): upload + DocumentModel of a 200-page document,
 * and GET /health latency while two heavy engine tasks run, next to a bare
 * Fastify route measured under the same load in the same run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makePdf } from '../test/helpers/pdf.js';
import { startServer } from '../test/helpers/server.js';
import { fmt, makeLargePng, median, percentile, sampleLatency, startBareServer, timeCommand, timed } from './lib.js';

export interface FoundationResult {
  rows: { operation: string; size: string; ours: number; peer?: number; peerName?: string; unit: string; target?: string; met?: boolean }[];
}

export async function runFoundationBench(quick: boolean): Promise<FoundationResult> {
  const rows: FoundationResult['rows'] = [];
  const server = await startServer({ env: { PDFSERVICE_LOG_LEVEL: 'info' } });
  const bare = await startBareServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-'));
  try {
    const auth = { authorization: server.adminAuth };
    const doc200 = makePdf({ pages: 200, text: (i) => `Benchmark page ${i + 1} ${'lorem ipsum dolor sit amet '.repeat(8)}` });
    const file200 = path.join(dir, 'doc200.pdf');
    writeFileSync(file200, doc200);
    const reps = quick ? 3 : 7;

    const uploads: number[] = [];
    const modelsCold: number[] = [];
    const modelsWarm: number[] = [];
    const peer: number[] = [];
    for (let i = 0; i < reps; i++) {
      // A distinct document each time, so the DocumentModel is never served from the cache when cold.
      const body = Buffer.concat([doc200, Buffer.from(`%rep ${i} ${Date.now()}\n`)]);
      uploads.push((await timed(async () => {
        const r = await fetch(`${server.api}/documents/bench/doc200.pdf`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, body });
        if (r.status >= 300) throw new Error(`upload failed: ${r.status}`);
        await r.arrayBuffer();
      })).ms);
      const getModel = async () => {
        const r = await fetch(`${server.api}/documents/bench/doc200.pdf`, { headers: { ...auth, accept: 'application/json' } });
        const model = (await r.json()) as { pageCount: number };
        if (model.pageCount !== 200) throw new Error('wrong page count');
      };
      modelsCold.push((await timed(getModel)).ms);
      modelsWarm.push((await timed(getModel)).ms);
      peer.push(timeCommand('mutool', ['info', file200]));
    }
    const upload = median(uploads);
    const cold = median(modelsCold);
    rows.push({ operation: 'upload (PUT, checked by the engine)', size: '200 pages', ours: upload, unit: 'ms' });
    rows.push({ operation: 'upload + DocumentModel (cold)', size: '200 pages', ours: upload + cold, peer: median(peer), peerName: 'mutool info', unit: 'ms' });
    rows.push({ operation: 'DocumentModel, cached by ETag', size: '200 pages', ours: median(modelsWarm), unit: 'ms' });

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

export function printRows(rows: FoundationResult['rows']): void {
  const header = ['operation', 'size', 'ours', 'peer', 'ratio', 'target', 'met'];
  const lines = rows.map((r) => [
    r.operation,
    r.size,
    `${fmt(r.ours)} ${r.unit}`,
    r.peer !== undefined ? `${fmt(r.peer)} ${r.unit} (${r.peerName})` : '-',
    r.peer !== undefined ? `${(r.ours / r.peer).toFixed(2)}x` : '-',
    r.target ?? '-',
    r.met === undefined ? '-' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(row(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(row(l));
}
