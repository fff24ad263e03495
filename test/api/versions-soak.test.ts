/**
 * Issue 39's soak of document versions (its Verification: "a random sequence of 500 writes of every kind by two
 * users (interleaved, some concurrent, some with stale If-Match), then every version is fetched and compared byte for
 * byte with what was written; restore of any version gives those bytes back as a new current version"), over HTTP
 * against the real service, once per store of STORES that keeps versions.
 *
 * The sequence comes from a seeded generator: the seed is printed, and SOAK_SEED=<seed> replays the same requests
 * (the order in which the service runs a concurrent batch is its own). The issue's 500 writes run on the filesystem
 * store; S3 and WebDAV run fewer (STORE_WRITES; docs/testing.md says why), with every kind of write, a
 * concurrent batch under one If-Match, a stale If-Match, the purging redactions and each version management made
 * certain on every store and checked at the end. SOAK_WRITES sets the number for every store.
 *
 * The versions list is the truth each step is checked against: every request carries its own X-Request-Id, which the
 * version it makes records, so after each step (one write, or a batch of 2 to 4 concurrent writes to one document)
 * the list must be the earlier versions, unchanged, then exactly one new version for each write that changed the
 * document (its operation, its user, the ETag it answered), and none for a 412 or another refusal. Each new version is
 * fetched at once (sha256 against its ETag; the bytes of an upload or a restore against what was sent or restored),
 * and at the end every version is fetched again and compared byte for byte with those bytes. While a concurrent batch
 * runs, a reader lists the versions over and over: every list names its newest version as the current one.
 *
 * A store is one entry of STORES (its settings and the real server it needs); it runs by default once it is in
 * KEEP_VERSIONS, and SOAK_STORES=s3,webdav runs others now. The stores run one after the other, each with its own
 * service and server.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { call, jobEnded, sha256, type Reply } from '../helpers/http.js';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { makePdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { startS3Server } from '../helpers/s3-server.js';
import { startDavServer } from '../helpers/dav-server.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';
import { cpuSeconds, treeCpuSeconds } from '../helpers/processes.js';

/** A user of the soak: the name the versions record, and the Authorization value. */
interface SoakUser {
  name: string;
  auth: string;
}

/** What a store needs for the soak: the service's settings, where the documents go, and the two users (created as service users when absent). */
interface StoreSetup {
  env: Record<string, string>;
  folder: string;
  users?: [SoakUser, SoakUser];
  /** CPU time (s) of the store's own server processes so far (Swift, Apache). */
  cpu?(): number;
  stop(): Promise<void>;
}

/**
 * The stores, each with the real server it needs. A store runs when it is in SOAK_STORES (comma-separated), or by
 * default when it is in KEEP_VERSIONS: the stores that keep versions (the others answer 501 VERSIONS_NOT_KEPT at the
 * first list).
 */
const STORES: Record<string, () => Promise<StoreSetup>> = {
  // Each names its store: under PDFSERVICE_TEST_STORE=webdav (test/helpers/server.ts) the entry's store is still the one soaked.
  filesystem: async () => ({ env: { PDFSERVICE_STORE: 'filesystem' }, folder: 'soak', stop: async () => undefined }),
  s3: async () => {
    const s3 = await startS3Server();
    const env = {
      PDFSERVICE_STORE: 's3',
      PDFSERVICE_S3_ENDPOINT: s3.endpoint,
      PDFSERVICE_S3_REGION: s3.region,
      PDFSERVICE_S3_BUCKET: s3.buckets[0]!,
      PDFSERVICE_S3_PREFIX: 'soak/',
      PDFSERVICE_S3_ACCESS_KEY_ID: s3.accessKeyId,
      PDFSERVICE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    };
    const cpu = () => Object.values(s3.pids()).reduce((sum: number, pid) => sum + (pid === undefined ? 0 : treeCpuSeconds(pid)), 0);
    return { env, folder: 'soak', cpu, stop: () => s3.dispose() };
  },
  // The DMS decides: alice and bob log in with their DMS passwords (passthrough) and both write in restricted/.
  webdav: async () => {
    const dav = await startDavServer();
    const users: [SoakUser, SoakUser] = [{ name: 'alice', auth: dav.auth('alice') }, { name: 'bob', auth: dav.auth('bob') }];
    return { env: { PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: dav.url }, folder: 'restricted/soak', users, cpu: () => treeCpuSeconds(dav.pid() ?? 0), stop: () => dav.dispose() };
  },
};
const KEEP_VERSIONS = ['filesystem', 's3', 'webdav'];
const RUN = (process.env.SOAK_STORES ?? KEEP_VERSIONS.join(',')).split(',').map((s) => s.trim()).filter(Boolean);

const SEED = process.env.SOAK_SEED !== undefined ? Number(process.env.SOAK_SEED) >>> 0 : randomInt(2 ** 32);
/**
 * The writes of each store's soak: the issue's 500 on the filesystem; fewer where a write costs several times as much
 * (S3: Swift's Python, about 20 ms of CPU per request and about ten requests a write, docs/s3.md; WebDAV: Apache and
 * its locks), each kind of write and every other property still checked (runSoak's closing assertions). docs/testing.md
 * says why. SOAK_WRITES sets the number for every store.
 */
const STORE_WRITES: Record<string, number> = { filesystem: 500, s3: 80, webdav: 120 };
const writesOf = (store: string) => Number(process.env.SOAK_WRITES ?? STORE_WRITES[store] ?? 500);
const DOCUMENTS = 4;
const OWNER_PASSWORD = 'soak-owner-password';
const XFDF = 'application/vnd.adobe.xfdf';
const WORDS = ['amber', 'birch', 'cedar', 'dune', 'ember', 'fjord', 'grove', 'heath', 'inlet', 'juniper'];

/** mulberry32: small, fast, and the same sequence for a seed on every platform. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    chance: (p: number) => next() < p,
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(next() * items.length)]!;
    },
  };
}
type Rng = ReturnType<typeof generator>;

/** One version as the soak knows it: the record's fields it checks, and the bytes fetched when it appeared. */
interface KnownVersion {
  id: string;
  etag: string;
  size: number;
  operation: string;
  user: string | null;
  requestId: string | null;
  jobId: string | null;
  label: string | null;
  pinned: boolean;
  bytes: Buffer;
}

