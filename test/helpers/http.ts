import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { TestServer } from './server.js';

export interface Reply {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  json: <T = any>() => T;
}

export interface CallOptions {
  body?: BodyInit | Buffer | object;
  headers?: Record<string, string>;
  /** Admin Basic credentials by default; false sends none; a string is an Authorization value. */
  auth?: string | false;
}

/** One HTTP request to the test server; a path starting with "/" is relative to /pdfservice/v1. */
export async function call(server: Pick<TestServer, 'api' | 'adminAuth'>, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.auth !== false) headers['authorization'] ??= options.auth ?? server.adminAuth;
  let body = options.body as BodyInit | undefined;
  if (options.body !== undefined && !(options.body instanceof Uint8Array) && !(options.body instanceof FormData) && typeof options.body === 'object' && !(options.body instanceof Blob)) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const url = path.startsWith('http') ? path : `${server.api}${path}`;
  const response = await fetch(url, { method, headers, body: body as BodyInit | undefined, redirect: 'manual' });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    text,
    json: () => JSON.parse(text),
  };
}

export function sha256(bytes: Buffer | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Asserts nothing in a response reveals internals: no stack frames, no server file paths. */
export function leaksInternals(text: string, dataDir: string): boolean {
  return /\bat .+\.(js|ts):\d+/.test(text) || text.includes(dataDir) || /\/(work|root|tmp|home)\//.test(text) || text.includes('node_modules');
}

/** PUT a PDF at a document path (relative to /documents). */
export function putPdf(server: Pick<TestServer, 'api' | 'adminAuth'>, documentPath: string, body: Buffer): Promise<Reply> {
  return call(server, 'PUT', `/documents/${documentPath}`, { body, headers: { 'content-type': 'application/pdf' } });
}

/** The stored file of a document, read from the disk that holds it (not through the service): server.documentsDir. */
export function storedBytes(server: TestServer, documentPath: string): Promise<Buffer> {
  return readFile(path.join(server.documentsDir, ...documentPath.split('/')));
}

/** Runs a request that must fail with `status` and `code`, and leave the stored document byte for byte as it was. */
export async function expectUnchanged(server: TestServer, documentPath: string, request: () => Promise<Reply>, status: number, code: string): Promise<Reply> {
  const before = sha256(await storedBytes(server, documentPath));
  const reply = await request();
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.json().code, code, reply.text);
  assert.equal(sha256(await storedBytes(server, documentPath)), before, 'the stored document is byte-for-byte unchanged');
  return reply;
}

/** Waits until `done` holds for the service's engine state (GET /health), polling. */
export async function engineState(server: TestServer, done: (engine: { busy: number; queued: number; cancelled: number }) => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const engine = (await call(server, 'GET', '/health', { auth: false })).json().engine;
    if (done(engine)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the engine never reached the expected state');
}

/**
 * Polls GET /jobs/{id} (as `auth`, the admin by default) until the job has ended, and answers it. `seconds` (60 by
 * default) is how long the job may go without advancing (its state, queue position or pages done), not how long it may
 * take: the engine's workers run niced below every other process (PDFSERVICE_ENGINE_NICE), so on a machine loaded by
 * other builds a redaction of 2,500 pages ran 50 to 60 s instead of 2 (load 15), and a fixed 60 s ended a job still at work.
 */
export async function jobEnded(server: TestServer, id: string, options: { auth?: string; seconds?: number } = {}): Promise<Record<string, any>> {
  const limitMs = (options.seconds ?? 60) * 1000;
  let deadline = Date.now() + limitMs;
  let seen = '';
  let job: Record<string, any> = {};
  while (Date.now() < deadline) {
    job = (await call(server, 'GET', `/jobs/${id}`, options.auth ? { auth: options.auth } : {})).json();
    if (!['queued', 'running'].includes(job.state)) return job;
    const now = JSON.stringify([job.state, job.position, job.progress?.done]);
    if (now !== seen) {
      seen = now;
      deadline = Date.now() + limitMs;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} did not end: no advance in ${limitMs / 1000} s: ${JSON.stringify(job)}`);
}
