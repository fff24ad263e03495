import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

/** Returns a maker of empty temporary folders that are removed after the calling test file (or describe block). */
export function tempFolders(prefix: string): () => Promise<string> {
  const folders: string[] = [];
  after(async () => {
    await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
  });
  return async () => {
    const folder = await mkdtemp(path.join(tmpdir(), `pdfservice-${prefix}-`));
    folders.push(folder);
    return folder;
  };
}