interface SoakDocument {
  path: string;
  /** A form (makeFormPdf) or text pages: uploads keep its kind. */
  form: boolean;
  /** Oldest first, as the list must be. */
  versions: KnownVersion[];
  /** Names of annotations the soak imported (some may have gone since: a delete of one is then 404). */
  notes: string[];
  /**
   * A redaction was applied to this form: one over the field's value (field values are searched, and the soak's
   * values hold its words and request ids) removes the field's widget and the field with it, rightly (docs/redaction.md).
   * From then on the field "comment" may be gone (until an upload or a restore brings it back): 404 FIELD_NOT_FOUND and
   * an import that sets nothing are then right too.
   */
  fieldMayBeGone?: boolean;
}

/** The statuses a request on the form's field "comment" may answer: 404 only where the document has no such field. */
const fieldStatuses = (doc: SoakDocument): number[] => (!doc.form ? [404] : doc.fieldMayBeGone ? [200, 404] : [200]);

/** What one write request did, as its answer says; `settle` checks the versions list against it. */
interface Outcome {
  label: string;
  user: SoakUser;
  status: number;
  requestId: string;
  /** The operation the version records. */
  operation: string;
  /** Whether the write changed the document (one new version), from its answer. */
  wrote: boolean;
  /** The ETag the answer gave for the new content. */
  etag?: string | undefined;
  /** The exact bytes the new version must hold (an upload's body, a restored version's bytes). */
  bytes?: Buffer | undefined;
  /** A background job's write: its version records the job, not a request. */
  jobId?: string | undefined;
  /** A redaction that removes every earlier version (versionsPurged in its answer). */
  purged?: number | undefined;
}

interface Step {
  doc: SoakDocument;
  user: SoakUser;
  requestId: string;
  /** If-Match sent: the current ETag, or an older one (stale: the answer must be 412). */
  ifMatch?: string | undefined;
  /** No other write of the document runs meanwhile (false in a concurrent batch). */
  alone: boolean;
  rng: Rng;
}

/** A request sent: its answer, and what the answer says it did (asked only when it was not refused for a stale If-Match). */
interface Sent {
  reply: Reply;
  outcome(): Outcome | Promise<Outcome>;
}

/** A kind of write: its weight in the mix, whether it may run in a concurrent batch or with If-Match, and the request. */
interface WriteKind {
  name: string;
  weight: number;
  concurrent: boolean;
  /** Sent with If-Match at times (not a job: a job's precondition fails the job, not the request). */
  ifMatch: boolean;
  send(server: TestServer, step: Step, soak: Soak): Promise<Sent>;
}

/** The answer's ETag, or undefined. */
const etagOf = (reply: Reply) => reply.headers.get('etag') ?? undefined;
/** The ETag of content (src/storage/store.ts etagOfDigest): the first 16 bytes of its SHA-256, quoted. */
const etagOfBytes = (bytes: Buffer) => `"${sha256(bytes).slice(0, 32)}"`;

const xfdfNote = (name: string, contents: string, page = 0) =>
  Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots><text page="${page}" rect="${20 + page},20,40,40" name="${name}"><contents>${contents}</contents></text></annots></xfdf>\n`);
const xfdfField = (value: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field name="comment"><value>${value}</value></field></fields></xfdf>\n`);

function textPdf(rng: Rng): Buffer {
  const words = [rng.pick(WORDS), rng.pick(WORDS), rng.int(1_000_000)];
  return makePdf({ pages: 1 + rng.int(3), text: (i) => `Soak ${words.join(' ')} page ${i + 1}` });
}
const formPdf = (rng: Rng) => makeFormPdf({ needAppearances: rng.chance(0.5) });

class Soak {
  readonly docs: SoakDocument[] = [];
  writes = 0;
  private counter = 0;
  /** The operations whose versions qpdf --check has looked at, how many versions it checked, of how many. */
  readonly qpdfOperations = new Set<string>();
  qpdfChecks = 0;
  /** The writes by what they did. */
  readonly tally: Record<string, number> = {};
  /** Lists read while a concurrent batch ran. */
  readsDuringWrites = 0;
  /** The versions made, by operation. */
  readonly made: Record<string, number> = {};
  private versionsSeen = 0;
  /** Wall time (ms) by phase and how often each ran: where the soak's time goes, printed at the end. */
  readonly phases: Record<string, { ms: number; n: number }> = {};
  /** The kinds of write sent without a stale If-Match, and the version managements done (manageVersions' choices). */
  readonly sent = new Set<string>();
  readonly managed = new Set<number>();
  /** A versions list's wall time (ms) by the number of versions it held (in steps of 25). */
  readonly listTimes: Record<number, { ms: number; n: number }> = {};

  constructor(
    readonly server: TestServer,
    readonly users: [SoakUser, SoakUser],
  ) {}

