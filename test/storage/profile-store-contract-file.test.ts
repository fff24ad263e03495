import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { FileProfileStore } from '../../src/operations/optimize/file-store.js';
import { call } from '../helpers/http.js';
import { fullSettings, profileStoreContract } from '../helpers/profile-store-contract.js';
import { startServer } from '../helpers/server.js';

/** `actual` has every member of `expected` with the same value, at every depth. */
function assertIncludes(actual: unknown, expected: unknown, at = 'profile'): void {
  if (expected === null || typeof expected !== 'object') return assert.equal(actual, expected, at);
  assert.ok(actual !== null && typeof actual === 'object', `${at} is an object`);
  for (const [key, value] of Object.entries(expected)) assertIncludes((actual as Record<string, unknown>)[key], value, `${at}.${key}`);
}

profileStoreContract('FileProfileStore', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-profile-store-'));
  return {
    store: await FileProfileStore.open(dataDir),
    reopen: () => FileProfileStore.open(dataDir),
    close: () => rm(dataDir, { recursive: true, force: true }),
  };
});

/** What is particular to the file store: its one file, a failed write, what a crash leaves, and the service's restart. */
describe('FileProfileStore files', () => {
  const withDataDir = (title: string, body: (dataDir: string) => Promise<void>) =>
    test(title, async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-profile-store-'));
      try {
        await body(dataDir);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  const fileOf = (dataDir: string) => path.join(dataDir, 'state', 'optimize-profiles.json');

  withDataDir('every profile in state/optimize-profiles.json, private to the service, no temporary file left', async (dataDir) => {
    const store = await FileProfileStore.open(dataDir);
    assert.deepEqual(await readdir(dataDir), [], 'opening writes nothing');
    const { record } = await store.put('web', fullSettings());
    await store.put('archive', fullSettings({ discardAnnotations: false }));
    await store.delete('archive');
    assert.deepEqual(await readdir(path.join(dataDir, 'state')), ['optimize-profiles.json']);
    assert.deepEqual(JSON.parse(await readFile(fileOf(dataDir), 'utf8')), { version: 1, profiles: [record] });
    assert.equal((await stat(fileOf(dataDir))).mode & 0o777, 0o600);
    assert.equal((await stat(path.join(dataDir, 'state'))).mode & 0o077, 0, 'the folder is not open to others');
  });

  withDataDir('a write that fails leaves memory as the file is: the change is refused, not half made', async (dataDir) => {
    const store = await FileProfileStore.open(dataDir);
    const kept = (await store.put('kept', fullSettings())).record;
    // A folder (not empty) where the file goes: the rename over it fails, whatever the process's rights.
    await rm(fileOf(dataDir));
    await mkdir(path.join(fileOf(dataDir), 'blocker'), { recursive: true });
    await assert.rejects(store.put('new', fullSettings()));
    await assert.rejects(store.put('kept', fullSettings({ discardAnnotations: false })));
    await assert.rejects(store.delete('kept'));
    assert.equal(await store.get('new'), null, 'a create that did not reach the disk is not there');
    assert.deepEqual(await store.get('kept'), kept, 'a replace or delete that did not reach the disk changed nothing');
    assert.deepEqual(await store.list(), [kept]);
    assert.ok(!(await readdir(path.join(dataDir, 'state'))).some((name) => name.endsWith('.tmp')), 'no temporary file left');
    // Once the disk takes writes again, the store goes on from what it holds.
    await rm(fileOf(dataDir), { recursive: true });
    await store.put('new', fullSettings());
    assert.deepEqual((await (await FileProfileStore.open(dataDir)).list()).map((r) => r.name), ['kept', 'new']);
  });

  withDataDir('a temporary file an interrupted write left is ignored; a file the store cannot read stops the start', async (dataDir) => {
    const store = await FileProfileStore.open(dataDir);
    const kept = (await store.put('kept', fullSettings())).record;
    await writeFile(path.join(dataDir, 'state', '.optimize-profiles.json.0123456789ab.tmp'), '{"version":1,"profiles":[{"name":"half');
    assert.deepEqual(await (await FileProfileStore.open(dataDir)).list(), [kept]);
    // Another version or shape is not guessed at: the service would otherwise start over profiles it misread.
    await writeFile(fileOf(dataDir), JSON.stringify({ version: 2, profiles: [] }));
    await assert.rejects(FileProfileStore.open(dataDir), /not a version 1 optimize profiles file/);
  });

  test('the service restarted over the same data folder serves what the store wrote, and the store reads what the service wrote', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-test-'));
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const store = await FileProfileStore.open(dataDir);
      const written = (await store.put('from-the-store', fullSettings())).record;
      server = await startServer({ dataDir });
      const served = await call(server, 'GET', '/optimize-profiles/from-the-store');
      assert.equal(served.status, 200, served.text);
      // Every option the store wrote is served as written (the service may add options of its own with their defaults).
      assertIncludes(served.json(), { name: written.name, builtIn: false, ...written.settings, createdAt: written.createdAt, updatedAt: written.updatedAt });
      const put = await call(server, 'PUT', '/optimize-profiles/from-the-service', { body: { colorImageHandler: { dpi: 96 } } });
      assert.equal(put.status, 201, put.text);
      assert.equal((await call(server, 'PUT', '/optimize-profiles/from-the-store', { body: { discardAnnotations: true } })).status, 200);
      await server.stop();
      const after = await FileProfileStore.open(dataDir);
      assert.deepEqual((await after.list()).map((r) => r.name), ['from-the-service', 'from-the-store']);
      assert.equal((await after.get('from-the-service'))?.settings.colorImageHandler?.dpi, 96);
      const replaced = (await after.get('from-the-store'))!;
      assert.equal(replaced.createdAt, written.createdAt, 'replaced through the service, it kept its creation time');
      assert.equal(replaced.settings.colorImageHandler, undefined, 'replaced whole: the old image handler is gone');
      // A second start serves the same list the file holds.
      server = await startServer({ dataDir });
      const list = await call(server, 'GET', '/optimize-profiles');
      assert.deepEqual((list.json().profiles as { name: string; builtIn: boolean }[]).filter((p) => !p.builtIn).map((p) => p.name), ['from-the-service', 'from-the-store']);
    } finally {
      await server?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
