/**
 * The spawner in the service (bench/results/spawner-2026-11-30.md): the 202 of a cheap `Prefer: respond-async` job
 * and the event loop's longest stall while heavy jobs that start programs run, with the spawner on and off
 * (PDFSERVICE_TOOL_SPAWNER), in alternating rounds, each on a fresh service. User A keeps a FlattenAnnotationsAction on
 * 1,000 pages running (the service's memory grows, as in issue 38's `accept` row), users B and C each an OCRAction on
 * an 8-page scan (tesseract once per page, each start a fork). The loop's stall is prom-client's
 * `nodejs_eventloop_lag_max_seconds` (monitorEventLoopDelay in the service), read at the start of a round's samples
 * (which resets it) and at their end; the service's resident memory is read from /proc at the end.
 *
 *   npx tsc -p tsconfig.json && node --no-memory-protection-keys dist/bench/spawn-accept.js [--rounds=2] [--count=100]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { makeBenchDocument } from './fixtures.js';
import { cancel, CHEAP, createUser, ended, HEAVY, submit } from './jobs.js';
import { percentile, processCpuMs, timed, uploadPdf } from './lib.js';
import { degrade, imageOnlyPdf, knownText, readPgm, renderPages, textPdf } from './ocr-fixtures.js';

const args = new Map(process.argv.slice(2).map((arg) => [arg.replace(/^--/, '').split('=')[0]!, arg.split('=')[1] ?? 'true'] as const));
const rounds = Number(args.get('rounds') ?? 2);
const count = Number(args.get('count') ?? 100);
/** `--no-flatten`: OCR only (users B and C), the service small. */
const flatten = !args.has('no-flatten');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function scan(pages: number): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-spawn-accept-'));
  try {
    const text = path.join(dir, 'text.pdf');
    writeFileSync(text, textPdf(knownText(pages)));
    return imageOnlyPdf(renderPages(text, dir, 'page', 200).map((file, i) => degrade(readPgm(file), i)), 200);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function lagMaxMs(server: TestServer): Promise<number> {
  const text = await (await fetch(`${server.api}/metrics`, { headers: { authorization: server.adminAuth } })).text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? NaN) * 1000;
}

function rssMb(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
}

/** Processes named `name` that are running or runnable now (state R). */
function runningPrograms(name: string): number {
  let n = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.includes(`(${name})`) && stat.slice(stat.lastIndexOf(')') + 2).startsWith('R')) n++;
    } catch {
      /* gone */
    }
  }
  return n;
}

const SCAN = scan(8);
const DOC_1000 = makeBenchDocument(1000);
const DOC_1 = makeBenchDocument(1);

interface Round { spawner: boolean; samples: number[]; lagMs: number; rssMb: number; load: [number, number]; ocrRuns: number; heavyRuns: number; cpu: string }

