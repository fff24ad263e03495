import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Every setting of the service, read from environment variables and validated
 * once at start. README's configuration table lists the same names; a test
 * checks that the two agree.
 */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  adminUser: string;
  adminPassword: string | undefined;
  workers: number;
  taskTimeoutMs: number;
  jobTaskTimeoutMs: number;
  workerMaxMemoryMb: number;
  verapdfDir: string;
  queueLimit: number;
  userTaskLimit: number;
  maxUploadBytes: number;
  maxXfdfBytes: number;
  maxBodyBytes: number;
  sessionIdleSeconds: number;
  sessionMaxSeconds: number;
  cookieSecure: boolean;
  loginMaxFailures: number;
  loginLockoutSeconds: number;
  logLevel: string;
  /** false, a number of proxy hops, or the addresses/CIDRs of the proxies (see trustedProxies). */
  trustProxy: false | number | string[];
  textPrefetchMaxBytes: number;
  corsOrigins: string[];
  metricsPublic: boolean;
  maxConnections: number;
  maxConnectionsPerAddress: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  publicBodyTimeoutMs: number;
  bodyMinBytes: number;
  bodyRateWindowSeconds: number;
  jobQueueLimit: number;
  jobConcurrency: number;
  userJobLimit: number;
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
  s3Endpoint: string | undefined;
  s3Region: string;
  s3Bucket: string | undefined;
  s3Prefix: string;
  /** Both or neither; neither: the AWS SDK's default credential chain. */
  s3AccessKeyId: string | undefined;
  s3SecretAccessKey: string | undefined;
  s3ForcePathStyle: boolean;
  s3TimeoutMs: number;
  /** Sessions and login throttling shared through Redis when set (src/redis.ts); in memory when not. */
  redisUrl: string | undefined;
  redisPrefix: string;
  redisTimeoutMs: number;
  /** With Redis: a document lock's lease, and the longest wait for one (src/storage/redis-lock.ts). */
  lockLeaseMs: number;
  lockWaitMs: number;
  /** With Redis: whether this instance runs jobs from the shared queue, or only queues them for workers. */
  runJobs: boolean;
  jobRetentionSeconds: number;
  jobAsyncBytes: number;
  officeInstances: number;
  officeRestartAfter: number;
  officeMaxRssMb: number;
  officeTimeoutMs: number;
  officeQueue: number;
  officeProgram: string;
  officeMemoryMb: number;
  tesseractMemoryMb: number;
  ghostscriptMemoryMb: number;
  qpdfMemoryMb: number;
  verapdfHeapMb: number;
}

interface Setting<T> {
  env: string;
  description: string;
  default: T | (() => T) | undefined;
  parse: (raw: string) => T;
}

class ConfigError extends Error {}

function integer(min: number, max: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`must be a whole number`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigError(`must be between ${min} and ${max}`);
    return n;
  };
}
const nonEmpty = (raw: string): string => {
  if (raw.trim() === '') throw new ConfigError('must not be empty');
  return raw;
};
const boolean = (raw: string): boolean => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError('must be true or false');
};
const oneOf = (...values: string[]) => (raw: string): string => {
  if (!values.includes(raw)) throw new ConfigError(`must be one of ${values.join(', ')}`);
  return raw;
};

/** Comma-separated origins (scheme://host[:port]), each exactly as browsers send it in Origin. */
const originList = (raw: string): string[] => {
  const origins = raw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(`has "${origin}", which is not an origin such as https://app.example.com (scheme, host, optional port; no path, no trailing slash, no *)`);
    }
  }
  return origins;
};

/** A key prefix: '' or ending in '/', without a leading '/' (S3 keys have none). */
const s3Prefix = (raw: string): string => {
  if (raw.startsWith('/') || !raw.endsWith('/')) throw new ConfigError('must end in "/" and not start with one (say pdfservice/)');
  return raw;
};

/** An http or https URL. */
const httpUrl = (raw: string): string => {
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw.trim());
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) throw new ConfigError('must be an http or https URL');
  if (parsed.username || parsed.password) throw new ConfigError('must not carry credentials (users act with their own)');
  return parsed.toString();
};

/** A 32-byte key given as 64 hex digits or as base64 (either alphabet). */
export function secretsKey(raw: string): Buffer {
  const text = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (!key || key.length !== 32) throw new ConfigError('is not a 32-byte key: 64 hex digits, or base64 (openssl rand -base64 32)');
  return key;
}