  async timed<T>(phase: string, work: () => T | Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      const p = (this.phases[phase] ??= { ms: 0, n: 0 });
      p.ms += performance.now() - start;
      p.n++;
    }
  }

  requestId(): string {
    return `soak-${SEED}-${++this.counter}`;
  }

  /** A request on a document as `user`, with the owner password (harmless on a document that is not encrypted). */
  request(step: Pick<Step, 'doc' | 'user' | 'requestId' | 'ifMatch'>, method: string, suffix: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
    const headers: Record<string, string> = { 'x-request-id': step.requestId, 'x-service-documentpassword': OWNER_PASSWORD, accept: 'application/json', ...options.headers };
    if (step.ifMatch !== undefined) headers['if-match'] = step.ifMatch;
    return call(this.server, method, `/documents/${step.doc.path}${suffix}`, { auth: step.user.auth, headers, ...(options.body !== undefined ? { body: options.body as object } : {}) });
  }

  async list(doc: SoakDocument, where: string): Promise<{ versions: Record<string, any>[]; current: string | null }> {
    const start = performance.now();
    const reply = await call(this.server, 'GET', `/documents/${doc.path}/versions?limit=1000`, { auth: this.users[0].auth, headers: { accept: 'application/json' } });
    assert.equal(reply.status, 200, `${where}: ${reply.text}`);
    const body = reply.json();
    const bucket = (this.listTimes[Math.floor(body.total / 25) * 25] ??= { ms: 0, n: 0 });
    bucket.ms += performance.now() - start;
    bucket.n++;
    assert.equal(body.total, body.versions.length, `${where}: every version on one page`);
    return { versions: [...body.versions].reverse(), current: body.current };
  }

  async versionBytes(doc: SoakDocument, id: string, where: string): Promise<Reply> {
    const reply = await call(this.server, 'GET', `/documents/${doc.path}?versionId=${id}`, { auth: this.users[1].auth, headers: { 'x-service-documentpassword': OWNER_PASSWORD } });
    assert.equal(reply.status, 200, `${where}: version ${id}: ${reply.text}`);
    return reply;
  }

  /**
   * After a step on `doc`: the versions list holds the versions known before (all of them, or none after a purging
   * redaction), unchanged and in order, then one new version for each outcome that wrote and none for the others.
   */
  async settle(doc: SoakDocument, outcomes: Outcome[], where: string): Promise<void> {
    for (const o of outcomes) {
      const kind = o.wrote ? 'versions made' : o.status === 412 || o.label.includes('412') ? '412 (no version)' : ok(o) ? 'answered 2xx, changed nothing' : 'refused otherwise (no version)';
      this.tally[kind] = (this.tally[kind] ?? 0) + 1;
      if (o.wrote) this.made[o.operation] = (this.made[o.operation] ?? 0) + 1;
    }
    const { versions: listed, current } = await this.timed('list after a step', () => this.list(doc, where));
    const purging = outcomes.find((o) => o.wrote && o.purged !== undefined);
    const earlier = purging ? [] : doc.versions;
    if (purging) assert.equal(purging.purged, doc.versions.length, `${where}: the redaction removed every earlier version`);
    const summary = (v: Record<string, any>) => ({ id: v.id, etag: v.etag, size: v.size, operation: v.operation, user: v.user, requestId: v.requestId, jobId: v.jobId, label: v.label, pinned: v.pinned });
    assert.deepEqual(listed.slice(0, earlier.length).map(summary), earlier.map(summary), `${where}: the earlier versions are there, unchanged, in order`);
    const fresh = listed.slice(earlier.length);
    const writers = outcomes.filter((o) => o.wrote);
    assert.equal(fresh.length, writers.length, `${where}: one new version per write that changed the document (${outcomes.map((o) => `${o.label} ${o.status}${o.wrote ? ' wrote' : ''}`).join(', ')}), got ${fresh.map((v) => v.operation).join(', ') || 'none'}`);
    assert.equal(current, listed.at(-1)?.id ?? null, `${where}: the newest version is the current one`);
    const ids = new Set(listed.map((v) => v.id));
    assert.equal(ids.size, listed.length, `${where}: ids are unique`);
    assert.deepEqual([...listed.map((v) => v.id)].sort(), listed.map((v) => v.id), `${where}: ids ordered by time`);
    for (const o of outcomes) {
      const mine = listed.filter((v) => (o.jobId !== undefined ? v.jobId === o.jobId : v.requestId === o.requestId));
      if (!o.wrote) {
        assert.equal(mine.length, 0, `${where}: ${o.label} (${o.status}) made no version`);
        continue;
      }
      assert.equal(mine.length, 1, `${where}: ${o.label} made exactly one version`);
      const v = mine[0]!;
      assert.ok(fresh.includes(v), `${where}: ${o.label}'s version is a new one`);
      assert.equal(v.operation, o.operation, `${where}: ${o.label}'s version records its operation`);
      assert.equal(v.user, o.user.name, `${where}: ${o.label}'s version records its user`);
      if (o.etag !== undefined) assert.equal(v.etag, o.etag, `${where}: ${o.label}'s version has the ETag its answer gave`);
      if (o.bytes !== undefined) assert.equal(v.etag, etagOfBytes(o.bytes), `${where}: ${o.label}'s version is the bytes sent or restored`);
    }
    const known: KnownVersion[] = [];
    // Fetched together (reads of versions that no longer change), then checked in order.
    const replies = await Promise.all(fresh.map((v) => this.timed('fetch of a new version', () => this.versionBytes(doc, v.id, where))));
    for (const [i, v] of fresh.entries()) {
      const reply = replies[i]!;
      assert.equal(reply.headers.get('etag'), v.etag, `${where}: version ${v.id} is served with its ETag`);
      assert.equal(etagOfBytes(reply.bytes), v.etag, `${where}: version ${v.id} (${v.operation}): sha256 of its bytes is its ETag`);
      assert.equal(reply.bytes.length, v.size, `${where}: version ${v.id} has its size`);
      const expected = writers.find((o) => (o.jobId !== undefined ? v.jobId === o.jobId : v.requestId === o.requestId))?.bytes;
      if (expected) assert.ok(reply.bytes.equals(expected), `${where}: version ${v.id} (${v.operation}) holds, byte for byte, what was sent or restored`);
      known.push({ ...summary(v), bytes: reply.bytes } as KnownVersion);
      // qpdf --check: the first version of each operation, and one in eight of the others.
      if (!this.qpdfOperations.has(v.operation) || ++this.versionsSeen % 8 === 0) {
        const checked = await this.timed('qpdf --check', () => qpdfCheck(reply.bytes));
        assert.ok(checked.ok, `${where}: version ${v.id} (${v.operation}) passes qpdf --check:\n${checked.output}`);
        this.qpdfOperations.add(v.operation);
        this.qpdfChecks++;
      }
    }
    doc.versions = [...earlier, ...known];
  }

  /** A version of `doc` whose ETag is not the current one (an If-Match that must fail), or a tag no content has. */
  staleTag(doc: SoakDocument, rng: Rng): string {
    const current = doc.versions.at(-1)?.etag;
    const older = doc.versions.filter((v) => v.etag !== current);
    return older.length > 0 ? rng.pick(older).etag : '"00000000000000000000000000000000"';
  }
}

/** A response that must be one of `statuses`. */
function expectStatus(reply: Reply, statuses: number[], label: string): void {
  assert.ok(statuses.includes(reply.status), `${label}: answered ${reply.status} (expected ${statuses.join(' or ')}): ${reply.text}`);
}

const ok = (reply: Pick<Reply, 'status'>) => reply.status >= 200 && reply.status < 300;

/** The outcome of a write from its reply; `wrote` says from its answer whether it changed the document. */
function outcome(step: Step, label: string, operation: string, reply: Reply, wrote: boolean, extra: Partial<Outcome> = {}): Outcome {
  return { label, user: step.user, status: reply.status, requestId: step.requestId, operation, wrote: ok(reply) && wrote, etag: ok(reply) ? etagOf(reply) : undefined, ...extra };
}

