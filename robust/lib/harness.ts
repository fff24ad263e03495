/**
 * What every part of the robustness suite shares: requests with a deadline,
 * the verdict on an answer (2xx, or a documented 4xx in the problem shape),
 * liveness checks, memory sampling of the service process, and the ledger
 * that counts cases and failures and prints the part's summary line.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CATALOG, isErrorCode } from '../../src/errors.js';
import type { TestServer } from '../../test/helpers/server.js';

export interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  ms: number;
  /** Set when no answer came (connection error, or the deadline passed). */
  error?: string;
}

export interface RequestOptions {
  body?: BodyInit | Buffer;
  headers?: Record<string, string>;
  /** Give up after this long and report it (default 60 s). */
  timeoutMs?: number;
  auth?: string | false;
}

/** One request; a path starting with "/" is relative to /pdfservice/v1. Never throws. */
export async function request(server: TestServer, method: string, target: string, options: RequestOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.auth !== false) headers['authorization'] ??= options.auth ?? server.adminAuth;
  const url = target.startsWith('http') ? target : `${server.api}${target}`;
  const timeoutMs = options.timeoutMs ?? 60_000;
  // A large body may be refused (413) before it is all sent: fetch then reports only the broken pipe.
  if (Buffer.isBuffer(options.body) && options.body.length > 1024 * 1024) {
    const body = options.body;
    return streamRequest(url, method, headers, body.length, (offset, size) => body.subarray(offset, offset + size), timeoutMs);
  }
  const started = performance.now();
  try {
    const response = await fetch(url, { method, headers, body: options.body as BodyInit | undefined, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8'), ms: performance.now() - started };
  } catch (err) {
    const e = err as Error & { cause?: Error };
    const what = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `${e.message}${e.cause ? `: ${e.cause.message}` : ''}`;
    return { status: 0, headers: new Headers(), bytes: Buffer.alloc(0), text: '', ms: performance.now() - started, error: what };
  }
}

/**
 * A request whose body of `length` bytes is produced chunk by chunk (`chunk(offset, size)`), so a
 * gigabyte body is never in memory. Writing stops as soon as an answer arrives (a 413 comes before
 * the body is read), and that answer is returned even if the service then closes the connection.
 * `length` null sends the body chunked, without Content-Length.
 */
export function streamRequest(url: string, method: string, headers: Record<string, string>, length: number | null, chunk: (offset: number, size: number) => Buffer, timeoutMs: number, total = length ?? 0): Promise<Answer & { sent: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    let sent = 0;
    const finish = (a: Omit<Answer, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...a, ms: performance.now() - started, sent });
      req.destroy();
    };
    const fail = (error: string) => finish({ status: 0, headers: new Headers(), bytes: Buffer.alloc(0), text: '', error });
    const timer = setTimeout(() => fail(`no answer within ${timeoutMs} ms`), timeoutMs);
    const req = http.request(url, { method, headers: { ...headers, ...(length !== null ? { 'content-length': String(length) } : {}) } });
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      const done = () => {
        const bytes = Buffer.concat(parts);
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        finish({ status: res.statusCode ?? 0, headers: h, bytes, text: bytes.toString('utf8') });
      };
      res.on('end', done);
      res.on('error', done);
    });
    req.on('error', (err) => {
      // The service may close the connection while we still write, after it answered: wait for that answer.
      setTimeout(() => {
        if (!answered) fail(`connection failed after ${sent} bytes: ${err.message}`);
      }, 2000);
    });
    const pump = () => {
      while (!answered && !settled && sent < total) {
        const piece = chunk(sent, Math.min(1024 * 1024, total - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered && !settled) req.end();
    };
    pump();
  });
}

/**
 * null when the answer is acceptable: 2xx (or 304), or a 4xx whose body is a
 * problem document with a catalog code, that code's status (or its path
 * status) and title. Anything else, including an answer slower than
 * `deadlineMs`, is described.
 */
