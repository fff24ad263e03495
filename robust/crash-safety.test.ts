/**
 * Part 4 of the robustness suite (issue 10): crash safety. The service runs
 * as a child process on its own data folder while four clients write
 * continuously (new versions by PUT, some of several megabytes so that kills
 * land during staging and renames; actions that rewrite the document; XFDF
 * imports). At a seeded random moment it is killed with SIGKILL and started
 * again on the same folder, 20 times. After each restart every document is
 * exactly its last acknowledged version or the one being written when the
 * kill came (a PUT's bytes; an action's result, unknown in advance, must then
 * pass qpdf --check and open), passes qpdf --check, opens in the service, and
 * no temporary or staging file is left: none is listed as a document, and the
 * data folder holds none after the restart.
 */
import { readdir } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { serializePdf } from '../test/helpers/pdf.js';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { etagOf, Ledger, problemCode, qpdfCheckAsync, request } from './lib/harness.js';
import { caseSeed, hex, Rng } from './lib/prng.js';

const SEED = 0xdead_0a10;
const WRITERS = 4;
const DOCS_PER_WRITER = 2;

let dataDir = '';
let server: TestServer | undefined;
after(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A valid PDF of 1-3 pages; some carry an unreferenced stream of incompressible bytes (0.5-6 MB), so writing them takes a while. */
function version(rng: Rng, label: string): Buffer {
  const pages = rng.int(1, 3);
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: number[] = [];
  for (let p = 0; p < pages; p++) {
    const content = `BT /F1 18 Tf 72 700 Td (${label} page ${p + 1}) Tj ET`;
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length} 0 R >>`);
    kids.push(objects.length);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${pages} >>`;
  if (rng.chance(0.4)) {
    const filler = rng.bytes(rng.int(512 * 1024, 6 * 1024 * 1024));
    objects.push(`<< /Length ${filler.length} >>\nstream\n${filler.toString('latin1')}\nendstream`);
  }
  return serializePdf(objects, '/Root 1 0 R');
}

interface DocState {
  path: string;
  /** ETag of the last version the service acknowledged. */
  acked: string;
  /** What was being written when the service was killed: a known version (PUT) or an unknown one (an action). */
  inFlight: { kind: 'put'; etag: string; label: string } | { kind: 'action'; label: string } | null;
}

const startOn = (dir: string) => startServer({ dataDir: dir, env: { PDFSERVICE_LOG_LEVEL: 'info' } });

/** Files below the data folder that are not documents, folders or the service's own state. */
async function leftovers(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (d: string, rel: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) await walk(path.join(d, e.name), r);
      else if (!/\.pdf$/.test(e.name) || e.name.startsWith('.')) found.push(r);
    }
  };
  await walk(path.join(dir, 'documents'), 'documents');
  const staging = await readdir(path.join(dir, 'staging')).catch(() => []);
  for (const f of staging) found.push(path.join('staging', f));
  return found;
}

