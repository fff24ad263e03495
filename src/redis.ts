import { Redis, type RedisOptions } from 'ioredis';
import { ServiceError } from './errors.js';

/**
 * The one place the service talks to Redis from (PDFSERVICE_REDIS_URL):
 * shared sessions and login throttling now, document locks and the job queue
 * later. Every key starts with PDFSERVICE_REDIS_PREFIX, so several services
 * (or a test per run) can share one Redis.
 *
 * The prefix is put into keys by `key()`, not by ioredis's `keyPrefix`: BullMQ
 * refuses connections with a keyPrefix and takes its own `prefix` option, so
 * the same settings serve both.
 */
export interface RedisSettings {
  /** redis:// or rediss:// (TLS), with user, password and database number in the URL as Redis URLs carry them. */
  url: string;
  prefix: string;
  /** Longest wait for a connection, and for any command's answer; past it the command fails (503 REDIS_UNAVAILABLE). */
  timeoutMs: number;
}

/** Seconds a client is told to wait (Retry-After) when Redis cannot be reached. */
const RETRY_AFTER_SECONDS = 5;

/** The URL as it may be printed: no user or password. */
export function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'the URL';
  }
}

/**
 * ioredis options for these settings; `overrides` lets a later user (a BullMQ
 * worker's blocking connection needs `maxRetriesPerRequest: null`) keep the
 * rest.
 */
export function redisOptions(settings: RedisSettings, overrides: RedisOptions = {}): RedisOptions {
  return {
    connectTimeout: settings.timeoutMs,
    commandTimeout: settings.timeoutMs,
    // A command sent while the connection is down waits for one reconnection attempt, then fails: a request meets
    // a short blip (a restart, a failover) unharmed and an outage as a quick 503, never an endless wait.
    maxRetriesPerRequest: 1,
    // Reconnect for ever, at most a second apart, so the service recovers by itself when Redis is back.
    retryStrategy: (times: number) => Math.min(times * 100, 1000),
    // Connecting is the caller's first command (connectRedis), so a start can fail with one clear line.
    lazyConnect: true,
    ...overrides,
  };
}

export class RedisConnection {
  readonly client: Redis;

  constructor(readonly settings: RedisSettings, overrides: RedisOptions = {}) {
    this.client = new Redis(settings.url, redisOptions(settings, overrides));
    // Without a listener ioredis prints every failed reconnection attempt; the requests that meet the outage say it.
    this.client.on('error', () => {});
  }

  /** A key under the prefix: the parts joined with ':'. */
  key(...parts: string[]): string {
    return this.settings.prefix + parts.join(':');
  }

  async close(): Promise<void> {
    // QUIT lets answers in flight arrive; a connection that is down has nothing to wait for.
    if (this.client.status === 'ready') await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
  }
}

/**
 * Opens the connection and checks it with PING. Throws an Error whose message is
 * one line an operator can act on (where, and what went wrong; never the password).
 */
export async function connectRedis(settings: RedisSettings, overrides: RedisOptions = {}): Promise<RedisConnection> {
  // At start nothing should wait for reconnections: the operator hears at once that Redis is not there.
  const connection = new RedisConnection(settings, { ...overrides, retryStrategy: () => null });
  // connect() then only says "Connection is closed."; the cause (refused, a wrong password) comes as an event.
  let cause: unknown;
  const remember = (err: unknown) => (cause ??= err);
  connection.client.on('error', remember);
  try {
    await connection.client.connect();
    await connection.client.ping();
  } catch (err) {
    connection.client.disconnect();
    throw new Error(`cannot reach Redis at ${redactedRedisUrl(settings.url)} (PDFSERVICE_REDIS_URL): ${reason(cause ?? err)}`, { cause: err });
  } finally {
    connection.client.off('error', remember);
  }
  connection.client.options.retryStrategy = redisOptions(settings, overrides).retryStrategy;
  return connection;
}

function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { message?: string };
  if (e.code === 'ECONNREFUSED') return 'connection refused';
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'no such host';
  if (e.code === 'ETIMEDOUT' || /timed out|timeout/i.test(e.message ?? '')) return 'no answer in time (PDFSERVICE_REDIS_TIMEOUT_MS)';
  if (/WRONGPASS|NOAUTH|invalid password|invalid username-password/i.test(e.message ?? '')) return 'it refused the user or password in the URL';
  return e.message ?? String(err);
}

/**
 * Replies that mean Redis is there but cannot serve now (loading its data, a
 * replica after failover, a script running long): retried later like a
 * connection that is down.
 */
const TRANSIENT_REPLY = /^(LOADING|READONLY|MASTERDOWN|BUSY|TRYAGAIN|CLUSTERDOWN)\b/;

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const CONNECTION_MESSAGES = /^(Command timed out|Connection is closed|Stream isn't writeable|Reached the max retries per request limit)/;

/** Whether an error from ioredis means "Redis cannot be reached now" rather than a fault of the command. */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'ReplyError') return TRANSIENT_REPLY.test(err.message);
  if (err.name === 'MaxRetriesPerRequestError') return true;
  return CONNECTION_CODES.has((err as NodeJS.ErrnoException).code ?? '') || CONNECTION_MESSAGES.test(err.message);
}

/**
 * Runs Redis commands for a request: a Redis that cannot be reached is 503
 * REDIS_UNAVAILABLE with Retry-After (the request changed nothing it could
 * not repeat), anything else passes as it is.
 */
export async function withRedis<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ServiceError || !isRedisUnavailable(err)) throw err;
    throw new ServiceError('REDIS_UNAVAILABLE', 'Redis, which the service instances share, cannot be reached; try again later', undefined, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  }
}
