import zlib from 'node:zlib';
import { execFileSync, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** PUTs a PDF at a document URL; throws unless it was stored. */
export async function uploadPdf(url: string, auth: Record<string, string>, pdf: Uint8Array): Promise<void> {
  const put = await fetch(url, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, body: new Uint8Array(pdf) });
  await put.arrayBuffer();
  if (put.status >= 300) throw new Error(`upload answered ${put.status}`);
}

/** Wall time of a command-line peer, in ms. */
export function timeCommand(command: string, args: string[]): number {
  const start = performance.now();
  execFileSync(command, args, { stdio: 'ignore' });
  return performance.now() - start;
}

/** Starts the bare Fastify server in its own process; resolves its URL and a stop function. */
export async function startBareServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./bare-server.js', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        try {
          const parsed = JSON.parse(line) as { url?: string };
          if (parsed.url) resolve(parsed.url);
        } catch {
          /* partial line */
        }
      }
    });
    child.once('exit', () => reject(new Error('bare server exited')));
  });
  return { url, stop: () => child.kill() };
}

/** Latency samples of sequential GETs, one every `gapMs`, for `count` requests. */
export async function sampleLatency(url: string, count: number, gapMs: number, headers: Record<string, string> = {}): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const reply = await fetch(url, { headers });
    await reply.arrayBuffer();
    samples.push(performance.now() - start);
    if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
  }
  return samples.sort((a, b) => a - b);
}

export function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

/** A large, highly compressible RGB PNG made in code: cheap to send, expensive to convert. */
export function makeLargePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([(x * 7) & 255, (x * 3) & 255, 128], 1 + x * 3);
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}
