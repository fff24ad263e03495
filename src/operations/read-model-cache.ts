import { createHash } from 'node:crypto';

/**
 * Read models keyed by content (ETag) and by the password that opened the
 * document, so a document that did not change is not parsed again. The content
 * alone decides the entry, so nothing needs invalidating; the least recently
 * used entries go first when the cache is full. Passwords are kept only as hashes.
 *
 * The capacity counts entries, or, with a `weigh` function, whatever it
 * measures (bytes for extracted text); one entry heavier than a quarter of
 * the capacity is not kept, so it cannot empty the cache. A `variant` tells
 * apart several models of one document version (one page's text, a detail level).
 *
 * The key names no user, so one user's answer serves another who asks for
 * the same version. That is safe with a store that decides per user (a DMS)
 * because every user of a cache looks it up only with the ETag of a stat (or
 * read) it has just made through the requesting user's store: a user the
 * store refuses gets its 403 from that stat and never reaches the cache.
 * Each cache of the operations layer says where its stat is.
 */
/**
 * The key of a read model: the version, the password that opened it (only as
 * a hash) and the variant. Also the key of work in flight on such a model.
 */
export function readModelKey(etag: string, password: string | undefined, variant = ''): string {
  const pw = password ? createHash('sha256').update(password).digest('base64url') : '';
  return `${etag}|${pw}|${variant}`;
}

export class ReadModelCache<T> {
  private readonly entries = new Map<string, { value: T; weight: number }>();
  private total = 0;
  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: T) => number = () => 1,
  ) {}

  get(etag: string, password: string | undefined, variant = ''): T | undefined {
    const key = readModelKey(etag, password, variant);
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit); // most recently used last
    }
    return hit?.value;
  }

  /** Drops every entry (a cache of content that a redaction's purge must not leave behind: CompareOperations). */
  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  set(etag: string, password: string | undefined, value: T, variant = ''): void {
    const weight = this.weigh(value);
    if (weight > this.capacity / 4 && weight > 1) return;
    const key = readModelKey(etag, password, variant);
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.total -= old.weight;
    }
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.capacity) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }
}
