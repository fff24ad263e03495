import fs from 'node:fs/promises';
import path from 'node:path';
import { errno, stateFolder, syncFolder, writeStateFile } from '../../state-file.js';
import { KeyedLock } from '../../storage/keyed-lock.js';
import type { JobRecord, JobState } from './model.js';
import { compareJobs, isJobId, matchesJobFilter, type JobFilter, type JobStore } from './store.js';

/** A job's file: its id and `.json`. Temporary files of writeStateFile start with a dot, so they never match. */
const JOB_FILE = /^([0-9a-f]{32})\.json$/;
/** Files read at once by list(): enough to overlap the reads, few enough not to run out of descriptors. */
const READ_CONCURRENCY = 16;
/** Jobs whose last written state replaceIf remembers; past it the oldest is forgotten (its file is read again). */
const KNOWN_STATES = 10_000;

export interface FileJobStoreOptions {
  /** Told of a job file that cannot be read or parsed (a damaged file); the store skips it and goes on. */
  onSkip?: (file: string, err: unknown) => void;
}

/**
 * The embedded job store: one JSON file per job, `<dataDir>/state/jobs/<id>.json`,
 * each written atomically (writeStateFile: temporary file, fsync, rename,
 * fsync of the folder), so a crash leaves a job's old record or its new one.
 * The files are the only truth: there is no index to get out of step with
 * them, and a restarted service reads every job back from the folder.
 */
export class FileJobStore implements JobStore {
  readonly dir: string;
  private readonly onSkip: (file: string, err: unknown) => void;
  private readonly ready: () => Promise<void>;
  /** One writer (put, replaceIf, delete) per job file at a time in this process (the only one writing the folder), so replaceIf is atomic. */
  private readonly writes = new KeyedLock();
  /**
   * The state of the record this process last wrote for a job, under its write lock: replaceIf compares against it
   * instead of reading the file again (one read per change of state), and reads the file only for a job it does not know
   * (written before a restart, or forgotten). Sound because this process is the only writer of the folder; a write that
   * failed forgets the job, as the file may hold either record.
   */
  private readonly known = new Map<string, JobState>();

  constructor(dataDir: string, options: FileJobStoreOptions = {}) {
    this.dir = path.join(dataDir, 'state', 'jobs');
    this.ready = stateFolder(this.dir);
    this.onSkip = options.onSkip ?? (() => {});
  }

  async put(record: JobRecord): Promise<void> {
    if (!isJobId(record.id)) throw new Error(`Not a job id: ${JSON.stringify(record.id)}`);
    const release = await this.writes.acquire(record.id);
    try {
      await this.write(record);
    } finally {
      release();
    }
  }

  async replaceIf(record: JobRecord, from: readonly JobState[]): Promise<boolean> {
    if (!isJobId(record.id)) return false;
    const release = await this.writes.acquire(record.id);
    try {
      const state = this.known.get(record.id) ?? (await this.read(record.id))?.state;
      if (state === undefined || !from.includes(state)) return false;
      await this.write(record);
      return true;
    } finally {
      release();
    }
  }

  private async write(record: JobRecord): Promise<void> {
    // mode 0700: records name owners and documents; state files are the service's own.
    await this.ready();
    this.known.delete(record.id);
    await writeStateFile(this.file(record.id), JSON.stringify(record));
    this.known.set(record.id, record.state);
    if (this.known.size > KNOWN_STATES) this.known.delete(this.known.keys().next().value!);
  }

  async get(id: string): Promise<JobRecord | null> {
    if (!isJobId(id)) return null;
    return this.read(id);
  }

  async list(filter?: JobFilter): Promise<JobRecord[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (err) {
      if (errno(err) === 'ENOENT') return [];
      throw err;
    }
    const ids = names.flatMap((name) => JOB_FILE.exec(name)?.[1] ?? []);
    const records: JobRecord[] = [];
    let next = 0;
    const reader = async () => {
      while (next < ids.length) {
        const record = await this.read(ids[next++]!);
        if (record !== null && matchesJobFilter(record, filter)) records.push(record);
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, ids.length) }, reader));
    return records.sort(compareJobs);
  }

  /** Under the job's write lock as well: a replaceIf in progress would otherwise write the deleted record back. */
  async delete(id: string): Promise<void> {
    if (!isJobId(id)) return;
    const release = await this.writes.acquire(id);
    try {
      this.known.delete(id);
      try {
        await fs.unlink(this.file(id));
      } catch (err) {
        if (errno(err) === 'ENOENT') return;
        throw err;
      }
      await syncFolder(this.dir);
    } finally {
      release();
    }
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  /** The record of a valid id, or null when there is none or its file is damaged (reported, not thrown). */
  private async read(id: string): Promise<JobRecord | null> {
    const file = this.file(id);
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      if (errno(err) !== 'ENOENT') this.onSkip(file, err);
      return null;
    }
    try {
      const record = JSON.parse(text) as unknown;
      if (!looksLikeRecord(record, id)) throw new Error('Not a job record of this id');
      return record;
    } catch (err) {
      this.onSkip(file, err);
      return null;
    }
  }
}

/** Enough of a record's shape that listing and filtering it cannot fail; the service wrote the rest. */
function looksLikeRecord(value: unknown, id: string): value is JobRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<JobRecord>;
  return record.id === id && typeof record.state === 'string' && typeof record.created === 'string' && (record.owner === null || typeof record.owner === 'string');
}