const KINDS: WriteKind[] = [
  {
    name: 'upload',
    weight: 12,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const bytes = step.doc.form ? formPdf(step.rng) : textPdf(step.rng);
      const reply = await soak.request(step, 'PUT', '', { body: bytes, headers: { 'content-type': 'application/pdf' } });
      return { reply, outcome: () => (expectStatus(reply, [200, 201], 'upload'), outcome(step, 'upload', 'upload', reply, true, { bytes })) };
    },
  },
  {
    name: 'TextStampAction',
    weight: 11,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const text = `Stamp ${step.rng.pick(WORDS)} ${step.rng.int(1000)}`;
      const reply = await soak.request(step, 'POST', '/pages', { body: { TextStampAction: { text, x: 72 + step.rng.int(200), y: 72 + step.rng.int(500), pageIndex: 0 } } });
      return { reply, outcome: () => (expectStatus(reply, [200], 'stamp'), outcome(step, 'stamp', 'TextStampAction', reply, true)) };
    },
  },
  {
    name: 'RotatePagesAction',
    weight: 7,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const reply = await soak.request(step, 'POST', '/pages', { body: { RotatePagesAction: { rotation: step.rng.pick([90, 180, 270, -90]) } } });
      return { reply, outcome: () => (expectStatus(reply, [200], 'rotate'), outcome(step, 'rotate', 'RotatePagesAction', reply, true)) };
    },
  },
  {
    name: 'DeletePagesAction',
    weight: 3,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const reply = await soak.request(step, 'POST', '/pages', { body: { DeletePagesAction: { pageRange: '1' } } });
      return {
        reply,
        outcome() {
          // The only page of a document cannot go: 400, nothing written.
          expectStatus(reply, [200, 400], 'delete page');
          return outcome(step, 'delete page', 'DeletePagesAction', reply, true);
        },
      };
    },
  },
  {
    name: 'LinearizeAction',
    weight: 3,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const reply = await soak.request(step, 'POST', '', { body: { LinearizeAction: {} } });
      return { reply, outcome: () => (expectStatus(reply, [200], 'linearize'), outcome(step, 'linearize', 'LinearizeAction', reply, true)) };
    },
  },
  {
    name: 'stamp as a job',
    weight: 3,
    concurrent: true,
    ifMatch: false,
    async send(server, step, soak) {
      const reply = await soak.request(step, 'POST', '/pages', { body: { TextStampAction: { text: `Job ${step.rng.int(1000)}`, x: 100, y: 400, pageIndex: 0 } }, headers: { prefer: 'respond-async' } });
      return {
        reply,
        async outcome() {
          expectStatus(reply, [202], 'job');
          const id = reply.json().id as string;
          const job = await jobEnded(server, id, { auth: step.user.auth });
          // docs/jobs.md: a job whose document was changed after it read it fails with 412 rather than overwrite the change.
          // It reads without the document's lock, and never finds the document missing because another write replaces it.
          const outrun = !step.alone && job.state === 'failed' && job.error?.code === 'PRECONDITION_FAILED';
          if (!outrun) assert.equal(job.state, 'succeeded', `job ${id}: ${JSON.stringify(job)}`);
          return { ...outcome(step, outrun ? `job (outrun: ${job.error.code})` : 'job', 'TextStampAction', reply, !outrun), jobId: id, etag: undefined };
        },
      };
    },
  },
  {
    name: 'annotation created (XFDF)',
    weight: 10,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const name = `note-${step.requestId}`;
      const reply = await soak.request(step, 'POST', '/annotations/content', { body: xfdfNote(name, `Created by ${step.user.name}`), headers: { 'content-type': XFDF } });
      return {
        reply,
        outcome() {
          expectStatus(reply, [200], 'annotation create');
          assert.deepEqual(reply.json().created, [name]);
          step.doc.notes.push(name);
          return outcome(step, 'annotation create', 'importAnnotationsXfdf', reply, true);
        },
      };
    },
  },
  {
    name: 'annotation updated (XFDF)',
    weight: 6,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      // A name the soak imported: updated in place if it is still there, created again otherwise; either way a write.
      const name = step.doc.notes.length > 0 ? step.rng.pick(step.doc.notes) : `note-${step.requestId}`;
      const reply = await soak.request(step, 'POST', '/annotations/content', { body: xfdfNote(name, `Updated by ${step.user.name} ${step.rng.int(1000)}`), headers: { 'content-type': XFDF } });
      return {
        reply,
        outcome() {
          expectStatus(reply, [200], 'annotation update');
          assert.equal(reply.json().created.length + reply.json().updated.length, 1);
          return outcome(step, 'annotation update', 'importAnnotationsXfdf', reply, true);
        },
      };
    },
  },
  {
    name: 'annotation deleted',
    weight: 5,
    concurrent: true,
    ifMatch: true,
    async send(server, step, soak) {
      // Alone: one of the document's annotations (a note, a redaction mark, an attachment; not a form's widget or a
      // popup). In a batch: a note the soak imported, which another write may have taken away.
      let names = step.doc.notes;
      if (step.alone) {
        const listed = await call(server, 'GET', `/documents/${step.doc.path}/annotations`, { auth: step.user.auth, headers: { accept: 'application/json', 'x-service-documentpassword': OWNER_PASSWORD } });
        assert.equal(listed.status, 200, listed.text);
        names = (listed.json().annotations as { name: string; subtype: string }[]).filter((a) => !['Widget', 'Popup'].includes(a.subtype)).map((a) => a.name);
      }
      const name = names.length > 0 ? step.rng.pick(names) : 'no-such-note';
      const reply = await soak.request(step, 'DELETE', `/annotations/${encodeURIComponent(name)}`);
      return {
        reply,
        outcome() {
          // 404 when an upload, a restore or another delete took it away meanwhile, or the document has none.
          expectStatus(reply, step.alone && name !== 'no-such-note' ? [204] : [204, 404], 'annotation delete');
          if (reply.status === 404) assert.equal(reply.json().code, 'ANNOTATION_NOT_FOUND');
          return outcome(step, 'annotation delete', 'deleteAnnotations', reply, true);
        },
      };
    },
  },
  {
    name: 'file attachment',
    weight: 3,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const form = new FormData();
      form.append('annotation', JSON.stringify({ subtype: 'FileAttachment', name: `att-${step.requestId}` }));
      form.append('file', new Blob([Buffer.from(`soak,${step.rng.int(1e6)}\n`)], { type: 'text/csv' }), 'soak.csv');
      const reply = await soak.request(step, 'POST', '/annotations', { body: form });
      return { reply, outcome: () => (expectStatus(reply, [201], 'attachment'), outcome(step, 'attachment', 'addFileAttachment', reply, true)) };
    },
  },
  {
    name: 'field set',
    weight: 8,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      // A new value each time (the value a field has is a kind of its own below); a text document has no field: 404.
      const reply = await soak.request(step, 'PUT', '/fields/comment', { body: { value: `${step.rng.pick(WORDS)} ${step.requestId}` } });
      return {
        reply,
        outcome() {
          expectStatus(reply, fieldStatuses(step.doc), 'field set');
          if (reply.status === 404) assert.equal(reply.json().code, 'FIELD_NOT_FOUND');
          return outcome(step, 'field set', 'setFieldValue', reply, true);
        },
      };
    },
  },
  {
    name: 'field set to the value it has',
    weight: 2,
    concurrent: false,
    ifMatch: true,
    async send(server, step, soak) {
      let value = 'none';
      if (step.doc.form) {
        const fields = await call(server, 'GET', `/documents/${step.doc.path}/fields`, { auth: step.user.auth, headers: { accept: 'application/json', 'x-service-documentpassword': OWNER_PASSWORD } });
        assert.equal(fields.status, 200, fields.text);
        const comment = (fields.json().fields as { name: string; value?: string }[]).find((f) => f.name === 'comment');
        assert.ok(comment || step.doc.fieldMayBeGone, `seed ${SEED}: ${step.doc.path} has its field "comment"`);
        value = comment?.value ?? '';
      }
      const reply = await soak.request(step, 'PUT', '/fields/comment', { body: { value } });
      // docs/forms.md: "Setting the value a field already has writes nothing."
      return { reply, outcome: () => (expectStatus(reply, fieldStatuses(step.doc), 'field set to its value'), outcome(step, 'field set to its value', 'setFieldValue', reply, false)) };
    },
  },
  {
    name: 'field data imported (XFDF)',
    weight: 4,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const reply = await soak.request(step, 'POST', '/fields/content', { body: xfdfField(`${step.rng.pick(WORDS)} ${step.requestId}`), headers: { 'content-type': XFDF } });
      return {
        reply,
        outcome() {
          expectStatus(reply, [200], 'field import');
          // A text document has no field "comment": it comes back in `unknown`, and nothing is written.
          const set = reply.json().set as string[];
          if (!(step.doc.fieldMayBeGone && set.length === 0)) assert.deepEqual(set, step.doc.form ? ['comment'] : []);
          return outcome(step, 'field import', 'importFields', reply, set.length > 0);
        },
      };
    },
  },
  {
    name: 'fields reset',
    weight: 2,
    concurrent: false,
    ifMatch: true,
    async send(_server, step, soak) {
      const before = step.doc.versions.at(-1)!.etag;
      const reply = await soak.request(step, 'DELETE', '/fields');
      // Fields already at their defaults (or none): nothing written, the ETag stays (sequential: nobody else wrote).
      return { reply, outcome: () => (expectStatus(reply, [200], 'reset'), outcome(step, 'reset', 'resetFields', reply, etagOf(reply) !== before)) };
    },
  },
  {
    name: 'password permissions set',
    weight: 3,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const reply = await soak.request(step, 'PUT', '/permissions/password-permissions', { body: { permissionsPassword: OWNER_PASSWORD, printAllowed: step.rng.chance(0.5) } });
      return { reply, outcome: () => (expectStatus(reply, [200], 'encrypt'), outcome(step, 'encrypt', 'setPasswordPermissions', reply, true)) };
    },
  },
  {
    name: 'password permissions removed',
    weight: 3,
    concurrent: false,
    ifMatch: true,
    async send(server, step, soak) {
      const security = await call(server, 'GET', `/documents/${step.doc.path}/permissions/password-permissions`, { auth: step.user.auth, headers: { accept: 'application/json', 'x-service-documentpassword': OWNER_PASSWORD } });
      assert.equal(security.status, 200, security.text);
      const reply = await soak.request(step, 'DELETE', '/permissions/password-permissions');
      // Written only when the document was encrypted (docs/permissions.md).
      return { reply, outcome: () => (expectStatus(reply, [204], 'decrypt'), outcome(step, 'decrypt', 'removePasswordPermissions', reply, security.json().encrypted === true)) };
    },
  },
  {
    name: 'redaction marked',
    weight: 3,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const reply = await soak.request(step, 'POST', '/annotations/redaction', { body: { searchText: step.rng.pick(['Soak', 'Stamp', 'A form', 'page', ...WORDS]) } });
      // Nothing found: nothing written.
      return { reply, outcome: () => (expectStatus(reply, [200], 'redaction marked'), outcome(step, 'redaction marked', 'createRedactions', reply, reply.json().count > 0)) };
    },
  },
  {
    name: 'redaction applied, versions kept',
    weight: 3,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      // Before the request: a write beside it in its batch may already see the field gone.
      if (step.doc.form) step.doc.fieldMayBeGone = true;
      const reply = await soak.request(step, 'POST', '', { body: { ApplyRedactionsAction: { keepVersions: true } } });
      return {
        reply,
        outcome() {
          expectStatus(reply, [200], 'redaction kept');
          assert.equal(reply.json().versionsPurged, undefined, 'keepVersions: nothing purged');
          // Nothing to apply: nothing written.
          return outcome(step, 'redaction kept', 'ApplyRedactionsAction', reply, reply.json().report.applied.length > 0);
        },
      };
    },
  },
  {
    name: 'restore',
    weight: 10,
    concurrent: true,
    ifMatch: true,
    async send(_server, step, soak) {
      const target = step.rng.pick(step.doc.versions);
      const reply = await soak.request(step, 'POST', `/versions/${target.id}/restore`);
      return {
        reply,
        outcome() {
          expectStatus(reply, [200], 'restore');
          assert.equal(etagOf(reply), target.etag, "a restore answers the restored version's ETag");
          return outcome(step, `restore of ${target.id}`, 'restore', reply, true, { bytes: target.bytes });
        },
      };
    },
  },
];

