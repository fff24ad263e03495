import path from 'node:path';
import { DirectoryBlobs, MemoryBlobs, type BlobStore, type OpenBlob } from '../../storage/blobs.js';
import type { StagedUpload } from '../../storage/store.js';
import type { ConversionOutput } from '../conversions/types.js';
import type { JobResultFile } from './model.js';

/**
 * Where the files jobs produce are kept when they are not stored documents (a DOCX or Markdown export, issue 36):
 * one per job, under the job's id, as long as the job's record; whoever deletes the record deletes the file
 * (JobOperations.sweep), and a job that does not end succeeded keeps none (JobOperations.run). Embedded: files
 * beside the job records (`<dataDir>/state/job-results/`); across instances: in the S3 bucket under a reserved
 * prefix, so that the worker that made one and the instance a client asks read the same file (start/jobs.ts,
 * docs/architecture.md "Decisions").
 */
export interface JobResultFiles {
  /** Keeps `content` as the job's result (replacing one kept before) and answers what its record says of it. */
  put(jobId: string, content: Uint8Array | StagedUpload, meta: { name: string; mediaType: string }): Promise<JobResultFile>;
  /** The job's result file held open (read, or streamed for a download), or null when there is none (never made, or deleted). */
  open(jobId: string): Promise<OpenResultFile | null>;
  delete(jobId: string): Promise<void>;
}

/** A result file held open: its content, and a download stream of it (a byte range, or all); the stream's end or close() closes it. */
export type OpenResultFile = OpenBlob;

/** A conversion's output kept as a job's result file, named `name` (the source's name with the output's extension). */
export function keepConversionOutput(files: JobResultFiles, jobId: string, output: ConversionOutput, name: string): Promise<JobResultFile> {
  return files.put(jobId, output.content, { name, mediaType: output.mediaType });
}

/** JobResultFiles in a BlobStore, one blob per job id; the record keeps the name and media type. */
export class BlobResultFiles implements JobResultFiles {
  constructor(private readonly blobs: BlobStore) {}

  async put(jobId: string, content: Uint8Array | StagedUpload, meta: { name: string; mediaType: string }): Promise<JobResultFile> {
    const { size, etag } = await this.blobs.put(jobId, content);
    return { name: meta.name, mediaType: meta.mediaType, size, etag };
  }

  open(jobId: string): Promise<OpenResultFile | null> {
    return this.blobs.open(jobId);
  }

  delete(jobId: string): Promise<void> {
    return this.blobs.delete(jobId);
  }
}

/** The embedded result files' folder: beside the job records (`<dataDir>/state/jobs/`, FileJobStore). */
export function resultFilesDir(dataDir: string): string {
  return path.join(dataDir, 'state', 'job-results');
}

/** The embedded JobResultFiles: one file per job in resultFilesDir, written atomically (DirectoryBlobs); a crash's temporary files removed. */
export async function directoryResultFiles(dataDir: string): Promise<JobResultFiles> {
  const blobs = new DirectoryBlobs(resultFilesDir(dataDir));
  await blobs.removeStale();
  return new BlobResultFiles(blobs);
}

/** JobResultFiles in memory (tests; a single process that keeps nothing across restarts): BlobResultFiles over MemoryBlobs. */
export class MemoryResultFiles extends BlobResultFiles {
  constructor() {
    super(new MemoryBlobs());
  }
}