export function judge(answer: Answer, deadlineMs: number): string | null {
  if (answer.error) return answer.error;
  if (answer.ms > deadlineMs) return `answered ${answer.status} after ${Math.round(answer.ms)} ms (limit ${deadlineMs} ms)`;
  if ((answer.status >= 200 && answer.status < 300) || answer.status === 304) return null;
  const excerpt = answer.text.slice(0, 300);
  if (answer.status < 400 || answer.status >= 500) return `status ${answer.status}: ${excerpt}`;
  const type = answer.headers.get('content-type') ?? '';
  if (!type.startsWith('application/problem+json')) return `status ${answer.status} with content type "${type}": ${excerpt}`;
  let problem: { type?: unknown; title?: unknown; status?: unknown; code?: unknown };
  try {
    problem = JSON.parse(answer.text);
  } catch {
    return `status ${answer.status} with a problem body that is not JSON: ${excerpt}`;
  }
  const code = String(problem.code);
  if (!isErrorCode(code)) return `status ${answer.status} with undocumented code ${code}`;
  const entry: { status: number; title: string; pathStatus?: number } = ERROR_CATALOG[code];
  if (answer.status !== entry.status && answer.status !== entry.pathStatus) return `status ${answer.status} for ${code}, documented as ${entry.status}`;
  if (problem.status !== answer.status || problem.title !== entry.title || problem.type !== `urn:pdfservice:error:${code}`) return `problem fields do not match: ${excerpt}`;
  return null;
}

export function problemCode(answer: Answer): string {
  try {
    return String(JSON.parse(answer.text).code ?? '');
  } catch {
    return '';
  }
}

/** null when the service process runs and /health answers 200 within 10 s. */
export async function checkAlive(server: TestServer): Promise<string | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return `the service exited (${server.child.exitCode ?? server.child.signalCode})`;
  const health = await request(server, 'GET', '/health', { auth: false, timeoutMs: 10_000 });
  if (health.status !== 200) return `health answered ${health.status || health.error}`;
  return null;
}

/** Samples the resident memory of a process (VmRSS) and reads its high-water mark (VmHWM). */
export class MemorySampler {
  private timer: NodeJS.Timeout | null = null;
  peakRssKb = 0;
  constructor(private readonly pid: number) {}
  static read(pid: number): { rssKb: number; hwmKb: number } {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  }
  /** Resets the kernel's high-water mark (writing 5 to clear_refs), so the next reading covers what follows. */
  resetHighWater(): void {
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
    } catch {
      /* not allowed: the peak then covers the whole life of the process */
    }
    this.peakRssKb = 0;
  }
  start(intervalMs = 100): void {
    this.stop();
    const tick = () => {
      try {
        this.peakRssKb = Math.max(this.peakRssKb, MemorySampler.read(this.pid).rssKb);
      } catch {
        /* the process is gone */
      }
    };
    tick();
    this.timer = setInterval(tick, intervalMs);
  }
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
  /** The larger of the sampled peak and the kernel's high-water mark, in MiB. */
  peakMiB(): number {
    let hwm = 0;
    try {
      hwm = MemorySampler.read(this.pid).hwmKb;
    } catch {
      /* gone */
    }
    return Math.round(Math.max(this.peakRssKb, hwm) / 1024);
  }
}

export interface Failure {
  caseId: string;
  what: string;
}

/** Cases and failures of one part; prints its summary line and keeps failing inputs for replay. */
export class Ledger {
  cases = 0;
  requests = 0;
  readonly failures: Failure[] = [];
  private readonly started = performance.now();
  readonly notes: string[] = [];
  constructor(readonly part: string) {}

