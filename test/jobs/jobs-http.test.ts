import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventSource } from 'eventsource';
import { call, jobEnded, putPdf, storedBytes } from '../helpers/http.js';
import { encryptPdf, makePdf, pdfinfo, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { basicAuth, serverForSuite, startServer } from '../helpers/server.js';

/** Background jobs over HTTP (issue 18, docs/jobs.md): Prefer, the jobs resource and its events stream, on the real service. */
describe('jobs over HTTP', () => {
  const server = serverForSuite();
  const bob = { username: 'bob-jobs', password: 'bob-jobs-password-1' };

  before(async () => {
    assert.equal((await call(server, 'PUT', '/documents/jobs')).status, 201);
    assert.equal((await putPdf(server, 'jobs/long.pdf', makePdf({ pages: 40 }))).status, 201);
    const created = await call(server, 'POST', '/users', { body: { ...bob, rights: ['GET', 'POST', 'PUT', 'DELETE'] } });
    assert.equal(created.status, 201, created.text);
  });
  after(() => undefined);

  let jobId = '';

  test('respond-async: 202, Location and Preference-Applied; the job ends succeeded with the written document', async () => {
    const reply = await call(server, 'POST', '/documents/jobs/long.pdf', {
      headers: { prefer: 'respond-async' },
      body: { FlattenAnnotationsAction: { savePath: 'jobs/long-flat.pdf' } },
    });
    assert.equal(reply.status, 202, reply.text);
    const job = reply.json();
    jobId = job.id;
    assert.equal(reply.headers.get('location'), `/pdfservice/v1/jobs/${job.id}`);
    assert.equal(reply.headers.get('preference-applied'), 'respond-async');
    assert.equal(job.action, 'FlattenAnnotationsAction');
    assert.ok(['queued', 'running', 'succeeded'].includes(job.state));
    assert.equal(job.payload, undefined, 'the payload is internal');
    const done = await jobEnded(server, job.id);
    assert.equal(done.state, 'succeeded', JSON.stringify(done));
    assert.equal(done.progress.percent, 100);
    assert.equal(done.result.status, 201);
    const written = await storedBytes(server, 'jobs/long-flat.pdf');
    assert.ok(qpdfCheck(written).ok);
    assert.equal(pdfinfo(written)['Pages'], '40');
    const xml = await call(server, 'GET', `/jobs/${job.id}`, { headers: { accept: 'application/xml' } });
    assert.equal(xml.status, 200);
    assert.match(xml.text, /<Job>[\s\S]*<state>succeeded<\/state>/);
  });

  test('the events stream, read with an EventSource, ends with the end event; progress never decreases', async () => {
    const reply = await call(server, 'POST', '/documents/jobs/long.pdf', {
      headers: { prefer: 'respond-async' },
      body: { FlattenAnnotationsAction: { savePath: 'jobs/long-flat-2.pdf' } },
    });
    assert.equal(reply.status, 202, reply.text);
    const { id } = reply.json();
    const events: { type: string; seq: number; job: Record<string, any> }[] = [];
    await new Promise<void>((resolve, reject) => {
      const source = new EventSource(`${server.api}/jobs/${id}/events`, {
        fetch: (input, init) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: server.adminAuth } }),
      });
      const take = (type: string) => (event: MessageEvent) => {
        events.push({ type, seq: Number(event.lastEventId), job: JSON.parse(event.data as string) });
        if (type === 'end') {
          source.close();
          resolve();
        }
      };
      for (const type of ['state', 'progress', 'end']) source.addEventListener(type, take(type));
      source.onerror = (err) => {
        source.close();
        reject(new Error(`events stream failed: ${String(err.message)}`));
      };
    });
    assert.equal(events.at(-1)!.type, 'end');
    assert.equal(events.at(-1)!.job.state, 'succeeded');
    for (let i = 1; i < events.length; i++) {
      assert.ok(events[i]!.seq > events[i - 1]!.seq, 'ids rise');
      assert.ok(events[i]!.job.progress.percent >= events[i - 1]!.job.progress.percent, 'progress never goes back');
    }
    // Last-Event-ID resumes after that event: only the end is left after the one before it. Events are numbered
    // from 1 without gaps, so the one before the end is the end's number less one; the stream above may have seen the
    // end alone (a job that ended before the stream was opened: a loaded machine's scheduling decides).
    const resumed = await fetch(`${server.api}/jobs/${id}/events`, {
      headers: { authorization: server.adminAuth, 'last-event-id': String(events.at(-1)!.seq - 1) },
    });
    assert.equal(resumed.status, 200);
    assert.match(resumed.headers.get('content-type') ?? '', /^text\/event-stream/);
    const text = await resumed.text();
    assert.equal(text.match(/^event: /gm)?.length, 1, text);
    assert.match(text, new RegExp(`^id: ${events.at(-1)!.seq}\\nevent: end\\ndata: \\{`, 'm'));
    // Resuming at the end event itself: the client has seen everything, so the stream ends at once and empty (the
    // service held it open with heartbeats before, which Schemathesis found).
    const seen = await fetch(`${server.api}/jobs/${id}/events`, {
      headers: { authorization: server.adminAuth, 'last-event-id': String(events.at(-1)!.seq) },
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(seen.status, 200);
    assert.equal(await seen.text(), '');
  });

  test("another user gets 404 for the job, and does not list it", async () => {
    const auth = basicAuth(bob.username, bob.password);
    const other = await call(server, 'GET', `/jobs/${jobId}`, { auth });
    assert.equal(other.status, 404);
    assert.equal(other.json().code, 'JOB_NOT_FOUND');
    assert.equal((await call(server, 'DELETE', `/jobs/${jobId}`, { auth })).status, 404);
    assert.equal((await call(server, 'GET', `/jobs/${jobId}/events`, { auth })).status, 404);
    assert.deepEqual((await call(server, 'GET', '/jobs', { auth })).json().jobs, []);
    const mine = (await call(server, 'GET', '/jobs?state=succeeded')).json().jobs as { id: string }[];
    assert.ok(mine.some((j) => j.id === jobId));
  });

  test('DELETE of a finished job is 409 JOB_FINISHED', async () => {
    const reply = await call(server, 'DELETE', `/jobs/${jobId}`);
    assert.equal(reply.status, 409);
    assert.equal(reply.json().code, 'JOB_FINISHED');
  });

  test('wait=N: a quick action is answered as the inline request would be', async () => {
    const reply = await call(server, 'POST', '/documents/jobs/long.pdf', {
      headers: { prefer: 'respond-async, wait=60' },
      body: { CopyAction: { savePath: 'jobs/copy.pdf' } },
    });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.json().path, '/jobs/copy.pdf');
    assert.ok(reply.headers.get('etag'));
    assert.equal(reply.headers.get('preference-applied'), null);
    assert.equal(pdfinfo(await storedBytes(server, 'jobs/copy.pdf'))['Pages'], '40');
  });

  test('a 4xx action with respond-async is still that 4xx at once, and no job is created', async () => {
    const before = (await call(server, 'GET', '/jobs')).json().jobs.length;
    const reply = await call(server, 'POST', '/documents/jobs/long.pdf', {
      headers: { prefer: 'respond-async' },
      body: { CopyAction: { savePath: 'jobs/x.pdf', bogus: true } },
    });
    assert.equal(reply.status, 400, reply.text);
    const missing = await call(server, 'POST', '/documents/jobs/missing.pdf', { headers: { prefer: 'respond-async' }, body: { CopyAction: { savePath: 'jobs/y.pdf' } } });
    assert.equal(missing.status, 404);
    assert.equal((await putPdf(server, 'jobs/locked.pdf', encryptPdf(makePdf({ pages: 2 }), 'open-me', 'owner-only'))).status, 201);
    const wrong = await call(server, 'POST', '/documents/jobs/locked.pdf', {
      headers: { prefer: 'respond-async', 'x-service-documentpassword': 'wrong' },
      body: { FlattenAnnotationsAction: { savePath: 'jobs/z.pdf' } },
    });
    assert.equal(wrong.status, 403, wrong.text);
    assert.equal((await call(server, 'GET', '/jobs')).json().jobs.length, before);
  });
  test('ApplyRedactionsAction as a job reports the pages it applies, up to all of them; the text is gone', async () => {
    assert.equal((await putPdf(server, 'jobs/redact.pdf', makePdf({ pages: 30, text: (p) => `Secret agent ${p + 1}` }))).status, 201);
    const marked = await call(server, 'POST', '/documents/jobs/redact.pdf/annotations/redaction', { body: { searchText: 'Secret agent' } });
    assert.ok(marked.status === 200 || marked.status === 201, marked.text);
    const reply = await call(server, 'POST', '/documents/jobs/redact.pdf', { headers: { prefer: 'respond-async' }, body: { ApplyRedactionsAction: {} } });
    assert.equal(reply.status, 202, reply.text);
    const stream = await fetch(`${server.api}/jobs/${reply.json().id}/events`, { headers: { authorization: server.adminAuth } });
    const events = (await stream.text()).split('\n\n').filter((e) => e.includes('data: ')).map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as Record<string, any>);
    const last = events.at(-1)!;
    assert.equal(last.state, 'succeeded', JSON.stringify(last));
    assert.deepEqual(last.progress, { done: 30, total: 30, unit: 'pages', percent: 100, phase: 'apply' });
    const applying = events.filter((e) => e.progress.phase === 'apply');
    for (let i = 1; i < applying.length; i++) assert.ok(applying[i]!.progress.done >= applying[i - 1]!.progress.done);
    const text = pdftotext(await storedBytes(server, 'jobs/redact.pdf'));
    assert.doesNotMatch(text, /Secret agent/);
  });
});

