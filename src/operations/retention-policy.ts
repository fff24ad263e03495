/**
 * Which kept versions a retention policy removes (docs/versions.md, "Retention"): pure, given the versions and `now`,
 * so a test sets the time. The sweep (retention.ts) applies the answer with DocumentVersions.remove under the
 * document's lock. Never the current version, never a pinned one.
 *
 * One document's versions go through three rules, in order:
 * 1. **Age** (`maxAgeMs`): versions created more than that before `now` go.
 * 2. **Thinning** (Nextcloud's schedule, coarsened: see THINNING): every version is kept for its first hour; older
 *    ones fall into fixed buckets by their creation time, and of the versions in one bucket the newest stays.
 * 3. **Count** (`maxCount`): of what is left, the oldest go until the document has `maxCount` versions, its current
 *    and pinned ones counted (never removed: with more pinned than that, only those and the current one stay).
 *
 * Then, over every document together, the **per-user cap** (`userBytes`): a user's bytes are the sizes of the
 * non-current versions they wrote (pinned ones included), each counted at its record's `size` even when the store
 * shares the bytes with another version or with the current document (a hard link, an equal blob): what a user
 * sees in the list is what counts, not how the store deduplicates. Above the cap, that user's oldest unpinned
 * non-current versions go until the total is at most the cap. Versions of no user (the service's own work,
 * `unrecorded` content) count to nobody's cap.
 */

/** What the policy looks at of a version (VersionRecord's fields, and whether it is the current content). */
export interface PolicyVersion {
  readonly id: string;
  readonly created: Date;
  readonly size: number;
  readonly by: string | null;
  readonly pinned: boolean;
  readonly current: boolean;
}

export interface RetentionPolicy {
  /** The most versions a document keeps, the current one and pinned ones counted; 0: no limit. */
  readonly maxCount: number;
  /** Versions created longer ago than this go; 0: no limit. */
  readonly maxAgeMs: number;
  readonly thinning: boolean;
  /** The bytes a user's non-current versions may take, all documents together; 0: no cap. */
  readonly userBytes: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/**
 * The thinning schedule, by a version's age (`now - created`): a version whose age is below `until` is in that tier.
 * `bucket` 0: every version is kept. Otherwise versions fall into buckets of that length counted from the Unix epoch
 * (UTC hours, UTC days, and weeks from Thursday 1 January 1970 00:00 UTC), each tier apart: the newest version of
 * each (tier, bucket) stays. The buckets nest (an hour in a day, a day in a week), so a version kept as its day's
 * newest is still its week's newest unless a later one of the same week is kept too, and a second sweep at the same
 * `now` removes nothing more.
 *
 * Nextcloud (files_versions, documented schedule): one version for the first second, one per 2 s for 10 s, one per
 * 10 s for a minute, one per minute for an hour, one per hour for 24 hours, one per day for 30 days, one per week
 * after. Its first tiers thin a desktop client's saves seconds apart; here every write is a deliberate API call (an
 * action, an edit, an upload), and the last hour's are the ones an undo reaches for, so all of the first hour is kept.
 */
export const THINNING: readonly { until: number; bucket: number }[] = [
  { until: HOUR, bucket: 0 },
  { until: DAY, bucket: HOUR },
  { until: 30 * DAY, bucket: DAY },
  { until: Infinity, bucket: WEEK },
];

/** Newest first by creation time, then by id (ids are ordered by time within a document). */
function newestFirst(a: PolicyVersion, b: PolicyVersion): number {
  return b.created.getTime() - a.created.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** Whether the policy may remove a version at all. */
const removable = (v: PolicyVersion): boolean => !v.current && !v.pinned;

/** The ids of one document's versions that the policy removes at `now` (age, thinning, count; see above). */
export function documentRemovals(versions: readonly PolicyVersion[], now: Date, policy: RetentionPolicy): Set<string> {
  const gone = new Set<string>();
  const at = now.getTime();
  const sorted = [...versions].sort(newestFirst);
  if (policy.maxAgeMs > 0) {
    for (const v of sorted) if (removable(v) && at - v.created.getTime() > policy.maxAgeMs) gone.add(v.id);
  }
  if (policy.thinning) {
    const kept = new Set<string>();
    for (const v of sorted) {
      if (!removable(v) || gone.has(v.id)) continue;
      const age = Math.max(0, at - v.created.getTime());
      const tier = THINNING.findIndex((t) => age < t.until);
      const { bucket } = THINNING[tier]!;
      if (bucket === 0) continue;
      const key = `${tier}:${Math.floor(v.created.getTime() / bucket)}`;
      // Newest first: the first of a bucket stays, the rest go.
      if (kept.has(key)) gone.add(v.id);
      else kept.add(key);
    }
  }
  if (policy.maxCount > 0) {
    let left = sorted.filter((v) => !gone.has(v.id)).length;
    for (const v of [...sorted].reverse()) {
      if (left <= policy.maxCount) break;
      if (!removable(v) || gone.has(v.id)) continue;
      gone.add(v.id);
      left--;
    }
  }
  return gone;
}

/** A version among every document's, for the per-user cap: `key` names it across documents (the sweep's choice). */
export interface UserVersion extends PolicyVersion {
  readonly key: string;
}

/** The keys of the versions the per-user cap removes (see above); none without a cap. */
export function userCapRemovals(versions: readonly UserVersion[], policy: Pick<RetentionPolicy, 'userBytes'>): Set<string> {
  const gone = new Set<string>();
  if (policy.userBytes <= 0) return gone;
  const byUser = new Map<string, UserVersion[]>();
  for (const v of versions) {
    if (v.by === null || v.current) continue;
    const list = byUser.get(v.by);
    if (list) list.push(v);
    else byUser.set(v.by, [v]);
  }
  for (const list of byUser.values()) {
    let total = list.reduce((sum, v) => sum + v.size, 0);
    if (total <= policy.userBytes) continue;
    // Oldest first; ties by key, so every instance that computes this picks the same versions.
    const oldest = list.filter((v) => !v.pinned).sort((a, b) => a.created.getTime() - b.created.getTime() || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const v of oldest) {
      if (total <= policy.userBytes) break;
      gone.add(v.key);
      total -= v.size;
    }
  }
  return gone;
}
