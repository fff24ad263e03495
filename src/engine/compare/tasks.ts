/** Compare tasks: page digests, the content of unmatched pages, matching, the diff of pairs, the highlighted document (docs/compare.md). */
import { comparePageContent, comparePageDigests, comparePagePairs, compareHighlights, matchComparePages } from './compare.js';

export const compareTasks = { comparePageDigests, comparePageContent, matchComparePages, comparePagePairs, compareHighlights };
