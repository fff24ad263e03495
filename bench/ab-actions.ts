/**
 * Same-run A/B of engine-backed actions between two builds (issue 36; bench/results/engine-roundtrip-2026-11-29.md and
 * restructure-ab-2026-11-29.md): each build started as its own real server (its test/helpers/server.js), the same
 * action on fresh uploads of the same bench document, the requests alternating between the builds (the side going first
 * alternating too). Besides the wall time of the action request it reads what does not depend on the machine's load:
 * the server process's CPU time (user + system, all its threads: /proc/<pid>/stat), the bytes it read and wrote
 * (/proc/<pid>/io rchar, wchar) and the engine tasks it completed (/health), during the request and over the whole
 * cycle until its engine is idle again (the text prefetch of the version written included).
 *
 *   node dist/bench/ab-actions.js <before checkout> <after checkout> [runs] [--pages=200,1000] [--actions=TextStampAction,RotatePagesAction]
 *     [--prefetch=off] [--settle]
 *
 * Each checkout with its `dist` built. `--prefetch=off`: PDFSERVICE_TEXT_PREFETCH_MAX_BYTES=0 on both servers.
 * `--settle`: before each request both servers' engines are idle (no text prefetch of an earlier write still running).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Server {
  api: string;
  baseUrl: string;
  adminAuth: string;
  child: { pid?: number | undefined };
  stop(): Promise<void>;
}
interface Build {
  server: { startServer(options?: { env?: Record<string, string> }): Promise<Server> };
  lib: { uploadPdf(url: string, auth: Record<string, string>, pdf: Uint8Array): Promise<void> };
  fixtures: { makeBenchDocument(pages: number, options: { word: string }): Uint8Array };
}

const ACTIONS: Record<string, object> = {
  TextStampAction: { TextStampAction: { text: 'CONFIDENTIAL DRAFT', x: 500, y: 150, fontSize: 48, color: 0xff0000, rotation: 90, transparency: 0.5 } },
  RotatePagesAction: { RotatePagesAction: { rotation: 90 } },
};

const args = process.argv.slice(2);
const option = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const [beforeDir, afterDir, runsArg] = args.filter((a) => !a.startsWith('--'));
if (!beforeDir || !afterDir) throw new Error('usage: ab-actions.js <before checkout> <after checkout> [runs] [--pages=..] [--actions=..] [--prefetch=off] [--settle]');
const runs = Number(runsArg ?? 5);
const pagesList = (option('pages') ?? '200,1000').split(',').map(Number);
const actions = (option('actions') ?? Object.keys(ACTIONS).join(',')).split(',');
const settle = args.includes('--settle');
const env: Record<string, string> = option('prefetch') === 'off' ? { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } : {};

const load = async (dir: string): Promise<Build> => {
  const url = (file: string) => pathToFileURL(path.resolve(dir, 'dist', file)).href;
  return {
    server: (await import(url('test/helpers/server.js'))) as Build['server'],
    lib: (await import(url('bench/lib.js'))) as Build['lib'],
    fixtures: (await import(url('bench/fixtures.js'))) as Build['fixtures'],
  };
};

/** The server process's CPU ms (all threads, ended ones included), bytes read and written, and engine tasks completed. */
interface Counts {
  cpuMs: number;
  read: number;
  written: number;
  tasks: number;
}

const TICK_MS = 10; // USER_HZ 100 on Linux

async function counts(server: Server): Promise<Counts> {
  const pid = server.child.pid!;
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const io = Object.fromEntries(readFileSync(`/proc/${pid}/io`, 'utf8').trim().split('\n').map((l) => l.split(': ') as [string, string]));
  const health = (await (await fetch(`${server.api}/health`)).json()) as { engine: { completed: number; failed: number } };
  return {
    cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    read: Number(io.rchar),
    written: Number(io.wchar),
    tasks: health.engine.completed + health.engine.failed,
  };
}

const minus = (a: Counts, b: Counts): Counts => ({ cpuMs: a.cpuMs - b.cpuMs, read: a.read - b.read, written: a.written - b.written, tasks: a.tasks - b.tasks });