/** A kind by weight, among those that may run concurrently or with If-Match when asked. */
function pickKind(rng: Rng, options: { concurrent: boolean; ifMatch: boolean }): WriteKind {
  const kinds = KINDS.filter((k) => (!options.concurrent || k.concurrent) && (!options.ifMatch || k.ifMatch));
  let at = rng.next() * kinds.reduce((sum, k) => sum + k.weight, 0);
  for (const kind of kinds) {
    at -= kind.weight;
    if (at < 0) return kind;
  }
  return kinds.at(-1)!;
}

/**
 * A redaction that purges (no keepVersions), at a few fixed points: a document with text to redact is uploaded, the
 * text marked and the redaction applied; every version before it is gone (404 by id, and the list has one), and no
 * version holds the text.
 */
async function purgingRedaction(soak: Soak, doc: SoakDocument, rng: Rng, where: string): Promise<void> {
  const user = rng.pick(soak.users);
  const secret = doc.form ? 'A form' : `Secret ${rng.pick(WORDS)}`;
  const bytes = doc.form ? makeFormPdf() : makePdf({ pages: 2, text: (i) => `${secret} on page ${i + 1}` });
  const upload = { doc, user, requestId: soak.requestId(), alone: true, rng };
  const uploaded = await soak.request(upload, 'PUT', '', { body: bytes, headers: { 'content-type': 'application/pdf' } });
  expectStatus(uploaded, [200, 201], `${where}: upload before the redaction`);
  await soak.settle(doc, [outcome(upload, 'upload', 'upload', uploaded, true, { bytes })], `${where} (upload)`);
  const mark = { doc, user, requestId: soak.requestId(), alone: true, rng };
  const marked = await soak.request(mark, 'POST', '/annotations/redaction', { body: { searchText: secret } });
  expectStatus(marked, [200], `${where}: redaction marked`);
  assert.ok(marked.json().count > 0, `${where}: "${secret}" found`);
  await soak.settle(doc, [outcome(mark, 'redaction marked', 'createRedactions', marked, true)], `${where} (mark)`);
  const gone = doc.versions.map((v) => v.id);
  const apply = { doc, user, requestId: soak.requestId(), alone: true, rng };
  const applied = await soak.request(apply, 'POST', '', { body: { ApplyRedactionsAction: {} } });
  expectStatus(applied, [200], `${where}: redaction applied`);
  assert.equal(applied.json().versionsPurged, gone.length, `${where}: versionsPurged counts every earlier version`);
  await soak.settle(doc, [outcome(apply, 'redaction purging', 'ApplyRedactionsAction', applied, true, { purged: applied.json().versionsPurged })], `${where} (apply)`);
  soak.writes += 3;
  assert.equal(doc.versions.length, 1, `${where}: one version left`);
  for (const id of gone.filter((_, i) => i % 10 === 0 || i === gone.length - 1)) {
    const reply = await call(soak.server, 'GET', `/documents/${doc.path}?versionId=${id}`, { auth: user.auth });
    assert.equal(reply.status, 404, `${where}: purged version ${id} is gone`);
    assert.equal(reply.json().code, 'VERSION_NOT_FOUND');
  }
  assert.ok(!pdftotext(doc.versions[0]!.bytes).includes(secret), `${where}: the redacted text is in no version`);
}

