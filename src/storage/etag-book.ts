import { withRedis, type RedisConnection } from '../redis.js';

/** A document version as the instance that wrote it knows it: the store's tag for it (S3's ETag), our tag, size and time. */
export interface BookedEtag {
  /** The source's entity tag of the version, from the write's answer (S3's ETag, quoted as S3 sends it). */
  sourceEtag: string;
  /** Our tag: the content hash, quoted. */
  etag: string;
  size: number;
  modified: Date;
}

/**
 * The ETag book: which content (our tag) each key holds now, as the service's
 * writers know it. Not a history of versions: one record per key, the current
 * one. Its Redis keys keep their earlier name (`s3-version:`), so instances of
 * the previous release and this one share the records during a rolling update.
 *
 * The current version of each key the service's writers know, shared by every
 * instance (S3Store's `etagBook`). Writers keep it, under the key's commit
 * lock: `forget(key)` before they write or delete the object, `record()` after
 * the write succeeded; so a write that fails or a writer that dies between
 * the two leaves no record, never a stale one. Readers only `get()`: a record
 * is the key's current version; no record says nothing (ask the source).
 */
export interface EtagBook {
  /** The recorded version, or undefined: none recorded, or the book cannot be read now (the caller asks the source). */
  get(key: string): Promise<BookedEtag | undefined>;
  /** Removes the record; throws (503) when it cannot, and then the write it comes before must not happen. */
  forget(key: string): Promise<void>;
  /** Records the version just written. A failure is the caller's to ignore: the key then has no record. */
  record(key: string, version: BookedEtag): Promise<void>;
}

/**
 * How long a record lives: the bound on how long a change made to the bucket
 * by anything but the service (which the book cannot see) goes unnoticed by
 * stat and by reads of a kept copy, and on the book's size (the keys written
 * in the last hour). After it, reads of the key ask S3 again (HEAD, a
 * conditional GET) until its next write: readers never record.
 */
export const ETAG_TTL_MS = 60 * 60 * 1000;

/** After a failed get(), the book is not asked for this long: reads go to the source at once rather than waiting on each timeout. */
const UNREACHABLE_PAUSE_MS = 1000;

interface Stored {
  sourceEtag: string;
  etag: string;
  size: number;
  modified: string;
}

/**
 * The ETag book in Redis: one JSON string per key, `<prefix>s3-version:<bucket>:<key>`,
 * expiring after ETAG_TTL_MS.
 */
export class RedisEtagBook implements EtagBook {
  private unreachableUntil = 0;

  constructor(
    private readonly redis: RedisConnection,
    private readonly namespace: string,
    private readonly ttlMs = ETAG_TTL_MS,
  ) {}

  private keyOf(key: string): string {
    return this.redis.key('s3-version', this.namespace, key);
  }

  async get(key: string): Promise<BookedEtag | undefined> {
    if (Date.now() < this.unreachableUntil) return undefined;
    let raw: string | null;
    try {
      raw = await this.redis.client.get(this.keyOf(key));
    } catch {
      // A read must not fail because the book is unreachable: the source answers it, as without a book.
      this.unreachableUntil = Date.now() + UNREACHABLE_PAUSE_MS;
      return undefined;
    }
    if (raw === null) return undefined;
    try {
      const v = JSON.parse(raw) as Partial<Stored>;
      const modified = new Date(v.modified ?? '');
      if (typeof v.sourceEtag !== 'string' || typeof v.etag !== 'string' || typeof v.size !== 'number' || Number.isNaN(modified.getTime())) return undefined;
      return { sourceEtag: v.sourceEtag, etag: v.etag, size: v.size, modified };
    } catch {
      return undefined;
    }
  }

  async forget(key: string): Promise<void> {
    await withRedis(() => this.redis.client.del(this.keyOf(key)));
  }

  async record(key: string, version: BookedEtag): Promise<void> {
    const stored: Stored = { sourceEtag: version.sourceEtag, etag: version.etag, size: version.size, modified: version.modified.toISOString() };
    await withRedis(() => this.redis.client.set(this.keyOf(key), JSON.stringify(stored), 'PX', this.ttlMs));
  }
}
