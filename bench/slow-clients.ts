/**
 * Anonymous slow uploads against /health (issue 35 item 18): the service on core 0, the attacker
 * (slow-clients-attacker.ts) on core 1, both pinned with taskset so that the attacker cannot take the service's
 * CPU, loopback only, bounded in connections and time. A prober on another loopback address asks GET /health
 * every 20 ms over one keep-alive connection, first alone (baseline), then during the attack, and prints the
 * latencies' median, p99 and maximum.
 * Usage: node dist/bench/slow-clients.js [SECONDS=30] [ADDRESSES=90] [PER_ADDRESS=150]
 */
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startServer } from '../test/helpers/server.js';

const [seconds = 30, addresses = 90, perAddress = 150] = process.argv.slice(2).map(Number);
const ATTACKER = fileURLToPath(new URL('./slow-clients-attacker.js', import.meta.url));

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function probe(api: string, ms: number): Promise<{ count: number; errors: number; p50: number; p99: number; max: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.2' });
  const times: number[] = [];
  let errors = 0;
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const start = performance.now();
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.get(`${api}/health`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      });
      req.setTimeout(30_000, () => req.destroy());
      req.on('error', () => resolve(false));
    });
    if (ok) times.push(performance.now() - start);
    else errors++;
    await new Promise((r) => setTimeout(r, 20));
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { count: times.length, errors, p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), max: round(times.at(-1) ?? NaN) };
}

const server = await startServer();
try {
  // The service and its threads on core 0.
  execFileSync('taskset', ['-a', '-pc', '0', String(server.child.pid)], { stdio: 'ignore' });
  const port = new URL(server.baseUrl).port;
  const baseline = await probe(server.api, 5000);
  const attacker = spawn('taskset', ['-c', '1', process.execPath, ATTACKER, port, String(seconds), String(addresses), String(perAddress)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  attacker.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const during = await probe(server.api, seconds * 1000);
  await new Promise((r) => attacker.once('exit', r));
  console.log(JSON.stringify({ seconds, addresses, perAddress, attacker: JSON.parse(out.trim() || '{}'), baseline, during }, null, 1));
} finally {
  await server.stop();
}