/** A redis:// or rediss:// URL (user, password and database may be in it). */
const redisUrl = (raw: string): string => {
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw.trim());
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['redis:', 'rediss:'].includes(parsed.protocol) || !parsed.hostname) throw new ConfigError('must be a redis:// or rediss:// URL such as redis://:password@redis.example.com:6379/0');
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) throw new ConfigError('names its database by number after the host (redis://host:6379/0)');
  return raw.trim();
};

/** A key prefix: printable, no spaces, so keys stay readable in redis-cli. */
const redisPrefix = (raw: string): string => {
  if (!/^[\x21-\x7e]{1,64}$/.test(raw)) throw new ConfigError('must be 1 to 64 printable characters without spaces');
  return raw;
};

/** A comma-separated list. */
const list = (raw: string): string[] => [...new Set(raw.split(',').map((r) => r.trim()).filter(Boolean))];

/**
 * PDFSERVICE_TRUST_PROXY. Only proxies named here may say who the client is: X-Forwarded-For is read from its
 * right end (what the nearest proxy added) for as long as the address there is a trusted proxy, never the
 * left-most entry, which any client can write. A hop count trusts that many proxies whatever their address:
 * only for an instance that nothing but its proxy can reach.
 */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const trustedProxies = (raw: string): false | number | string[] => {
  const text = raw.trim().toLowerCase();
  if (['false', 'no', 'off', '0'].includes(text)) return false;
  if (['true', 'yes', 'on'].includes(text)) return 1;
  if (/^\d+$/.test(text)) return integer(1, 16)(text);
  const entries = list(text);
  for (const entry of entries) {
    if (PROXY_NAMES.includes(entry)) continue;
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    if (family === 0 || rest.length > 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits))) {
      throw new ConfigError(`has "${entry}", which is not an address, a CIDR (10.0.0.0/8), ${PROXY_NAMES.join(', ')}, a hop count, true or false`);
    }
  }
  if (entries.length === 0) throw new ConfigError('must name the proxies, a hop count, true or false');
  return entries;
};

const MiB = 1024 * 1024;

/** The open-file limit of this process (Node raises the soft limit to the hard one at start); 1024 when unknown. */
function openFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) && soft > 0 ? soft : 1024;
  } catch {
    return 1024;
  }
}

