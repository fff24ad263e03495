import type { Config } from '../config.js';
import { LocalSweepLease, Sweeper, trashTask, versionsTask, type SweepLease, type SweepTask } from '../operations/retention.js';
import type { SharedState } from './shared-state.js';
import type { DocumentStoreSetup } from './stores.js';
import type { WebDavBackend } from '../storage/webdav/store.js';
import type { LogRef } from './startup.js';

/**
 * The retention sweep (docs/versions.md, "Retention"), started with the service (not with `npm run worker`
 * processes): the versions' retention when the store keeps versions, the trash's expiry when it keeps a trash, and a lease so that one instance sweeps at a
 * time (Redis when the instances share one; this process otherwise, the one process of its data folder).
 * Answers its stop, or undefined when there is nothing to sweep.
 */
export async function keepRetention(config: Config, shared: SharedState, documentStore: DocumentStoreSetup, log: LogRef): Promise<(() => Promise<void>) | undefined> {
  // A store with users of its own (WebDAV) has no store for no user: the sweep acts as DMS accounts (sweepAccounts).
  const store = config.store === 'webdav' ? await webdavSweep(config, documentStore, log) : documentStore.stores.for(null);
  const tasks: SweepTask[] = [];
  if (store?.versions) {
    tasks.push(versionsTask({ lock: (p) => store.lock(p), versions: store.versions }, {
      maxCount: config.versionsMaxCount,
      maxAgeMs: config.versionsMaxAgeMs,
      thinning: config.versionsThinning,
      userBytes: config.versionsUserBytes,
    }));
  }
  if (store?.trash && config.trashMaxAgeMs > 0) tasks.push(trashTask(store.trash, config.trashMaxAgeMs));
  if (tasks.length === 0) return undefined;
  let lease: SweepLease;
  if (shared.redis) {
    const { RedisSweepLease } = await import('../operations/retention-redis.js');
    lease = new RedisSweepLease(shared.redis, config.lockLeaseMs);
  } else {
    lease = new LocalSweepLease();
  }
  const sweeper = new Sweeper({
    tasks,
    lease,
    intervalMs: config.retentionSweepMs,
    onSwept: (report) => {
      // An error as its message: the log's serializer knows only a top-level `err`.
      const tasks = Object.fromEntries(Object.entries(report.tasks).map(([name, counts]) => [name, 'error' in counts ? { error: (counts.error as Error)?.message ?? String(counts.error) } : counts]));
      const at = report.at.toISOString();
      if (Object.values(tasks).some((counts) => 'error' in counts)) log.current?.warn({ at, tasks }, 'retention sweep failed');
      else log.current?.info({ at, tasks }, 'retention sweep');
    },
  });
  sweeper.start();
  return () => sweeper.stop();
}

/**
 * On WebDAV (docs/versions.md, "Retention on WebDAV"): the sweep acts as the sweep account
 * (PDFSERVICE_WEBDAV_SWEEP_USERNAME) when set, else as each mapped account in turn; in passthrough without a sweep
 * account the service holds no password to act with, and there is no sweep (said once at start).
 */
async function webdavSweep(config: Config, documentStore: DocumentStoreSetup, log: LogRef) {
  const { WebDavSweep } = await import('../storage/webdav/sweep.js');
  const backend = documentStore.stores as WebDavBackend;
  if (!backend.keepsVersions && !(backend.keepsTrash && config.trashMaxAgeMs > 0)) return undefined;
  const { webdavSweepUsername: username, webdavSweepPassword: password } = config;
  if (username && password) return new WebDavSweep(backend, () => [{ username, password }]);
  const accounts = documentStore.dmsAccounts;
  if (accounts) return new WebDavSweep(backend, () => accounts.all());
  log.current?.info('no retention sweep on the DMS: passthrough without PDFSERVICE_WEBDAV_SWEEP_USERNAME holds no DMS account to act as (docs/versions.md, "Retention on WebDAV")');
  return undefined;
}
