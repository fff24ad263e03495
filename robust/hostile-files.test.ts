/**
 * Part 1a of the robustness suite (issue 10): hostile files. Every malformed
 * PDF of the corpus and ROBUST_CASES (default 2,000) seeded mutations of valid
 * documents are uploaded, and each one stored is read back through the
 * DocumentModel, the annotation list, the XFDF export, the document's text,
 * the first page's text and its image. Every answer must be 2xx or a
 * documented 4xx within the deadline, and the service must stay up (health is
 * checked after every batch).
 */
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { corpusDir, readManifest } from '../corpus/manifest.js';
import { caseCount, checkAlive, ErrorLog, inLanes, lanes, Ledger, MemorySampler, onlyCases, problemCode, request } from './lib/harness.js';
import { mutate, type SeedDocument } from './lib/mutations.js';
import { caseSeed, hex, Rng } from './lib/prng.js';
import { seedDocuments } from './lib/seeds.js';

export const SEED = 0x5eed_0a10;
const TASK_TIMEOUT_MS = 10_000;
/** A request may wait for one task of the other lane and run its own: past this it hangs. */
const DEADLINE_MS = 3 * TASK_TIMEOUT_MS + 5_000;
const BATCH = 25;

interface HostileCase {
  id: string;
  label: string;
  bytes: Buffer;
  password?: string;
}

let server: TestServer;
let memory: MemorySampler;
const errorLogs: ErrorLog[] = [];
const startService = async () => {
  server = await startServer({ env: { PDFSERVICE_TASK_TIMEOUT_MS: String(TASK_TIMEOUT_MS) } });
  errorLogs.push(new ErrorLog(server));
  memory = new MemorySampler(server.child.pid!);
  memory.start(250);
};
before(startService);
after(async () => {
  memory.stop();
  await server.stop();
});

const READS = [
  { label: 'DocumentModel', url: '', accept: 'application/json' },
  { label: 'annotations', url: '/annotations', accept: 'application/json' },
  { label: 'XFDF export', url: '/annotations/content', accept: 'application/vnd.adobe.xfdf' },
  { label: 'document text', url: '/text', accept: 'text/plain' },
  { label: 'page text', url: '/pages/0/text', accept: 'text/plain' },
  { label: 'page image', url: '/pages/0/image?dpi=20', accept: 'image/png' },
];

test('hostile files: malformed corpus PDFs and seeded mutations through upload and six reads', async () => {
  const ledger = new Ledger('hostile-files');
  const only = onlyCases();
  const cases: HostileCase[] = [];
  const dir = corpusDir();
  if (!dir) console.log('robust hostile-files: no corpus found, mutations only');
  else if (!only) {
    for (const entry of readManifest(dir).filter((e) => e.features.includes('malformed'))) {
      cases.push({ id: `corpus:${entry.file}`, label: 'malformed corpus file', bytes: readFileSync(entry.absolute) });
    }
  }
  const seeds: SeedDocument[] = seedDocuments();
  const count = caseCount('ROBUST_FILE_CASES', 2000);
  for (let i = 0; i < count; i++) {
    if (only && !only.has(i)) continue;
    const seed = seeds[i % seeds.length]!;
    const rng = new Rng(caseSeed(SEED, i));
    const m = mutate(seed, rng);
    cases.push({ id: `case ${i}`, label: `seed ${hex(rng.seed)}, ${seed.name}, ${m.kind}: ${m.detail}`, bytes: m.bytes, ...(seed.password !== undefined ? { password: seed.password } : {}) });
  }

  const outcomes = new Map<string, number>();
  const readOutcomes = new Map<string, number>();
  let slowest = { ms: 0, what: '' };
  const runCase = async (c: HostileCase, slot: number) => {
    ledger.cases++;
    if (process.env['ROBUST_VERBOSE']) console.log(`${c.id} (${c.label}) ${c.bytes.length} bytes`);
    const doc = `/documents/hostile/c${slot}.pdf`;
    const headers: Record<string, string> = c.password !== undefined ? { 'x-service-documentpassword': c.password } : {};
    const put = await request(server, 'PUT', doc, { body: c.bytes, headers: { 'content-type': 'application/pdf', accept: 'application/json' }, timeoutMs: DEADLINE_MS + 10_000 });
    const seen = (label: string, a: { ms: number; status: number }) => {
      if (a.ms > slowest.ms) slowest = { ms: a.ms, what: `${c.id} ${label} ${a.status}` };
    };
    seen('upload', put);
    if (!ledger.check(`${c.id} (${c.label})`, 'upload', put, DEADLINE_MS, c.bytes)) return;
    const outcome = put.status < 300 ? 'stored' : problemCode(put);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (put.status >= 300) return;
    for (const read of READS) {
      const answer = await request(server, 'GET', `${doc}${read.url}`, { headers: { accept: read.accept, ...headers }, timeoutMs: DEADLINE_MS + 10_000 });
      seen(read.label, answer);
      const key = answer.status < 300 ? `${answer.status}` : `${answer.status} ${problemCode(answer)}`;
      readOutcomes.set(key, (readOutcomes.get(key) ?? 0) + 1);
      ledger.check(`${c.id} (${c.label})`, read.label, answer, DEADLINE_MS, c.bytes);
    }
  };

  for (let start = 0; start < cases.length; start += BATCH) {
    const batch = cases.slice(start, start + BATCH);
    await inLanes(batch.length, lanes(), async (i) => runCase(batch[i]!, start + i));
    const dead = await checkAlive(server);
    if (dead) {
      ledger.fail(`batch ${start / BATCH} (cases ${batch[0]!.id} to ${batch[batch.length - 1]!.id})`, `after the batch: ${dead}\n${server.output.slice(-20).join('\n')}`);
      memory.stop();
      await server.stop();
      await startService();
    }
  }
  ledger.notes.push(`seed ${hex(SEED)}`);
  ledger.notes.push(`uploads: ${[...outcomes].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  ledger.notes.push(`reads: ${[...readOutcomes].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  ledger.notes.push(errorLogs.map((l) => l.describe()).join('; '));
  ledger.notes.push(`slowest answer ${Math.round(slowest.ms)} ms (${slowest.what})`);
  ledger.notes.push(`peak RSS ${memory.peakMiB()} MiB`);
  ledger.finish();
});