export const SETTINGS: { [K in keyof Config]: Setting<Config[K]> } = {
  host: { env: 'PDFSERVICE_HOST', description: 'Address to listen on', default: '127.0.0.1', parse: nonEmpty },
  port: { env: 'PDFSERVICE_PORT', description: 'TCP port (0 picks a free one)', default: 8080, parse: integer(0, 65535) },
  dataDir: {
    env: 'PDFSERVICE_DATA_DIR',
    description: 'Folder for documents (`documents/`) and service state (`state/`)',
    default: () => path.resolve('data'),
    parse: (raw) => path.resolve(nonEmpty(raw)),
  },
  adminUser: { env: 'PDFSERVICE_ADMIN_USER', description: 'Name of the admin created at first start', default: 'admin', parse: nonEmpty },
  adminPassword: {
    env: 'PDFSERVICE_ADMIN_PASSWORD',
    description: 'Password of that admin; when unset, one is generated and printed once',
    default: undefined,
    parse: nonEmpty,
  },
  workers: {
    env: 'PDFSERVICE_WORKERS',
    description: 'Engine worker threads',
    default: () => Math.max(1, os.availableParallelism()),
    parse: integer(1, 64),
  },
  taskTimeoutMs: { env: 'PDFSERVICE_TASK_TIMEOUT_MS', description: 'Longest an engine task may run before its worker is stopped (504)', default: 120_000, parse: integer(100, 3_600_000) },
  jobTaskTimeoutMs: {
    env: 'PDFSERVICE_JOB_TASK_TIMEOUT_MS',
    description: "Longest an engine task of a background job may run (the job fails with ENGINE_TIMEOUT); a job is the way to run work longer than a request's limit",
    default: 1_800_000,
    parse: integer(100, 86_400_000),
  },
  workerMaxMemoryMb: { env: 'PDFSERVICE_WORKER_MAX_MEMORY_MB', description: 'A worker whose WASM memory passes this is replaced after its task', default: 1024, parse: integer(64, 2048) },
  verapdfDir: {
    env: 'PDFSERVICE_VERAPDF_DIR',
    description: 'Folder of the veraPDF helper (its jar and lib/) that bash scripts/setup.sh builds',
    default: () => fileURLToPath(new URL('../../.tools/verapdf', import.meta.url)),
    parse: (raw) => path.resolve(nonEmpty(raw)),
  },
  queueLimit: { env: 'PDFSERVICE_QUEUE_LIMIT', description: 'Engine tasks waiting beyond this are refused with 503', default: 64, parse: integer(1, 100_000) },
  userTaskLimit: {
    env: 'PDFSERVICE_USER_TASK_LIMIT',
    description: "Engine tasks one user may have running at once; the user's others wait (so other users find a worker); the parts of one request split across the workers count as one. 0: one less than PDFSERVICE_WORKERS, at least 1",
    default: 0,
    parse: integer(0, 64),
  },
  maxUploadBytes: { env: 'PDFSERVICE_MAX_UPLOAD_BYTES', description: 'Largest document or file upload (413 past it)', default: 512 * MiB, parse: integer(1024, 8 * 1024 * MiB) },
  maxXfdfBytes: {
    env: 'PDFSERVICE_MAX_XFDF_BYTES',
    description: 'Largest XFDF or FDF body (annotation and form data imports; 413 past it). Bodies are staged on disk and parsed by an engine worker',
    default: 64 * MiB,
    parse: integer(1024, 8 * 1024 * MiB),
  },
  maxBodyBytes: { env: 'PDFSERVICE_MAX_BODY_BYTES', description: 'Largest JSON/XML request body (413 past it)', default: 4 * MiB, parse: integer(1024, 512 * MiB) },
  sessionIdleSeconds: { env: 'PDFSERVICE_SESSION_IDLE_SECONDS', description: 'A session unused this long expires', default: 30 * 60, parse: integer(1, 31 * 86400) },
  sessionMaxSeconds: { env: 'PDFSERVICE_SESSION_MAX_SECONDS', description: 'A session expires this long after login whatever its use', default: 12 * 3600, parse: integer(1, 366 * 86400) },
  cookieSecure: { env: 'PDFSERVICE_COOKIE_SECURE', description: 'Mark the session cookie Secure (set when served over TLS)', default: false, parse: boolean },
  loginMaxFailures: { env: 'PDFSERVICE_LOGIN_MAX_FAILURES', description: 'Failed logins for one user name from one client address before 429 (one address alone may fail 5 times as often)', default: 5, parse: integer(1, 1000) },
  loginLockoutSeconds: { env: 'PDFSERVICE_LOGIN_LOCKOUT_SECONDS', description: 'How long the 429 lasts', default: 60, parse: integer(1, 86400) },
  logLevel: { env: 'PDFSERVICE_LOG_LEVEL', description: 'fatal, error, warn, info, debug, trace or silent', default: 'info', parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent') },
  trustProxy: {
    env: 'PDFSERVICE_TRUST_PROXY',
    description:
      'Which proxies in front may name the client (X-Forwarded-For, X-Forwarded-Proto): their addresses or CIDRs, comma-separated (`127.0.0.1`, `10.0.0.0/8`; also `loopback`, `linklocal`, `uniquelocal`), ' +
      'or a number of proxy hops (`true` is 1: the last address the proxy in front added). `false`: none, the connection\'s own address and scheme count',
    default: false,
    parse: trustedProxies,
  },
  textPrefetchMaxBytes: {
    env: 'PDFSERVICE_TEXT_PREFETCH_MAX_BYTES',
    description: 'After a write, documents up to this size have their text extracted while workers are idle, so the first text request is answered from the cache; 0 turns this off',
    default: 64 * MiB,
    parse: integer(0, 8 * 1024 * MiB),
  },
  corsOrigins: {
    env: 'PDFSERVICE_CORS_ORIGINS',
    description: 'Comma-separated origins whose browser applications may call the API (CORS, with credentials); empty: no CORS headers at all',
    default: () => [],
    parse: originList,
  },
  metricsPublic: { env: 'PDFSERVICE_METRICS_PUBLIC', description: 'Serve GET /pdfservice/v1/metrics without login (otherwise admins only)', default: false, parse: boolean },
  maxConnections: {
    env: 'PDFSERVICE_MAX_CONNECTIONS',
    description: 'Open connections in total; more are closed at once. Default: half the open-file limit, so files and workers keep descriptors',
    default: () => Math.max(64, Math.floor(openFileLimit() / 2)),
    parse: integer(1, 1_000_000),
  },
  maxConnectionsPerAddress: {
    env: 'PDFSERVICE_MAX_CONNECTIONS_PER_ADDRESS',
    description: 'Open connections from one client address; more are closed at once. 0: no cap (behind a reverse proxy, where every connection comes from the proxy)',
    default: 128,
    parse: integer(0, 1_000_000),
  },
  headersTimeoutMs: { env: 'PDFSERVICE_HEADERS_TIMEOUT_MS', description: 'A request\'s headers must arrive within this', default: 20_000, parse: integer(100, 3_600_000) },
  requestTimeoutMs: {
    env: 'PDFSERVICE_REQUEST_TIMEOUT_MS',
    description: 'A whole request, body included, must arrive within this (0: no limit); long, as uploads are guarded by a minimum rate',
    default: 2 * 3_600_000,
    parse: (raw) => (raw.trim() === '0' ? 0 : integer(1000, 24 * 3_600_000)(raw)),
  },
  keepAliveTimeoutMs: { env: 'PDFSERVICE_KEEP_ALIVE_TIMEOUT_MS', description: 'An idle keep-alive connection is closed after this', default: 10_000, parse: integer(100, 3_600_000) },
  publicBodyTimeoutMs: {
    env: 'PDFSERVICE_PUBLIC_BODY_TIMEOUT_MS',
    description: 'The body of a request made without login (a login) must arrive within this, or the connection is closed',
    default: 10_000,
    parse: integer(100, 3_600_000),
  },
  bodyMinBytes: {
    env: 'PDFSERVICE_BODY_MIN_BYTES',
    description: 'A body delivering less than this in a PDFSERVICE_BODY_RATE_WINDOW_SECONDS window, while the service waits for it, is cut (0: off)',
    default: 16 * 1024,
    parse: integer(0, 1024 * MiB),
  },
  bodyRateWindowSeconds: { env: 'PDFSERVICE_BODY_RATE_WINDOW_SECONDS', description: 'The window of that minimum rate', default: 20, parse: integer(1, 3600) },
  jobQueueLimit: {
    env: 'PDFSERVICE_JOB_QUEUE_LIMIT',
    description: 'Background jobs queued and running at once; when full, a further Prefer: respond-async request is refused at once with 503 and Retry-After, unless its user holds less than the fair share (then the newest waiting job of the user holding the most makes room; docs/jobs.md, Fair share)',
    default: 100,
    parse: integer(1, 100_000),
  },
  jobConcurrency: {
    env: 'PDFSERVICE_JOB_CONCURRENCY',
    description: 'Background jobs running at once, all users together. 0: PDFSERVICE_WORKERS',
    default: 0,
    parse: integer(0, 64),
  },
  jobRetentionSeconds: {
    env: 'PDFSERVICE_JOB_RETENTION_SECONDS',
    description: "How long a finished job's record, with its result or error, is kept; then it is deleted (GET /jobs/{id} is 404)",
    default: 7 * 86400,
    parse: integer(60, 366 * 86400),
  },
  jobAsyncBytes: {
    env: 'PDFSERVICE_JOB_ASYNC_BYTES',
    description: 'An action on a document larger than this, or a conversion of an upload larger than this, runs as a background job unless the client sends Prefer: wait=N (0: no size rule)',
    default: 100 * MiB,
    parse: integer(0, 64 * 1024 * MiB),
  },
  officeInstances: {
    env: 'PDFSERVICE_OFFICE_INSTANCES',
    description: 'Warm LibreOffice instances converting Office uploads at once, each with its own profile (docs/office.md). Default: the cores',
    default: () => Math.max(1, os.availableParallelism()),
    parse: integer(1, 64),
  },
  officeRestartAfter: { env: 'PDFSERVICE_OFFICE_RESTART_AFTER', description: 'A LibreOffice instance is replaced after this many conversions', default: 200, parse: integer(1, 1_000_000) },
  officeMaxRssMb: {
    env: 'PDFSERVICE_OFFICE_MAX_RSS_MB',
    description: 'A LibreOffice instance whose processes use more resident memory than this after a conversion is replaced',
    default: 1024,
    parse: integer(64, 65_536),
  },
  officeTimeoutMs: {
    env: 'PDFSERVICE_OFFICE_TIMEOUT_MS',
    description: 'Longest one Office conversion may take; then its instance is killed and replaced (504). 0: PDFSERVICE_TASK_TIMEOUT_MS',
    default: 0,
    parse: (raw) => (raw.trim() === '0' ? 0 : integer(100, 86_400_000)(raw)),
  },
  officeQueue: {
    env: 'PDFSERVICE_OFFICE_QUEUE',
    description: 'Office conversions that may wait for a LibreOffice instance; one more is refused with 503 and Retry-After (background jobs wait whatever). 0: 4 x PDFSERVICE_OFFICE_INSTANCES',
    default: 0,
    parse: integer(0, 100_000),
  },
  officeProgram: {
    env: 'PDFSERVICE_OFFICE_PROGRAM',
    description: "LibreOffice's soffice, which each pool instance starts: a path, or a name looked up on PATH; a full build (Debian libreoffice-core), not the -nogui one (docs/office.md#components)",
    default: 'soffice',
    parse: (raw) => (nonEmpty(raw).includes('/') ? path.resolve(raw.trim()) : raw.trim()),
  },
  officeMemoryMb: {
    env: 'PDFSERVICE_OFFICE_MEMORY_MB',
    description: 'Address space each process of a LibreOffice instance may use (RLIMIT_AS, by prlimit); a conversion that needs more is 422 CONVERSION_FAILED and its instance is replaced (docs/office.md#memory). 0: no limit',
    default: 3072,
    parse: (raw) => (raw.trim() === '0' ? 0 : integer(256, 1_048_576)(raw)),
  },
  tesseractMemoryMb: { env: 'PDFSERVICE_TESSERACT_MEMORY_MB', description: 'Address space each Tesseract process may use (RLIMIT_AS). 0: no limit', default: 2048, parse: (raw) => (raw.trim() === '0' ? 0 : integer(64, 1_048_576)(raw)) },
  ghostscriptMemoryMb: { env: 'PDFSERVICE_GHOSTSCRIPT_MEMORY_MB', description: 'Address space each Ghostscript process may use (RLIMIT_AS). 0: no limit', default: 4096, parse: (raw) => (raw.trim() === '0' ? 0 : integer(64, 1_048_576)(raw)) },
  qpdfMemoryMb: { env: 'PDFSERVICE_QPDF_MEMORY_MB', description: 'Address space each qpdf process may use (RLIMIT_AS). 0: no limit', default: 4096, parse: (raw) => (raw.trim() === '0' ? 0 : integer(64, 1_048_576)(raw)) },
  verapdfHeapMb: { env: 'PDFSERVICE_VERAPDF_HEAP_MB', description: "veraPDF's JVM heap (-Xmx): a JVM is bounded by its heap, not by an address-space limit", default: 768, parse: integer(64, 1_048_576) },
  userJobLimit: {
    env: 'PDFSERVICE_USER_JOB_LIMIT',
    description: "Background jobs one user may have running at once while other users' jobs wait; a user whose jobs are the only ones waiting gets every free slot",
    default: 1,
    parse: integer(1, 64),
  },
  store: {
    env: 'PDFSERVICE_STORE',
    description: 'Where documents live: `filesystem` (the data folder), `webdav` (a document-management server; docs/dms.md) or `s3` (a bucket of S3-compatible storage; docs/s3.md)',
    default: 'filesystem',
    parse: oneOf('filesystem', 'webdav', 's3') as (raw: string) => 'filesystem' | 'webdav' | 's3',
  },
  webdavUrl: { env: 'PDFSERVICE_WEBDAV_URL', description: 'With `webdav`: the collection that is the root folder (http or https URL)', default: undefined, parse: httpUrl },
  webdavAuth: {
    env: 'PDFSERVICE_WEBDAV_AUTH',
    description:
      'With `webdav`: `passthrough`, users log in with their DMS credentials and the service acts with them; `mapped`, users log in to the service and act as the DMS account an admin mapped to them (docs/dms.md)',
    default: 'passthrough',
    parse: oneOf('passthrough', 'mapped') as (raw: string) => 'passthrough' | 'mapped',
  },
  secretsKey: {
    env: 'PDFSERVICE_SECRETS_KEY',
    description: 'The key that encrypts the secrets the service keeps outside its memory (the mapped DMS accounts of `mapped`, and the DMS credentials of passthrough sessions in Redis: both need it), 32 bytes as 64 hex digits or base64 (`openssl rand -base64 32`)',
    default: undefined,
    parse: secretsKey,
  },
  secretsKeyFile: {
    env: 'PDFSERVICE_SECRETS_KEY_FILE',
    description: 'A file holding that key instead (a container secret); read at start',
    default: undefined,
    parse: (raw) => path.resolve(nonEmpty(raw)),
  },
  webdavUserRights: {
    env: 'PDFSERVICE_WEBDAV_USER_RIGHTS',
    description: 'With `passthrough`: the rights of a DMS user who has no service user of the same name (comma-separated HTTP methods; a service user keeps its own rights)',
    default: ['GET', 'POST', 'PUT', 'DELETE'],
    parse: list,
  },
  webdavCaFile: { env: 'PDFSERVICE_WEBDAV_CA_FILE', description: 'PEM certificates to trust for the DMS besides the system ones', default: undefined, parse: (raw) => path.resolve(nonEmpty(raw)) },
  webdavCertFile: { env: 'PDFSERVICE_WEBDAV_CERT_FILE', description: 'PEM client certificate for a DMS that asks for one (with PDFSERVICE_WEBDAV_KEY_FILE)', default: undefined, parse: (raw) => path.resolve(nonEmpty(raw)) },
  webdavKeyFile: { env: 'PDFSERVICE_WEBDAV_KEY_FILE', description: 'PEM private key of that client certificate', default: undefined, parse: (raw) => path.resolve(nonEmpty(raw)) },
  webdavInsecureTls: { env: 'PDFSERVICE_WEBDAV_INSECURE_TLS', description: 'Accept any certificate from the DMS (tests only: anyone on the path can read the credentials)', default: false, parse: boolean },
  webdavTimeoutMs: { env: 'PDFSERVICE_WEBDAV_TIMEOUT_MS', description: 'A DMS request that waits this long for headers or between body chunks fails with 503', default: 30_000, parse: integer(100, 3_600_000) },
  s3Endpoint: { env: 'PDFSERVICE_S3_ENDPOINT', description: "With `s3`: the S3 endpoint (http or https URL); unset: AWS's endpoint for the region", default: undefined, parse: httpUrl },
  s3Region: { env: 'PDFSERVICE_S3_REGION', description: 'With `s3`: the region requests are signed for', default: 'us-east-1', parse: nonEmpty },
  s3Bucket: { env: 'PDFSERVICE_S3_BUCKET', description: 'With `s3`: the bucket documents live in (it must exist)', default: undefined, parse: nonEmpty },
  s3Prefix: { env: 'PDFSERVICE_S3_PREFIX', description: "With `s3`: put before every key, so that several services can share a bucket (say `pdfservice/`)", default: '', parse: s3Prefix },
  s3AccessKeyId: { env: 'PDFSERVICE_S3_ACCESS_KEY_ID', description: "With `s3`: the access key (with PDFSERVICE_S3_SECRET_ACCESS_KEY); unset: the AWS SDK's default chain (AWS_* variables, profile, instance role)", default: undefined, parse: nonEmpty },
  s3SecretAccessKey: { env: 'PDFSERVICE_S3_SECRET_ACCESS_KEY', description: 'With `s3`: the secret of that access key', default: undefined, parse: nonEmpty },
  s3ForcePathStyle: { env: 'PDFSERVICE_S3_FORCE_PATH_STYLE', description: 'With `s3`: path-style URLs (endpoint/bucket/key), which S3-compatible servers without a DNS name per bucket need', default: true, parse: boolean },
  s3TimeoutMs: { env: 'PDFSERVICE_S3_TIMEOUT_MS', description: 'With `s3`: an S3 request waiting this long for a connection or an answer fails with 503', default: 30_000, parse: integer(100, 3_600_000) },
  redisUrl: {
    env: 'PDFSERVICE_REDIS_URL',
    description: 'Redis that several instances share sessions, login throttling, document locks, users, API tokens, optimize profiles and background jobs through (redis:// or rediss://, password and database in the URL; docs/deployment.md); unset: in memory and the data folder',
    default: undefined,
    parse: redisUrl,
  },
  redisPrefix: { env: 'PDFSERVICE_REDIS_PREFIX', description: 'Every Redis key the service uses starts with this', default: 'pdfservice:', parse: redisPrefix },
  redisTimeoutMs: {
    env: 'PDFSERVICE_REDIS_TIMEOUT_MS',
    description: 'Longest wait for a connection to Redis or an answer; past it the request is 503 REDIS_UNAVAILABLE',
    default: 2000,
    parse: integer(100, 60_000),
  },
  lockLeaseMs: {
    env: 'PDFSERVICE_LOCK_LEASE_MS',
    description: 'With Redis: how long a document lock lasts unless its instance renews it (every third of it while held); a crashed instance\'s locks are free after it',
    default: 30_000,
    parse: integer(1000, 600_000),
  },
  lockWaitMs: {
    env: 'PDFSERVICE_LOCK_WAIT_MS',
    description: 'With Redis: the longest a write waits for a document another request is changing; past it the request is 503 DOCUMENT_LOCKED with Retry-After',
    default: 60_000,
    parse: integer(100, 3_600_000),
  },
  runJobs: {
    env: 'PDFSERVICE_RUN_JOBS',
    description: 'With PDFSERVICE_REDIS_URL: whether this instance runs background jobs from the shared queue; false: it only queues them for other instances and `npm run worker` processes (jobs on uploaded files still run on the instance that received them; docs/jobs.md)',
    default: true,
    parse: boolean,
  },
};

/** PDFSERVICE_USER_TASK_LIMIT as the pool applies it: 0 means one less than the workers, at least 1. */
export function userTaskLimit(config: Pick<Config, 'userTaskLimit' | 'workers'>): number {
  return config.userTaskLimit > 0 ? config.userTaskLimit : Math.max(1, config.workers - 1);
}

/** PDFSERVICE_JOB_CONCURRENCY as the jobs apply it: 0 means as many as the engine has workers. */
export function jobConcurrency(config: Pick<Config, 'jobConcurrency' | 'workers'>): number {
  return config.jobConcurrency > 0 ? config.jobConcurrency : config.workers;
}

/** Each external program's memory bound as tools/index.ts takes it (docs/office.md#memory). */
export function toolMemory(config: Pick<Config, 'officeMemoryMb' | 'tesseractMemoryMb' | 'ghostscriptMemoryMb' | 'qpdfMemoryMb' | 'verapdfHeapMb'>) {
  return { office: config.officeMemoryMb, tesseract: config.tesseractMemoryMb, ghostscript: config.ghostscriptMemoryMb, qpdf: config.qpdfMemoryMb, verapdfHeap: config.verapdfHeapMb };
}

/** The LibreOffice pool's settings as tools/libreoffice.ts takes them: the 0 defaults resolved. */
export function officePool(config: Pick<Config, 'officeInstances' | 'officeRestartAfter' | 'officeMaxRssMb' | 'officeTimeoutMs' | 'officeQueue' | 'officeProgram' | 'taskTimeoutMs'>) {
  return {
    program: config.officeProgram,
    timeoutMs: config.officeTimeoutMs > 0 ? config.officeTimeoutMs : config.taskTimeoutMs,
    instances: config.officeInstances,
    restartAfterUses: config.officeRestartAfter,
    maxRssMb: config.officeMaxRssMb,
    queueLimit: config.officeQueue > 0 ? config.officeQueue : 4 * config.officeInstances,
  };
}

/** Reads the configuration; throws one error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [keyof Config, Setting<unknown>][]) {
    const raw = env[setting.env];
    if (raw === undefined || raw === '') {
      config[key] = typeof setting.default === 'function' ? (setting.default as () => unknown)() : setting.default;
      continue;
    }
    try {
      config[key] = setting.parse(raw);
    } catch (err) {
      problems.push(`${setting.env} ${err instanceof ConfigError ? err.message : 'is invalid'}`);
    }
  }
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
  if (!config.webdavCertFile !== !config.webdavKeyFile) problems.push('PDFSERVICE_WEBDAV_CERT_FILE and PDFSERVICE_WEBDAV_KEY_FILE go together');
  if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return config as unknown as Config;
}
