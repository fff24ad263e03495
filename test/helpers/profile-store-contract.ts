/**
 * The OptimizeProfileStore contract: one suite that every optimize profile store passes (the file store, the
 * in-memory one, a Redis store later). The store's own rules are its interface's (src/operations/optimize/store.ts);
 * the resource's rules that sit above any store (built-in profiles read-only, names validated, the profile limit's
 * check) are checked through OptimizeProfileOperations over the store under test, since they must hold whatever the
 * store. A store that keeps its profiles (`reopen`) must give them back whole to a new instance, as after a restart.
 */
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { BUILT_IN_PROFILES, type OptimizeSettings } from '../../src/engine/models.js';
import { ServiceError, type ErrorCode } from '../../src/errors.js';
import { OptimizeProfileOperations } from '../../src/operations/optimize/profiles.js';
import type { OptimizeProfileStore, ProfileRecord } from '../../src/operations/optimize/store.js';
import { freshEach } from './fresh.js';

export interface ProfileStoreUnderTest {
  store: OptimizeProfileStore;
  /** A new store over the same stored data, as after a restart; absent for a store that keeps nothing. */
  reopen?(): Promise<OptimizeProfileStore>;
  close(): Promise<void>;
}

/** A profile with every option set, so a round trip that drops or changes a field shows. */
export function fullSettings(overrides: Partial<OptimizeSettings> = {}): OptimizeSettings {
  return {
    discardAnnotations: true,
    discardUnusedResources: false,
    mergeDuplicateFonts: true,
    mergeDuplicateImages: false,
    compressObjectsIntoStreams: true,
    colorImageHandler: { colorSpace: 1, compression: 1, dpi: 150, jpegQuality: 0.85, downsampling: 1 },
    grayImageHandler: { colorSpace: 2, compression: 2, dpi: 200, jpegQuality: 0.5, downsampling: 0 },
    bwImageHandler: { colorSpace: 0, compression: 0, dpi: 300, downsampling: 2 },
    ...overrides,
  } as OptimizeSettings;
}

async function rejectsWith(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ServiceError, `expected ServiceError ${code}, got ${String(err)}`);
    assert.equal(err.code, code);
    return true;
  });
}

function assertIsoTime(value: string, what: string): void {
  assert.equal(typeof value, 'string', what);
  assert.equal(new Date(value).toISOString(), value, `${what} is an ISO 8601 time`);
}