test('crash safety: SIGKILL in the middle of writes, 20 times; every document is the old or the new version and complete', async () => {
  const ledger = new Ledger('crash-safety');
  const rounds = Number(process.env['ROBUST_CRASH_ROUNDS'] ?? 20);
  dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-robust-crash-'));
  server = await startOn(dataDir);
  const rng0 = new Rng(SEED);
  const docs: DocState[] = [];
  for (let i = 0; i < WRITERS * DOCS_PER_WRITER; i++) {
    const bytes = version(rng0, `doc ${i} v0`);
    const p = `/documents/crash/doc-${i}.pdf`;
    const put = await request(server, 'PUT', p, { body: bytes, headers: { 'content-type': 'application/pdf' } });
    if (put.status !== 201) throw new Error(`setup ${p}: ${put.status} ${put.text}`);
    docs.push({ path: p, acked: etagOf(bytes), inFlight: null });
  }
  let killsDuringWrites = 0;
  let killsLeavingFiles = 0;
  let unknownActionResults = 0;
  let writesAcked = 0;

  for (let round = 0; round < rounds; round++) {
    const rng = new Rng(caseSeed(SEED, round));
    const id = `round ${round} (seed ${hex(rng.seed)})`;
    ledger.cases++;
    const live = server;
    let killed = false;
    // Writers: each owns DOCS_PER_WRITER documents and writes them one request at a time, so the
    // last acknowledged version of a document is known exactly.
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      const wrng = new Rng(caseSeed(rng.seed, w + 1));
      const mine = docs.slice(w * DOCS_PER_WRITER, (w + 1) * DOCS_PER_WRITER);
      let n = 0;
      while (!killed) {
        const d = wrng.pick(mine);
        const op = wrng.weighted([[5, 'put'], [2, 'rotate'], [2, 'stamp'], [1, 'xfdf']] as const);
        const label = `r${round} w${w} #${n++} ${op}`;
        let answer;
        if (op === 'put') {
          const bytes = version(wrng, label);
          d.inFlight = { kind: 'put', etag: etagOf(bytes), label };
          answer = await request(live, 'PUT', d.path, { body: bytes, headers: { 'content-type': 'application/pdf', accept: 'application/json' }, timeoutMs: 60_000 });
        } else {
          d.inFlight = { kind: 'action', label };
          const [url, body, type] =
            op === 'rotate' ? [`${d.path}/pages`, JSON.stringify({ RotatePagesAction: { rotation: 90 } }), 'application/json']
            : op === 'stamp' ? [`${d.path}/pages`, JSON.stringify({ TextStampAction: { text: label, x: 72, y: 100 } }), 'application/json']
            : [`${d.path}/annotations/content`, `<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><square page="0" rect="10,10,60,60" name="${label.replace(/\W/g, '-')}"/></annots></xfdf>`, 'application/vnd.adobe.xfdf'];
          answer = await request(live, 'POST', url, { body, headers: { 'content-type': type, accept: 'application/json' }, timeoutMs: 60_000 });
        }
        if (answer.error) return; // the service is gone: this write stays in flight
        ledger.requests++;
        if (answer.status >= 300) {
          ledger.fail(id, `${label} on ${d.path} answered ${answer.status} ${problemCode(answer)} before the kill`);
          d.inFlight = null;
          continue;
        }
        let etag = answer.headers.get('etag');
        if (!etag) {
          // An XFDF import answers its result, not the new ETag: this writer is the document's only one, so ask.
          const head = await request(live, 'HEAD', d.path, { timeoutMs: 60_000 });
          if (head.error) return; // killed meanwhile: the import's result stays an unknown version in flight
          etag = head.headers.get('etag');
        }
        if (!etag) {
          ledger.fail(id, `${label} on ${d.path}: no ETag`);
          continue;
        }
        d.acked = etag;
        d.inFlight = null;
        writesAcked++;
      }
    });
    // The kill: at a seeded moment, once the writers are under way.
    await new Promise((r) => setTimeout(r, rng.int(150, 1500)));
    const exited = new Promise((r) => live.child.once('exit', r));
    live.child.kill('SIGKILL');
    await exited;
    killed = true;
    await Promise.all(writers);
    if (docs.some((d) => d.inFlight)) killsDuringWrites++;
    if ((await leftovers(dataDir)).length > 0) killsLeavingFiles++;

    server = await startOn(dataDir);
    // What the restarted service has, document by document.
    for (const d of docs) {
      const got = await request(server, 'GET', d.path, { timeoutMs: 30_000 });
      if (got.status !== 200) {
        ledger.fail(id, `${d.path}: download answered ${got.status} ${problemCode(got)} after the restart`);
        continue;
      }
      const etag = etagOf(got.bytes);
      const known = etag === d.acked || (d.inFlight?.kind === 'put' && etag === d.inFlight.etag);
      const unknownFromAction = !known && d.inFlight?.kind === 'action';
      if (!known && !unknownFromAction) {
        ledger.fail(id, `${d.path} is neither its last acknowledged version ${d.acked} nor the one in flight (${d.inFlight ? d.inFlight.label : 'none'}): ${etag}`, got.bytes);
      }
      if (unknownFromAction) unknownActionResults++;
      const check = await qpdfCheckAsync(got.bytes);
      if (!check.ok) ledger.fail(id, `${d.path} fails qpdf --check after the restart: ${check.output.slice(0, 300)}`, got.bytes);
      const model = await request(server, 'GET', d.path, { headers: { accept: 'application/json' }, timeoutMs: 30_000 });
      if (model.status !== 200) ledger.fail(id, `${d.path} does not open after the restart: ${model.status} ${problemCode(model)}`);
      d.acked = etag;
      d.inFlight = null;
    }
    const listing = await request(server, 'GET', '/documents/crash', { headers: { accept: 'application/json' } });
    const names = (JSON.parse(listing.text) as { entries?: { name: string }[] }).entries?.map((e) => e.name) ?? [];
    const expected = docs.map((d) => path.basename(d.path)).sort();
    if (JSON.stringify([...names].sort()) !== JSON.stringify(expected)) ledger.fail(id, `the folder lists ${JSON.stringify(names)} instead of ${JSON.stringify(expected)}`);
    const left = await leftovers(dataDir);
    if (left.length > 0) ledger.fail(id, `files left in the data folder after the restart: ${left.join(', ')}`);
  }
  ledger.notes.push(`seed ${hex(SEED)}`);
  ledger.notes.push(`${writesAcked} writes acknowledged; ${killsDuringWrites} of ${rounds} kills came with a write in flight, ${killsLeavingFiles} left temporary or staging files behind (removed at the restart); ${unknownActionResults} documents held the result of an action in flight`);
  ledger.finish();
});
