import path from 'node:path';
import { boolean, ConfigError, httpUrl, integer, list, nonEmpty, oneOf, type SettingsFeature } from './setting.js';
import type { RedisSettings } from './redis.js';

/** Where documents live: the data folder, a DMS over WebDAV, or S3 (src/start/stores.ts). */
export interface StoreSettings {
  dataDir: string;
  store: 'filesystem' | 'webdav' | 's3';
  webdavUrl: string | undefined;
  webdavAuth: 'passthrough' | 'mapped';
  /** The key that seals secrets kept outside memory (mapped DMS accounts; secrets.ts), from PDFSERVICE_SECRETS_KEY or its _FILE. */
  secretsKey: Buffer | undefined;
  secretsKeyFile: string | undefined;
  /** Checked against the rights by auth at start (shared modules import no layer). */
  webdavUserRights: string[];
  webdavCaFile: string | undefined;
  webdavCertFile: string | undefined;
  webdavKeyFile: string | undefined;
  webdavInsecureTls: boolean;
  webdavTimeoutMs: number;
  webdavLockWaitMs: number;
  /** The DMS account the retention sweep acts as (docs/versions.md, "Retention on WebDAV"); both or neither. */
  webdavSweepUsername: string | undefined;
  webdavSweepPassword: string | undefined;
  s3Endpoint: string | undefined;
  s3Region: string;
  s3Bucket: string | undefined;
  s3Prefix: string;
  /** Both or neither; neither: the AWS SDK's default credential chain. */
  s3AccessKeyId: string | undefined;
  s3SecretAccessKey: string | undefined;
  s3ForcePathStyle: boolean;
  s3TimeoutMs: number;
  /** Keep a version of every write (docs/versions.md); every store (filesystem, S3, WebDAV). */
  versions: boolean;
  /** Deletes move documents and folders to the trash (docs/versions.md, "Trash"); every store (filesystem, S3, WebDAV). */
  trash: boolean;
}

/** A key prefix: '' or ending in '/', without a leading '/' (S3 keys have none). */
const s3Prefix = (raw: string): string => {
  if (raw.startsWith('/') || !raw.endsWith('/')) throw new ConfigError('must end in "/" and not start with one (say pdfservice/)');
  return raw;
};

/** A 32-byte key given as 64 hex digits or as base64 (either alphabet). */
export function secretsKey(raw: string): Buffer {
  const text = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (!key || key.length !== 32) throw new ConfigError('is not a 32-byte key: 64 hex digits, or base64 (openssl rand -base64 32)');
  return key;
}