async function round(spawner: boolean): Promise<Round> {
  const server = await startServer({ env: { PDFSERVICE_TOOL_SPAWNER: String(spawner), PDFSERVICE_JOB_CONCURRENCY: '3', PDFSERVICE_USER_JOB_LIMIT: '1', PDFSERVICE_JOB_QUEUE_LIMIT: '1000' } });
  try {
    const admin = { authorization: server.adminAuth };
    await uploadPdf(`${server.api}/documents/s/doc-1.pdf`, admin, DOC_1);
    await uploadPdf(`${server.api}/documents/s/doc-1000.pdf`, admin, DOC_1000);
    await uploadPdf(`${server.api}/documents/s/scan.pdf`, admin, SCAN);
    const users = await Promise.all(['a', 'b', 'c'].map((name) => createUser(server, { username: `spawn-${name}`, password: `spawn-${name}-password-1` })));
    let loading = true;
    let ocrRuns = 0;
    let heavyRuns = 0;
    const loaders = users.map(async (auth, n) => {
      while (loading && (flatten || n > 0)) {
        const ocr = n > 0;
        const job = ocr
          ? await submit(server, auth, 's/scan.pdf', { OCRAction: { language: 'eng', savePath: `s/ocr-${n}.pdf`, namingMode: 1 } }, true)
          : await submit(server, auth, 's/doc-1000.pdf', HEAVY('s/heavy.pdf'));
        const end = await ended(server, auth, job.id);
        if (end.state !== 'succeeded') throw new Error(`a heavy job ended ${end.state}: ${JSON.stringify(end).slice(0, 300)}`);
        if (ocr) ocrRuns++;
        else heavyRuns++;
      }
    });
    const load0 = loadavg()[0]!;
    const pid = server.child.pid!;
    const spawnerPid = readdirSync('/proc').filter((e) => /^\d+$/.test(e)).find((e) => {
      try {
        return readFileSync(`/proc/${e}/cmdline`, 'utf8').includes('spawner-process.js') && readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    });
    const cpu0 = processCpuMs(pid);
    // How many programs (tesseract) run meanwhile, sampled every 50 ms: the CPU the service's loop competes with.
    const running: number[] = [];
    const counter = setInterval(() => running.push(runningPrograms('tesseract')), 50);
    const samples: number[] = [];
    let lagMs = NaN;
    let cpuText = '';
    try {
      await sleep(3000); // the heavy jobs running, the service grown
      await lagMaxMs(server); // resets the service's histogram
      for (let i = 0; i < count; i++) {
        const { ms, value } = await timed(() => submit(server, admin, 's/doc-1.pdf', { TextStampAction: { ...CHEAP.TextStampAction, savePath: 's/cheap.pdf' } }, true));
        samples.push(ms);
        await cancel(server, admin, value.id);
        await sleep(20);
      }
      lagMs = await lagMaxMs(server);
      clearInterval(counter);
      const cpu1 = processCpuMs(pid);
      cpuText = `service main thread ${cpu1.main - cpu0.main} ms, all threads ${cpu1.total - cpu0.total} ms; spawner ${spawnerPid ? processCpuMs(Number(spawnerPid)).total : '-'} ms since start; tesseract running (state R) on average ${(running.reduce((a, b) => a + b, 0) / Math.max(1, running.length)).toFixed(2)}`;
    } finally {
      loading = false;
      await Promise.all(loaders);
    }
    return { spawner, samples, lagMs, rssMb: rssMb(server.child.pid!), load: [load0, loadavg()[0]!], ocrRuns, heavyRuns, cpu: cpuText };
  } finally {
    await server.stop();
  }
}

const results: Round[] = [];
for (let i = 0; i < rounds; i++) {
  for (const spawner of i % 2 === 0 ? [true, false] : [false, true]) {
    const r = await round(spawner);
    results.push(r);
    const sorted = [...r.samples].sort((a, b) => a - b);
    const f = (x: number) => x.toFixed(1);
    process.stdout.write(`| ${spawner ? 'spawner' : 'direct'} | ${f(r.load[0])}→${f(r.load[1])} | ${r.rssMb} MB | ${r.ocrRuns} OCR, ${r.heavyRuns} flatten | ${f(percentile(sorted, 50))} | ${f(percentile(sorted, 90))} | ${f(percentile(sorted, 99))} | ${f(sorted.at(-1)!)} | ${f(r.lagMs)} | ${r.cpu} |\n`);
  }
}
for (const spawner of [true, false]) {
  const pooled = results.filter((r) => r.spawner === spawner).flatMap((r) => r.samples).sort((a, b) => a - b);
  process.stdout.write(`pooled ${spawner ? 'spawner' : 'direct'}: n=${pooled.length} p50 ${percentile(pooled, 50).toFixed(1)} p90 ${percentile(pooled, 90).toFixed(1)} p99 ${percentile(pooled, 99).toFixed(1)} lag max ${results.filter((r) => r.spawner === spawner).map((r) => r.lagMs.toFixed(0)).join(', ')} ms\n`);
}
