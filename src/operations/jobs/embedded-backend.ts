import { randomUUID } from 'node:crypto';
import type { JobBackend, JobConsumer, SharedHeld } from './backend.js';
import { LocalJobEvents } from './events.js';

/**
 * The embedded backend: one process, so no queue is shared. Every job stays on
 * the process's own queue (JobOperations), events are kept in memory, a cancel
 * signal is a call, and the heartbeats are a set of the jobs running here.
 */
export class EmbeddedJobBackend implements JobBackend {
  readonly events = new LocalJobEvents();
  readonly holder = randomUUID();
  readonly sole = true;
  private consumer: JobConsumer | undefined;
  private readonly beating = new Map<string, number>();
  /** Webhook attempts waiting for their time, by job and attempt. */
  private readonly hooks = new Map<string, NodeJS.Timeout>();

  shareable(): undefined {
    return undefined;
  }

  open(): string {
    throw new Error('The embedded job backend seals nothing');
  }

  enqueue(): Promise<void> {
    return Promise.reject(new Error('The embedded job backend has no shared queue'));
  }

  dequeue(): Promise<void> {
    return Promise.resolve();
  }

  count(): Promise<number> {
    return Promise.resolve(0);
  }

  held(): Promise<Map<string | null, SharedHeld>> {
    return Promise.resolve(new Map());
  }

  othersWaiting(): Promise<boolean> {
    return Promise.resolve(false);
  }

  requestCancel(id: string): Promise<void> {
    this.consumer?.abortLocal(id);
    return Promise.resolve();
  }

  heartbeat(id: string): () => void {
    this.beating.set(id, (this.beating.get(id) ?? 0) + 1);
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      const n = this.beating.get(id)! - 1;
      if (n > 0) this.beating.set(id, n);
      else this.beating.delete(id);
    };
  }

  alive(id: string): Promise<boolean> {
    return Promise.resolve(this.beating.has(id));
  }

  holderAlive(holder: string): Promise<boolean> {
    return Promise.resolve(holder === this.holder);
  }

  scheduleWebhook(id: string, attempt: number, delayMs: number): Promise<void> {
    const key = `${id}:${attempt}`;
    if (this.hooks.has(key)) return Promise.resolve();
    const timer = setTimeout(() => {
      this.hooks.delete(key);
      void this.consumer?.attemptWebhook(id, attempt).catch(() => {});
    }, delayMs);
    timer.unref();
    this.hooks.set(key, timer);
    return Promise.resolve();
  }

  start(consumer: JobConsumer): Promise<void> {
    this.consumer = consumer;
    return Promise.resolve();
  }

  close(): Promise<void> {
    for (const timer of this.hooks.values()) clearTimeout(timer);
    this.hooks.clear();
    this.consumer = undefined;
    return Promise.resolve();
  }
}