export const STORES: SettingsFeature<StoreSettings, StoreSettings & Pick<RedisSettings, 'redisUrl'>> = {
  settings: {
    dataDir: {
      env: 'PDFSERVICE_DATA_DIR',
      doc: 'Folder for documents (`documents/`), service state (`state/`: users) and uploads in transit (`staging/`)',
      shown: '`./data`',
      default: () => path.resolve('data'),
      parse: (raw) => path.resolve(nonEmpty(raw)),
    },
    store: {
      env: 'PDFSERVICE_STORE',
      doc: 'Where documents live: `filesystem` (the data folder), `webdav`, a document-management server that decides what each user sees and changes ([docs/dms.md](docs/dms.md)), or `s3`, a bucket of S3-compatible object storage ([docs/s3.md](docs/s3.md#the-store))',
      default: 'filesystem',
      parse: oneOf('filesystem', 'webdav', 's3'),
    },
    webdavUrl: { env: 'PDFSERVICE_WEBDAV_URL', doc: 'With `webdav`: the collection that is the root folder, such as `https://dms.example.com/dav/` (required then; no credentials in it)', default: undefined, parse: httpUrl },
    webdavAuth: {
      env: 'PDFSERVICE_WEBDAV_AUTH',
      doc: "With `webdav`: `passthrough`, users log in with their DMS name and password, which the DMS checks, and the service keeps them in the session's memory and acts with them; `mapped`, users log in as service users and act as the DMS account an admin mapped to them (`PUT /users/{name}/dms-account`)",
      default: 'passthrough',
      parse: oneOf('passthrough', 'mapped'),
    },
    secretsKey: {
      env: 'PDFSERVICE_SECRETS_KEY',
      doc: 'The 32-byte key that encrypts the secrets the service keeps outside its memory, as 64 hex digits or base64 (`openssl rand -base64 32`); required by `PDFSERVICE_WEBDAV_AUTH=mapped` (it encrypts the mapped DMS accounts) and by passthrough with `PDFSERVICE_REDIS_URL` (it encrypts the DMS passwords of sessions in Redis), or give `PDFSERVICE_SECRETS_KEY_FILE`',
      default: undefined,
      parse: secretsKey,
    },
    secretsKeyFile: {
      env: 'PDFSERVICE_SECRETS_KEY_FILE',
      doc: 'A file holding that key instead (a container secret), read at start',
      default: undefined,
      parse: (raw) => path.resolve(nonEmpty(raw)),
    },
    webdavUserRights: {
      env: 'PDFSERVICE_WEBDAV_USER_RIGHTS',
      doc: 'With `passthrough`: the rights of a DMS user who has no service user of the same name (a service user keeps its own rights)',
      default: ['GET', 'POST', 'PUT', 'DELETE'],
      parse: list,
    },
    webdavCaFile: { env: 'PDFSERVICE_WEBDAV_CA_FILE', doc: 'PEM certificates to trust for the DMS besides the system ones', default: undefined, parse: (raw) => path.resolve(nonEmpty(raw)) },
    webdavCertFile: { env: 'PDFSERVICE_WEBDAV_CERT_FILE', doc: 'A client certificate (PEM) for a DMS that asks for one, with its key in `PDFSERVICE_WEBDAV_KEY_FILE`', default: undefined, parse: (raw) => path.resolve(nonEmpty(raw)) },
    webdavKeyFile: { env: 'PDFSERVICE_WEBDAV_KEY_FILE', doc: 'The private key (PEM) of that client certificate', default: undefined, parse: (raw) => path.resolve(nonEmpty(raw)) },
    webdavInsecureTls: { env: 'PDFSERVICE_WEBDAV_INSECURE_TLS', doc: "Accept any certificate from the DMS: for tests only, since anyone on the path could then read the users' credentials", default: false, parse: boolean },
    webdavTimeoutMs: { env: 'PDFSERVICE_WEBDAV_TIMEOUT_MS', doc: 'A DMS request waiting this long for headers or between body chunks fails with 503 `DMS_UNAVAILABLE`', default: 30_000, parse: integer(100, 3_600_000) },
    webdavLockWaitMs: {
      env: 'PDFSERVICE_WEBDAV_LOCK_WAIT_MS',
      doc: "How long a change waits for a WebDAV lock another client holds on the document (an editor, or another instance's commit) before answering 423 `DMS_LOCKED`; it goes ahead as soon as the lock is released ([docs/dms.md](docs/dms.md))",
      default: 3000,
      parse: integer(0, 600_000),
    },
    webdavSweepUsername: {
      env: 'PDFSERVICE_WEBDAV_SWEEP_USERNAME',
      doc: "With `webdav`: a DMS account that sees the folders whose versions and trash the retention sweep keeps to the limits, with `PDFSERVICE_WEBDAV_SWEEP_PASSWORD` ([docs/versions.md](docs/versions.md#retention-on-webdav)); unset: with `mapped`, the sweep acts as each mapped account in turn, with `passthrough` there is no sweep (the trash's old entries go when a listing of the trash meets them)",
      default: undefined,
      parse: nonEmpty,
    },
    webdavSweepPassword: { env: 'PDFSERVICE_WEBDAV_SWEEP_PASSWORD', doc: 'The password of that DMS account', default: undefined, parse: nonEmpty },
    s3Endpoint: { env: 'PDFSERVICE_S3_ENDPOINT', doc: "With `s3`: the S3 endpoint, such as `https://s3.example.com` or `http://127.0.0.1:9000`; unset: AWS's endpoint for the region", default: undefined, parse: httpUrl },
    s3Region: { env: 'PDFSERVICE_S3_REGION', doc: 'With `s3`: the region requests are signed for (an S3-compatible server names the one it accepts)', default: 'us-east-1', parse: nonEmpty },
    s3Bucket: { env: 'PDFSERVICE_S3_BUCKET', doc: 'With `s3`: the bucket documents live in (required then; it must exist)', default: undefined, parse: nonEmpty },
    s3Prefix: { env: 'PDFSERVICE_S3_PREFIX', doc: 'With `s3`: put before every key (ending in `/`, such as `pdfservice/`), so that several services or sites can share a bucket', default: '', parse: s3Prefix },
    s3AccessKeyId: { env: 'PDFSERVICE_S3_ACCESS_KEY_ID', doc: "With `s3`: the access key, with `PDFSERVICE_S3_SECRET_ACCESS_KEY`; unset: the AWS SDK's default chain (`AWS_ACCESS_KEY_ID` and friends, a profile, an instance role)", default: undefined, parse: nonEmpty },
    s3SecretAccessKey: { env: 'PDFSERVICE_S3_SECRET_ACCESS_KEY', doc: 'With `s3`: the secret of that access key', default: undefined, parse: nonEmpty },
    s3ForcePathStyle: { env: 'PDFSERVICE_S3_FORCE_PATH_STYLE', doc: 'With `s3`: path-style URLs (`endpoint/bucket/key`), which S3-compatible servers without a DNS name per bucket need; `false` for virtual-hosted style', default: true, parse: boolean },
    versions: {
      env: 'PDFSERVICE_VERSIONS',
      doc: 'Keep a version of every write of a document, readable and restorable through `.../versions` ([docs/versions.md](docs/versions.md)); with every store: `filesystem`, `s3` (under a versions prefix, [docs/versions.md](docs/versions.md#storage-s3)) and `webdav` (in a hidden collection beside each document, [docs/versions.md](docs/versions.md#storage-webdav)). `false`: writes replace documents, and the versions endpoints answer 501 `VERSIONS_NOT_KEPT`',
      default: true,
      parse: boolean,
    },
    trash: {
      env: 'PDFSERVICE_TRASH',
      doc: 'DELETE of a document or folder moves it, with its versions, to the deleting user\'s trash (`/trash`, [docs/versions.md](docs/versions.md#trash)), from which it can be restored or purged; with every store: `filesystem` (in the data folder), `s3` (under a trash prefix, [docs/versions.md](docs/versions.md#trash-on-s3)) and `webdav` (in a hidden collection beside what was deleted, [docs/versions.md](docs/versions.md#trash-on-webdav)). `false`: deletes erase, and the trash endpoints answer 501 `TRASH_NOT_KEPT`',
      default: true,
      parse: boolean,
    },
    s3TimeoutMs: { env: 'PDFSERVICE_S3_TIMEOUT_MS', doc: 'With `s3`: an S3 request waiting this long for a connection or an answer fails with 503 `STORE_UNAVAILABLE`', default: 30_000, parse: integer(100, 3_600_000) },
  },
  check(config) {
    const problems: string[] = [];
    if (config.store === 'webdav' && !config.webdavUrl) problems.push('PDFSERVICE_WEBDAV_URL must be set when PDFSERVICE_STORE is webdav');
    if (config.secretsKey && config.secretsKeyFile) problems.push('PDFSERVICE_SECRETS_KEY and PDFSERVICE_SECRETS_KEY_FILE are alternatives: set one');
    else if (config.store === 'webdav' && config.webdavAuth === 'mapped' && !config.secretsKey && !config.secretsKeyFile) {
      problems.push('PDFSERVICE_WEBDAV_AUTH=mapped needs PDFSERVICE_SECRETS_KEY or PDFSERVICE_SECRETS_KEY_FILE (the mapped accounts are encrypted with it)');
    }
    else if (config.redisUrl && config.store === 'webdav' && config.webdavAuth === 'passthrough' && !config.secretsKey && !config.secretsKeyFile) {
      problems.push('PDFSERVICE_REDIS_URL with PDFSERVICE_WEBDAV_AUTH=passthrough needs PDFSERVICE_SECRETS_KEY or PDFSERVICE_SECRETS_KEY_FILE (sessions in Redis carry the users\' DMS passwords, encrypted with it)');
    }
    if (config.store === 's3' && !config.s3Bucket) problems.push('PDFSERVICE_S3_BUCKET must be set when PDFSERVICE_STORE is s3');
    if (!config.s3AccessKeyId !== !config.s3SecretAccessKey) problems.push('PDFSERVICE_S3_ACCESS_KEY_ID and PDFSERVICE_S3_SECRET_ACCESS_KEY go together');
    if (!config.webdavSweepUsername !== !config.webdavSweepPassword) problems.push('PDFSERVICE_WEBDAV_SWEEP_USERNAME and PDFSERVICE_WEBDAV_SWEEP_PASSWORD go together');
    if (!config.webdavCertFile !== !config.webdavKeyFile) problems.push('PDFSERVICE_WEBDAV_CERT_FILE and PDFSERVICE_WEBDAV_KEY_FILE go together');
    return problems;
  },
};
