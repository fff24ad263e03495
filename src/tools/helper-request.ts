import { type ErrorCode, ServiceError } from '../errors.js';
import type { ToolRun } from './supervisor.js';

/**
 * One request to a pooled tool's helper that speaks JSON lines (LibreOffice's, Chromium's): the request sent as one
 * line, the answer line parsed. A helper that ended meanwhile (the supervisor's PROCESSING_FAILED) is `code` with
 * `ended` and the reason; an answer that is no JSON retires the helper and is `code` with `garbled`.
 */
export async function askHelper<T>(run: Pick<ToolRun, 'request' | 'retire'>, request: unknown, failure: { code: ErrorCode; ended: string; garbled: string }): Promise<T> {
  let line: string;
  try {
    line = await run.request(JSON.stringify(request));
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'PROCESSING_FAILED') throw new ServiceError(failure.code, `${failure.ended} (${err.detail ?? err.message})`);
    throw err;
  }
  try {
    return JSON.parse(line) as T;
  } catch {
    run.retire();
    throw new ServiceError(failure.code, failure.garbled);
  }
}
