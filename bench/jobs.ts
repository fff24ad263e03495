/**
 * Background jobs benchmark (issue 18), its three targets:
 * - the 202 of `Prefer: respond-async` is answered in under 20 ms at p99 while two heavy jobs run;
 * - a job's total time (submit to its end event) is within 5% of the same action run inline;
 * - one user's 100 queued jobs do not raise another user's inline latency above 2x its idle value.
 * The "peer" of each row is the same measurement without the jobs (or inline), in the same run.
 */
import { basicAuth, type TestServer } from '../test/helpers/server.js';
import { startServer } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { median, oursOf, pagesLabel, peerOf, percentile, repetitions, TARGET_PAGES, targetAt, timed, uploadPdf } from './lib.js';

type Auth = Record<string, string>;
interface JobView {
  id: string;
  state: string;
}

const USER_A = { username: 'bench-jobs-a', password: 'bench-jobs-a-password-1' };
const USER_B = { username: 'bench-jobs-b', password: 'bench-jobs-b-password-1' };
/** The heavy action: every annotation of the document drawn into its page (2.7 s at 1,000 pages, 0.55 s at 200, on this machine). */
export const HEAVY = (savePath: string) => ({ FlattenAnnotationsAction: { savePath, namingMode: 1 } });
/** The cheap action whose 202 is timed: a stamp on one page of a one-page document (its access check is one small engine task). */
export const CHEAP = { TextStampAction: { text: 'DRAFT', x: 100, y: 100, pageIndex: 0, savePath: 'bench/cheap-out.pdf', namingMode: 1 } };

export async function runJobsBench(quick: boolean): Promise<Row[]> {
  const server = await startServer({
    env: {
      // Text prefetching after each write would take the workers between jobs: off, so each figure is its own work.
      PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0',
      // Room for user A's 100 jobs and the timed 202s (each cancelled at once) beside the heavy ones.
      PDFSERVICE_JOB_QUEUE_LIMIT: '1000',
      PDFSERVICE_JOB_CONCURRENCY: '2',
      PDFSERVICE_USER_JOB_LIMIT: '1',
    },
  });
  try {
    const admin = { authorization: server.adminAuth };
    const mkdir = await fetch(`${server.api}/documents/bench`, { method: 'PUT', headers: admin });
    await mkdir.arrayBuffer();
    // The quick run (a smoke test of the bench) keeps the heavy jobs on 200 pages: no 1,000-page document.
    for (const pages of quick ? [1, 200] : [1, 200, 1000]) await uploadPdf(`${server.api}/documents/bench/doc-${pages}.pdf`, admin, makeBenchDocument(pages));
    const a = await createUser(server, USER_A);
    const b = await createUser(server, USER_B);
    return [
      ...(await acceptWhileBusy(server, quick, admin, a, b)),
      ...(await jobVersusInline(server, quick, admin)),
      ...(await otherUserWhileQueued(server, quick, a, b)),
    ];
  } finally {
    await server.stop();
  }
}

export async function createUser(server: TestServer, user: { username: string; password: string }): Promise<Auth> {
  const r = await fetch(`${server.api}/users`, {
    method: 'POST',
    headers: { authorization: server.adminAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ ...user, rights: ['GET', 'POST', 'PUT', 'DELETE'] }),
  });
  const text = await r.text();
  if (r.status !== 201) throw new Error(`creating ${user.username} answered ${r.status}: ${text}`);
  return { authorization: basicAuth(user.username, user.password) };
}

/** POSTs an action with Prefer: respond-async; throws unless it answered 202 with a job. */
export async function submit(server: TestServer, auth: Auth, document: string, body: unknown, pages = false): Promise<JobView> {
  const r = await fetch(`${server.api}/documents/${document}${pages ? '/pages' : ''}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status !== 202) throw new Error(`respond-async answered ${r.status}: ${text}`);
  return JSON.parse(text) as JobView;
}

/** POSTs an action inline; throws unless it answered 2xx. */
async function inline(server: TestServer, auth: Auth, document: string, body: unknown, pages = false): Promise<void> {
  const r = await fetch(`${server.api}/documents/${document}${pages ? '/pages' : ''}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`inline action answered ${r.status}: ${text}`);
}

/**
 * Follows GET /jobs/{id}/events until the end event and answers the job as it
 * ended. The stream delivers the end as it happens, so no polling interval
 * adds to a measured time.
 */
