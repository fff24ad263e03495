import { etagOf, type OpenContent, type StagedUpload } from '../../storage/store.js';
import type { ConversionOutput } from '../conversions/types.js';
import type { JobResultFile } from './model.js';

/**
 * Where the files jobs produce are kept when they are not stored documents (a DOCX or Markdown export, issue 36):
 * one per job, under the job's id, as long as the job's record; whoever deletes the record deletes the file
 * (JobOperations.sweep, once a job can produce one). The seam only: an in-memory implementation below for tests; the
 * embedded one (files beside the job records) and a shared one across instances come with the first converter that
 * produces something other than a PDF (docs/architecture.md, "Conversions").
 */
export interface JobResultFiles {
  /** Keeps `content` as the job's result (replacing one kept before) and answers what its record says of it. */
  put(jobId: string, content: Uint8Array | StagedUpload, meta: { name: string; mediaType: string }): Promise<JobResultFile>;
  /** The job's result file held open, or null when there is none (never made, or deleted). */
  open(jobId: string): Promise<OpenContent | null>;
  delete(jobId: string): Promise<void>;
}

/** A conversion's output kept as a job's result file, named `name` (the source's name with the output's extension). */
export function keepConversionOutput(files: JobResultFiles, jobId: string, output: ConversionOutput, name: string): Promise<JobResultFile> {
  return files.put(jobId, output.content, { name, mediaType: output.mediaType });
}

/** JobResultFiles in memory (tests; a single process that keeps nothing across restarts). */
export class MemoryResultFiles implements JobResultFiles {
  private readonly files = new Map<string, Buffer>();

  async put(jobId: string, content: Uint8Array | StagedUpload, meta: { name: string; mediaType: string }): Promise<JobResultFile> {
    const bytes = content instanceof Uint8Array ? Buffer.from(content) : await content.read();
    this.files.set(jobId, bytes);
    return { name: meta.name, mediaType: meta.mediaType, size: bytes.length, etag: etagOf(bytes) };
  }

  open(jobId: string): Promise<OpenContent | null> {
    const bytes = this.files.get(jobId);
    if (!bytes) return Promise.resolve(null);
    return Promise.resolve({ size: bytes.length, fd: undefined, read: () => Promise.resolve(Buffer.from(bytes)), close: () => Promise.resolve() });
  }

  delete(jobId: string): Promise<void> {
    this.files.delete(jobId);
    return Promise.resolve();
  }
}
