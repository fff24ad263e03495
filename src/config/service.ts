import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { boolean, ConfigError, integer, integerOrZero, list, MiB, nonEmpty, oneOf, type SettingsFeature } from './setting.js';

/** The HTTP service's settings: where it listens, what it accepts, how it logs (src/start/service.ts). */
export interface ServiceSettings {
  host: string;
  port: number;
  maxUploadBytes: number;
  maxBodyBytes: number;
  maxXfdfBytes: number;
  logLevel: string;
  /** false, a number of proxy hops, or the addresses/CIDRs of the proxies (see trustedProxies). */
  trustProxy: false | number | string[];
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
}

/** Comma-separated origins (scheme://host[:port]), each exactly as browsers send it in Origin. */
const originList = (raw: string): string[] => {
  const origins = raw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    const parsed = URL.parse(origin);
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(`has "${origin}", which is not an origin such as https://app.example.com (scheme, host, optional port; no path, no trailing slash, no *)`);
    }
  }
  return origins;
};

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

export const SERVICE: SettingsFeature<ServiceSettings> = {
  settings: {
    host: { env: 'PDFSERVICE_HOST', doc: 'Address to listen on', default: '127.0.0.1', parse: nonEmpty },
    port: { env: 'PDFSERVICE_PORT', doc: 'TCP port (0 picks a free one)', default: 8080, parse: integer(0, 65535) },
    maxUploadBytes: { env: 'PDFSERVICE_MAX_UPLOAD_BYTES', doc: 'Largest document or file upload (413 past it)', shown: '`536870912` (512 MiB)', default: 512 * MiB, parse: integer(1024, 8 * 1024 * MiB) },
    maxBodyBytes: { env: 'PDFSERVICE_MAX_BODY_BYTES', doc: 'Largest JSON or XML body (413 past it)', shown: '`4194304` (4 MiB)', default: 4 * MiB, parse: integer(1024, 512 * MiB) },
    maxXfdfBytes: {
      env: 'PDFSERVICE_MAX_XFDF_BYTES',
      doc: 'Largest XFDF or FDF body (annotation and form data imports; 413 past it). Staged on disk as it arrives and parsed by an engine worker',
      shown: '`67108864` (64 MiB)',
      default: 64 * MiB,
      parse: integer(1024, 8 * 1024 * MiB),
    },
    logLevel: { env: 'PDFSERVICE_LOG_LEVEL', doc: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; logs are JSON lines with a request id (one line per request at `info`, its URL, status and time), never passwords or document content (secret-looking query values in logged URLs are `[REDACTED]`, docs/api.md)', default: 'info', parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent') },
    trustProxy: {
      env: 'PDFSERVICE_TRUST_PROXY',
      doc: "Which proxies may name the client in `X-Forwarded-For` (the address login throttling counts) and `X-Forwarded-Proto` (`Secure` cookies): their addresses or CIDRs, comma-separated (`127.0.0.1`, `10.0.0.0/8`, or `loopback`, `linklocal`, `uniquelocal`), or a number of proxy hops (`true` means 1). The header is read from its right end, never the client's own left-most entries. `false`: the connection's own address and scheme ([deployment.md](docs/deployment.md#behind-a-proxy))",
      default: false,
      parse: trustedProxies,
    },
    corsOrigins: {
      env: 'PDFSERVICE_CORS_ORIGINS',
      doc: 'Comma-separated origins (`https://app.example.com`) whose browser applications may call the API with credentials (CORS); empty sends no CORS headers at all',
      shown: 'empty',
      default: () => [],
      parse: originList,
    },
    metricsPublic: { env: 'PDFSERVICE_METRICS_PUBLIC', doc: 'Serve `GET /pdfservice/v1/metrics` (Prometheus) without login; otherwise only admins may read it', default: false, parse: boolean },
    maxConnections: {
      env: 'PDFSERVICE_MAX_CONNECTIONS',
      doc: 'Open connections in total; more are closed at once, so files and workers keep descriptors',
      shown: 'half the open-file limit (`ulimit -n`)',
      default: () => Math.max(64, Math.floor(openFileLimit() / 2)),
      parse: integer(1, 1_000_000),
    },
    maxConnectionsPerAddress: {
      env: 'PDFSERVICE_MAX_CONNECTIONS_PER_ADDRESS',
      doc: "Open connections from one client address; more are closed at once. `0`: no cap. Behind a reverse proxy every connection comes from the proxy: set it above the proxy's own cap per instance and cap clients at the proxy ([deployment.md](docs/deployment.md#behind-a-proxy))",
      default: 128,
      parse: integer(0, 1_000_000),
    },
    headersTimeoutMs: { env: 'PDFSERVICE_HEADERS_TIMEOUT_MS', doc: "A request's headers must arrive within this (408 past it)", default: 20_000, parse: integer(100, 3_600_000) },
    requestTimeoutMs: {
      env: 'PDFSERVICE_REQUEST_TIMEOUT_MS',
      doc: 'A whole request, body included, must arrive within this (`0`: no limit); long on purpose, as uploads are guarded by the minimum rate below',
      shown: '`7200000` (2 h)',
      default: 2 * 3_600_000,
      parse: integerOrZero(1000, 24 * 3_600_000),
    },
    keepAliveTimeoutMs: { env: 'PDFSERVICE_KEEP_ALIVE_TIMEOUT_MS', doc: 'An idle keep-alive connection is closed after this', default: 10_000, parse: integer(100, 3_600_000) },
    publicBodyTimeoutMs: {
      env: 'PDFSERVICE_PUBLIC_BODY_TIMEOUT_MS',
      doc: "The body of a request made without login (a login's) must arrive within this, or the connection is closed",
      default: 10_000,
      parse: integer(100, 3_600_000),
    },
    bodyMinBytes: {
      env: 'PDFSERVICE_BODY_MIN_BYTES',
      doc: 'A body that delivers less than this in one `PDFSERVICE_BODY_RATE_WINDOW_SECONDS` window, while the service waits for it, is cut (`0`: off)',
      default: 16 * 1024,
      parse: integer(0, 1024 * MiB),
    },
    bodyRateWindowSeconds: { env: 'PDFSERVICE_BODY_RATE_WINDOW_SECONDS', doc: 'The window of that minimum rate', default: 20, parse: integer(1, 3600) },
  },
};