  fail(caseId: string, what: string, input?: Buffer): void {
    let saved = '';
    if (input) {
      const dir = path.join(process.env['ROBUST_FAILURES_DIR'] ?? path.join(tmpdir(), 'pdfservice-robust-failures'), this.part);
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${caseId.replace(/[^\w.-]+/g, '_').slice(0, 48)}.bin`);
      writeFileSync(file, input);
      saved = ` [input saved as ${file}]`;
    }
    this.failures.push({ caseId, what: what + saved });
    console.log(`robust ${this.part} FAILURE ${caseId}: ${what}${saved}`);
  }

  /** Checks one answer; returns true when it is acceptable. */
  check(caseId: string, label: string, answer: Answer, deadlineMs: number, input?: Buffer): boolean {
    this.requests++;
    const problem = judge(answer, deadlineMs);
    if (problem) this.fail(caseId, `${label}: ${problem}`, input);
    return problem === null;
  }

  summary(): string {
    const seconds = ((performance.now() - this.started) / 1000).toFixed(0);
    const notes = this.notes.length ? `; ${this.notes.join('; ')}` : '';
    return `robust ${this.part}: ${this.cases} cases tried, ${this.requests} requests, ${this.failures.length} failures, ${seconds} s${notes}`;
  }

  /** Prints the summary line; throws listing the failures when there are any. */
  finish(): void {
    console.log(this.summary());
    if (this.failures.length > 0) {
      const list = this.failures.slice(0, 30).map((f) => `  ${f.caseId}: ${f.what}`).join('\n');
      throw new Error(`${this.failures.length} failures in ${this.part}:\n${list}${this.failures.length > 30 ? '\n  ...' : ''}`);
    }
  }
}

/** The number of mutation cases of a part: its own variable, else ROBUST_CASES, else the default. */
export function caseCount(variable: string, fallback: number): number {
  const raw = process.env[variable] ?? process.env['ROBUST_CASES'];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${variable} must be a whole number`);
  return n;
}

/** ROBUST_ONLY=3,17 replays those case numbers alone. */
export function onlyCases(): Set<number> | null {
  const raw = process.env['ROBUST_ONLY'];
  if (!raw) return null;
  return new Set(raw.split(',').map((s) => Number(s.trim())));
}

/** Runs `work` for 0..count-1 with `lanes` of them in flight. */
export async function inLanes(count: number, lanes: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, lanes) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

export const lanes = (): number => Number(process.env['ROBUST_LANES'] ?? 2);

/** Counts the service's error log lines (level 50 and up) by message, to report what the engine met. */
export class ErrorLog {
  readonly counts = new Map<string, number>();
  /** Tasks the engine stopped at their timeout, with how worn their worker was and whether it ran (src/start/engine.ts). */
  readonly timeouts: string[] = [];
  private partial = '';
  constructor(server: TestServer) {
    const tee = process.env['ROBUST_SERVER_LOG'];
    const onData = (chunk: Buffer) => {
      if (tee) appendFileSync(tee, chunk);
      const lines = (this.partial + chunk.toString('utf8')).split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.includes('engine task stopped at its timeout')) {
          try {
            const { task, workerTasks, workerFailures, workerBusy } = JSON.parse(line) as Record<string, unknown>;
            this.timeouts.push(`${String(task)} (worker had run ${String(workerTasks)} tasks, ${String(workerFailures)} failed; busy ${String(workerBusy)} of the wait)`);
          } catch {
            /* not a log line */
          }
          continue;
        }
        if (!line.includes('"level":5') && !line.includes('"level":6')) continue;
        try {
          const entry = JSON.parse(line) as { level: number; msg?: string; engineMessage?: string; code?: string; task?: string };
          if (entry.level < 50) continue;
          const key = [entry.msg, entry.code, entry.task, entry.engineMessage?.slice(0, 80)].filter(Boolean).join(': ');
          this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
        } catch {
          /* not a log line */
        }
      }
    };
    server.child.stdout!.on('data', onData);
    server.child.stderr!.on('data', onData);
  }
  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
  describe(limit = 6): string {
    const timeouts = this.timeouts.length ? `; engine timeouts: ${this.timeouts.slice(0, limit).join(' | ')}` : '';
    if (this.counts.size === 0) return `no errors logged by the service${timeouts}`;
    const top = [...this.counts].sort((a, b) => b[1] - a[1]).slice(0, limit).map(([k, v]) => `${v}x ${k}`);
    return `service logged ${this.total} errors (${top.join(' | ')})${timeouts}`;
  }
}

/** qpdf --check, without blocking the test's event loop (its readers keep running); results by content hash. */
const qpdfResults = new Map<string, Promise<{ ok: boolean; output: string }>>();
export function qpdfCheckAsync(bytes: Buffer, password?: string): Promise<{ ok: boolean; output: string }> {
  const key = `${createHash('sha256').update(bytes).digest('hex')}|${password ?? ''}`;
  let result = qpdfResults.get(key);
  if (!result) {
    result = (async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'pdfservice-robust-qpdf-'));
      const file = path.join(dir, 'doc.pdf');
      try {
        await writeFile(file, bytes);
        const args = [...(password !== undefined ? [`--password=${password}`] : []), '--check', file];
        return await new Promise<{ ok: boolean; output: string }>((resolve) => {
          execFile('qpdf', args, { maxBuffer: 16 << 20 }, (err, stdout, stderr) => resolve({ ok: !err, output: `${stdout}${stderr}`.slice(-2000) }));
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    })();
    qpdfResults.set(key, result);
  }
  return result;
}

/** The ETag the service gives these bytes (the first 128 bits of their SHA-256). */
export function etagOf(bytes: Buffer | Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;
}
