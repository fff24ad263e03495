/**
 * Office conversion benchmark (issue 22), through the API (`PUT` with the format's media type, `Prefer: wait`):
 * - throughput of 40 small DOCX (1-3 pages) and 10 XLSX/PPTX (bench/office-fixtures.ts, the same bytes every run),
 *   sent by 4 clients at once: conversions per minute, against a `soffice --headless --convert-to pdf` loop over the
 *   same files in the same run (one process per file, as a script does; one profile folder for the loop, as a
 *   script's user has) and against Gotenberg's published 25 per minute on 2 cores (its issue #892, a constant).
 *   Targets: at least 50 per minute (2x Gotenberg) and at least 3x the soffice loop;
 * - latency of a 1-page DOCX once the service is warm: median of sequential uploads (target under 1 s; the peer is the
 *   soffice loop's median on the 1-page DOCX), and p99 with 4 clients uploading at once (printed, no target).
 * Formats the build does not accept yet (its OpenAPI description does not list their media type) are left out of
 * both sides and named in the row, so the ratio always compares the same files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { benchDocx, benchOfficeSet, type BenchOfficeFile } from './office-fixtures.js';
import { median, oursOf, peerOf, percentile } from './lib.js';

const MEDIA_TYPES: Record<BenchOfficeFile['format'], string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};
/** Gotenberg's throughput on 2 cores as its maintainers published it (gotenberg/gotenberg issue #892): about 25 DOCX a minute. */
const GOTENBERG_PER_MINUTE = 25;
const CLIENTS = 4;

/** One upload, waited for; a 503 of a full queue is retried after its Retry-After, as a client would. Returns its time in ms. */
async function convert(server: TestServer, documentPath: string, file: BenchOfficeFile): Promise<number> {
  const started = performance.now();
  for (;;) {
    const reply = await fetch(`${server.api}/documents/${documentPath}`, {
      method: 'PUT',
      headers: { authorization: server.adminAuth, 'content-type': MEDIA_TYPES[file.format], prefer: 'wait=600' },
      body: new Uint8Array(file.bytes),
    });
    const text = await reply.text();
    if (reply.status === 503) {
      const after = Number(reply.headers.get('retry-after') ?? '1');
      await new Promise((resolve) => setTimeout(resolve, Math.max(0.2, after) * 1000));
      continue;
    }
    if (reply.status !== 201 && reply.status !== 200) throw new Error(`${file.name}: the upload answered ${reply.status}: ${text.slice(0, 300)}`);
    return performance.now() - started;
  }
}

/** `files` converted by `clients` clients taking the next file as each finishes; the wall time and every upload's time. */
async function convertAll(server: TestServer, files: BenchOfficeFile[], clients: number, prefix: string): Promise<{ ms: number; samples: number[] }> {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < files.length; i = next++) samples.push(await convert(server, `bench-office/${prefix}-${i}-${files[i]!.name}.pdf`, files[i]!));
    }),
  );
  return { ms: performance.now() - started, samples };
}