export function profileStoreContract(name: string, factory: () => Promise<ProfileStoreUnderTest>): void {
  /** Runs `body` against a fresh, empty store. */
  const withStore = freshEach(factory);

  describe(`OptimizeProfileStore contract: ${name}`, () => {
    withStore('an empty store lists nothing, gets nothing and deletes nothing', async ({ store }) => {
      assert.deepEqual(await store.list(), []);
      assert.equal(await store.get('ebook-small'), null);
      assert.equal(await store.delete('ebook-small'), false);
      assert.deepEqual(await store.list(), []);
    });

    withStore('put creates: the record reads back whole through get and list', async ({ store }) => {
      const settings = fullSettings();
      const before = Date.now();
      const { record, created } = await store.put('web-small', settings);
      assert.equal(created, true);
      assert.equal(record.name, 'web-small');
      assert.deepEqual(record.settings, settings);
      assertIsoTime(record.createdAt, 'createdAt');
      assert.equal(record.updatedAt, record.createdAt, 'a new profile was updated when it was created');
      assert.ok(Date.parse(record.createdAt) >= before - 1000 && Date.parse(record.createdAt) <= Date.now() + 1000, 'createdAt is now');
      assert.deepEqual(await store.get('web-small'), record);
      assert.deepEqual(await store.list(), [record]);
    });

    withStore('put replaces: created false, the settings replaced whole, createdAt kept, updatedAt moves on', async ({ store }) => {
      const first = (await store.put('archive', fullSettings())).record;
      await new Promise((resolve) => setTimeout(resolve, 5));
      // Fewer options than before: a replacement, not a merge, so the absent ones are gone.
      const fewer = { compressObjectsIntoStreams: false, colorImageHandler: { dpi: 96 } } as OptimizeSettings;
      const { record, created } = await store.put('archive', fewer);
      assert.equal(created, false);
      assert.deepEqual(record.settings, fewer);
      assert.equal(record.createdAt, first.createdAt);
      assertIsoTime(record.updatedAt, 'updatedAt');
      assert.ok(record.updatedAt > first.updatedAt, `${record.updatedAt} after ${first.updatedAt}`);
      assert.deepEqual(await store.get('archive'), record);
      assert.deepEqual(await store.list(), [record], 'one profile, not two');
    });

    withStore('list is sorted by name in code-point order, whatever the order of creation', async ({ store }) => {
      const names = ['web', 'Übersicht 150 dpi', 'B', 'a', 'a b', 'ä', 'Z-last', '1', 'web 2'];
      for (const n of names) await store.put(n, fullSettings({ colorImageHandler: { dpi: 100 + names.indexOf(n) } } as Partial<OptimizeSettings>));
      const listed = await store.list();
      const codePoint = [...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      assert.deepEqual(listed.map((r) => r.name), codePoint);
      for (const r of listed) assert.equal(r.settings.colorImageHandler?.dpi, 100 + names.indexOf(r.name), `${r.name} has its own settings`);
    });

    withStore('names are kept exactly: case, spaces and Unicode make distinct profiles', async ({ store }) => {
      for (const n of ['Print', 'print', 'print ', 'Übersicht', 'U\u0308bersicht']) assert.equal((await store.put(n, fullSettings())).created, true, JSON.stringify(n));
      assert.equal((await store.list()).length, 5);
      assert.equal((await store.get('Print'))?.name, 'Print');
      assert.equal((await store.get('U\u0308bersicht'))?.name, 'U\u0308bersicht', 'not normalised to the composed form');
      assert.equal(await store.get('PRINT'), null);
    });

    withStore('a limit refuses a new profile past it, never a replacement; puts at once do not pass it together', async ({ store }) => {
      for (const n of ['a', 'b']) await store.put(n, fullSettings(), 3);
      // Eight new names at once with room for one: exactly one is created, the others are 400.
      const tries = await Promise.allSettled(['c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((n) => store.put(n, fullSettings(), 3)));
      assert.equal(tries.filter((t) => t.status === 'fulfilled').length, 1);
      for (const t of tries) if (t.status === 'rejected') assert.equal((t.reason as { code?: string }).code, 'BAD_REQUEST');
      assert.equal((await store.list()).length, 3);
      // Full: a replacement still goes through, a new name does not.
      assert.equal((await store.put('a', fullSettings({ discardAnnotations: false }), 3)).created, false);
      await assert.rejects(store.put('k', fullSettings(), 3), { code: 'BAD_REQUEST' });
      assert.equal(await store.delete('b'), true);
      assert.equal((await store.put('k', fullSettings(), 3)).created, true, 'room again after a delete');
    });

    withStore('delete removes one profile and answers whether there was one', async ({ store }) => {
      await store.put('one', fullSettings());
      const two = (await store.put('two', fullSettings({ discardAnnotations: false }))).record;
      assert.equal(await store.delete('one'), true);
      assert.equal(await store.get('one'), null);
      assert.deepEqual(await store.list(), [two], 'the other is untouched');
      assert.equal(await store.delete('one'), false, 'a second delete finds nothing');
      // Deleted then put again: a new profile, with a new createdAt.
      const again = await store.put('one', fullSettings());
      assert.equal(again.created, true);
    });

    withStore('records are copied in and out: changing what was given or answered changes nothing stored', async ({ store }) => {
      const settings = fullSettings();
      const { record } = await store.put('copied', settings);
      settings.colorImageHandler!.dpi = 1;
      record.settings.grayImageHandler!.dpi = 2;
      record.name = 'renamed';
      const got = (await store.get('copied'))!;
      got.settings.discardAnnotations = false;
      (await store.list())[0]!.settings.compressObjectsIntoStreams = false;
      assert.deepEqual(await store.get('copied'), { ...record, name: 'copied', settings: fullSettings() });
    });

    withStore('puts and deletes at the same moment all take effect', async ({ store }) => {
      const names = Array.from({ length: 24 }, (_, i) => `p${String(i).padStart(2, '0')}`);
      await Promise.all(names.map((n, i) => store.put(n, fullSettings({ colorImageHandler: { dpi: 50 + i } } as Partial<OptimizeSettings>))));
      await Promise.all([...names.filter((_, i) => i % 3 === 0).map((n) => store.delete(n)), ...names.filter((_, i) => i % 3 === 1).map((n) => store.put(n, fullSettings({ discardAnnotations: false })))]);
      const listed = await store.list();
      assert.deepEqual(listed.map((r) => r.name), names.filter((_, i) => i % 3 !== 0));
      for (const r of listed) assert.equal(r.settings.discardAnnotations, Number(r.name.slice(1)) % 3 !== 1, r.name);
    });

    withStore('a new store over the same data (a restart) holds exactly what the last one answered', async (under) => {
      if (!under.reopen) return; // a store that keeps nothing: nothing to come back to
      const { store } = under;
      await store.put('kept', fullSettings());
      await store.put('replaced', fullSettings());
      await store.put('replaced', { colorImageHandler: { dpi: 72 } } as OptimizeSettings);
      await store.put('deleted', fullSettings());
      await store.delete('deleted');
      await store.put('Übersicht 150 dpi', fullSettings({ discardAnnotations: false }));
      const before = await store.list();
      const reopened = await under.reopen();
      assert.deepEqual(await reopened.list(), before);
      for (const r of before) assert.deepEqual(await reopened.get(r.name), r);
      assert.equal(await reopened.get('deleted'), null);
      // And the new instance goes on from there: its changes reach the next one.
      assert.equal((await reopened.put('kept', fullSettings({ mergeDuplicateFonts: false }))).created, false);
      assert.equal(await reopened.delete('replaced'), true);
      const third = await under.reopen();
      assert.deepEqual((await third.list()).map((r) => r.name), ['kept', 'Übersicht 150 dpi']);
      assert.equal((await third.get('kept'))?.settings.mergeDuplicateFonts, false);
      assert.equal((await third.get('kept'))?.createdAt, before.find((r) => r.name === 'kept')!.createdAt);
    });

    describe('the resource over this store (OptimizeProfileOperations)', () => {
      withStore('built-in profiles are listed first and read-only; the store never sees them', async ({ store }) => {
        const profiles = new OptimizeProfileOperations(store);
        await profiles.put('mine', fullSettings());
        const listed = await profiles.list();
        const builtIns = Object.keys(BUILT_IN_PROFILES);
        assert.deepEqual(listed.map((p) => p.name), [...builtIns, 'mine']);
        assert.ok(listed.slice(0, builtIns.length).every((p) => p.builtIn && p.createdAt === undefined));
        for (const builtIn of builtIns) {
          await rejectsWith(profiles.put(builtIn, fullSettings()), 'PROFILE_READ_ONLY');
          await rejectsWith(profiles.delete(builtIn), 'PROFILE_READ_ONLY');
          assert.equal((await profiles.get(builtIn)).builtIn, true);
        }
        assert.deepEqual((await store.list()).map((r) => r.name), ['mine'], 'nothing built-in was written to the store');
      });

      withStore('names are validated like path segments before the store is asked', async ({ store }) => {
        const profiles = new OptimizeProfileOperations(store);
        for (const bad of ['', '.', '..', '.hidden', 'trailing.', 'trailing ', 'a/b', 'a\\b', 'a:b', 'ctl\u0001', 'x'.repeat(256)]) {
          await rejectsWith(profiles.put(bad, fullSettings()), 'INVALID_PATH');
          await rejectsWith(profiles.get(bad), 'INVALID_PATH');
          await rejectsWith(profiles.delete(bad), 'INVALID_PATH');
        }
        assert.deepEqual(await store.list(), [], 'nothing was stored under a refused name');
        const created = await profiles.put('Übersicht 150 dpi', fullSettings());
        assert.equal(created.created, true);
        assert.equal((await store.get('Übersicht 150 dpi'))?.name, 'Übersicht 150 dpi');
      });

      withStore('create, replace, get, list and delete answer the stored record; unknown names are PROFILE_NOT_FOUND', async ({ store }) => {
        const profiles = new OptimizeProfileOperations(store);
        const created = await profiles.put('web', fullSettings());
        assert.equal(created.created, true);
        assert.equal(created.profile.builtIn, false);
        const replaced = await profiles.put('web', fullSettings({ discardAnnotations: false }));
        assert.equal(replaced.created, false);
        assert.equal(replaced.profile.createdAt, created.profile.createdAt);
        const stored = (await store.get('web')) as ProfileRecord;
        assert.deepEqual(await profiles.get('web'), { name: 'web', builtIn: false, ...stored.settings, createdAt: stored.createdAt, updatedAt: stored.updatedAt });
        assert.equal(stored.settings.discardAnnotations, false);
        await profiles.delete('web');
        await rejectsWith(profiles.get('web'), 'PROFILE_NOT_FOUND');
        await rejectsWith(profiles.delete('web'), 'PROFILE_NOT_FOUND');
        assert.deepEqual(await store.list(), []);
      });
    });
  });
}
