import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EnginePool, type EnginePoolOptions } from '../../src/engine/pool.js';
import { createOperations, type Operations } from '../../src/operations/index.js';
import { MemoryStore } from '../../src/storage/memory-store.js';
import type { StoredPath } from '../../src/storage/paths.js';
import { sharedStores, type DocumentStores } from '../../src/storage/store.js';
import { ToolSupervisor } from '../../src/tools/supervisor.js';
import { TEST_TASKS } from './test-tasks.js';

/**
 * The operations layer over the in-memory store with a real engine pool of two
 * workers (no HTTP), for tests of the seams below the routes: the action
 * lifecycle, the job core. `documents` are written before it is returned.
 */
export interface OperationsUnderTest {
  ops: Operations;
  pool: EnginePool;
  store: MemoryStore;
  scratch: string;
  bytesOf(path: StoredPath): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * `poolOptions` overrides the engine pool's options (its queue and owner limits, for tests of those); `stores`
 * makes the provider the operations get from the memory store (by default every user gets the store itself).
 */
export async function operationsUnderTest(
  documents: [StoredPath, Uint8Array][],
  poolOptions: Partial<EnginePoolOptions> = {},
  stores: (store: MemoryStore) => DocumentStores = sharedStores,
): Promise<OperationsUnderTest> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'pdfservice-ops-'));
  const pool = new EnginePool({ ...TEST_TASKS, size: 2, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 50, ...poolOptions });
  await pool.ready();
  const store = new MemoryStore();
  const ops = createOperations({ stores: stores(store), pool, tools: new ToolSupervisor([], scratch) });
  for (const [p, bytes] of documents) {
    if (!p.parent.isRoot) await store.makeFolder(p.parent);
    await store.writeDocument(p, bytes, { conflict: 'overwrite' });
  }
  return {
    ops,
    pool,
    store,
    scratch,
    // From the store itself, as no user: what is stored, whoever may see it.
    bytesOf: async (p) => {
      const content = await store.openDocument(p);
      try {
        return await content.read();
      } finally {
        await content.close();
      }
    },
    close: async () => {
      await pool.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
