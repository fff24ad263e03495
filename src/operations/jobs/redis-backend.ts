import { randomUUID } from 'node:crypto';
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { redisOptions, withRedis, type RedisConnection } from '../../redis.js';
import type { Sealer } from '../../secrets.js';
import type { JobEvent } from './api.js';
import { HISTORY_LIMIT, JobListeners, type JobEventHub } from './events.js';
import type { JobBackend, JobConsumer, SharedHeld } from './backend.js';
import type { JobRecord } from './model.js';

/** BullMQ's queue name (its keys: PDFSERVICE_REDIS_PREFIX + "bull:jobs:..."). */
const QUEUE_NAME = 'jobs';
/**
 * The webhooks' queue (docs/webhooks.md): one delayed BullMQ job per attempt, due when its backoff ends. A queue of its
 * own, so attempts never wait behind documents' jobs and the jobs' counts (admission, fair share) never see them.
 */
const WEBHOOK_QUEUE = 'webhooks';
/** Webhook attempts one process makes at once: each is mostly a wait for the receiver (PDFSERVICE_WEBHOOK_TIMEOUT_MS). */
const WEBHOOK_CONCURRENCY = 8;
/** How long a job whose owner is at PDFSERVICE_USER_JOB_LIMIT in the taking process waits before it is offered again. */
const BUSY_DELAY_MS = 1000;
/** How often each process reads the shared queue's size again (for the 503 SERVICE_BUSY check). */
const COUNT_EVERY_MS = 1000;
/** BullMQ's highest priority number (its lowest priority). */
const LOWEST_PRIORITY = 2_097_151;
/** How many jobs at the front of the shared queue othersWaiting looks at. */
const FRONT = 50;

/** A webhook attempt on its queue: the job's id and the attempt's number (the record holds everything else). */
interface QueuedWebhook {
  id: string;
  attempt: number;
}

interface QueuedJob {
  id: string;
  /** The job's owner, for the fair share (held, othersWaiting); absent on jobs queued before it was recorded. */
  owner?: string | null;
  /** The document password, sealed for this job (secrets.ts), when the request had one. */
  password?: string;
}

/**
 * Numbers an event (INCR), keeps it in a capped list (an end event alone once the job ends, as in memory), lets both
 * keys expire with the records' retention, and tells every process (PUBLISH): one script, so the numbering and the
 * order of the list agree whichever process publishes.
 */
const PUBLISH_SCRIPT = `
local seq = redis.call('INCR', KEYS[1])
redis.call('RPUSH', KEYS[2], '{"seq":' .. seq .. ',' .. ARGV[1])
if ARGV[2] == 'end' then redis.call('LTRIM', KEYS[2], -1, -1) else redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PUBLISH', KEYS[3], ARGV[5])
return seq`;

export interface RedisJobBackendOptions {
  /** Whether this process takes jobs from the shared queue (PDFSERVICE_JOB_CONCURRENCY > 0 and not an enqueue-only instance). */
  runJobs: boolean;
  /** Shared jobs this process runs at once. */
  concurrency: number;
  retentionMs: number;
  /**
   * How long a heartbeat (a running job's, this process's) lasts without renewal (PDFSERVICE_JOB_HEARTBEAT_MS): renewed
   * every third of it, and jobs whose heartbeat lapsed are looked for every half of it and marked interrupted.
   */
  heartbeatMs: number;
  /** Seals document passwords for the queue; without it jobs with a password stay on the receiving instance. */
  sealer: Sealer | undefined;
}

/**
 * The job backend across instances and workers (PDFSERVICE_REDIS_URL; records in Redis are RedisJobStore's, whose
 * replaceIf settles races): events in Redis lists with pub/sub, the shared queue on BullMQ, cancel as a pub/sub message to the process running the job, and a heartbeat per
 * running job that every process checks, so a job whose process was killed ends `interrupted`.
 */
