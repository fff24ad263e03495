/**
 * Errors raised inside the engine. They cross the worker boundary as plain
 * `{ code, message }` objects, so only a code from the service's error catalog
 * (src/errors.ts) and a user-safe message may be put in them: never a file path,
 * never document content.
 */
export class EngineError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly extra?: Record<string, unknown>,
    /** `inPath`: the value is part of the URL path (a page in `pages/{pageIndex}`), which changes the status (src/errors.ts errorStatus). */
    readonly origin: { inPath?: boolean } = {},
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export interface SerializedEngineError {
  code: string;
  message: string;
  extra?: Record<string, unknown>;
  inPath?: boolean;
}

export function isSerializedEngineError(value: unknown): value is SerializedEngineError {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string';
}
