import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectRedis } from '../../src/redis.js';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import type { StoredPath } from '../../src/storage/paths.js';
import { RedisLocks } from '../../src/storage/redis-lock.js';
import { redisServerForSuite } from '../helpers/redis-server.js';
import { storeContract } from '../helpers/store-contract.js';

/** Files below `dir` (recursively) that `counts` names. */
async function countFiles(dir: string, counts: (name: string) => boolean): Promise<number> {
  let n = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile() && counts(entry.name)) n++;
  return n;
}

const redis = redisServerForSuite();

/** The contract with the in-process locks, and with Redis locks (several instances): the same behaviour. */
for (const shared of [false, true]) storeContract(shared ? 'FilesystemStore with Redis locks' : 'FilesystemStore', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-store-contract-'));
  const connection = shared ? await connectRedis({ url: redis.url, prefix: `contract${process.pid}:${path.basename(dataDir)}:`, timeoutMs: 2000 }) : undefined;
  const locks = connection ? new RedisLocks(connection, { namespace: 'fs', leaseMs: 5000, waitMs: 20_000 }) : undefined;
  const open = async () => {
    const store = new FilesystemStore(dataDir, { locks });
    await store.init();
    return store;
  };
  const store = await open();
  await store.recover();
  return {
    store,
    reopen: open,
    // Staged uploads live in staging/; a write's temporary file sits beside its target until the rename.
    leftovers: async () =>
      (await countFiles(path.join(dataDir, 'staging'), () => true)) + (await countFiles(path.join(dataDir, 'documents'), (name) => name.startsWith('.pdfservice-tmp-'))),
    // A crash between writing the temporary file and renaming it into place.
    interruptWrite: async (folder: StoredPath) => {
      const dir = path.join(dataDir, 'documents', ...folder.segments);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, '.pdfservice-tmp-0123456789abcdef'), '%PDF-1.7 half written');
    },
    // Each file once (a blob is a hard link to a document that was current), its apparent size.
    versionBytes: async (p: StoredPath) => {
      const seen = new Set<number>();
      let bytes = 0;
      for (const entry of await readdir(path.join(dataDir, 'versions', ...p.segments), { withFileTypes: true })) {
        const st = await stat(path.join(entry.parentPath, entry.name));
        if (!st.isFile() || seen.has(st.ino)) continue;
        seen.add(st.ino);
        bytes += st.size;
      }
      return bytes;
    },
    close: async () => {
      await connection?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});