/** Version management between writes (sequential): a label or pin, a delete of an old version, a refused delete of the current one. */
async function manageVersions(soak: Soak, doc: SoakDocument, rng: Rng, where: string): Promise<void> {
  const user = rng.pick(soak.users);
  const current = doc.versions.at(-1)!;
  const older = doc.versions.slice(0, -1);
  // The first three managements of a run are one of each (in the generator's order), so every store checks all three.
  const drawn = rng.int(3);
  const choice = soak.managed.size < 3 && soak.managed.has(drawn) ? [0, 1, 2].find((c) => !soak.managed.has(c))! : drawn;
  soak.managed.add(choice === 0 || older.length === 0 ? 0 : choice);
  if (choice === 0 || older.length === 0) {
    const target = rng.pick(doc.versions);
    const change = { label: rng.chance(0.7) ? `label ${rng.int(1000)}` : null, pinned: rng.chance(0.5) };
    const reply = await call(soak.server, 'PATCH', `/documents/${doc.path}/versions/${target.id}`, { auth: user.auth, body: change });
    assert.equal(reply.status, 200, `${where}: PATCH: ${reply.text}`);
    Object.assign(target, change);
  } else if (choice === 1) {
    const target = rng.pick(older);
    const reply = await call(soak.server, 'DELETE', `/documents/${doc.path}/versions/${target.id}`, { auth: user.auth });
    assert.equal(reply.status, 204, `${where}: DELETE version: ${reply.text}`);
    doc.versions = doc.versions.filter((v) => v !== target);
    // A version that shared its bytes with the current one (a restore, an equal upload) leaves them readable.
    if (target.etag === current.etag) assert.ok((await soak.versionBytes(doc, current.id, where)).bytes.equals(current.bytes));
  } else {
    const reply = await call(soak.server, 'DELETE', `/documents/${doc.path}/versions/${current.id}`, { auth: user.auth });
    assert.equal(reply.status, 409, `${where}: DELETE of the current version: ${reply.text}`);
    assert.equal(reply.json().code, 'VERSION_IS_CURRENT');
  }
  await soak.settle(doc, [], `${where} (versions managed)`);
}

