/**
 * The cluster (issue 24, "Bench"): two service instances on Redis and the S3 store (the Swift test server), behind
 * nginx with the repository's proxy settings, against one embedded instance (filesystem store, no Redis), in the
 * same run, alternating. Per sample: an upload (PUT) and its DocumentModel (GET json), the annotation listing, and
 * an inline TextStampAction on every page (saved beside it). At 1 connection (sequential) and at 32 (32 clients,
 * each on its own documents): median and p95 per operation, ratio cluster / embedded, target <= 1.3.
 * Then jobs per minute: the same cluster's instances only queue jobs (PDFSERVICE_RUN_JOBS=false) and `npm run worker`
 * processes run them, first 1 worker, then 2.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startNginx, type Nginx } from '../test/helpers/nginx.js';
import { startRedisServer, type RedisServer } from '../test/helpers/redis-server.js';
import { startS3Server, type S3Server } from '../test/helpers/s3-server.js';
import { clusterEnv } from '../test/helpers/cluster-env.js';
import { ADMIN } from '../test/helpers/server.js';
import { startServer, startWorker as startBuildWorker } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { fmt, median, oursOf, peerOf, percentile, timed } from './lib.js';

const TARGET_RATIO = 1.3;
/** The latency document: mid-size, so 32 clients at once stay within the run's time on 2 cores. */
const PAGES = 20;
const ANNOTATIONS = PAGES * 20 + 3;
/** The job document: FlattenAnnotationsAction on it takes about half a second of engine time. */
const JOB_PAGES = 200;
const CONNECTIONS = 32;
const STAMP = { text: 'CLUSTER', x: 300, y: 150, fontSize: 36, color: 0xff0000, transparency: 0.5 };

interface Side {
  name: string;
  api: string;
  headers: Record<string, string>;
}

const OPS = ['upload', 'model', 'annotations', 'stamp', 'sequence'] as const;
type Op = (typeof OPS)[number];
type Times = Record<Op, number[]>;
const newTimes = (): Times => ({ upload: [], model: [], annotations: [], stamp: [], sequence: [] });

async function expectOk(reply: Response, what: string): Promise<Buffer> {
  const body = Buffer.from(await reply.arrayBuffer());
  if (reply.status >= 300) throw new Error(`${what} answered ${reply.status}: ${body.toString('utf8', 0, 300)}`);
  return body;
}