/** Work over PDFSERVICE_JOB_ASYNC_BYTES is long by nature: a job without Prefer, inline with Prefer: wait=N. */
describe('jobs for large documents', () => {
  const server = serverForSuite({ env: { PDFSERVICE_JOB_ASYNC_BYTES: '4096' } });

  test('an action on a document over the size is 202 without Prefer, the inline answer with wait=N; a small one runs inline', async () => {
    assert.equal((await call(server, 'PUT', '/documents/big')).status, 201);
    const large = makePdf({ pages: 40 });
    assert.ok(large.length > 4096);
    assert.equal((await putPdf(server, 'big/large.pdf', large)).status, 201);
    const small = makePdf({ pages: 1 });
    assert.ok(small.length < 4096);
    assert.equal((await putPdf(server, 'big/small.pdf', small)).status, 201);

    const queued = await call(server, 'POST', '/documents/big/large.pdf', { body: { CopyAction: { savePath: 'big/copy-1.pdf' } } });
    assert.equal(queued.status, 202, queued.text);
    assert.equal(queued.headers.get('preference-applied'), null);
    assert.equal(queued.headers.get('location'), `/pdfservice/v1/jobs/${queued.json().id}`);
    const waited = await call(server, 'POST', '/documents/big/large.pdf', { headers: { prefer: 'wait=60' }, body: { CopyAction: { savePath: 'big/copy-2.pdf' } } });
    assert.equal(waited.status, 201, waited.text);
    assert.equal(waited.json().path, '/big/copy-2.pdf');
    const inline = await call(server, 'POST', '/documents/big/small.pdf', { body: { CopyAction: { savePath: 'big/copy-3.pdf' } } });
    assert.equal(inline.status, 201, inline.text);
    for (const name of ['copy-2', 'copy-3']) assert.ok(qpdfCheck(await storedBytes(server, `big/${name}.pdf`)).ok);
  });
});

