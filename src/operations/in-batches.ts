/**
 * Store round trips for a request that names many stored documents (a merge's sources, a numbered set): a stat or a
 * read each, which S3 and WebDAV answer over the network, so a thousand one after another add up. This many at a time
 * overlap them without crowding the store or holding more documents open than that.
 */
export const DOCUMENTS_AT_ONCE = 8;

/**
 * `work` on each item, `atOnce` at a time (a batch starts when the previous one has ended), the answers in the items'
 * order. A failure is the first failing item's in that order, not the first to fail in time, so a request gets the
 * same answer (a 404 naming the same document) however the round trips interleave; its batch ends before it is thrown
 * (no work left running), and no later batch starts.
 */
export async function inBatches<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>, atOnce = DOCUMENTS_AT_ONCE): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += atOnce) {
    const settled = await Promise.allSettled(items.slice(i, i + atOnce).map((item, k) => work(item, i + k)));
    for (const s of settled) {
      if (s.status === 'rejected') throw s.reason;
      out.push(s.value);
    }
  }
  return out;
}
