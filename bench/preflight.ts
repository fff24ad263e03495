/**
 * Preflight benchmark (issue 20): PDF/A-2b preflight of the bench document
 * through GET .../preflight-results (the warm veraPDF JVM of the service)
 * against veraPDF started per file, as a command-line validator runs: the
 * same helper program in a fresh JVM for each document, with the same JVM
 * options, so the difference is the JVM start and a cold JIT. Each repetition
 * checks a new version (a comment appended after %%EOF), so the service's
 * result cache never answers; one warm-up request first, as a running
 * service has had.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { median, oursOf, pagesLabel, peerOf, timed, uploadPdf } from './lib.js';

const PROFILE = 'pdfa2b';
/** The service's JVM options (tools/verapdf.ts), so the peer differs by its fresh JVM alone. */
const JVM_OPTIONS = ['-Xmx768m', '-XX:+UseSerialGC', '-XX:-UsePerfData', '-Xss4m', '-Djava.awt.headless=true'];

/** A new version of the same document: bytes after %%EOF change the ETag, not the PDF. */
export function version(pdf: Buffer, n: number): Buffer {
  return Buffer.concat([pdf, Buffer.from(`%bench-version-${n}\n`, 'latin1')]);
}

export async function preflight(server: TestServer, doc: string, profile = PROFILE): Promise<{ compliant: boolean; failedChecks: number }> {
  const reply = await fetch(`${server.api}/documents/${doc}/preflight-results?profile=${profile}`, { headers: { authorization: server.adminAuth } });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`preflight answered ${reply.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as { compliant: boolean; failedChecks: number };
}

/**
 * veraPDF in a JVM of its own for one file (`flavour`: veraPDF's id, '2b', 'ua1'): wall time in ms, and its verdict.
 * Asynchronous, so that the client's keep-alive connection to the service
 * sees the service close it meanwhile (a synchronous child blocked that, and
 * the next upload wrote into a closed socket).
 */
export async function verapdfPerFile(dir: string, file: string, flavour = '2b'): Promise<{ ms: number; failedChecks: number }> {
  const started = performance.now();
  const child = spawn('java', [...JVM_OPTIONS, '-cp', `${path.join(dir, 'verapdf-helper.jar')}:${path.join(dir, 'lib')}/*`, 'pdfservice.verapdf.Helper'], { stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stdin.end(`${JSON.stringify({ file, flavour })}\n`);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const ms = performance.now() - started;
  const answer = JSON.parse(out.trim().split('\n')[1] ?? '{}') as { ok?: boolean; report?: { failedChecks: number } };
  if (code !== 0 || !answer.ok) throw new Error(`veraPDF per file (exit ${code}): ${out.slice(0, 300)}`);
  return { ms, failedChecks: answer.report!.failedChecks };
}

export async function runPreflightBench(quick: boolean): Promise<Row[]> {
  const verapdfDir = loadConfig({}).verapdfDir;
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-preflight-'));
  // Text prefetching off, as in the other benchmarks' servers: after each upload it would extract the 200 pages' text on both cores while the preflight runs.
  const server = await sharedServer({ PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' });
  const rows: Row[] = [];
  try {
    const auth = { authorization: server.adminAuth };
    // Quick (a smoke test of the bench): 1 page, once. Full: 3 runs at 200 pages, where the target (3x) is near the
    // ratio measured; 2 at 1 page, whose ratio (about 80x, no target) no spread comes near.
    for (const pages of quick ? [1] : [1, 200]) {
      const runs = quick ? 1 : pages === 1 ? 2 : 3;
      const pdf = makeBenchDocument(pages);
      await uploadPdf(`${server.api}/documents/bench/preflight-warmup.pdf`, auth, version(pdf, 0));
      await preflight(server, 'bench/preflight-warmup.pdf');
      const ours: number[] = [];
      const peer: number[] = [];
      for (let i = 1; i <= runs; i++) {
        const bytes = version(pdf, i);
        const doc = `bench/preflight-${pages}-${i}.pdf`;
        await uploadPdf(`${server.api}/documents/${doc}`, auth, bytes);
        const { ms, value } = await timed(() => preflight(server, doc));
        ours.push(ms);
        const file = path.join(dir, `document-${i}.pdf`);
        writeFileSync(file, bytes);
        const cold = await verapdfPerFile(verapdfDir, file);
        peer.push(cold.ms);
        if (cold.failedChecks !== value.failedChecks) throw new Error(`the two disagree: ${value.failedChecks} failed checks warm, ${cold.failedChecks} per file`);
      }
      const ratio = median(peer) / median(ours);
      console.log(`preflight, ${pagesLabel(pages)}: the warm service is ${ratio.toFixed(1)}x faster than veraPDF in a JVM per file`);
      rows.push({
        operation: 'PDF/A-2b preflight: warm veraPDF (service) vs a JVM per file',
        size: pagesLabel(pages),
        pages,
        ...oursOf(ours),
        ...peerOf(peer, 'veraPDF 1.30 in a fresh JVM per file'),
        unit: 'ms',
        ...(pages === 200 ? { target: 'at least 3x faster', met: ratio >= 3 } : {}),
      });
    }
    return rows;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
