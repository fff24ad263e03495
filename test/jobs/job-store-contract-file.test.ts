import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { FileJobStore } from '../../src/operations/jobs/file-store.js';
import { errno, writeStateFile } from '../../src/state-file.js';
import { newJobId } from '../../src/operations/jobs/store.js';
import { jobRecord, jobStoreContract, MALFORMED_IDS } from '../helpers/job-store-contract.js';

jobStoreContract('FileJobStore', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-job-store-'));
  return { store: new FileJobStore(dataDir), close: () => rm(dataDir, { recursive: true, force: true }) };
});

/** What is particular to the file store: the layout, a restart, and what a crash leaves in the folder. */
describe('FileJobStore files', () => {
  const withDataDir = (title: string, body: (dataDir: string) => Promise<void>) =>
    test(title, async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-job-store-'));
      try {
        await body(dataDir);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });

  withDataDir('one JSON file per job under state/jobs, no temporary file left, private to the service', async (dataDir) => {
    const store = new FileJobStore(dataDir);
    assert.deepEqual(await store.list(), [], 'no folder yet is no jobs');
    const record = jobRecord();
    await store.put(record);
    const dir = path.join(dataDir, 'state', 'jobs');
    assert.equal(store.dir, dir);
    assert.deepEqual(await readdir(dir), [`${record.id}.json`]);
    assert.deepEqual(JSON.parse(await readFile(path.join(dir, `${record.id}.json`), 'utf8')), record);
    assert.equal((await stat(path.join(dir, `${record.id}.json`))).mode & 0o777, 0o600);
    assert.equal((await stat(dir)).mode & 0o077, 0, 'the folder is not open to others');
  });

  withDataDir('a new store over the same folder (a restart) sees every record', async (dataDir) => {
    const before = new FileJobStore(dataDir);
    const records = Array.from({ length: 40 }, (_, i) => jobRecord({ created: new Date(Date.UTC(2026, 10, 25, 10, i)).toISOString(), owner: i % 2 ? 'alice' : null }));
    for (const record of records) await before.put(record);
    await before.delete(records[7]!.id);
    const after = new FileJobStore(dataDir);
    const expected = records.filter((_, i) => i !== 7).reverse();
    assert.deepEqual(await after.list(), expected);
    for (const record of expected) assert.deepEqual(await after.get(record.id), record);
    assert.equal(await after.get(records[7]!.id), null);
  });

  withDataDir('what a crash leaves (a temporary file, a truncated record) and stray files are skipped, reported, never thrown', async (dataDir) => {
    const skipped: string[] = [];
    const store = new FileJobStore(dataDir, { onSkip: (file) => skipped.push(path.basename(file)) });
    const good = jobRecord();
    await store.put(good);
    const dir = store.dir;
    const truncatedId = newJobId();
    const whole = JSON.stringify(jobRecord({ id: truncatedId }));
    // A write interrupted before its rename: the temporary file writeStateFile names, complete or not.
    await writeFile(path.join(dir, `.${truncatedId}.json.0123456789ab.tmp`), whole);
    await writeFile(path.join(dir, `.${newJobId()}.json.ba9876543210.tmp`), whole.slice(0, 40));
    // A record cut short (a disk that lost the end of it), an empty one, one of another id, stray names.
    await writeFile(path.join(dir, `${truncatedId}.json`), whole.slice(0, whole.length / 2));
    const emptyId = newJobId();
    await writeFile(path.join(dir, `${emptyId}.json`), '');
    const otherId = newJobId();
    await writeFile(path.join(dir, `${otherId}.json`), whole);
    await writeFile(path.join(dir, 'notes.txt'), 'not a job');
    await mkdir(path.join(dir, `${newJobId()}.json`));

    assert.deepEqual(await store.list(), [good]);
    assert.deepEqual(await new FileJobStore(dataDir).list(), [good], 'without a callback as well');
    assert.equal(await store.get(truncatedId), null);
    assert.equal(await store.get(otherId), null, 'a file whose record has another id');
    assert.deepEqual(await store.get(good.id), good);
    assert.ok(skipped.includes(`${truncatedId}.json`) && skipped.includes(`${emptyId}.json`) && skipped.includes(`${otherId}.json`), skipped.join(', '));
    assert.ok(!skipped.some((name) => name.endsWith('.tmp') || name === 'notes.txt'), 'temporary and stray files are not job files');

    // The job's next write replaces the damaged file.
    const rewritten = jobRecord({ id: truncatedId, state: 'interrupted' });
    await store.put(rewritten);
    assert.deepEqual(await store.get(truncatedId), rewritten);
  });

  withDataDir('a malformed id never becomes a path: files beside or above the folder are not read or removed', async (dataDir) => {
    const store = new FileJobStore(dataDir);
    await store.put(jobRecord());
    // Each planted file holds a record of the very id that would name it, were ids paths.
    const outside = new Map([
      [path.join(dataDir, 'state', 'x.json'), '../x'],
      [path.join(dataDir, 'x.json'), '../../x'],
      [path.join(dataDir, 'state', 'jobs', '.json'), ''],
    ]);
    for (const [file, id] of outside) await writeFile(file, JSON.stringify(jobRecord({ id })));
    for (const id of [...MALFORMED_IDS, '../../x', '..', '.']) {
      assert.equal(await store.get(id), null, JSON.stringify(id));
      await store.delete(id);
    }
    for (const [file, id] of outside) assert.equal((JSON.parse(await readFile(file, 'utf8')) as { id: string }).id, id, `${file} is untouched`);
    assert.equal((await store.list()).length, 1);
  });
});

/** writeStateFile's writer thread (state-file.ts): writes that wait together go in one batch, each answered alone. */
describe('writeStateFile', () => {
  test('concurrent writes land whole; a failed one rejects with its code, its batch-mates and later writes succeed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdfservice-state-file-'));
    try {
      const files = Array.from({ length: 20 }, (_, i) => path.join(dir, `f${i}.json`));
      const missing = path.join(dir, 'no-such-folder', 'x.json');
      const results = await Promise.allSettled([...files.map((f, i) => writeStateFile(f, `{"n":${i}}`)), writeStateFile(missing, '{}')]);
      assert.deepEqual(results.slice(0, 20).map((r) => r.status), Array(20).fill('fulfilled'));
      const failed = results[20]!;
      assert.equal(failed.status, 'rejected');
      assert.equal(errno((failed as PromiseRejectedResult).reason), 'ENOENT', 'the error keeps its code');
      for (const [i, f] of files.entries()) assert.deepEqual(JSON.parse(await readFile(f, 'utf8')), { n: i });
      await writeStateFile(files[0]!, '{"n":"again"}');
      assert.deepEqual(JSON.parse(await readFile(files[0]!, 'utf8')), { n: 'again' });
      assert.deepEqual((await readdir(dir)).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left');
      assert.equal((await stat(files[0]!)).mode & 0o777, 0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