export async function ended(server: TestServer, auth: Auth, id: string): Promise<JobView> {
  const r = await fetch(`${server.api}/jobs/${id}/events`, { headers: { ...auth, accept: 'text/event-stream' } });
  if (r.status !== 200 || !r.body) throw new Error(`events of job ${id} answered ${r.status}`);
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const fields = new Map(event.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trimStart()] as const));
      if (fields.get('event') === 'end') {
        await r.body.cancel().catch(() => undefined);
        return JSON.parse(fields.get('data')!) as JobView;
      }
    }
  }
  throw new Error(`events of job ${id} ended without an end event`);
}

export async function cancel(server: TestServer, auth: Auth, id: string): Promise<void> {
  const r = await fetch(`${server.api}/jobs/${id}`, { method: 'DELETE', headers: auth });
  await r.arrayBuffer();
  // 409 JOB_FINISHED: it ended before the cancel arrived, which is as good.
  if (r.status !== 200 && r.status !== 409) throw new Error(`cancel of job ${id} answered ${r.status}`);
}

/** Jobs in `state` (as the admin sees them: everyone's, or `owner`'s). */
export async function jobsOf(server: TestServer, state: string, owner?: string): Promise<JobView[]> {
  const r = await fetch(`${server.api}/jobs?state=${state}${owner ? `&owner=${owner}` : ''}`, { headers: { authorization: server.adminAuth } });
  if (r.status !== 200) throw new Error(`GET /jobs answered ${r.status}`);
  return ((await r.json()) as { jobs: JobView[] }).jobs;
}

/**
 * Target 1: the time to answer a respond-async request (the 202) while two
 * heavy jobs run (users A and B each keep one FlattenAnnotationsAction on the
 * 1,000-page document running, submitting the next as one ends), against the
 * same 202 with the service idle. Each timed job is cancelled at once while
 * busy (it waits behind the heavy ones); when idle it is let run to its end
 * before the next sample, so every sample finds the service idle.
 */
async function acceptWhileBusy(server: TestServer, quick: boolean, admin: Auth, a: Auth, b: Auth): Promise<Row[]> {
  const count = quick ? 20 : 200;
  const idle: number[] = [];
  for (let i = 0; i < count / 2; i++) {
    const { ms, value } = await timed(() => submit(server, admin, 'bench/doc-1.pdf', CHEAP, true));
    idle.push(ms);
    const job = await ended(server, admin, value.id);
    if (job.state !== 'succeeded') throw new Error(`the cheap job ended ${job.state}`);
  }

  const { samples: busy, heavyRuns } = await acceptSamplesWhileBusy(server, admin, [a, b], count, { document: 'bench/doc-1.pdf', body: CHEAP }, `bench/doc-${quick ? 200 : 1000}.pdf`, 'bench/heavy');
  idle.sort((x, y) => x - y);
  busy.sort((x, y) => x - y);
  const size = `${heavyRuns} heavy jobs (FlattenAnnotationsAction, ${quick ? 200 : '1,000'} pages) of 2 users`;
  const peerName = 'same 202, service idle';
  const p99 = percentile(busy, 99);
  return [
    { operation: '202 Accepted (TextStampAction, 1 page) p50, 2 heavy jobs running', size, ours: percentile(busy, 50), peer: percentile(idle, 50), peerName, unit: 'ms', runs: busy.length },
    { operation: '202 Accepted (TextStampAction, 1 page) p99, 2 heavy jobs running', size, ours: p99, peer: percentile(idle, 99), peerName, unit: 'ms', runs: busy.length, target: '< 20 ms', met: p99 < 20 },
  ];
}

/**
 * `count` timed 202s of a cheap respond-async request (each job cancelled at once) while each of `users` keeps a
 * HEAVY job on `heavyDocument` running, submitting the next as one ends; answers the samples and the heavy jobs run.
 */
export async function acceptSamplesWhileBusy(server: TestServer, admin: Auth, users: Auth[], count: number, cheap: { document: string; body: unknown }, heavyDocument: string, heavyPrefix: string): Promise<{ samples: number[]; heavyRuns: number }> {
  let loading = true;
  let heavyRuns = 0;
  const loaders = users.map(async (auth, n) => {
    while (loading) {
      const job = await submit(server, auth, heavyDocument, HEAVY(`${heavyPrefix}-${n + 1}.pdf`));
      const end = await ended(server, auth, job.id);
      if (end.state !== 'succeeded') throw new Error(`a heavy job ended ${end.state}`);
      heavyRuns++;
    }
  });
  const samples: number[] = [];
  try {
    // Every heavy job running before the first sample.
    for (let i = 0; (await jobsOf(server, 'running')).length < users.length; i++) {
      if (i > 1000) throw new Error('the heavy jobs did not start');
      await sleep(10);
    }
    for (let i = 0; i < count; i++) {
      const { ms, value } = await timed(() => submit(server, admin, cheap.document, cheap.body, true));
      samples.push(ms);
      await cancel(server, admin, value.id);
      await sleep(5);
    }
  } finally {
    loading = false;
    await Promise.all(loaders);
  }
  return { samples, heavyRuns };
}

