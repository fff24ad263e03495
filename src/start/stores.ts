import { readFile } from 'node:fs/promises';
import type { Config } from '../config.js';
import type { ExternalDirectory } from '../auth/types.js';
import { FilesystemStore } from '../storage/filesystem-store.js';
import type { LockProvider } from '../storage/locks.js';
import { sharedStores, type DocumentStores } from '../storage/store.js';
import type { BlobStore } from '../storage/blobs.js';
import type { DmsAccounts } from '../storage/webdav/accounts.js';
import { Sealer } from '../secrets.js';
import type { RedisConnection } from '../redis.js';
// The Redis, S3 and WebDAV modules (ioredis, BullMQ, the AWS SDK, undici) are imported where their settings are used: loading
// them costs about 0.6 s of CPU (undici alone, the WebDAV client's, about 0.3 s), which every start without them (each
// test's service, among others) would pay for nothing.
import { loadSecretsKey, StartupError } from './startup.js';

export interface DocumentStoreSetup {
  stores: DocumentStores;
  /** Passthrough: the DMS vouches for its users' logins. */
  directory?: ExternalDirectory;
  /** Mapped: the DMS account each service user acts as. */
  dmsAccounts?: DmsAccounts;
  /**
   * Files the service keeps for itself where every instance and worker reads them (job result files), when the
   * document store is shared by nature (S3: under a reserved key prefix of the bucket); absent: in the data folder.
   */
  blobs?: (area: string) => BlobStore;
  close(): Promise<void>;
}

/**
 * Where documents live (PDFSERVICE_STORE). The filesystem store has no users
 * of its own: every user gets the one store. The WebDAV store acts as each
 * user at the DMS: with the credentials they logged in with, which the DMS
 * also vouches for (passthrough), or with the DMS account an admin mapped to
 * them (mapped).
 */
export async function openDocumentStores(config: Config, redis: RedisConnection | undefined): Promise<DocumentStoreSetup> {
  // With Redis, the filesystem and S3 stores lock documents (and S3 commits) through it, so that several instances
  // on one data folder or bucket prefix never write one document at once (docs/deployment.md, "Document locks").
  const RedisLocks = redis ? (await import('../storage/redis-lock.js')).RedisLocks : undefined;
  const redisLocks = (namespace: string) => (redis && RedisLocks ? new RedisLocks(redis, { namespace, leaseMs: config.lockLeaseMs, waitMs: config.lockWaitMs }) : undefined);
  if (config.store === 'webdav') {
    // Named by the DMS's host and path (never its URL's credentials, if any: Redis key names are readable).
    const dms = new URL(config.webdavUrl!);
    return openWebDav(config, redisLocks(`webdav:${dms.host}${dms.pathname}`));
  }
  if (config.store === 's3') {
    const [{ createS3Client }, { S3Store }, { RedisEtagBook }] = await Promise.all([import('../storage/s3/client.js'), import('../storage/s3/store.js'), import('../storage/etag-book.js')]);
    const client = createS3Client({
      endpoint: config.s3Endpoint,
      region: config.s3Region,
      accessKeyId: config.s3AccessKeyId,
      secretAccessKey: config.s3SecretAccessKey,
      forcePathStyle: config.s3ForcePathStyle,
      timeoutMs: config.s3TimeoutMs,
    });
    // With Redis every instance takes the shared commit lock for every write, so the ETag book it keeps there is
    // current: stat and reads of a kept version ask S3 nothing (docs/s3.md, "ETag book"). Without Redis, none.
    const store = new S3Store({
      client,
      bucket: config.s3Bucket!,
      prefix: config.s3Prefix,
      dataDir: config.dataDir,
      documentLocks: redisLocks(`s3:${config.s3Bucket!}`),
      commitLock: redisLocks(`s3-commit:${config.s3Bucket!}`),
      etagBook: redis ? new RedisEtagBook(redis, config.s3Bucket!) : undefined,
      versions: config.versions,
      trash: config.trash,
    });
    await store.init();
    try {
      // Local leftovers go; unfinished uploads only when old (another instance's may be running: S3Store.recover).
      await store.recover();
    } catch (err) {
      client.destroy();
      throw new StartupError(`The S3 store cannot be used: ${(err as Error).message}`);
    }
    // S3 has no users of its own: the service signs every request with its key, and its rights decide.
    return { stores: sharedStores(store), blobs: (area) => store.blobs(area), close: async () => client.destroy() };
  }
  const files = new FilesystemStore(config.dataDir, { locks: redisLocks('fs'), versions: config.versions, trash: config.trash });
  await files.init();
  await files.recover();
  return { stores: sharedStores(files), close: async () => {} };
}

/** `trashLocks`: with Redis, the trash entries' locks shared by the instances on the DMS (the documents keep the DMS's own). */
async function openWebDav(config: Config, trashLocks: LockProvider | undefined): Promise<DocumentStoreSetup> {
  const [{ DavClient }, { WebDavBackend }, { DmsAccounts }] = await Promise.all([import('../storage/webdav/client.js'), import('../storage/webdav/store.js'), import('../storage/webdav/accounts.js')]);
  const read = (file: string | undefined) => (file ? readFile(file) : Promise.resolve(undefined));
  const tls = { ca: await read(config.webdavCaFile), cert: await read(config.webdavCertFile), key: await read(config.webdavKeyFile), rejectUnauthorized: !config.webdavInsecureTls };
  const client = new DavClient({ url: config.webdavUrl!, timeoutMs: config.webdavTimeoutMs, tls });
  const verify = (account: { username: string; password: string }) => client.accepts(account);
  let dmsAccounts: DmsAccounts | undefined;
  if (config.webdavAuth === 'mapped') {
    try {
      dmsAccounts = await DmsAccounts.open(config.dataDir, new Sealer(await loadSecretsKey(config)), verify);
    } catch (err) {
      throw err instanceof StartupError ? err : new StartupError((err as Error).message);
    }
  }
  const backend = new WebDavBackend(client, config.dataDir, dmsAccounts, config.versions, config.trash, config.trashMaxAgeMs, trashLocks, config.webdavLockWaitMs);
  await backend.init();
  // The service has no DMS account of its own to sweep the DMS with: temporary uploads an interrupted write
  // left there are removed when a user's listing meets them (docs/dms.md); the local leftovers go now.
  await backend.clearLocal();
  const close = async () => {
    dmsAccounts?.close();
    await client.close();
  };
  if (dmsAccounts) return { stores: backend, dmsAccounts, close };
  const directory: ExternalDirectory = { rights: config.webdavUserRights, verify: (username, password) => verify({ username, password }) };
  return { stores: backend, directory, close };
}