export class RedisJobBackend implements JobBackend {
  readonly events: JobEventHub;
  private readonly queue: Queue<QueuedJob>;
  private readonly webhookQueue: Queue<QueuedWebhook>;
  private webhookWorker: Worker<QueuedWebhook> | undefined;
  private webhookConnection: Redis | undefined;
  private readonly queueConnection: Redis;
  private readonly subscriber: Redis;
  private readonly listeners = new JobListeners();
  private readonly channel: string;
  private worker: Worker<QueuedJob> | undefined;
  private workerConnection: Redis | undefined;
  private jobs: JobConsumer | undefined;
  private checker: NodeJS.Timeout | undefined;
  private counter: NodeJS.Timeout | undefined;
  private beating: NodeJS.Timeout | undefined;
  /** A new id per process (not the pid: pids repeat across hosts and restarts), so a restarted instance never claims the jobs its predecessor held. */
  readonly holder = randomUUID();
  readonly sole = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisJobBackendOptions,
  ) {
    this.channel = redis.key('jobs', 'signals');
    // BullMQ takes its own connections and its own prefix (no ioredis keyPrefix: see redis.ts).
    this.queueConnection = new Redis(redis.settings.url, redisOptions(redis.settings, { lazyConnect: false }));
    this.queueConnection.on('error', () => {});
    this.queue = new Queue<QueuedJob>(QUEUE_NAME, { connection: this.queueConnection, prefix: `${redis.settings.prefix}bull` });
    this.queue.on('error', () => {});
    this.webhookQueue = new Queue<QueuedWebhook>(WEBHOOK_QUEUE, { connection: this.queueConnection, prefix: `${redis.settings.prefix}bull` });
    this.webhookQueue.on('error', () => {});
    this.subscriber = redis.client.duplicate();
    this.subscriber.on('error', () => {});
    this.subscriber.on('message', (_channel: string, message: string) => this.signal(message));
    // Messages sent while the subscription was down are lost: after a reconnection every follower looks again.
    this.subscriber.on('ready', () => {
      this.listeners.tellAll();
    });
    this.events = {
      publish: (record, type) => this.publish(record, type),
      history: (id) => this.history(id),
      latest: (id) => withRedis(async () => {
        const json = await this.redis.client.lindex(this.redis.key('job', id, 'events'), -1);
        return json === null ? undefined : (JSON.parse(json) as JobEvent);
      }),
      listen: (id, listener) => this.listen(id, listener),
      forget: (id) => withRedis(async () => void (await this.redis.client.del(this.redis.key('job', id, 'seq'), this.redis.key('job', id, 'events')))),
    };
  }

  /** Subscribes, starts taking jobs (when this process runs them) and checking heartbeats. */
  async start(jobs: JobConsumer): Promise<void> {
    this.jobs = jobs;
    await this.subscriber.subscribe(this.channel);
    if (this.options.runJobs && this.options.concurrency > 0) {
      // A worker's blocking connection waits as long as BullMQ asks: no command timeout, no retry limit.
      this.workerConnection = new Redis(this.redis.settings.url, redisOptions(this.redis.settings, { lazyConnect: false, maxRetriesPerRequest: null, commandTimeout: undefined as unknown as number }));
      this.workerConnection.on('error', () => {});
      this.worker = new Worker<QueuedJob>(QUEUE_NAME, (job, token) => this.process(job, token), {
        connection: this.workerConnection,
        prefix: `${this.redis.settings.prefix}bull`,
        concurrency: this.options.concurrency,
        // A job is never run twice: one delivered again after its process died is skipped (its record is running),
        // and the heartbeat check marks it interrupted.
        maxStalledCount: 0,
      });
      this.worker.on('error', () => {});
    }
    // Every process makes webhook attempts, an instance that runs no jobs too: the one that recorded a job's end may be
    // gone when a retry is due, and its attempts wait in Redis for whoever is there.
    this.webhookConnection = new Redis(this.redis.settings.url, redisOptions(this.redis.settings, { lazyConnect: false, maxRetriesPerRequest: null, commandTimeout: undefined as unknown as number }));
    this.webhookConnection.on('error', () => {});
    this.webhookWorker = new Worker<QueuedWebhook>(WEBHOOK_QUEUE, (job) => jobs.attemptWebhook(job.data.id, job.data.attempt), {
      connection: this.webhookConnection,
      prefix: `${this.redis.settings.prefix}bull`,
      concurrency: WEBHOOK_CONCURRENCY,
      // An attempt whose process died (or stopped) before recording it goes back to the queue once and is made by
      // another: at least once, as Standard Webhooks expects (the receiver drops a repeated webhook-id). One recorded
      // already is not made again (attemptWebhook compares the log).
      maxStalledCount: 1,
    });
    this.webhookWorker.on('error', () => {});
    // This process's own heartbeat, for the jobs on its local queue (payload.holder): said before any is submitted.
    const holderKey = this.redis.key('process', this.holder, 'alive');
    const beat = () => this.redis.client.set(holderKey, String(process.pid), 'PX', this.options.heartbeatMs);
    await beat().catch(() => {});
    this.beating = setInterval(() => void beat().catch(() => {}), this.options.heartbeatMs / 3);
    this.beating.unref();
    const check = () => void jobs.interruptDead().catch(() => {});
    check();
    this.checker = setInterval(check, this.options.heartbeatMs / 2);
    this.checker.unref();
    // Admission answers from the last count: kept fresh, or a full queue that drained would still refuse.
    this.counter = setInterval(() => void jobs.refreshSharedCount().catch(() => {}), COUNT_EVERY_MS);
    this.counter.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.checker);
    clearInterval(this.counter);
    clearInterval(this.beating);
    // Forced: a stop does not wait for running jobs (hours, maybe); their heartbeat lapses and another process marks
    // them interrupted. Bounded: BullMQ's close waits for Redis, which may be the thing that is down.
    const bounded = (work: Promise<unknown>) => Promise.race([work.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    await bounded(this.worker?.close(true) ?? Promise.resolve());
    await bounded(this.webhookWorker?.close(true) ?? Promise.resolve());
    await bounded(this.queue.close());
    await bounded(this.webhookQueue.close());
    this.workerConnection?.disconnect();
    this.webhookConnection?.disconnect();
    this.queueConnection.disconnect();
    this.subscriber.disconnect();
  }

  private async process(job: Job<QueuedJob>, token: string | undefined): Promise<void> {
    const outcome = await this.jobs!.runShared(job.data.id, job.data.password);
    if (outcome === 'busy') {
      await job.moveToDelayed(Date.now() + BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
  }

  /** A job without a password goes on the shared queue; one with a password only when it can be sealed (PDFSERVICE_SECRETS_KEY). */
  shareable(id: string, password: string | undefined): { sealed?: string } | undefined {
    if (password === undefined) return {};
    const sealed = this.options.sealer?.seal(`job:${id}`, password);
    return sealed === undefined ? undefined : { sealed };
  }

  open(id: string, sealed: string): string {
    return this.options.sealer!.open(`job:${id}`, sealed);
  }

  enqueue(id: string, sealedPassword: string | undefined, owner: string | null, priority: number): Promise<void> {
    return withRedis(async () => {
      // BullMQ refuses integer ids; the prefix keeps a job id of digits only a string. Every job has a priority: BullMQ
      // takes jobs without one before all prioritized ones. Equal priorities keep their order (first in, first out).
      await this.queue.add('action', { id, owner, ...(sealedPassword !== undefined ? { password: sealedPassword } : {}) }, {
        jobId: `j${id}`,
        removeOnComplete: true,
        removeOnFail: true,
        priority: Math.min(Math.max(1, priority), LOWEST_PRIORITY),
      });
    });
  }

  scheduleWebhook(id: string, attempt: number, delayMs: number): Promise<void> {
    // The id names the attempt, so scheduling it twice adds it once (BullMQ keeps the first job of an id).
    return withRedis(async () => void (await this.webhookQueue.add('webhook', { id, attempt }, { jobId: `h${id}-${attempt}`, delay: Math.max(0, Math.round(delayMs)), removeOnComplete: true, removeOnFail: true })));
  }

  held(): Promise<Map<string | null, SharedHeld>> {
    return withRedis(async () => {
      const held = new Map<string | null, SharedHeld & { at: number }>();
      const seen = new Set<string>();
      // A job moving between lists while they are read may be seen twice (counted once) or not at all (the count is
      // then one short for a moment).
      const count = (jobs: Job<QueuedJob>[], waiting: boolean) => {
        for (const job of jobs) {
          if (!job?.id || seen.has(job.id)) continue;
          seen.add(job.id);
          const owner = job.data.owner ?? null;
          let h = held.get(owner);
          if (!h) held.set(owner, (h = { count: 0, at: -1 }));
          h.count++;
          // The owner's newest waiting job: the one a push-out takes.
          if (waiting && job.timestamp >= h.at) Object.assign(h, { newest: job.data.id, at: job.timestamp });
        }
      };
      count(await this.queue.getJobs(['active'], 0, -1), false);
      count(await this.queue.getJobs(['prioritized', 'waiting', 'delayed'], 0, -1), true);
      return new Map([...held].map(([owner, { count: n, newest }]) => [owner, { count: n, ...(newest !== undefined ? { newest } : {}) }]));
    });
  }

  othersWaiting(owner: string | null): Promise<boolean> {
    return withRedis(async () => (await this.queue.getJobs(['prioritized', 'waiting'], 0, FRONT - 1, true)).some((job) => job && (job.data as QueuedJob).owner !== owner));
  }

  async dequeue(id: string): Promise<void> {
    // Best effort: a job already taken is skipped by whoever took it (its record is no longer queued).
    await this.queue.remove(`j${id}`).catch(() => 0);
  }

  count(): Promise<number> {
    return withRedis(() => this.queue.getJobCountByTypes('waiting', 'active', 'delayed', 'prioritized'));
  }

  requestCancel(id: string): Promise<void> {
    return withRedis(async () => void (await this.redis.client.publish(this.channel, `c:${id}`)));
  }

  heartbeat(id: string): () => void {
    const key = this.redis.key('job', id, 'alive');
    const beat = () => void this.redis.client.set(key, String(process.pid), 'PX', this.options.heartbeatMs).catch(() => {});
    beat();
    const timer = setInterval(beat, this.options.heartbeatMs / 3);
    timer.unref();
    return () => {
      clearInterval(timer);
      void this.redis.client.del(key).catch(() => {});
    };
  }

  async alive(id: string): Promise<boolean> {
    return (await this.redis.client.exists(this.redis.key('job', id, 'alive'))) === 1;
  }

  async holderAlive(holder: string): Promise<boolean> {
    return (await this.redis.client.exists(this.redis.key('process', holder, 'alive'))) === 1;
  }

  private publish(record: JobRecord, type: JobEvent['type']): Promise<void> {
    const body = JSON.stringify({ type, job: record }).slice(1);
    const keys = [this.redis.key('job', record.id, 'seq'), this.redis.key('job', record.id, 'events'), this.channel];
    return withRedis(async () => void (await this.redis.client.eval(PUBLISH_SCRIPT, 3, ...keys, body, type, String(HISTORY_LIMIT), String(this.options.retentionMs), `e:${record.id}`)));
  }

  private history(id: string): Promise<JobEvent[]> {
    return withRedis(async () => (await this.redis.client.lrange(this.redis.key('job', id, 'events'), 0, -1)).map((json) => JSON.parse(json) as JobEvent));
  }

  private listen(id: string, listener: () => void): () => void {
    return this.listeners.add(id, listener);
  }

  private signal(message: string): void {
    const id = message.slice(2);
    if (message.startsWith('c:')) this.jobs?.abortLocal(id);
    else this.listeners.tell(id);
  }
}