/**
 * Target 2: FlattenAnnotationsAction inline (request to answer) and as a job
 * (request to the end event of its events stream), alternately, so that drift
 * of the machine falls on both alike. At 200 pages, where the target is
 * checked; the full run adds 1,000 pages, where the job's fixed costs weigh less.
 */
async function jobVersusInline(server: TestServer, quick: boolean, admin: Auth): Promise<Row[]> {
  const rows: Row[] = [];
  for (const pages of quick ? [200] : [200, 1000]) {
    const document = `bench/doc-${pages}.pdf`;
    // More than the usual repetitions at 200 pages: a run takes about 0.2 s, and the 5% target is finer than this shared machine's spread.
    const runs = pages > TARGET_PAGES ? repetitions(pages, quick) : quick ? 3 : 15;
    const inlineTimes: number[] = [];
    const jobTimes: number[] = [];
    // One of each first, untimed: the first run of an action loads its code and fonts in a worker.
    await inline(server, admin, document, HEAVY('bench/flat-inline.pdf'));
    await ended(server, admin, (await submit(server, admin, document, HEAVY('bench/flat-job.pdf'))).id);
    for (let i = 0; i < runs; i++) {
      inlineTimes.push((await timed(() => inline(server, admin, document, HEAVY('bench/flat-inline.pdf')))).ms);
      const { ms, value: end } = await timed(async () => ended(server, admin, (await submit(server, admin, document, HEAVY('bench/flat-job.pdf'))).id));
      jobTimes.push(ms);
      if (end.state !== 'succeeded') throw new Error(`the job ended ${end.state}`);
    }
    rows.push({
      operation: 'job total (POST to end event) vs inline, FlattenAnnotationsAction',
      size: pagesLabel(pages),
      pages,
      ...oursOf(jobTimes),
      ...peerOf(inlineTimes, 'same action inline'),
      unit: 'ms',
      ...targetAt(pages, '<= 1.05x inline', median(jobTimes) / median(inlineTimes) <= 1.05),
    });
  }
  return rows;
}

/**
 * Target 3: user A submits 100 FlattenAnnotationsAction jobs on the 200-page
 * document (PDFSERVICE_USER_JOB_LIMIT=1: one runs, 99 wait); user B's inline
 * requests, against the same requests before A's jobs: a page render (a read
 * that needs an engine worker each time; renders are not cached) and a small
 * inline action. A's jobs are cancelled afterwards.
 */
async function otherUserWhileQueued(server: TestServer, quick: boolean, a: Auth, b: Auth): Promise<Row[]> {
  const count = quick ? 5 : 40;
  const render = async () => {
    const r = await fetch(`${server.api}/documents/bench/doc-200.pdf/pages/0/image?dpi=72`, { headers: b });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`render answered ${r.status}`);
  };
  const stamp = () => inline(server, b, 'bench/doc-1.pdf', { TextStampAction: { ...CHEAP.TextStampAction, savePath: 'bench/b-stamp.pdf' } }, true);
  const sample = async (fn: () => Promise<void>) => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      times.push((await timed(fn)).ms);
      await sleep(10);
    }
    return times;
  };
  await render();
  await stamp();
  const idleRender = await sample(render);
  const idleStamp = await sample(stamp);

  const ids: string[] = [];
  try {
    for (let i = 0; i < 100; i++) ids.push((await submit(server, a, 'bench/doc-200.pdf', HEAVY(`bench/a-${i}.pdf`))).id);
    const queuedBefore = (await jobsOf(server, 'queued', USER_A.username)).length;
    const busyRender = await sample(render);
    const busyStamp = await sample(stamp);
    const queuedAfter = (await jobsOf(server, 'queued', USER_A.username)).length;
    const size = `A: 100 jobs submitted (${queuedBefore} to ${queuedAfter} queued while measured)`;
    const peerName = 'same request, service idle';
    const row = (operation: string, busy: number[], idle: number[]): Row => {
      const ours = oursOf(busy);
      const peer = peerOf(idle, peerName);
      return { operation, size, ...ours, ...peer, unit: 'ms', target: '<= 2x idle', met: ours.ours / median(idle) <= 2 };
    };
    return [
      row("user B's page render (200 pages, page 1, 72 dpi) while user A has 100 jobs", busyRender, idleRender),
      row("user B's inline TextStampAction (1 page) while user A has 100 jobs", busyStamp, idleStamp),
    ];
  } finally {
    for (const id of ids) await cancel(server, a, id);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
