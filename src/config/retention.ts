import { boolean, ConfigError, integer, type SettingsFeature } from './setting.js';

/**
 * How long kept versions stay (docs/versions.md, "Retention"): the policy (src/operations/retention-policy.ts) and the
 * background sweep that applies it (src/operations/retention.ts), whose other task empties the trash of old entries.
 */
export interface RetentionSettings {
  /** The most versions a document keeps, the current one and pinned ones counted; 0: no limit. */
  versionsMaxCount: number;
  /** Versions older than this (ms) go, unless pinned or current; 0: no limit. */
  versionsMaxAgeMs: number;
  /** Nextcloud-like thinning: every version for an hour, then one an hour, a day (30 days), a week. */
  versionsThinning: boolean;
  /** The bytes one user's earlier versions may take, all documents together; 0: no cap. */
  versionsUserBytes: number;
  /** Trash entries deleted longer ago than this (ms) are purged by the sweep; 0: kept until purged by hand. */
  trashMaxAgeMs: number;
  /** How often the sweep runs (ms), all instances together. */
  retentionSweepMs: number;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** A duration: a whole number with a unit (`s`, `m`, `h`, `d`, `w`; none: seconds), at most `maxMs`; `0` when `zero` allows it. */
export const duration = (minMs: number, maxMs: number, zero = false) => (raw: string): number => {
  const match = /^(\d+)\s*([smhdw]?)$/.exec(raw.trim());
  if (!match) throw new ConfigError('must be a whole number with a unit: s, m, h, d or w (say 90d)');
  const ms = Number(match[1]) * UNITS[match[2] || 's']!;
  if (ms === 0 && zero) return 0;
  if (ms < minMs || ms > maxMs) throw new ConfigError(`must be between ${minMs / 1000} s and ${maxMs / 86_400_000} days${zero ? ', or 0' : ''}`);
  return ms;
};

export const RETENTION: SettingsFeature<RetentionSettings> = {
  settings: {
    versionsMaxCount: {
      env: 'PDFSERVICE_VERSIONS_MAX_COUNT',
      doc: 'The most versions one document keeps, its current one and pinned ones counted: the oldest unpinned ones beyond it go at the next retention sweep ([docs/versions.md](docs/versions.md#retention)); `0`: no limit',
      shown: '`0` (no limit)',
      default: 0,
      parse: integer(0, 1_000_000),
    },
    versionsMaxAgeMs: {
      env: 'PDFSERVICE_VERSIONS_MAX_AGE',
      doc: 'Versions older than this go at the next retention sweep, unless pinned or current: a number with a unit, `s`, `m`, `h`, `d` or `w` (`365d`); `0`: no limit',
      shown: '`0` (no limit)',
      default: 0,
      parse: duration(60_000, 100 * 366 * 86_400_000, true),
    },
    versionsThinning: {
      env: 'PDFSERVICE_VERSIONS_THINNING',
      doc: 'Thin out older versions as Nextcloud does: every version is kept for an hour, then one an hour for a day, one a day for 30 days, one a week after that (pinned and current ones are always kept); `false`: keep every version (up to the count, age and byte limits)',
      default: true,
      parse: boolean,
    },
    versionsUserBytes: {
      env: 'PDFSERVICE_VERSIONS_USER_BYTES',
      doc: "The bytes one user's earlier versions (the versions they wrote that are not a document's current content, each counted at its full size) may take on all documents together; above it the retention sweep removes that user's oldest unpinned ones until under; `0`: no cap",
      shown: '`0` (no cap)',
      default: 0,
      parse: integer(0, Number.MAX_SAFE_INTEGER),
    },
    trashMaxAgeMs: {
      env: 'PDFSERVICE_TRASH_MAX_AGE',
      doc: 'Trash entries (deleted documents and folders, with their versions) deleted longer ago than this are purged for good at the next retention sweep ([docs/versions.md](docs/versions.md#trash); with `webdav`, those its DMS accounts see, and when a listing of the trash meets them): a number with a unit, `s`, `m`, `h`, `d` or `w`; `0`: kept until purged by hand',
      shown: '`30d`',
      default: 30 * 86_400_000,
      parse: duration(60_000, 100 * 366 * 86_400_000, true),
    },
    retentionSweepMs: {
      env: 'PDFSERVICE_RETENTION_SWEEP_INTERVAL',
      doc: 'How often the retention sweep applies these limits in the background (one instance at a time with `PDFSERVICE_REDIS_URL`); a number with a unit (`1h`)',
      shown: '`1h`',
      default: 3_600_000,
      parse: duration(1000, 366 * 86_400_000),
    },
  },
};
