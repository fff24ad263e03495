/**
 * Issue 38's rows (`npm run bench -- --only=issue38`): the small requests users feel, each next to its peer, with the
 * issue's target and whether it is met. Every row runs ours and the peer interleaved (ours, peer, ours, peer..., the
 * side going first alternating), gives the spread of the pairwise ratios beside the ratio of the medians, and records
 * the load average when it starts and ends; a row that fails is reported as failed with its error and the run goes on.
 *
 * With `--compare REF` (bench/compare-ref.ts builds the other commit) every row also runs on that build's server, in
 * the same loop: ours, ref, peer, ours, ref, peer... `--rows=upload,redaction` picks rows by id (ROWS below).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { storedBytes } from '../test/helpers/http.js';
import type { TestServer } from '../test/helpers/server.js';
import { CONNECTIONS, list, load, PEER_SCRIPT as LIST_SCRIPT, type Row } from './annotations.js';
import { makeBenchDocument, FORM_WIDGETS } from './fixtures.js';
import { acceptSamplesWhileBusy, CHEAP, createUser, ended, submit } from './jobs.js';
import { endedChildrenCpuMs, loadNow, median, processCpuMs, processCpuPreciseMs, pagesLabel, percentile, startBareServer, timeCommand, timed, uploadPdf } from './lib.js';
import { linearizationClean, linearizeThroughApi } from './linearize.js';
import { DPI, ocrThroughApi, timeTesseract } from './ocr.js';
import { degrade, imageOnlyPdf, knownText, readPgm, renderPages, textPdf, writePgm } from './ocr-fixtures.js';
import { PEER_SCRIPT as REDACT_SCRIPT, WORD } from './redaction.js';
import { scalingEnv, scalingJudged, scalingRound, scalingSetUp, SCALING_DPI, type ScalingRound } from './resources.js';
import type { Build } from './build.js';


type Env = Record<string, string>;

/** What a row measured: per build, its samples (in the order taken), and the peer's, pair by pair. */
interface Measured {
  operation: string;
  size: string;
  unit: string;
  /** Absent for a figure recorded beside a row (a CPU time), which has no target of its own. */
  target?: string;
  /** Whether the target is met, from the medians (ours, and the peer's when there is one); absent when the run cannot judge it. */
  met?: (ours: number, peer: number) => boolean;
  samples: number[][];
  peer?: number[];
  peerName?: string;
}

/** Servers, the folder and the settings one run of the rows shares. */
class Context {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-issue38-'));
  private readonly shared = new Map<string, Promise<TestServer[]>>();
  constructor(
    readonly builds: Build[],
    readonly quick: boolean,
  ) {}

  /** One server per build with these settings, shared by the rows that ask for the same. */
  servers(env: Env = QUIET): Promise<TestServer[]> {
    const key = JSON.stringify(env);
    if (!this.shared.has(key)) this.shared.set(key, Promise.all(this.builds.map((b) => b.startServer({ env }))));
    return this.shared.get(key)!;
  }

