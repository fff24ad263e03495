/**
 * Actions for tests only, given to a service started in this process (start()'s StartOptions.extraActions, as the
 * engine pool's extraTasks): the production registry (src/operations/actions/index.ts) holds none of them.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { ServiceError } from '../../src/errors.js';
import { start } from '../../src/main.js';
import { etagOf } from '../../src/storage/store.js';
import type { ActionDefinition, OutputParams } from '../../src/operations/actions/types.js';
import type { AnyAction } from '../../src/operations/actions/runner.js';
import { ADMIN, basicAuth, type TestServer } from './server.js';

type ExportParams = OutputParams & { fail?: boolean; bytes?: number };

/**
 * Exports a document as a Markdown file that is not stored, as PDF → Markdown or DOCX export will: a short text
 * naming the source's size and ETag (as bytes), or with `bytes` a text of that size staged on disk (DocumentOperations.stage),
 * never held whole; `fail` fails it after the work, as a conversion refusing its input would. Long by nature: a job.
 */
export const TestExportAction: ActionDefinition<ExportParams, undefined> = {
  name: 'TestExportAction',
  target: 'document',
  summary: 'Test only: the document exported as Markdown (a result file)',
  long: true,
  need: null,
  schema: {
    type: 'object',
    properties: { fail: { type: 'boolean' }, bytes: { type: 'integer', minimum: 1 } },
    additionalProperties: false,
  },
  async execute({ params, source, documents, ctx }) {
    if (params.fail) throw new ServiceError('MALFORMED_PDF', 'The test export refused its input');
    const name = 'export résumé.md'; // not ASCII: Content-Disposition's filename* carries it
    if (params.bytes === undefined) {
      // An action reads its source's content, not its stat: the tag is the content's (what the store derives, etagOf).
      const bytes = await source.bytes();
      return { kind: 'file', content: Buffer.from(exportText(bytes.length, etagOf(bytes))), name, mediaType: 'text/markdown' };
    }
    const staged = await documents.stage(Readable.from(bigExport(params.bytes)), params.bytes, ctx);
    return { kind: 'file', content: staged, name, mediaType: 'text/markdown' };
  },
};

export const TEST_ACTIONS: readonly AnyAction[] = [TestExportAction as unknown as AnyAction];

/** What TestExportAction answers for a source of `size` bytes and tag `etag`. */
export function exportText(size: number, etag: string): string {
  return `# Export\n\n${size} bytes, ETag ${etag}\n`;
}

/** The staged export of `bytes` bytes, in 64 KiB chunks: line numbers, so that any misplaced range shows. */
export function* bigExport(bytes: number): Generator<Buffer> {
  const line = (i: number) => `line ${String(i).padStart(10, '0')}\n`;
  let left = bytes;
  let i = 0;
  while (left > 0) {
    let chunk = '';
    while (chunk.length < 65536 && chunk.length < left) chunk += line(i++);
    const out = Buffer.from(chunk.slice(0, Math.min(chunk.length, left)));
    left -= out.length;
    yield out;
  }
}

export interface InProcessServer extends Pick<TestServer, 'api' | 'adminAuth' | 'dataDir'> {
  stop(): Promise<void>;
}

/**
 * The real service (start(), as main.ts runs it) in this process, with TEST_ACTIONS, on a loopback port: `mode`
 * 'worker' runs jobs only (no HTTP; api is ''). Settings from `env` over the test defaults.
 */
export async function startWithTestActions(env: Record<string, string> = {}, options: { dataDir?: string; mode?: 'service' | 'worker' } = {}): Promise<InProcessServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'pdfservice-test-actions-')));
  const config = loadConfig({
    PDFSERVICE_HOST: '127.0.0.1',
    PDFSERVICE_PORT: '0',
    PDFSERVICE_DATA_DIR: dataDir,
    PDFSERVICE_ADMIN_USER: ADMIN.username,
    PDFSERVICE_ADMIN_PASSWORD: ADMIN.password,
    PDFSERVICE_LOG_LEVEL: 'warn',
    PDFSERVICE_WORKERS: '1',
    PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0',
    ...env,
  });
  const service = await start(config, options.mode ?? 'service', { extraActions: TEST_ACTIONS });
  return { api: service.url ? `${service.url}/pdfservice/v1` : '', adminAuth: basicAuth(ADMIN.username, ADMIN.password), dataDir, stop: service.stop };
}