/** Logs in (POST /sessions) and answers the session cookie: in the cluster, the session lives in Redis. */
async function login(api: string): Promise<Record<string, string>> {
  const reply = await fetch(`${api}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const text = await reply.text();
  if (reply.status !== 201) throw new Error(`login answered ${reply.status}: ${text.slice(0, 300)}`);
  const id = /SESSIONID=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')?.[1];
  if (!id) throw new Error('login set no session cookie');
  return { cookie: `SESSIONID=${id}` };
}

/** The four operations on `pdf` at cbench/`name`, each timed until its whole body arrived; checked on the warm-up. */
async function sequence(side: Side, name: string, pdf: Buffer, times: Times | null): Promise<void> {
  const url = `${side.api}/documents/cbench/${name}`;
  const json = { ...side.headers, accept: 'application/json' };
  const upload = await timed(async () => expectOk(await fetch(url, { method: 'PUT', headers: { ...side.headers, 'content-type': 'application/pdf' }, body: new Uint8Array(pdf) }), `${side.name} PUT`));
  const model = await timed(async () => expectOk(await fetch(url, { headers: json }), `${side.name} DocumentModel`));
  const listing = await timed(async () => expectOk(await fetch(`${url}/annotations`, { headers: json }), `${side.name} annotations`));
  const body = JSON.stringify({ TextStampAction: { ...STAMP, savePath: `cbench/${name.replace(/\.pdf$/, '')}-stamped.pdf` } });
  const stamp = await timed(async () => expectOk(await fetch(`${url}/pages`, { method: 'POST', headers: { ...json, 'content-type': 'application/json' }, body }), `${side.name} TextStampAction`));
  if (times) {
    times.upload.push(upload.ms);
    times.model.push(model.ms);
    times.annotations.push(listing.ms);
    times.stamp.push(stamp.ms);
    times.sequence.push(upload.ms + model.ms + listing.ms + stamp.ms);
  } else {
    const pages = (JSON.parse(model.value.toString('utf8')) as { pageCount?: number }).pageCount;
    if (pages !== PAGES) throw new Error(`${side.name}: page count ${pages}`);
    const parsed = JSON.parse(listing.value.toString('utf8')) as { annotations?: unknown[] };
    if (parsed.annotations?.length !== ANNOTATIONS) throw new Error(`${side.name}: ${parsed.annotations?.length} annotations listed, expected ${ANNOTATIONS}`);
  }
}

const sorted = (samples: number[]) => [...samples].sort((a, b) => a - b);
const summary = (samples: number[]) => `median ${fmt(median(samples))} ms, p95 ${fmt(percentile(sorted(samples), 95))} ms`;

interface WorkerProcess {
  child: ChildProcess;
  dir: string;
}

/** `npm run worker` (dist/src/worker.js) with the cluster's settings; resolves once it says it runs jobs. */
async function startWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdfservice-cbench-worker-'));
  const { child } = await startBuildWorker(env, dir);
  return { child, dir };
}

async function stopWorker(worker: WorkerProcess): Promise<void> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) {
    const exited = new Promise((resolve) => worker.child.once('exit', resolve));
    worker.child.kill('SIGTERM');
    const timer = setTimeout(() => worker.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  await rm(worker.dir, { recursive: true, force: true });
}

/**
 * Submits `count` FlattenAnnotationsAction jobs (Prefer: respond-async), each on its own document and saving to its
 * own path, and polls GET /jobs/{id} until all have ended: answers the wall time from the first submission.
 */
async function jobsRun(side: Side, count: number, tag: string): Promise<number> {
  const start = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({ FlattenAnnotationsAction: { savePath: `cbench/jobs/out-${tag}-${i}.pdf`, namingMode: 1 } });
    const reply = await fetch(`${side.api}/documents/cbench/jobs/doc-${i}.pdf`, { method: 'POST', headers: { ...side.headers, 'content-type': 'application/json', prefer: 'respond-async' }, body });
    const text = await reply.text();
    if (reply.status !== 202) throw new Error(`respond-async answered ${reply.status}: ${text.slice(0, 300)}`);
    ids.push((JSON.parse(text) as { id: string }).id);
  }
  const open = new Set(ids);
  while (open.size) {
    for (const id of [...open]) {
      const job = JSON.parse((await expectOk(await fetch(`${side.api}/jobs/${id}`, { headers: side.headers }), `job ${id}`)).toString('utf8')) as { state: string };
      if (job.state === 'queued' || job.state === 'running') continue;
      if (job.state !== 'succeeded') throw new Error(`job ${id} ended ${JSON.stringify(job).slice(0, 300)}`);
      open.delete(id);
    }
    // The polling step bounds the error of the measured time: 100 ms against runs of many seconds.
    if (open.size) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return performance.now() - start;
}

/** Redis and the S3 test server, started together; one that started is stopped when the other failed. */
async function startStores(): Promise<[RedisServer, S3Server]> {
  const [redis, s3] = await Promise.allSettled([startRedisServer(), startS3Server()]);
  if (redis.status === 'fulfilled' && s3.status === 'fulfilled') return [redis.value, s3.value];
  await Promise.allSettled([redis.status === 'fulfilled' ? redis.value.dispose() : undefined, s3.status === 'fulfilled' ? s3.value.dispose() : undefined]);
  throw redis.status === 'rejected' ? redis.reason : (s3 as PromiseRejectedResult).reason;
}

/** The stores started ahead of the benchmark (startClusterStoresEarly), until it takes them. */
let early: Promise<[RedisServer, S3Server]> | undefined;

/**
 * Starts Redis and the S3 test server in the background, for the next runClusterBench to take: run.ts calls it in a
 * quick run a few benchmarks before this one, so that Swift's start (four Python servers, about 3.5 s of CPU; 10 to
 * 15 s at load 13 on 2 cores) overlaps benchmarks that leave a core idle instead of adding to the run. Not in a full
 * run, where the start would weigh on other benchmarks' figures.
 */
export function startClusterStoresEarly(): void {
  if (early) return;
  early = startStores();
  // A failure is the cluster benchmark's, when it takes the stores (not an unhandled rejection meanwhile).
  early.catch(() => undefined);
}

/** Stops stores started early that no benchmark took (the run ended or failed before the cluster benchmark). */
export async function disposeEarlyClusterStores(): Promise<void> {
  const pending = early;
  early = undefined;
  const stores = await pending?.catch(() => undefined);
  if (stores) await Promise.allSettled(stores.map((store) => store.dispose()));
}

export async function runClusterBench(quick: boolean): Promise<Row[]> {
  const runs = quick ? 2 : 9;
  const rounds = quick ? 1 : 3;
  const jobCount = quick ? 4 : 16;
  const started: { stop(): Promise<void> }[] = [];
  let redis: RedisServer | undefined;
  let s3: S3Server | undefined;
  let lb: Nginx | undefined;
  const workers: WorkerProcess[] = [];
  try {
    // Text prefetching off, as in the other benchmarks; room in the queues for 32 clients at once on every side. All
    // requests come from one user (the admin): its limits are raised to the engine pool (2 threads on 2 cores) so
    // that the per-user fairness limits (1 engine task, 1 job at once by default) do not decide the figures.
    const common = {
      PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0',
      PDFSERVICE_QUEUE_LIMIT: '1000',
      PDFSERVICE_WORKERS: '2',
      PDFSERVICE_USER_TASK_LIMIT: '2',
      PDFSERVICE_USER_JOB_LIMIT: '64',
      PDFSERVICE_JOB_QUEUE_LIMIT: '1000',
    };
    // The embedded instance (no Redis, no S3) starts beside the stores: Swift's start is the longest (each start takes
    // seconds on a loaded machine); stores started early (startClusterStoresEarly) are taken as they are.
    const stores = early ?? startStores();
    early = undefined;
    const [storesStart, embeddedStart] = await Promise.allSettled([stores, startServer({ env: common })]);
    if (embeddedStart.status === 'fulfilled') started.push(embeddedStart.value);
    if (storesStart.status === 'fulfilled') [redis, s3] = storesStart.value;
    if (storesStart.status === 'rejected') throw storesStart.reason;
    if (embeddedStart.status === 'rejected') throw embeddedStart.reason;
    const embedded = embeddedStart.value;
    [redis, s3] = storesStart.value;
    const shared = { ...common, ...clusterEnv(redis, s3, { redisPrefix: 'cbench:', s3Prefix: 'cbench/', s3TimeoutMs: 30_000 }) };
    // A and B one after the other: the first creates the admin in Redis, the second finds it. The instances only
    // queue background jobs, so the job figures below are the workers' alone (inline requests run on the instances).
    const a = await startServer({ env: { ...shared, PDFSERVICE_RUN_JOBS: 'false' } });
    started.push(a);
    const b = await startServer({ env: { ...shared, PDFSERVICE_RUN_JOBS: 'false' } });
    started.push(b);
    lb = await startNginx([a, b].map((s) => new URL(s.baseUrl).host));
    const lbApi = `${lb.url}/pdfservice/v1`;
    const local: Side = { name: 'embedded', api: embedded.api, headers: await login(embedded.api) };
    const cluster: Side = { name: 'cluster', api: lbApi, headers: await login(lbApi) };
    // At 1 connection, instance A without nginx too: what the proxy adds, apart from what Redis and S3 add.
    const direct: Side = { name: 'instance A direct', api: a.api, headers: await login(a.api) };
    for (const side of [local, cluster]) await expectOk(await fetch(`${side.api}/documents/cbench`, { method: 'PUT', headers: side.headers }), `${side.name} folder`);

    const document = makeBenchDocument(PAGES);
    // A distinct document at a fresh name each time, so no cache (read model, listing, known tags) answers for an earlier one.
    const variant = (i: number | string) => Buffer.concat([document, Buffer.from(`%cbench ${i} ${Date.now()}\n`)]);
    // Untimed warm-up: engine workers warm, connections open, the answers checked.
    for (const side of [local, cluster]) await sequence(side, 'warm.pdf', variant('warm'), null);

    // 1 connection: sequential, alternating which side goes first.
    const one = { embedded: newTimes(), cluster: newTimes() };
    const oneDirect = newTimes();
    await sequence(direct, 'warm-direct.pdf', variant('warm-direct'), null);
    for (let i = 0; i < runs; i++) {
      const pdf = variant(i);
      const sides = [local, cluster, direct];
      const order = [...sides.slice(i % 3), ...sides.slice(0, i % 3)];
      for (const side of order) await sequence(side, `one-${side === direct ? 'direct-' : ''}${i}.pdf`, pdf, side === cluster ? one.cluster : side === direct ? oneDirect : one.embedded);
    }
    // The S3 server alone: a PUT and a GET of the same bytes with the SDK client the store uses, the floor under
    // the cluster's upload and first read (Swift's proxy and object server are Python processes on the same cores).
    const client = s3.client();
    const s3Put: number[] = [];
    const s3Get: number[] = [];
    for (let i = 0; i < runs; i++) {
      const Key = `direct/s3-${i}.pdf`;
      const body = variant(`s3-${i}`);
      s3Put.push((await timed(() => client.send(new PutObjectCommand({ Bucket: s3!.buckets[0]!, Key, Body: body, ContentType: 'application/pdf' })))).ms);
      s3Get.push((await timed(async () => (await client.send(new GetObjectCommand({ Bucket: s3!.buckets[0]!, Key }))).Body!.transformToByteArray())).ms);
    }
    client.destroy();

    // 32 connections: 32 clients at once, each its own document, one side at a time, alternating per round.
    const many = { embedded: newTimes(), cluster: newTimes() };
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? [cluster, local] : [local, cluster];
      for (const side of order) {
        const times = side === cluster ? many.cluster : many.embedded;
        await Promise.all(Array.from({ length: CONNECTIONS }, (_, c) => sequence(side, `many-${r}-${c}.pdf`, variant(`${r}-${c}`), times)));
      }
    }

    const size = `${PAGES} pages (${(document.length / 1e3).toFixed(0)} kB), ${ANNOTATIONS} annotations`;
    const labels: Record<Op, string> = {
      upload: 'upload (PUT)',
      model: 'DocumentModel (first GET after the upload)',
      annotations: 'annotations list',
      stamp: 'TextStampAction on every page, inline, savePath',
      sequence: 'upload + DocumentModel + annotations + stamp',
    };
    const rows: Row[] = [];
    for (const [connections, times, count] of [[1, one, runs], [CONNECTIONS, many, rounds * CONNECTIONS]] as const) {
      console.log(`cluster (2 instances, Redis, S3 via nginx) vs embedded (1 instance, filesystem), ${size}, ${connections} connection${connections === 1 ? '' : 's'}, ${count} samples a side:`);
      for (const op of OPS) {
        const ratio = median(times.cluster[op]) / median(times.embedded[op]);
        const p95Ratio = percentile(sorted(times.cluster[op]), 95) / percentile(sorted(times.embedded[op]), 95);
        console.log(`  ${labels[op]}: cluster ${summary(times.cluster[op])}; embedded ${summary(times.embedded[op])}; ratio median ${ratio.toFixed(2)}, p95 ${p95Ratio.toFixed(2)} (target <= ${TARGET_RATIO})`);
        rows.push({
          operation: `${labels[op]}, ${connections} connection${connections === 1 ? '' : 's'}: cluster via nginx`,
          size,
          pages: PAGES,
          ...oursOf(times.cluster[op]),
          ...peerOf(times.embedded[op], 'embedded instance'),
          unit: 'ms',
          target: `ratio <= ${TARGET_RATIO}`,
          met: ratio <= TARGET_RATIO,
        });
      }
    }

    console.log(`instance A of the cluster without nginx (Redis, S3), 1 connection, ${runs} samples:`);
    for (const op of OPS) {
      const ratio = median(oneDirect[op]) / median(one.embedded[op]);
      console.log(`  ${labels[op]}: instance A ${summary(oneDirect[op])}; ratio to embedded ${ratio.toFixed(2)}; cluster via nginx / instance A ${(median(one.cluster[op]) / median(oneDirect[op])).toFixed(2)}`);
      rows.push({ operation: `${labels[op]}, 1 connection: one cluster instance without nginx`, size, pages: PAGES, ...oursOf(oneDirect[op]), ...peerOf(one.embedded[op], 'embedded instance'), unit: 'ms' });
    }

    console.log(`  the S3 server alone (SDK client, same bytes): PUT ${summary(s3Put)}; GET ${summary(s3Get)}`);
    rows.push({ operation: 'the S3 server alone: PUT of the file (SDK client)', size, ...oursOf(s3Put), unit: 'ms' });
    rows.push({ operation: 'the S3 server alone: GET of the file (SDK client)', size, ...oursOf(s3Get), unit: 'ms' });
    // The least any store on this S3 server can add to the sequence: its two writes (the upload, the stamp's output)
    // are each at least one PUT of about these bytes, whatever else is saved. Reads can be answered without S3.
    const floor = median(one.embedded.sequence) + 2 * median(s3Put);
    const floorRatio = floor / median(one.embedded.sequence);
    console.log(`  the sequence's floor on this S3 server (embedded sequence + 2 PUTs alone): ${floor.toFixed(1)} ms, ratio ${floorRatio.toFixed(2)} to embedded`);
    rows.push({ operation: 'the floor of the sequence on this S3 server, 1 connection: embedded sequence + the S3 server\'s own time for its 2 PUTs', size, ours: floor, ...peerOf(one.embedded.sequence, 'embedded instance'), unit: 'ms' });

    // Jobs per minute, 1 worker then 2; the documents uploaded untimed first.
    // Quick: the 20-page document (the quick run is a smoke test; 200 pages made each of its 10 jobs, and the 4 uploads
    // through nginx to S3, 10 times the work).
    const jobPages = quick ? PAGES : JOB_PAGES;
    const jobDocument = makeBenchDocument(jobPages);
    await expectOk(await fetch(`${lbApi}/documents/cbench/jobs`, { method: 'PUT', headers: cluster.headers }), 'jobs folder');
    for (let i = 0; i < jobCount; i++) {
      const url = `${lbApi}/documents/cbench/jobs/doc-${i}.pdf`;
      await expectOk(await fetch(url, { method: 'PUT', headers: { ...cluster.headers, 'content-type': 'application/pdf' }, body: new Uint8Array(Buffer.concat([jobDocument, Buffer.from(`%job ${i}\n`)])) }), 'job document upload');
    }
    // 1 worker, 2, then 1 and 2 again (full run): the machine is shared, so each count is measured at two moments
    // and the medians compared. The second worker is stopped (SIGTERM, between batches) to go back to 1.
    const phases = quick ? [1, 2] : [1, 2, 1, 2];
    const perMinute: Record<1 | 2, number[]> = { 1: [], 2: [] };
    for (const [p, count] of phases.entries()) {
      while (workers.length > count) await stopWorker(workers.pop()!);
      while (workers.length < count) workers.push(await startWorker(shared));
      // One job first, untimed, so a new worker's engine is warm as the first one's is.
      await jobsRun(cluster, 1, `warm-${p}`);
      const load = os.loadavg()[0]!.toFixed(1);
      const ms = await jobsRun(cluster, jobCount, `p${p}`);
      perMinute[count as 1 | 2].push((jobCount * 60_000) / ms);
      console.log(`  ${count} worker${count === 1 ? '' : 's'}: ${jobCount} FlattenAnnotationsAction jobs (${jobPages} pages each) in ${(ms / 1000).toFixed(1)} s: ${perMinute[count as 1 | 2].at(-1)!.toFixed(1)} jobs/min (load average ${load} before)`);
    }
    const gain = median(perMinute[2]) / median(perMinute[1]);
    console.log(`  jobs/min 2 workers / 1 worker: ${gain.toFixed(2)} (medians). Each worker process runs 2 jobs at once on its 2 engine threads (PDFSERVICE_WORKERS=2, PDFSERVICE_JOB_CONCURRENCY=0), which on 2 cores is all the CPU: a second process on the same machine adds no cores, only more jobs at once, which can fill the time a job waits on S3 and Redis (the download before, the upload after) and take a larger share of a machine shared with other work; a second machine would add cores.`);
    const jobSize = `${jobCount} jobs, ${jobPages} pages each`;
    rows.push(
      { operation: 'jobs per minute, FlattenAnnotationsAction, 1 worker process', size: jobSize, ...oursOf(perMinute[1]), unit: 'jobs/min' },
      { operation: 'jobs per minute, FlattenAnnotationsAction, 2 worker processes', size: jobSize, ...oursOf(perMinute[2]), unit: 'jobs/min' },
      { operation: 'jobs per minute, 2 workers / 1 worker (2 cores)', size: jobSize, ours: gain, unit: 'x' },
    );
    return rows;
  } finally {
    for (const worker of workers) await stopWorker(worker);
    await lb?.dispose();
    for (const server of started) await server.stop();
    await Promise.all([s3?.dispose(), redis?.dispose()]);
  }
}