/** PDFSERVICE_JOB_RETENTION_SECONDS: a finished job's record is deleted after it, at the next sweep (at start, then hourly). */
describe('job retention', () => {
  test('a record finished longer ago than the retention is gone after a restart; a recent one stays', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-retention-'));
    const env = { PDFSERVICE_JOB_RETENTION_SECONDS: '3600' };
    try {
      let server = await startServer({ dataDir, env });
      const ids: string[] = [];
      try {
        assert.equal((await putPdf(server, 'kept.pdf', makePdf({ pages: 2 }))).status, 201);
        for (const name of ['old', 'new']) {
          const reply = await call(server, 'POST', '/documents/kept.pdf', { headers: { prefer: 'respond-async, wait=60' }, body: { CopyAction: { savePath: `${name}.pdf` } } });
          assert.equal(reply.status, 201, reply.text);
        }
        const jobs = (await call(server, 'GET', '/jobs?state=succeeded')).json().jobs as { id: string; result: { path: string } }[];
        ids.push(jobs.find((j) => j.result.path === '/old.pdf')!.id, jobs.find((j) => j.result.path === '/new.pdf')!.id);
      } finally {
        await server.stop();
      }
      // The old job finished two hours ago, as far as its record says.
      const file = path.join(dataDir, 'state', 'jobs', `${ids[0]}.json`);
      const record = JSON.parse(await readFile(file, 'utf8'));
      record.finished = new Date(Date.now() - 2 * 3600_000).toISOString();
      await writeFile(file, JSON.stringify(record));
      server = await startServer({ dataDir, env });
      try {
        assert.equal((await call(server, 'GET', `/jobs/${ids[0]}`)).status, 404);
        assert.equal((await call(server, 'GET', `/jobs/${ids[1]}`)).status, 200);
      } finally {
        await server.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
