import path from 'node:path';
import type { Right } from '../../auth/types.js';
import { readStateList, serialStateWriter } from '../../state-file.js';

/** A folder bound to a pipeline (docs/watched-folders.md): what a PUT stored. */
export interface WatchBinding {
  /** The user who bound it: runs go as them (their rights checked at bind and at each run). */
  owner: string;
  /**
   * When the binder is a user of the OpenID Connect issuer (no record in the user store to read at each run): that
   * issuer and the rights its mapping gave the binder at bind time, which runs go with (docs/watched-folders.md).
   */
  oidc?: { issuer: string; rights: Right[] };
  name: string;
  /** The watched folder, as a stored path without the leading "/" ("" is the root). */
  folder: string;
  pipeline: { name: string; owner: string; version?: number };
  /** Where outputs go (a folder path as `folder`); null: in place, as a new version of the arrived document. */
  target: string | null;
  created: string;
}

export type WatchRunState = 'queued' | 'retrying' | 'succeeded' | 'failed';

/** One arrival's run: claimed once (the claim is the record's creation), then updated as its job goes. */
export interface WatchRun {
  /** The arrival: the document's path (without "/") and the version's ETag that arrived. */
  document: string;
  etag: string;
  state: WatchRunState;
  /** Jobs run for it, oldest first (one per attempt). */
  jobIds: string[];
  attempts: number;
  /** When it was claimed, when its last attempt ended. */
  started: string;
  ended?: string;
  /** A retry's earliest start (state `retrying`). */
  nextAttempt?: string;
  /** The written output's path and ETag (state `succeeded`); absent when the pipeline changed nothing. */
  output?: string;
  outputEtag?: string;
  /** The last attempt's problem document (as a job's `error`). */
  error?: Record<string, unknown>;
}

/** An arrival's key among a binding's runs: the document's path and version, as JSON (no path can run into another). */
export function arrivalKey(document: string, etag: string): string {
  return JSON.stringify([document, etag]);
}

/** A binding's key: owner and name as JSON, as pipelines' records are keyed. */
export function bindingKey(owner: string, name: string): string {
  return JSON.stringify([owner, name]);
}

/**
 * Where bindings and their runs live: one file under the data folder's state (FileWatchStore) for one instance, or
 * Redis (redis-store.ts) when instances share state. `replaceRun` is the one atomic step that makes a run exactly
 * once: a claim is its creation (expected null), every later change names the record it replaces.
 */
export interface WatchStore {
  get(owner: string, name: string): Promise<WatchBinding | null>;
  list(): Promise<WatchBinding[]>;
  /** Sets (or with null removes, with its runs) the binding; answers false when it was not `expected` any more. */
  replace(owner: string, name: string, expected: WatchBinding | null, next: WatchBinding | null): Promise<boolean>;
  /** The binding's runs, in no order. */
  runs(owner: string, name: string): Promise<WatchRun[]>;
  /** Replaces the run of `next`'s arrival when it is still `expected` (null: when there is none: a claim); false otherwise. */
  replaceRun(owner: string, name: string, expected: WatchRun | null, next: WatchRun): Promise<boolean>;
  /** Drops runs of the binding (finished ones, to bound what is kept). */
  dropRuns(owner: string, name: string, runs: WatchRun[]): Promise<void>;
}

/** Two records are the same when their JSON is: what compare-and-set compares (the stores keep JSON). */
export function sameRecord(a: object | null | undefined, b: object | null | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** In memory only: the default of createOperations, and the base of the file store. */
export class MemoryWatchStore implements WatchStore {
  protected readonly bindings = new Map<string, WatchBinding>();
  protected readonly runsOf = new Map<string, Map<string, WatchRun>>();

  async get(owner: string, name: string): Promise<WatchBinding | null> {
    const found = this.bindings.get(bindingKey(owner, name));
    return found ? structuredClone(found) : null;
  }

  async list(): Promise<WatchBinding[]> {
    return [...this.bindings.values()].map((b) => structuredClone(b));
  }

  async replace(owner: string, name: string, expected: WatchBinding | null, next: WatchBinding | null): Promise<boolean> {
    const key = bindingKey(owner, name);
    if (!sameRecord(this.bindings.get(key), expected)) return false;
    if (next) this.bindings.set(key, structuredClone(next));
    else {
      this.bindings.delete(key);
      this.runsOf.delete(key);
    }
    await this.persist();
    return true;
  }

  async runs(owner: string, name: string): Promise<WatchRun[]> {
    return [...(this.runsOf.get(bindingKey(owner, name))?.values() ?? [])].map((r) => structuredClone(r));
  }

  async replaceRun(owner: string, name: string, expected: WatchRun | null, next: WatchRun): Promise<boolean> {
    const key = bindingKey(owner, name);
    if (!this.bindings.has(key)) return false;
    const runs = this.runsOf.get(key) ?? new Map<string, WatchRun>();
    const arrival = arrivalKey(next.document, next.etag);
    // Compared and set before any await: claims at once apply one after the other.
    if (!sameRecord(runs.get(arrival), expected)) return false;
    runs.set(arrival, structuredClone(next));
    this.runsOf.set(key, runs);
    await this.persist();
    return true;
  }

  async dropRuns(owner: string, name: string, drop: WatchRun[]): Promise<void> {
    const runs = this.runsOf.get(bindingKey(owner, name));
    if (!runs) return;
    for (const run of drop) runs.delete(arrivalKey(run.document, run.etag));
    await this.persist();
  }

  protected async persist(): Promise<void> {}
}

interface FileContent {
  binding: WatchBinding;
  runs: WatchRun[];
}

/**
 * The embedded store: bindings and their runs in `<dataDir>/state/watched-folders.json` (mode 0600), kept in memory
 * and replaced atomically on every change, one write at a time (serialStateWriter), as pipelines are. A change
 * resolves once it is on disk, so a claim made before a crash is found after it.
 */
export class FileWatchStore extends MemoryWatchStore {
  private readonly write: (text: () => string) => Promise<void>;

  private constructor(private readonly file: string) {
    super();
    this.write = serialStateWriter(file);
  }

  static async open(dataDir: string): Promise<FileWatchStore> {
    const store = new FileWatchStore(path.join(dataDir, 'state', 'watched-folders.json'));
    for (const { binding, runs } of (await readStateList<FileContent>(store.file, 'bindings', 'watched folders')) ?? []) {
      const key = bindingKey(binding.owner, binding.name);
      store.bindings.set(key, binding);
      store.runsOf.set(key, new Map(runs.map((r) => [arrivalKey(r.document, r.etag), r])));
    }
    return store;
  }

  protected override persist(): Promise<void> {
    return this.write(() => JSON.stringify({
      version: 1,
      bindings: [...this.bindings.entries()].map(([key, binding]) => ({ binding, runs: [...(this.runsOf.get(key)?.values() ?? [])] })),
    }));
  }
}
