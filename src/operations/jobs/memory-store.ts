import type { JobRecord, JobState } from './model.js';
import { compareJobs, isJobId, matchesJobFilter, type JobFilter, type JobStore } from './store.js';

/**
 * A JobStore in memory: for tests, and the smallest implementation the
 * contract (test/helpers/job-store-contract.ts) runs against. Records are
 * copied in and out, as a store with storage would, so a caller that changes
 * a record it holds does not change the stored one.
 */
export class MemoryJobStore implements JobStore {
  private readonly records = new Map<string, JobRecord>();

  put(record: JobRecord): Promise<void> {
    if (!isJobId(record.id)) return Promise.reject(new Error(`Not a job id: ${JSON.stringify(record.id)}`));
    this.records.set(record.id, structuredClone(record));
    return Promise.resolve();
  }

  get(id: string): Promise<JobRecord | null> {
    const record = isJobId(id) ? this.records.get(id) : undefined;
    return Promise.resolve(record === undefined ? null : structuredClone(record));
  }

  list(filter?: JobFilter): Promise<JobRecord[]> {
    const found = [...this.records.values()].filter((record) => matchesJobFilter(record, filter));
    return Promise.resolve(found.sort(compareJobs).map((record) => structuredClone(record)));
  }

  delete(id: string): Promise<void> {
    if (isJobId(id)) this.records.delete(id);
    return Promise.resolve();
  }

  replaceIf(record: JobRecord, from: readonly JobState[]): Promise<boolean> {
    const stored = isJobId(record.id) ? this.records.get(record.id) : undefined;
    if (stored === undefined || !from.includes(stored.state)) return Promise.resolve(false);
    this.records.set(record.id, structuredClone(record));
    return Promise.resolve(true);
  }
}
