import type { Release } from './store.js';

/**
 * In-process mutual exclusion per key (a document path). Waiters are served in
 * arrival order. Several instances use RedisLocks (redis-lock.ts), which queue
 * their waiters here first.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async acquire(key: string): Promise<Release> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: Release;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      // Forget the key once nobody queued behind us, so the map does not grow.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
