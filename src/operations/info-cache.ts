import { createHash } from 'node:crypto';
import type { DocumentInfo } from '../engine/pdf/inspect.js';

/**
 * Read models keyed by content (ETag) and by the password that opened them, so
 * a document that did not change is not parsed again. A document's content
 * alone decides the entry, so no invalidation is needed; the oldest entries go
 * first when the cache is full.
 */
export class InfoCache {
  private readonly entries = new Map<string, DocumentInfo>();
  constructor(private readonly capacity = 2000) {}

  private key(etag: string, password: string | undefined): string {
    const pw = password ? createHash('sha256').update(password).digest('base64url') : '';
    return `${etag}|${pw}`;
  }

  get(etag: string, password: string | undefined): DocumentInfo | undefined {
    const key = this.key(etag, password);
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit); // most recently used last
    }
    return hit;
  }

  set(etag: string, password: string | undefined, info: DocumentInfo): void {
    this.entries.set(this.key(etag, password), info);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
