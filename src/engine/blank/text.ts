/**
 * The `pagesWithText` task: the pages whose content text matches a search, as
 * redaction searches (text/match.ts: a literal term or a regular expression,
 * the client's expression under a time budget), or whose whole text is what
 * the search matches (`whole`: separator sheets that say only "SEPARATOR").
 */
import { withPdf } from '../core/document-task.js';
import type { PdfSource } from '../core/pdf-source.js';
import { EngineError } from '../errors.js';
import { parsePageRange } from '../pages/range.js';
import type { TaskContext } from '../task-context.js';
import { literalPattern, matchSpans, searchPattern, type SearchOptions } from '../text/match.js';
import { pageContentText } from '../text/page-text.js';
import { RegexBudget } from '../text/regex-budget.js';

export interface PageTextSearch extends SearchOptions {
  /** The page's whole text (spaces and line breaks around it aside) must match, not a part of it. */
  whole?: boolean | undefined;
}

export function pagesWithText(input: { pdf: PdfSource; password?: string | undefined; search: PageTextSearch; pageRange?: string | undefined }, ctx?: TaskContext): { pageCount: number; pages: number[] } {
  const { search } = input;
  if (!search.searchText.trim()) throw new EngineError('INVALID_SEARCH', 'searchText must not be empty');
  // Checked as the client wrote it first, so that a bad expression is named as theirs and not as the anchored one.
  let pattern = searchPattern(search);
  if (search.whole) {
    const body = search.regex ? search.searchText : literalPattern(search.searchText);
    pattern = searchPattern({ ...search, searchText: `^\\s*(?:${body})\\s*$`, regex: true, wholeWord: false });
  }
  const budget = search.regex ? new RegexBudget(pattern.source, pattern.flags) : undefined;
  return withPdf(input, 'copy', (doc) => {
    const pageCount = doc.countPages();
    const chosen = parsePageRange(input.pageRange, pageCount);
    const pages: number[] = [];
    chosen.forEach((pageIndex, k) => {
      const page = doc.loadPage(pageIndex);
      try {
        const { text } = pageContentText(page);
        if ((budget ? budget.spans(text) : matchSpans(text, pattern)).length > 0) pages.push(pageIndex);
      } finally {
        page.destroy();
      }
      ctx?.progress({ done: k + 1, total: chosen.length, stage: 'search' });
    });
    return { pageCount, pages: pages.sort((a, b) => a - b) };
  });
}