/** Waits until the server's engine runs and queues nothing. */
async function idle(server: Server): Promise<void> {
  for (;;) {
    const { engine } = (await (await fetch(`${server.api}/health`)).json()) as { engine: { busy: number; queued: number } };
    if (engine.busy === 0 && engine.queued === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const spread = (v: number[]): string => `${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))}`;
const mb = (n: number): string => (n / 1e6).toFixed(1);

const builds = { before: await load(beforeDir), after: await load(afterDir) };
const servers = { before: await builds.before.server.startServer({ env }), after: await builds.after.server.startServer({ env }) };
type Side = keyof typeof servers;
interface Sample {
  ms: number;
  request: Counts;
  cycle: Counts;
}
const rows: { action: string; pages: number; samples: Record<Side, Sample[]> }[] = [];
try {
  for (const pages of pagesList) {
    const doc = builds.before.fixtures.makeBenchDocument(pages, { word: 'quarterly' });
    for (const name of actions) {
      const samples: Record<Side, Sample[]> = { before: [], after: [] };
      for (let i = 0; i < runs; i++) {
        for (const side of (i % 2 ? ['after', 'before'] : ['before', 'after']) as Side[]) {
          const server = servers[side];
          const auth = { authorization: server.adminAuth };
          const url = `${server.api}/documents/ab/${name}-${pages}-${i}.pdf`;
          if (settle) await Promise.all(Object.values(servers).map(idle));
          const start = await counts(server);
          await builds.before.lib.uploadPdf(url, auth, doc);
          if (settle) await Promise.all(Object.values(servers).map(idle));
          const t0 = performance.now();
          const atRequest = await counts(server);
          const r = await fetch(`${url}/pages`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(ACTIONS[name]) });
          await r.arrayBuffer();
          const atAnswer = await counts(server);
          const ms = performance.now() - t0;
          if (r.status !== 200) throw new Error(`${side} ${name} ${pages}: ${r.status}`);
          await idle(server);
          await fetch(url, { method: 'DELETE', headers: auth });
          samples[side].push({ ms, request: minus(atAnswer, atRequest), cycle: minus(await counts(server), start) });
        }
      }
      rows.push({ action: name, pages, samples });
      const brief = (s: Sample[]) => s.map((x) => `${Math.round(x.ms)}ms/${x.request.cpuMs}cpu/${x.request.tasks}t`).join(' ');
      console.log(`${name} ${pages}: before ${brief(samples.before)} | after ${brief(samples.after)}`);
    }
  }
} finally {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
}

console.log(`\nprefetch ${env.PDFSERVICE_TEXT_PREFETCH_MAX_BYTES === '0' ? 'off' : 'on'}, ${settle ? 'settled before each request' : 'not settled'}, ${runs} runs each\n`);
console.log('| action | pages | wall before (median ms, min–max) | wall after | after / before | server CPU before (ms) | server CPU after | after / before | engine tasks before / after (request; cycle) | read MB before / after (request) | written MB before / after (request) |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const { action, pages, samples } of rows) {
  const [b, a] = [samples.before, samples.after];
  const ms = (s: Sample[]) => s.map((x) => x.ms);
  const cpu = (s: Sample[]) => s.map((x) => x.request.cpuMs);
  const med = (s: Sample[], pick: (x: Sample) => number) => median(s.map(pick));
  console.log(
    `| ${action} | ${pages.toLocaleString('en')} | ${median(ms(b)).toFixed(0)} (${spread(ms(b))}) | ${median(ms(a)).toFixed(0)} (${spread(ms(a))}) | ${(median(ms(a)) / median(ms(b))).toFixed(2)} ` +
      `| ${median(cpu(b)).toFixed(0)} (${spread(cpu(b))}) | ${median(cpu(a)).toFixed(0)} (${spread(cpu(a))}) | ${(median(cpu(a)) / median(cpu(b))).toFixed(2)} ` +
      `| ${med(b, (x) => x.request.tasks)} / ${med(a, (x) => x.request.tasks)}; ${med(b, (x) => x.cycle.tasks)} / ${med(a, (x) => x.cycle.tasks)} ` +
      `| ${mb(med(b, (x) => x.request.read))} / ${mb(med(a, (x) => x.request.read))} | ${mb(med(b, (x) => x.request.written))} / ${mb(med(a, (x) => x.request.written))} |`,
  );
}
process.exit(0);