async function runSoak(server: TestServer, users: [SoakUser, SoakUser], setup: StoreSetup, writeCount: number, log: (line: string) => void): Promise<void> {
  const { folder } = setup;
  const rng = generator(SEED);
  const soak = new Soak(server, users);
  for (let i = 0; i < DOCUMENTS; i++) {
    const doc: SoakDocument = { path: `${folder}/doc-${i}.pdf`, form: i % 2 === 0, versions: [], notes: [] };
    soak.docs.push(doc);
    const step: Step = { doc, user: users[i % 2]!, requestId: soak.requestId(), alone: true, rng };
    const bytes = doc.form ? formPdf(rng) : textPdf(rng);
    const reply = await soak.request(step, 'PUT', '', { body: bytes, headers: { 'content-type': 'application/pdf' } });
    expectStatus(reply, [201], 'first upload');
    await soak.settle(doc, [outcome(step, 'first upload', 'upload', reply, true, { bytes })], `document ${doc.path}`);
    soak.writes++;
  }
  // The purging redactions, spread over the run.
  const purges = new Set([Math.floor(writeCount * 0.3), Math.floor(writeCount * 0.6), Math.floor(writeCount * 0.85)]);
  const counts: Record<string, number> = {};
  let concurrentBatches = 0;
  let ifMatchBatches = 0;
  let stale = 0;
  while (soak.writes < writeCount) {
    const doc = rng.pick(soak.docs);
    const where = `seed ${SEED}, write ${soak.writes}, ${doc.path}`;
    if ([...purges].some((at) => soak.writes >= at)) {
      purges.delete([...purges].find((at) => soak.writes >= at)!);
      await soak.timed('purging redaction (its settles too)', () => purgingRedaction(soak, doc, rng, where));
      counts['purging redaction (3 writes)'] = (counts['purging redaction (3 writes)'] ?? 0) + 1;
      continue;
    }
    // Past nine tenths of the writes, the managements not done yet come one after the other.
    if (rng.chance(0.04) || (soak.managed.size < 3 && soak.writes >= writeCount * 0.9)) {
      await soak.timed('version management (its settle too)', () => manageVersions(soak, doc, rng, where));
      continue;
    }
    if (rng.chance(0.22)) {
      // A concurrent batch on one document, the requests drawn first (the generator's order), then sent together. In one
      // batch of three all carry the current ETag: the first to take the lock may change the document, the others get 412.
      const size = Math.min(2 + rng.int(3), writeCount - soak.writes);
      // The run's first batch always shares one If-Match: every store checks it.
      const ifMatch = rng.chance(0.33) || ifMatchBatches === 0 ? doc.versions.at(-1)!.etag : undefined;
      if (ifMatch !== undefined) ifMatchBatches++;
      const drawn = Array.from({ length: size }, () => ({
        kind: pickKind(rng, { concurrent: true, ifMatch: ifMatch !== undefined }),
        step: { doc, user: rng.pick(users), requestId: soak.requestId(), ifMatch, alone: false, rng: generator(rng.int(2 ** 32)) },
      }));
      for (const { kind } of drawn) soak.sent.add(kind.name);
      const before = doc.versions.at(-1)!.etag;
      // A reader lists the versions while the batch runs: each list, at any moment of a write, names its current version.
      let batchDone = false;
      const reader = (async () => {
        do {
          const { versions: seen, current } = await soak.timed('list during a batch', () => soak.list(doc, `${where}: a list during the batch`));
          soak.readsDuringWrites++;
          assert.ok(current !== null && current === seen.at(-1)?.id, `${where}: a list during a write names the newest version as the current one (current ${current})`);
          assert.ok(seen.at(-1)!.current === true, `${where}: and marks it current`);
        } while (!batchDone);
      })();
      const sent = await soak.timed('writes of a batch', () => Promise.all(drawn.map(({ kind, step }) => kind.send(server, step, soak))));
      batchDone = true;
      await reader;
      const outcomes: Outcome[] = [];
      for (const [i, { reply, outcome: interpret }] of sent.entries()) {
        if (reply.status === 412) {
          assert.ok(ifMatch !== undefined, `${where}: 412 without If-Match (${drawn[i]!.kind.name})`);
          outcomes.push(outcome(drawn[i]!.step, `${drawn[i]!.kind.name} (If-Match outrun)`, drawn[i]!.kind.name, reply, false));
        } else {
          outcomes.push(await soak.timed('writes of a batch: their outcomes (a job\'s wait)', interpret));
        }
      }
      for (const { kind } of drawn) counts[kind.name] = (counts[kind.name] ?? 0) + 1;
      await soak.settle(doc, outcomes, `${where} (concurrent: ${outcomes.map((o) => `${o.label} by ${o.user.name} ${o.status}`).join(', ')})`);
      if (ifMatch !== undefined) {
        const written = outcomes.filter((o) => o.wrote).length;
        const changed = doc.versions.slice(doc.versions.length - written).filter((v) => v.etag !== before).length;
        assert.ok(changed <= 1, `${where}: with one If-Match, at most one write of a batch changes the document`);
      }
      concurrentBatches++;
      soak.writes += size;
      continue;
    }
    // A stale If-Match by half the writes at the latest; a kind not sent yet half the time, in KINDS' order, so that a
    // run of fewer writes (S3, WebDAV) sends every kind too.
    const staleNow = rng.chance(0.1) || (stale === 0 && soak.writes >= writeCount / 2);
    const unsent = KINDS.filter((k) => !soak.sent.has(k.name));
    const kind = !staleNow && unsent.length > 0 && rng.chance(0.5) ? unsent[0]! : pickKind(rng, { concurrent: false, ifMatch: staleNow });
    if (!staleNow) soak.sent.add(kind.name);
    const ifMatch = staleNow ? soak.staleTag(doc, rng) : kind.ifMatch && rng.chance(0.15) ? doc.versions.at(-1)!.etag : undefined;
    const step: Step = { doc, user: rng.pick(users), requestId: soak.requestId(), ifMatch, alone: true, rng };
    const { reply, outcome: interpret } = await soak.timed('write alone', () => kind.send(server, step, soak));
    let result: Outcome;
    if (staleNow) {
      assert.equal(reply.status, 412, `${where}: ${kind.name} with a stale If-Match: ${reply.text}`);
      assert.equal(reply.json().code, 'PRECONDITION_FAILED');
      result = outcome(step, `${kind.name} (stale If-Match)`, kind.name, reply, false);
      stale++;
    } else {
      result = await soak.timed('write alone: its outcome (a job\'s wait)', interpret);
    }
    counts[staleNow ? 'stale If-Match (412)' : kind.name] = (counts[staleNow ? 'stale If-Match (412)' : kind.name] ?? 0) + 1;
    await soak.settle(doc, [result], `${where} (${result.label} by ${step.user.name}, ${result.status})`);
    soak.writes++;
  }
  // What a run must have done, however few its writes.
  assert.deepEqual(KINDS.filter((k) => !soak.sent.has(k.name)).map((k) => k.name), [], `seed ${SEED}: every kind of write was sent`);
  assert.ok(concurrentBatches > 0 && ifMatchBatches > 0, `seed ${SEED}: concurrent batches (${concurrentBatches}), ${ifMatchBatches} of them under one If-Match`);
  assert.ok(stale > 0, `seed ${SEED}: a write with a stale If-Match`);
  assert.equal(purges.size, 0, `seed ${SEED}: every purging redaction ran`);
  assert.deepEqual([...soak.managed].sort(), [0, 1, 2], `seed ${SEED}: a label or pin, a delete of an old version, a refused delete of the current one`);
  log(`writes: ${soak.writes}; concurrent batches: ${concurrentBatches} (${ifMatchBatches} under one If-Match); stale If-Match: ${stale}; by what they did: ${JSON.stringify(soak.tally)}`);
  log(`requests by kind: ${JSON.stringify(counts)}`);
  log(`versions made by operation: ${JSON.stringify(soak.made)}; version lists read during concurrent writes: ${soak.readsDuringWrites}`);

  // Every version of every document, fetched again: the bytes it held when it was made, and its ETag their sha256.
  const finalStart = performance.now();
  // The documents one beside the other (each is its own versions area); a document's versions one after the other.
  let versions = 0;
  await Promise.all(
    soak.docs.map(async (doc) => {
      await soak.settle(doc, [], `seed ${SEED}, final list of ${doc.path}`);
      for (const v of doc.versions) {
        const reply = await soak.versionBytes(doc, v.id, `seed ${SEED}, final read of ${doc.path}`);
        assert.ok(reply.bytes.equals(v.bytes), `seed ${SEED}: ${doc.path} version ${v.id} (${v.operation}) holds the bytes it was written with`);
        assert.equal(etagOfBytes(reply.bytes), v.etag);
        versions++;
      }
    }),
  );
  soak.phases['final lists and fetch of every version'] = { ms: performance.now() - finalStart, n: versions };
  log(`versions fetched at the end: ${versions}; qpdf --check on ${soak.qpdfChecks} versions of ${soak.qpdfOperations.size} operations`);

  // Restore of any version gives its bytes back as the new current version.
  const restoresStart = performance.now();
  // Drawn first, in the generator's order; then the documents one beside the other, each's two restores in turn.
  const restores = soak.docs.map((doc) => ({ doc, targets: [doc.versions[0]!, rng.pick(doc.versions)].map((target) => ({ target, user: rng.pick(users), requestId: soak.requestId() })) }));
  await Promise.all(restores.map(async ({ doc, targets }) => {
    for (const { target, user, requestId } of targets) {
      const step: Step = { doc, user, requestId, alone: true, rng };
      const reply = await soak.request(step, 'POST', `/versions/${target.id}/restore`);
      assert.equal(reply.status, 200, reply.text);
      await soak.settle(doc, [outcome(step, `final restore of ${target.id}`, 'restore', reply, true, { bytes: target.bytes })], `seed ${SEED}, final restore on ${doc.path}`);
      const now = await call(server, 'GET', `/documents/${doc.path}`, { auth: user.auth, headers: { 'x-service-documentpassword': OWNER_PASSWORD } });
      assert.equal(now.status, 200);
      assert.ok(now.bytes.equals(target.bytes), `seed ${SEED}: ${doc.path} after the restore of ${target.id} is that version, byte for byte`);
    }
  }));
  soak.phases['final restores'] = { ms: performance.now() - restoresStart, n: soak.docs.length * 2 };
  // Where the time went (wall time; a batch's writes and its reader's lists overlap, so do the fetches of one settle,
  // and the settles inside a purging redaction or a version management are counted in both).
  const phases = Object.entries(soak.phases).sort(([, a], [, b]) => b.ms - a.ms);
  log(`wall time by phase: ${phases.map(([name, p]) => `${name} ${(p.ms / 1000).toFixed(1)} s (${p.n}, ${(p.ms / p.n).toFixed(0)} ms each)`).join('; ')}`);
  log(`a versions list's wall time by versions held: ${Object.entries(soak.listTimes).map(([at, t]) => `${at}+: ${(t.ms / t.n).toFixed(0)} ms (${t.n})`).join(', ')}`);
}