  /** Servers of a row's own, stopped when it ends. */
  async own<T>(env: Env, use: (servers: TestServer[]) => Promise<T>): Promise<T> {
    const servers = await Promise.all(this.builds.map((b) => b.startServer({ env })));
    try {
      return await use(servers);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }

  file(name: string, bytes: Uint8Array): string {
    const file = path.join(this.dir, name);
    writeFileSync(file, bytes);
    return file;
  }

  async close(): Promise<void> {
    for (const servers of this.shared.values()) await Promise.all((await servers.catch(() => [])).map((s) => s.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Text prefetching after uploads off, as in the other benchmarks: a request right after an upload measures itself. */
const QUIET: Env = { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' };

/**
 * `reps` rounds of every build's sample and the peer's, in turn; the order reverses every other round, so a
 * machine getting busier or quieter weighs on all sides alike.
 */
async function interleave(reps: number, builds: ((i: number, server: number) => Promise<number>), count: number, peer?: (i: number) => Promise<number>): Promise<{ samples: number[][]; peer: number[] }> {
  const samples: number[][] = Array.from({ length: count }, () => []);
  const peerSamples: number[] = [];
  const takers: (() => Promise<void>)[][] = [];
  for (let i = 0; i < reps; i++) {
    const round = Array.from({ length: count }, (_, k) => async () => {
      samples[k]!.push(await builds(i, k));
    });
    if (peer) round.push(async () => {
      peerSamples.push(await peer(i));
    });
    takers.push(i % 2 ? round.reverse() : round);
  }
  for (const round of takers) for (const take of round) await take();
  return { samples, peer: peerSamples };
}

/** A distinct version of a document (a comment after %%EOF): no cache answers for an earlier one. */
function variant(document: Uint8Array, tag: string): Buffer {
  return Buffer.concat([document, Buffer.from(`%${tag} ${Date.now()}\n`)]);
}

async function send(url: string, init: RequestInit, expect: number[]): Promise<Response> {
  const r = await fetch(url, init);
  if (!expect.includes(r.status)) throw new Error(`${init.method ?? 'GET'} ${url} answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
  return r;
}

const at = (quick: boolean, full: number, small: number) => (quick ? small : full);

/**
 * How long after a request the server's CPU time is read: the request's own work (its answer sent, its files closed).
 * A traced server's spans leave in the batch processor's next export, up to OTEL_BSP_SCHEDULE_DELAY later (the SDK's
 * default 5 s, as an operator runs it): ROW_SETTLE_MS, around the whole row, counts that work too.
 */
const CPU_SETTLE_MS = 300;
/** Past the SDK's default export delay (5 s): before a row, earlier spans have left; after it, the row's have. */
const ROW_SETTLE_MS = 5_500;

/**
 * Upload and the first DocumentModel, timed together, against `mutool info` on the file. Beside the times, the server
 * process's CPU time (all threads, schedstat: processCpuPreciseMs) from before the upload to CPU_SETTLE_MS after the model, against
 * mutool's own: on a loaded machine the times say how long a client waited, the CPU times how much work the server did
 * (what --compare-tracing needs to see tracing's cost, docs/observability.md). Then, untimed, a longer run of the same
 * requests whose CPU time is read from ROW_SETTLE_MS before its first request to ROW_SETTLE_MS after its last, per
 * request: everything the server did, a traced server's batched exports included (the other server's requests,
 * interleaved, are not its).
 */
async function uploadAndModel(ctx: Context, pages: number): Promise<Measured[]> {
  const servers = await ctx.servers();
  const document = makeBenchDocument(pages);
  const file = ctx.file(`model-${pages}.pdf`, document);
  const cpu: number[][] = servers.map(() => []);
  const peerCpu: number[] = [];
  const upload = async (server: TestServer, name: string) => {
    const url = `${server.api}/documents/i38/model-${pages}-${name}.pdf`;
    const headers = { authorization: server.adminAuth };
    await (await send(url, { method: 'PUT', headers: { ...headers, 'content-type': 'application/pdf' }, body: new Uint8Array(variant(document, `model ${name}`)) }, [200, 201])).arrayBuffer();
    const model = (await (await send(url, { headers: { ...headers, accept: 'application/json' } }, [200])).json()) as { pageCount: number };
    if (model.pageCount !== pages) throw new Error(`page count ${model.pageCount}, expected ${pages}`);
  };
  const { samples, peer } = await interleave(at(ctx.quick, 7, 3), async (i, k) => {
    const server = servers[k]!;
    const before = processCpuPreciseMs(server.child.pid!);
    const { ms } = await timed(() => upload(server, String(i)));
    await new Promise((resolve) => setTimeout(resolve, CPU_SETTLE_MS));
    cpu[k]!.push(processCpuPreciseMs(server.child.pid!) - before);
    return ms;
  }, servers.length, async () => {
    const before = endedChildrenCpuMs();
    const ms = await timeCommand('mutool', ['info', file]);
    peerCpu.push(endedChildrenCpuMs() - before);
    return ms;
  });
  // The whole row: enough requests that a batch's export and the idle process's own work are shared among many.
  const reps = at(ctx.quick, 30, 6);
  const settle = () => new Promise((resolve) => setTimeout(resolve, ROW_SETTLE_MS));
  const cpuNow = () => servers.map((s) => processCpuPreciseMs(s.child.pid!));
  await settle();
  const rowBefore = cpuNow();
  await interleave(reps, async (i, k) => {
    await upload(servers[k]!, `row-${i}`);
    return 0;
  }, servers.length);
  await settle();
  const rowCpu = cpuNow().map((after, k) => [(after - rowBefore[k]!) / reps]);
  const operation = 'upload + DocumentModel (cold)';
  return [
    { operation, size: pagesLabel(pages), unit: 'ms', target: 'at most 1.0x', met: (o, p) => o <= p, samples, peer, peerName: 'mutool info' },
    { operation: `${operation}: CPU time`, size: `${pagesLabel(pages)}, server process (all threads) / mutool info`, unit: 'ms CPU', samples: cpu, peer: peerCpu, peerName: 'mutool info' },
    { operation: `${operation}: CPU time, whole row`, size: `${pagesLabel(pages)}, server process per request, exports included`, unit: 'ms CPU', samples: rowCpu },
  ];
}

/** Search for a word and apply the Redact annotations (A7, then ApplyRedactionsAction), against a `mutool run` script. */
async function redaction(ctx: Context): Promise<Measured[]> {
  const servers = await ctx.servers();
  const lines = 30;
  const document = makeBenchDocument(1, { lines, word: WORD });
  const input = ctx.file('redact-in.pdf', document);
  const output = path.join(ctx.dir, 'redact-out.pdf');
  const { samples, peer } = await interleave(at(ctx.quick, 7, 3), async (i, k) => {
    const server = servers[k]!;
    const auth = { authorization: server.adminAuth };
    const url = `${server.api}/documents/i38/redact-${i}.pdf`;
    await uploadPdf(url, auth, document);
    const json = { ...auth, 'content-type': 'application/json' };
    return (await timed(async () => {
      const created = (await (await send(`${url}/annotations/redaction`, { method: 'POST', headers: json, body: JSON.stringify({ searchText: WORD, includeAnnotations: false }) }, [200])).json()) as { count: number };
      if (created.count !== lines) throw new Error(`A7 found ${created.count} matches, expected ${lines}`);
      await (await send(url, { method: 'POST', headers: json, body: JSON.stringify({ ApplyRedactionsAction: {} }) }, [200])).arrayBuffer();
    })).ms;
  }, servers.length, () => timeCommand('mutool', ['run', REDACT_SCRIPT, input, output, WORD]));
  return [{ operation: 'redaction: search, redact and apply, end to end', size: `1 page, ${lines} matches`, unit: 'ms', target: 'at most 1.0x', met: (o, p) => o <= p, samples, peer, peerName: 'mutool run' }];
}

/** AES-256 through PUT .../password-permissions (the upload untimed), against `qpdf --encrypt`; both outputs checked. */
async function encryption(ctx: Context): Promise<Measured[]> {
  const servers = await ctx.servers();
  const document = makeBenchDocument(1, { word: 'secret' });
  const input = ctx.file('encrypt-in.pdf', document);
  const output = path.join(ctx.dir, 'encrypt-out.pdf');
  const { samples, peer } = await interleave(at(ctx.quick, 7, 3), async (i, k) => {
    const server = servers[k]!;
    const auth = { authorization: server.adminAuth };
    const doc = `i38/encrypt-${i}.pdf`;
    await uploadPdf(`${server.api}/documents/${doc}`, auth, document);
    const ms = (await timed(async () => {
      const body = JSON.stringify({ encryptType: 3, openPassword: 'user-pw', permissionsPassword: 'owner-pw', extractTextAllowed: false });
      await (await send(`${server.api}/documents/${doc}/permissions/password-permissions`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body }, [200])).arrayBuffer();
    })).ms;
    if (i === 0) checkAes256(ctx.file(`encrypt-ours-${k}.pdf`, await storedBytes(server, doc)));
    return ms;
  }, servers.length, () => timeCommand('qpdf', ['--encrypt', 'user-pw', 'owner-pw', '256', '--extract=n', '--', input, output]));
  checkAes256(output);
  return [{ operation: 'encryption AES-256 (PUT password-permissions)', size: '1 page', unit: 'ms', target: 'at most 1.0x', met: (o, p) => o <= p, samples, peer, peerName: 'qpdf --encrypt' }];
}

function checkAes256(file: string): void {
  if (!/R = 6/.test(execFileSync('qpdf', ['--show-encryption', '--password=owner-pw', file], { encoding: 'utf8' }))) throw new Error(`${file} is not AES-256 R6`);
}

/**
 * The warm annotation listing of the 200-page document at 32 connections, against a bare Fastify route answering a
 * body of the same size, in alternating rounds of a few seconds each: throughput and p99 per round.
 */
async function listingUnderLoad(ctx: Context): Promise<Measured[]> {
  const servers = await ctx.servers();
  const bare = await startBareServer();
  try {
    const document = makeBenchDocument(200);
    const urls: string[] = [];
    let bytes = 0;
    for (const server of servers) {
      const url = `${server.api}/documents/i38/listed-200.pdf`;
      await uploadPdf(url, { authorization: server.adminAuth }, document);
      bytes = (await list(`${url}/annotations`, { authorization: server.adminAuth })).body.byteLength;
      urls.push(`${url}/annotations`);
    }
    const duration = at(ctx.quick, 5, 2);
    const rounds = at(ctx.quick, 3, 2);
    const throughput: number[][] = servers.map(() => []);
    const p99: number[][] = servers.map(() => []);
    const bareThroughput: number[] = [];
    const bareP99: number[] = [];
    await interleave(rounds, async (_i, k) => {
      const r = await load({ url: urls[k]!, connections: CONNECTIONS, duration, headers: { authorization: servers[k]!.adminAuth } });
      throughput[k]!.push(r.requests.average);
      p99[k]!.push(percentile(r.latencies, 99));
      return 0;
    }, servers.length, async () => {
      // The same request headers as ours (the peer ignores the credentials): parsing them is the HTTP layer's work too.
      const r = await load({ url: `${bare.url}/bytes/${bytes}`, connections: CONNECTIONS, duration, headers: { authorization: servers[0]!.adminAuth } });
      bareThroughput.push(r.requests.average);
      bareP99.push(percentile(r.latencies, 99));
      return 0;
    });
    const size = `200 pages, ${CONNECTIONS} connections, ${rounds} rounds of ${duration} s`;
    const peerName = 'bare Fastify, same body size';
    return [
      { operation: 'annotations list, throughput', size, unit: 'req/s', target: 'at least 1.0x', met: (o, p) => o >= p, samples: throughput, peer: bareThroughput, peerName },
      { operation: 'annotations list, latency p99 under load', size, unit: 'ms', target: 'at most 1.1x', met: (o, p) => o <= 1.1 * p, samples: p99, peer: bareP99, peerName },
    ];
  } finally {
    bare.stop();
  }
}

/** LinearizeAction into a new document (the upload untimed), against `qpdf --linearize`; outputs checked after. */
async function linearize(ctx: Context, pages: number): Promise<Measured[]> {
  const servers = await ctx.servers();
  const document = makeBenchDocument(pages);
  const input = ctx.file(`linearize-${pages}.pdf`, document);
  const output = path.join(ctx.dir, `linearize-${pages}-peer.pdf`);
  const doc = `i38/linearize-${pages}.pdf`;
  for (const server of servers) {
    await uploadPdf(`${server.api}/documents/${doc}`, { authorization: server.adminAuth }, document);
    await linearizeThroughApi(server, doc, `i38/linearize-${pages}-warm.pdf`);
  }
  const { samples, peer } = await interleave(at(ctx.quick, pages > 200 ? 3 : 5, 2), (_i, k) => timed(() => linearizeThroughApi(servers[k]!, doc, `i38/linearize-${pages}-out.pdf`)).then((t) => t.ms), servers.length, () =>
    timeCommand('qpdf', ['--linearize', input, output]),
  );
  const clean = linearizationClean(output) && (await Promise.all(servers.map((s) => storedBytes(s, `i38/linearize-${pages}-out.pdf`)))).every((bytes, k) => linearizationClean(ctx.file(`linearize-${pages}-ours-${k}.pdf`, bytes)));
  if (!clean) throw new Error('qpdf --check-linearization found errors in an output');
  return [{ operation: 'LinearizeAction', size: pagesLabel(pages), unit: 'ms', target: 'at most 1.0x', met: (o, p) => o <= p, samples, peer, peerName: 'qpdf --linearize' }];
}

/** XFDF of the bench document's annotations (exported once by the first server), imported into the same document without them. */
async function xfdfImport(ctx: Context, pages: number, targetMs: number): Promise<Measured[]> {
  const servers = await ctx.servers();
  const annotations = pages * 20;
  const first = servers[0]!;
  const source = `${first.api}/documents/i38/xfdf-source-${pages}.pdf`;
  await uploadPdf(source, { authorization: first.adminAuth }, makeBenchDocument(pages));
  const xfdf = Buffer.from(await (await send(`${source}/annotations/content`, { headers: { authorization: first.adminAuth } }, [200])).arrayBuffer());
  const bare = makeBenchDocument(pages, { annotationsPerPage: 0 });
  const { samples } = await interleave(at(ctx.quick, pages > 200 ? 2 : 3, 1), async (i, k) => {
    const server = servers[k]!;
    const auth = { authorization: server.adminAuth };
    const url = `${server.api}/documents/i38/xfdf-import-${pages}-${i}.pdf`;
    await uploadPdf(url, auth, variant(bare, `import ${i}`));
    return (await timed(async () => {
      const r = await send(`${url}/annotations/content`, { method: 'POST', headers: { ...auth, 'content-type': 'application/vnd.adobe.xfdf' }, body: new Uint8Array(xfdf) }, [200]);
      const created = ((await r.json()) as { created?: string[] }).created?.length;
      if (created !== annotations) throw new Error(`XFDF import created ${created} of ${annotations}`);
    })).ms;
  }, servers.length);
  return [{ operation: 'XFDF import (into the document without annotations)', size: `${pagesLabel(pages)}, ${annotations.toLocaleString('en')} annotations`, unit: 'ms', target: `under ${targetMs / 1000} s`, met: (o) => o < targetMs, samples }];
}

/**
 * The first annotation listing after an upload and the XFDF export of a fresh upload (each its own version, so no
 * cache answers), each against the `mutool run` listing script on the same file.
 */
async function coldListAndExport(ctx: Context, pages: number): Promise<Measured[]> {
  const servers = await ctx.servers();
  const document = makeBenchDocument(pages);
  const file = ctx.file(`listed-${pages}.pdf`, document);
  const peer = () => timeCommand('mutool', ['run', LIST_SCRIPT, file]);
  const reps = at(ctx.quick, 3, 2);
  const expected = pages * 20 + FORM_WIDGETS;
  const size = `${pagesLabel(pages)}, ${expected.toLocaleString('en')} annotations`;
  const cold = await interleave(reps, async (i, k) => {
    const server = servers[k]!;
    const auth = { authorization: server.adminAuth };
    const url = `${server.api}/documents/i38/cold-${pages}-${i}.pdf`;
    await uploadPdf(url, auth, variant(document, `cold ${i}`));
    const { ms, value } = await timed(() => list(`${url}/annotations`, auth));
    const listed = (JSON.parse(value.body.toString('utf8')) as { annotations: unknown[] }).annotations.length;
    if (listed !== expected) throw new Error(`listed ${listed} annotations, expected ${expected}`);
    return ms;
  }, servers.length, peer);
  const exported = await interleave(reps, async (i, k) => {
    const server = servers[k]!;
    const auth = { authorization: server.adminAuth };
    const url = `${server.api}/documents/i38/export-${pages}-${i}.pdf`;
    await uploadPdf(url, auth, variant(document, `export ${i}`));
    return (await timed(async () => (await send(`${url}/annotations/content`, { headers: auth }, [200])).arrayBuffer())).ms;
  }, servers.length, peer);
  const peerName = 'mutool run (listing script)';
  return [
    { operation: 'XFDF export (first after upload)', size, unit: 'ms', target: 'at most 1.0x', met: (o, p) => o <= p, samples: exported.samples, peer: exported.peer, peerName },
    { operation: 'annotations list, cold (first GET after upload)', size, unit: 'ms', target: 'at most 1.0x', met: (o, p) => o <= p, samples: cold.samples, peer: cold.peer, peerName },
  ];
}

/**
 * The text of the whole document, first request after an upload, against pdftotext on the file. Beside the times, the
 * CPU time each side used (the server process's, all threads, around the request; pdftotext's own): on a loaded
 * machine the times say how long a client waited, the CPU times how much work each did, which load does not change.
 */
async function pageText(ctx: Context, pages: number): Promise<Measured[]> {
  const servers = await ctx.servers();
  const document = makeBenchDocument(pages);
  const file = ctx.file(`text-${pages}.pdf`, document);
  const cpu: number[][] = servers.map(() => []);
  const peerCpu: number[] = [];
  const { samples, peer } = await interleave(at(ctx.quick, 7, 3), async (i, k) => {
    const server = servers[k]!;
    const auth = { authorization: server.adminAuth };
    const url = `${server.api}/documents/i38/text-${pages}-${i}.pdf`;
    await uploadPdf(url, auth, variant(document, `text ${i}`));
    const before = processCpuMs(server.child.pid!).total;
    const { ms } = await timed(async () => {
      const text = await (await send(`${url}/text`, { headers: { ...auth, accept: 'text/plain' } }, [200])).text();
      if (text.split('\f').length !== pages + 1) throw new Error('not one form feed per page');
    });
    cpu[k]!.push(processCpuMs(server.child.pid!).total - before);
    return ms;
  }, servers.length, async () => {
    const before = endedChildrenCpuMs();
    const ms = await timeCommand('pdftotext', ['-enc', 'UTF-8', file, '-']);
    peerCpu.push(endedChildrenCpuMs() - before);
    return ms;
  });
  const operation = 'page text: whole document, first request (GET .../text)';
  return [
    { operation, size: pagesLabel(pages), unit: 'ms', target: 'at most 1.0x', met: (o, p) => o <= p, samples, peer, peerName: 'pdftotext' },
    { operation: `${operation}: CPU time`, size: `${pagesLabel(pages)}, server process (all threads) / pdftotext`, unit: 'ms CPU', samples: cpu, peer: peerCpu, peerName: 'pdftotext' },
  ];
}

/**
 * The 202 of a cheap `Prefer: respond-async` request while two users each keep a heavy job running (bench/jobs.ts's
 * measurement), in rounds per build; the peer is the same 202 with the service idle, taken before each busy round.
 */
async function acceptWhileBusy(ctx: Context): Promise<Measured[]> {
  const env = { ...QUIET, PDFSERVICE_JOB_QUEUE_LIMIT: '1000', PDFSERVICE_JOB_CONCURRENCY: '2', PDFSERVICE_USER_JOB_LIMIT: '1' };
  return ctx.own(env, async (servers) => {
    const setups = await Promise.all(servers.map(async (server) => {
      const admin = { authorization: server.adminAuth };
      await uploadPdf(`${server.api}/documents/i38/doc-1.pdf`, admin, makeBenchDocument(1));
      await uploadPdf(`${server.api}/documents/i38/doc-1000.pdf`, admin, makeBenchDocument(1000));
      const a = await createUser(server, { username: 'i38-a', password: 'i38-a-password-1' });
      const b = await createUser(server, { username: 'i38-b', password: 'i38-b-password-1' });
      return { admin, users: [a, b] };
    }));
    const count = at(ctx.quick, 100, 40);
    const cheap = { TextStampAction: { ...CHEAP.TextStampAction, savePath: 'i38/cheap-out.pdf' } };
    const busy: number[][] = servers.map(() => []);
    const idle: number[] = [];
    let heavyRuns = 0;
    const rounds = at(ctx.quick, 2, 1);
    await interleave(rounds, async (_i, k) => {
      const { admin, users } = setups[k]!;
      const round = await acceptSamplesWhileBusy(servers[k]!, admin, users, count, { document: 'i38/doc-1.pdf', body: cheap }, 'i38/doc-1000.pdf', 'i38/heavy');
      busy[k]!.push(...round.samples);
      heavyRuns += round.heavyRuns;
      return 0;
    }, servers.length, async () => {
      // The idle 202s on the first build's server, each job run to its end before the next.
      const { admin } = setups[0]!;
      for (let i = 0; i < count / 2; i++) {
        const { ms, value } = await timed(() => submit(servers[0]!, admin, 'i38/doc-1.pdf', cheap, true));
        idle.push(ms);
        await ended(servers[0]!, admin, value.id);
      }
      return 0;
    });
    // One figure a build (its p99 over every busy sample): the rounds' samples together, the peer's likewise.
    const p99 = (values: number[]) => percentile([...values].sort((x, y) => x - y), 99);
    return [{
      operation: '202 Accepted of a job (TextStampAction, 1 page) p99, 2 heavy jobs running',
      size: `${count * rounds} samples, ${heavyRuns} heavy jobs (FlattenAnnotationsAction, 1,000 pages)`,
      unit: 'ms',
      target: 'p99 under 20 ms',
      met: (o) => o < 20,
      samples: busy.map((b) => [p99(b)]),
      peer: [p99(idle)],
      peerName: 'same 202, service idle (p99)',
    }];
  });
}

/**
 * Page renders at 300 dpi with 2 engine workers against 1: both servers up, their rounds alternating; speed-up per
 * round. Beside it, what each server's CPU did in its rounds (its process, all threads): CPU time per render, and
 * cores in use (CPU time over the round's time). If a render costs the same CPU time with 2 workers as with 1, the
 * pool scales, and a speed-up short of 2x is the cores the machine did not give (2 workers' cores in use under 2);
 * a render costing more with 2 workers is the service's (contention). The event loop's share is given apart, and the
 * pool's own account of the round (pool.ts usage, from the metrics): the share of it during which both workers had a
 * task, and the tasks each took, which tell a pool that serialises its workers from a machine that gave no cores.
 */
async function renderScaling(ctx: Context): Promise<Measured[]> {
  const documents = at(ctx.quick, 8, 4);
  const pages = 4;
  const source = makeBenchDocument(pages, { annotationsPerPage: 0, images: false, form: false });
  const env = (workers: number): Env => ({ ...QUIET, ...scalingEnv(workers) });
  return ctx.own(env(1), (ones) => ctx.own(env(2), async (twos) => {
    for (const server of [...ones, ...twos]) await scalingSetUp(server, documents, source);
    /** Per build and worker count (index 0: 1 worker), its rounds. */
    const rounds: ScalingRound[][][] = ones.map(() => [[], []]);
    const round = async (server: TestServer, k: number, w: 0 | 1) => {
      const measured = await scalingRound(server, documents, pages);
      rounds[k]![w]!.push(measured);
      return measured.ms;
    };
    const { samples } = await interleave(at(ctx.quick, 4, 2), async (_i, k) => (await round(ones[k]!, k, 0)) / (await round(twos[k]!, k, 1)), ones.length);
    const operation = `page renders at ${SCALING_DPI} dpi, 2 workers against 1`;
    const size = `${documents * pages} renders at once`;
    const side = (w: 0 | 1, pick: (r: ScalingRound) => number) => rounds.map((byWorkers) => byWorkers[w]!.map(pick));
    const { judged, cores: twoCores } = scalingJudged(rounds[0]![1]!);
    const tasks = rounds.map((byWorkers) => byWorkers[1]!.map((r) => r.tasks.join('/') || 'not counted').join(', ')).join('; ');
    return [
      {
        operation: `${operation} (speed-up, per round)`,
        size: judged ? size : `${size}; not judged: the 2-worker server had ${twoCores.toFixed(2)} cores (used or idle), under 1.8`,
        unit: 'x',
        target: 'at least 1.8x',
        ...(judged ? { met: (o: number) => o >= 1.8 } : {}),
        samples,
      },
      { operation: `${operation}: both workers busy (share of the round, pool's account)`, size: `${size}; tasks per worker in each round ${tasks}`, unit: 'share', samples: side(1, (r) => r.allBusy) },
      { operation: `${operation}: CPU time per render`, size: `${size}, server process (all threads); peer: 1 worker`, unit: 'ms CPU', samples: side(1, (r) => r.cpuPerRender), peer: side(0, (r) => r.cpuPerRender)[0], peerName: '1 worker' },
      { operation: `${operation}: cores in use (CPU time / round time)`, size: `${size}; peer: 1 worker`, unit: 'cores', samples: side(1, (r) => r.cores), peer: side(0, (r) => r.cores)[0], peerName: '1 worker' },
      { operation: `${operation}: event-loop thread CPU time per render`, size: `${size}; peer: 1 worker`, unit: 'ms CPU', samples: side(1, (r) => r.loopPerRender), peer: side(0, (r) => r.loopPerRender)[0], peerName: '1 worker' },
    ];
  }));
}

/** OCR of one scanned page, the API waited inline (the upload untimed), against the tesseract command on its image. */
async function ocrOnePage(ctx: Context): Promise<Measured[]> {
  const servers = await ctx.servers();
  const textFile = ctx.file('ocr-text.pdf', textPdf(knownText(1)));
  const image = degrade(readPgm(renderPages(textFile, ctx.dir, 'ocr-page', DPI)[0]!), 0);
  const pdf = imageOnlyPdf([image], DPI);
  const pgm = path.join(ctx.dir, 'ocr-page.pgm');
  writePgm(pgm, image);
  const { samples, peer } = await interleave(at(ctx.quick, 5, 2), async (i, k) => {
    const server = servers[k]!;
    const doc = `i38/ocr-${i}.pdf`;
    await uploadPdf(`${server.api}/documents/${doc}`, { authorization: server.adminAuth }, pdf);
    return (await timed(() => ocrThroughApi(server, doc, 1))).ms;
  }, servers.length, (i) => timeTesseract(pgm, path.join(ctx.dir, `ocr-cli-${i}`)));
  return [{ operation: 'OCR of one page, API waited inline', size: `1 page, ${DPI} dpi`, unit: 'ms', target: 'at most 1.05x', met: (o, p) => o <= 1.05 * p, samples, peer, peerName: 'tesseract CLI, OMP_THREAD_LIMIT=1' }];
}

/** The rows, by id (`--rows=`), in the issue's order, each part (a size) started only when the one before ended. The quick run keeps one size of each. */
type Part = () => Promise<Measured[]>;
export const ROWS: { id: string; parts: (ctx: Context) => Part[] }[] = [
  { id: 'upload', parts: (ctx) => (ctx.quick ? [1] : [1, 200]).map((p) => () => uploadAndModel(ctx, p)) },
  { id: 'redaction', parts: (ctx) => [() => redaction(ctx)] },
  { id: 'encryption', parts: (ctx) => [() => encryption(ctx)] },
  { id: 'listing-load', parts: (ctx) => [() => listingUnderLoad(ctx)] },
  { id: 'linearize', parts: (ctx) => (ctx.quick ? [200] : [200, 1000]).map((p) => () => linearize(ctx, p)) },
  { id: 'xfdf-import', parts: (ctx) => (ctx.quick ? [[200, 500]] : [[200, 500], [1000, 2000]]).map(([p, t]) => () => xfdfImport(ctx, p!, t!)) },
  { id: 'cold-1000', parts: (ctx) => [() => coldListAndExport(ctx, ctx.quick ? 200 : 1000)] },
  { id: 'text', parts: (ctx) => [() => pageText(ctx, 200)] },
  { id: 'accept', parts: (ctx) => [() => acceptWhileBusy(ctx)] },
  { id: 'scaling', parts: (ctx) => [() => renderScaling(ctx)] },
  { id: 'ocr', parts: (ctx) => [() => ocrOnePage(ctx)] },
];

const spread = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];
/** Ratios of pairs taken in the same round (ours[i] / other[i], as the ratio column), their lowest and highest. */
function pairRatios(ours: number[], other: number[]): [number, number] | undefined {
  const n = Math.min(ours.length, other.length);
  if (n < 2) return undefined;
  return spread(Array.from({ length: n }, (_, i) => ours[i]! / other[i]!));
}

function toRow(m: Measured, builds: Build[], load: [number, number]): Row {
  const [ours, ref] = m.samples;
  const oursMedian = median(ours!);
  const peer = m.peer?.length ? median(m.peer) : undefined;
  return {
    operation: m.operation,
    size: m.size,
    ours: oursMedian,
    oursSpread: spread(ours!),
    runs: ours!.length,
    ...(peer !== undefined ? { peer, peerSpread: spread(m.peer!), peerName: m.peerName!, ratioSpread: pairRatios(ours!, m.peer!) } : {}),
    unit: m.unit,
    // A target without a verdict (met absent): the run could not judge it (the row's size says why).
    ...(m.target !== undefined ? { target: m.target } : {}),
    ...(m.met ? { met: m.met(oursMedian, peer ?? NaN) } : {}),
    load,
    ...(ref ? { ref: median(ref), refSpread: spread(ref), refName: builds[1]!.name, refRatioSpread: pairRatios(ours!, ref) } : {}),
  };
}

/** Runs the chosen rows (all by default) on `builds` (this checkout's first); a failed row becomes a row with its error. */
export async function runIssue38(builds: Build[], quick: boolean, only?: string[]): Promise<Row[]> {
  const unknown = only?.filter((id) => !ROWS.some((r) => r.id === id)) ?? [];
  if (unknown.length) throw new Error(`unknown row ${unknown.join(', ')}; known: ${ROWS.map((r) => r.id).join(', ')}`);
  const ctx = new Context(builds, quick);
  const rows: Row[] = [];
  try {
    for (const row of ROWS.filter((r) => !only || only.includes(r.id))) {
      for (const [n, part] of row.parts(ctx).entries()) {
        const start = loadNow();
        const began = Date.now();
        try {
          const measured = await part();
          const load: [number, number] = [start, loadNow()];
          const done = measured.map((m) => toRow(m, builds, load));
          rows.push(...done);
          for (const r of done) console.log(`issue38 ${row.id}: ${r.operation}, ${r.size}: ${r.ours.toFixed(1)} ${r.unit}${r.peer !== undefined ? ` vs ${r.peer.toFixed(1)}` : ''}${r.ref !== undefined ? `, ref ${r.ref.toFixed(1)}` : ''} (${((Date.now() - began) / 1000).toFixed(0)} s, load ${load[0]} → ${load[1]})`);
        } catch (error) {
          // The row is reported as failed with its error, and the run goes on.
          const message = error instanceof Error ? `${error.message}${error.cause ? ` (${String((error.cause as Error).message ?? error.cause)})` : ''}` : String(error);
          console.error(`issue38 row ${row.id} (part ${n + 1}) failed:`, error);
          rows.push({ operation: `${row.id}: failed`, size: `part ${n + 1}`, ours: NaN, unit: '-', error: message, load: [start, loadNow()] });
        }
      }
    }
  } finally {
    await ctx.close();
  }
  return rows;
}
