/**
 * SharedStats (filesystem-store.ts), the freshness stat of a cached read: requests asking at the same time share a
 * stat, yet each gets one started after it asked, so a change made before a request sees it (another instance's write
 * on a shared data folder), however many stats of the file are under way.
 */
import assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SharedStats } from '../../src/storage/filesystem-store.js';

test('a stat asked for after a change sees it, even while an earlier stat is under way', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'shared-stats-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, 'a');
    const stats = new SharedStats();
    for (let round = 2; round < 50; round++) {
      const before = stats.stat(file);
      // Replaced as the store replaces a document (another instance's write) while `before` is under way (synchronous
      // calls: it cannot have ended), which may have looked before or after: a stat asked for now must see the new file.
      writeFileSync(`${file}.tmp`, 'a'.repeat(round));
      renameSync(`${file}.tmp`, file);
      const after = stats.stat(file);
      assert.ok([round - 1, round].includes((await before).size));
      assert.equal((await after).size, round, `round ${round}: a stat asked for after the write saw ${(await after).size} bytes`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('stats asked for at the same time are shared: one under way, one after it for all who came meanwhile', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'shared-stats-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, 'abc');
    const stats = new SharedStats();
    const asked = Array.from({ length: 10 }, () => stats.stat(file));
    const answers = await Promise.all(asked);
    assert.equal(new Set(answers).size, 2, 'the first stat, and one shared by the nine that came while it ran');
    assert.ok(answers.slice(1).every((st) => st === answers[1]));
    const fresh = await stat(file);
    for (const st of answers) assert.deepEqual([st.ino, st.size, st.mtimeMs], [fresh.ino, fresh.size, fresh.mtimeMs]);
    // Nothing under way any more: the next stat is a new one.
    assert.notEqual(await stats.stat(file), answers[1]);
    await assert.rejects(stats.stat(path.join(dir, 'missing.pdf')), (err: NodeJS.ErrnoException) => err.code === 'ENOENT');
    const missing = await Promise.allSettled([stats.stat(path.join(dir, 'gone.pdf')), stats.stat(path.join(dir, 'gone.pdf'))]);
    assert.ok(missing.every((r) => r.status === 'rejected' && (r.reason as NodeJS.ErrnoException).code === 'ENOENT'), 'a failed stat fails every asker');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