/** A store's soak, its service and server started and stopped around it. */
async function soakStore(store: string, log: (line: string) => void): Promise<void> {
  const start = STORES[store];
  assert.ok(start, `SOAK_STORES names an unknown store ${store} (known: ${Object.keys(STORES).join(', ')})`);
  const setup = await start();
  let server: TestServer | undefined;
  try {
    server = await startServer({ env: setup.env });
    let users: [SoakUser, SoakUser];
    if (setup.users) {
      users = setup.users;
    } else {
      const password = 'soak-user-password';
      users = [{ name: 'alice', auth: basicAuth('alice', password) }, { name: 'bob', auth: basicAuth('bob', password) }];
      for (const user of users) {
        const created = await call(server, 'POST', '/users', { body: { username: user.name, password, rights: ['GET', 'POST', 'PUT', 'DELETE'] } });
        assert.equal(created.status, 201, created.text);
      }
    }
    const started = Date.now();
    const pid = server.child.pid!;
    // The test process's own CPU (its qpdf runs counted in the phases), the service's with its ended children, the store's servers'.
    const cpu = () => {
      const own = process.cpuUsage();
      return { test: (own.user + own.system) / 1e6, service: cpuSeconds(pid), store: setup.cpu?.() ?? 0 };
    };
    const cpuBefore = cpu();
    await runSoak(server, users, setup, writesOf(store), log);
    const cpuAfter = cpu();
    const spent = (k: keyof typeof cpuBefore) => `${k} ${(cpuAfter[k] - cpuBefore[k]).toFixed(1)} s`;
    log(`${store}: ${((Date.now() - started) / 1000).toFixed(1)} s; CPU: ${spent('test')}, ${spent('service')}, ${spent('store')} (its servers)`);
  } finally {
    await server?.stop();
    await setup.stop();
  }
}

// The stores one after the other: the soak is CPU-bound (the service's engine, Swift's Python), and the three at once
// took longer than in turn on the loaded machine (docs/testing.md).
describe('versions soak', () => {
  for (const store of RUN) {
    test(`on the ${store} store: ${writesOf(store)} random writes by two users, every version checked (seed ${SEED}: SOAK_SEED=${SEED} replays it)`, async (t) => {
      t.diagnostic(`seed ${SEED} (SOAK_SEED=${SEED} replays the sequence)`);
      await soakStore(store, (line) => t.diagnostic(line));
    });
  }
});
