/**
 * How long starting an external program stops this process's event loop, as a function of its resident memory
 * (issue 38; bench/results/spawner-2026-11-30.md). Grows the process's RSS by `--mb` (Buffers, every page written;
 * `--wasm` for a WebAssembly memory, as MuPDF's engine workers hold), then starts `--program` (`/bin/true`) `--n`
 * times one after another, each after the previous has ended, and reports:
 *
 * - `call`: the synchronous duration of the call that starts the program (`child_process.spawn`, or the spawner
 *   client's `spawn` with `--via=spawner`), in ms;
 * - `gap`: the event loop's longest stall while the spawns ran (`perf_hooks.monitorEventLoopDelay`, 1 ms resolution);
 * - the process's RSS and the 1-minute load average, at the start and the end.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/spawn-latency.js --mb=650 --n=20 [--wasm] [--via=direct|spawner]
 *
 * One JSON line on stdout (`--table` prints a Markdown row instead).
 */
import { spawn as nodeSpawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Spawner } from '../src/tools/spawner.js';

const args = new Map(process.argv.slice(2).map((arg) => {
  const [name, value] = arg.replace(/^--/, '').split('=');
  return [name!, value ?? 'true'] as const;
}));
const mb = Number(args.get('mb') ?? 0);
const n = Number(args.get('n') ?? 20);
const program = args.get('program') ?? '/bin/true';
const via = args.get('via') ?? 'direct';
const wasm = args.has('wasm');

// The spawner is started before the memory grows, as the service starts it before its engine workers do.
const spawner = via === 'spawner' ? new Spawner() : undefined;
await spawner?.ready();

const held: unknown[] = [];
if (wasm) {
  // 64 KiB pages; written page by page so that every one is resident.
  const memory = new WebAssembly.Memory({ initial: Math.ceil((mb * 1024 * 1024) / 65536) });
  const bytes = new Uint8Array(memory.buffer);
  for (let at = 0; at < bytes.length; at += 4096) bytes[at] = 1;
  held.push(memory);
} else {
  for (let i = 0; i < mb; i++) held.push(Buffer.alloc(1024 * 1024, 1));
}

const rssMb = () => Math.round(process.memoryUsage.rss() / (1024 * 1024));
const rssStart = rssMb();
const loadStart = loadavg()[0]!;

function runOnce(): Promise<number> {
  return new Promise((resolve, reject) => {
    const before = performance.now();
    if (spawner) {
      // The call's synchronous part: what the service's loop pays; the program runs in the spawner's fork.
      const started = spawner.start({ file: program, args: [], cwd: '/', env: { PATH: '/usr/bin:/bin' }, stdin: 'ignore' });
      const call = performance.now() - before;
      started.then((child) => {
        child.stdout.resume();
        child.stderr.resume();
        child.once('close', () => resolve(call));
      }, reject);
    } else {
      const child = nodeSpawn(program, [], { cwd: '/', env: { PATH: '/usr/bin:/bin' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const call = performance.now() - before;
      child.stdout.resume();
      child.stderr.resume();
      child.once('error', reject);
      child.once('close', () => resolve(call));
    }
  });
}

// One spawn before measuring: the first pays for loading code paths (and the spawner's IPC) once.
await runOnce();
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
const calls: number[] = [];
for (let i = 0; i < n; i++) calls.push(await runOnce());
histogram.disable();
spawner?.close();

const sorted = [...calls].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const round = (x: number) => Math.round(x * 10) / 10;
const result = {
  via,
  memory: wasm ? 'wasm' : 'buffers',
  mb,
  n,
  program,
  rssMb: [rssStart, rssMb()],
  load: [round(loadStart), round(loadavg()[0]!)],
  callMs: { p50: round(at(0.5)), p90: round(at(0.9)), max: round(sorted.at(-1)!), min: round(sorted[0]!) },
  // monitorEventLoopDelay reports nanoseconds.
  gapMs: { max: round(histogram.max / 1e6), p99: round(histogram.percentile(99) / 1e6) },
};
if (args.has('table')) {
  process.stdout.write(`| ${via} | ${result.memory} ${mb} MB | ${result.rssMb.join('→')} MB | ${result.load.join('→')} | ${n} | ${result.callMs.p50} / ${result.callMs.p90} / ${result.callMs.max} ms | ${result.gapMs.max} ms |\n`);
} else process.stdout.write(`${JSON.stringify(result)}\n`);
