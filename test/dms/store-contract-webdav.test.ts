import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import type { StoredPath } from '../../src/storage/paths.js';
import { DavClient } from '../../src/storage/webdav/client.js';
import { WebDavBackend } from '../../src/storage/webdav/store.js';
import { davServerForSuite } from '../helpers/dav-server.js';
import { storeContract } from '../helpers/store-contract.js';

// The contract runs in alice's home on the Apache test server (test/dav/httpd.conf), a collection per test.
const dav = davServerForSuite();
const alice = () => ({ username: 'alice', password: dav.users.alice });

/** Files below `dir` (recursively) that `counts` names. */
async function countFiles(dir: string, counts: (name: string) => boolean): Promise<number> {
  let n = 0;
  try {
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile() && counts(entry.name)) n++;
  } catch {
    return 0;
  }
  return n;
}

let serial = 0;
const clients: DavClient[] = [];
after(async () => {
  for (const c of clients) await c.close();
});

storeContract('WebDavStore (Apache mod_dav)', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-dav-contract-'));
  // Each test gets a collection of its own on the server, as its root.
  const name = `contract-${process.pid}-${++serial}`;
  const setup = new DavClient({ url: dav.collections.home('alice'), timeoutMs: 10_000 });
  clients.push(setup);
  const made = await setup.send('MKCOL', setup.url([name], true), alice());
  await made.body.dump();
  const url = setup.url([name], true);
  const open = async () => {
    const client = new DavClient({ url, timeoutMs: 10_000 });
    clients.push(client);
    const backend = new WebDavBackend(client, dataDir, undefined, true);
    await backend.init();
    return backend.forUser(alice());
  };
  const store = await open();
  await store.recover();
  const onServer = path.join(dav.root, 'home', 'alice', name);
  return {
    store,
    reopen: open,
    leftovers: async () =>
      (await countFiles(path.join(dataDir, 'staging'), () => true)) +
      (await countFiles(path.join(dataDir, 'spool'), () => true)) +
      (await countFiles(onServer, (n) => n.startsWith('.pdfservice-tmp-'))),
    // A crash between the upload to the temporary name and the MOVE into place.
    interruptWrite: async (folder: StoredPath) => {
      await store.makeFolder(folder);
      const res = await setup.send('PUT', setup.url([name, ...folder.segments, '.pdfservice-tmp-1000-0123456789abcdef'], false), alice(), { body: '%PDF-1.7 half written' });
      await res.body.dump();
    },
    close: async () => {
      const res = await setup.send('DELETE', url, alice());
      await res.body.dump();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});
