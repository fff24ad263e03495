import { createHash } from 'node:crypto';

/**
 * Read models keyed by content (ETag) and by the password that opened the
 * document, so a document that did not change is not parsed again. The content
 * alone decides the entry, so nothing needs invalidating; the least recently
 * used entries go first when the cache is full. Passwords are kept only as hashes.
 */
export class ReadModelCache<T> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly capacity: number) {}

  private key(etag: string, password: string | undefined): string {
    const pw = password ? createHash('sha256').update(password).digest('base64url') : '';
    return `${etag}|${pw}`;
  }

  get(etag: string, password: string | undefined): T | undefined {
    const key = this.key(etag, password);
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit); // most recently used last
    }
    return hit;
  }

  set(etag: string, password: string | undefined, value: T): void {
    this.entries.set(this.key(etag, password), value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