/** The soffice loop: one `soffice --headless --convert-to pdf` per file, one after the other; each file's time in ms. */
function sofficeLoop(files: BenchOfficeFile[]): number[] {
  const work = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-soffice-'));
  try {
    const input = path.join(work, 'in');
    mkdirSync(input);
    const times: number[] = [];
    for (const file of files) {
      const source = path.join(input, file.name);
      writeFileSync(source, file.bytes);
      const started = performance.now();
      execFileSync('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${work}/profile`, '--convert-to', 'pdf', '--outdir', path.join(work, 'out'), source], {
        stdio: 'ignore',
        timeout: 300_000,
      });
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const perMinute = (count: number, ms: number) => (count * 60_000) / ms;

export async function runOfficeBench(quick: boolean): Promise<Row[]> {
  // Quick (a smoke test of the bench): one file of each format (the soffice loop, a LibreOffice start a file, took
  // 54 s for 6 files at load 15), 2 latency runs, one load round.
  const all = quick ? benchOfficeSet(1, 2) : benchOfficeSet(40, 10);
  const onePage = benchDocx(1000, 1);
  const latencyRuns = quick ? 2 : 15;
  const loadRunsPerClient = quick ? 1 : 10;

  // The default-settings service pages, OCR and one-shot share: one start fewer, and its LibreOffice instances stay
  // warm for one-shot (issue 38, the bench's time).
  const server = await sharedServer();
  let files: BenchOfficeFile[];
  let throughput: { ms: number; samples: number[] };
  let idle: number[];
  let loaded: number[];
  try {
    const spec = (await (await fetch(`${server.api}/openapi.json`)).json()) as { paths: Record<string, { put?: { requestBody: { content: Record<string, unknown> } } }> };
    const accepted = Object.keys(spec.paths['/pdfservice/v1/documents/{filePath}.pdf']!.put!.requestBody.content);
    files = all.filter((f) => accepted.includes(MEDIA_TYPES[f.format]));
    // Warm: the first conversions start whatever the service keeps running (a pool's instances), as on a server in use.
    await convertAll(server, [{ name: 'warm.docx', format: 'docx', bytes: onePage }, { name: 'warm2.docx', format: 'docx', bytes: onePage }], 2, 'warm');
    throughput = await convertAll(server, files, CLIENTS, 'throughput');
    idle = [];
    for (let i = 0; i < latencyRuns; i++) idle.push(await convert(server, `bench-office/latency-${i}.pdf`, { name: 'one-page.docx', format: 'docx', bytes: onePage }));
    const load = Array.from({ length: CLIENTS * loadRunsPerClient }, (_, i): BenchOfficeFile => ({ name: `load-${i}.docx`, format: 'docx', bytes: onePage }));
    loaded = (await convertAll(server, load, CLIENTS, 'load')).samples;
  } finally {
    await server.stop();
  }

  // The peer runs after the service's conversions have ended (the shared service idles), on the same files, so
  // neither takes the other's cores.
  const loop = sofficeLoop(files);
  const loopOnePage = sofficeLoop(['one-page.docx', 'one-page-2.docx', 'one-page-3.docx'].slice(0, quick ? 1 : 3).map((name): BenchOfficeFile => ({ name, format: 'docx', bytes: onePage })));

  const counts = (['docx', 'xlsx', 'pptx'] as const).map((format) => `${files.filter((f) => f.format === format).length} ${format.toUpperCase()}`).join(' + ');
  const missing = [...new Set(all.filter((f) => !files.includes(f)).map((f) => f.format.toUpperCase()))];
  const setLabel = `${counts}${missing.length ? ` (${missing.join(', ')} not accepted by this build)` : ''}`;
  const ours = perMinute(files.length, throughput.ms);
  const loopRate = perMinute(files.length, loop.reduce((a, b) => a + b, 0));
  const idleSorted = [...idle].sort((a, b) => a - b);
  const loadedSorted = [...loaded].sort((a, b) => a - b);
  console.log(
    `office: ${files.length} files in ${(throughput.ms / 1000).toFixed(1)} s through the API (${CLIENTS} clients), soffice loop ${(loop.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s; ` +
      `1-page DOCX median ${median(idle).toFixed(0)} ms idle, p99 ${percentile(loadedSorted, 99).toFixed(0)} ms with ${CLIENTS} clients (${loaded.length} uploads)`,
  );
  return [
    {
      operation: 'Office to PDF: throughput through the API, 4 clients',
      size: setLabel,
      ours,
      peer: loopRate,
      peerName: 'soffice --convert-to loop',
      runs: 1,
      unit: 'conv/min',
      target: '>= 3x the soffice loop',
      met: ours >= 3 * loopRate,
    },
    {
      operation: 'Office to PDF: throughput against Gotenberg (published, issue #892)',
      size: setLabel,
      ours,
      peer: GOTENBERG_PER_MINUTE,
      peerName: 'Gotenberg, 2 cores (published)',
      runs: 1,
      unit: 'conv/min',
      target: '>= 50 conv/min (2x Gotenberg)',
      met: ours >= 2 * GOTENBERG_PER_MINUTE,
    },
    {
      operation: 'Office to PDF: latency of a 1-page DOCX, warm, one client (median)',
      size: '1-page DOCX',
      ...oursOf(idleSorted),
      ...peerOf(loopOnePage, 'soffice --convert-to, one process'),
      unit: 'ms',
      target: '< 1000 ms median',
      met: median(idle) < 1000,
    },
    {
      operation: `Office to PDF: latency of a 1-page DOCX, p99 with ${CLIENTS} clients`,
      size: '1-page DOCX',
      ours: percentile(loadedSorted, 99),
      oursSpread: [loadedSorted[0]!, loadedSorted[loadedSorted.length - 1]!],
      runs: loaded.length,
      unit: 'ms',
    },
  ];
}
