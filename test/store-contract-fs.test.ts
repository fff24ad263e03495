import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FilesystemStore } from '../src/storage/filesystem-store.js';
import type { StoredPath } from '../src/storage/paths.js';
import { storeContract } from './helpers/store-contract.js';

/** Files below `dir` (recursively) that `counts` names. */
async function countFiles(dir: string, counts: (name: string) => boolean): Promise<number> {
  let n = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile() && counts(entry.name)) n++;
  return n;
}

storeContract('FilesystemStore', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-store-contract-'));
  const open = async () => {
    const store = new FilesystemStore(dataDir);
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
    close: () => rm(dataDir, { recursive: true, force: true }),
  };
});
