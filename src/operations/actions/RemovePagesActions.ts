import type { FromSchema } from 'json-schema-to-ts';
import { availableParallelism } from 'node:os';
import { ServiceError } from '../../errors.js';
import { BLANK_DEFAULTS } from '../../engine/models.js';
import { NOT_BLANK } from '../../validation.js';
import { throwIfStopped } from '../execution.js';
import type { ActionDefinition, ActionOutput, ExecuteInput } from './types.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

/**
 * Removing pages found by what they show (docs/page-numbers.md, "Remove blank pages"): blank pages, by the ink of
 * their rendering, and pages by their text. Both find the pages first, then delete them as DeletePagesAction does
 * (the editPages task: outline items, destinations, links and form fields of the removed pages go with them).
 */

const COMMON = {
  ...OUTPUT_PARAM_SCHEMAS,
  pageRange: { type: 'string', maxLength: 10000, pattern: NOT_BLANK, description: 'Only these pages are considered, 1-based, as in a print dialog: "2-9" (default, when absent: every page; empty is 400)' },
  dryRun: { type: 'boolean', default: false, description: 'Only list the pages that would be removed: nothing is written' },
} as const;

/** A document held as bytes larger than this is measured in one share: each share would get its own copy (pages.ts, extractAll). */
const SPLIT_MAX_BYTES = 16 * 1024 * 1024;

interface Found {
  pageCount: number;
  /** Zero-based, in document order. */
  pages: number[];
}

/**
 * The answer for the pages found: nothing written for a dry run or when none were found, else the document without
 * them. Never every page: a PDF keeps at least one (400, as DeletePagesAction).
 */
async function removeFound(action: string, input: ExecuteInput<{ dryRun: boolean }, unknown>, found: Found, extra: Record<string, unknown>): Promise<ActionOutput> {
  const { params, source, engine, ctx, exec } = input;
  const pageRange = found.pages.map((p) => p + 1).join(',');
  const report = { removed: found.pages, ...(pageRange ? { pageRange } : {}), dryRun: params.dryRun, ...extra };
  if (found.pages.length === found.pageCount) {
    throw new ServiceError('VALIDATION_FAILED', `${action}: every page of the document (${found.pageCount}) would be removed; a PDF must keep at least one. Nothing was written`, { pages: found.pageCount });
  }
  if (params.dryRun) return { kind: 'unchanged', report, savePath: 'nothing' };
  if (!found.pages.length) return { kind: 'unchanged', report };
  throwIfStopped(exec);
  const result = await engine.run('editPages', { pdf: source.pdf, password: ctx.documentPassword, operation: { kind: 'delete', pageRange } });
  return { kind: 'document', bytes: result.bytes!, report, ...(result.summary ? { summary: result.summary } : {}) };
}

const blankSchema = {
  type: 'object',
  properties: {
    ...COMMON,
    threshold: { type: 'number', minimum: 0, maximum: 1, default: BLANK_DEFAULTS.threshold, description: 'A page is blank when the share of its pixels that are not white is below this' },
    whiteLevel: { type: 'integer', minimum: 1, maximum: 255, default: BLANK_DEFAULTS.whiteLevel, description: 'A pixel is white when its red, green and blue values are all at least this (0-255)' },
    dpi: { type: 'integer', minimum: 9, maximum: 150, default: BLANK_DEFAULTS.dpi, description: 'Resolution the pages are rendered at to measure their ink' },
  },
  additionalProperties: false,
} as const;
type BlankParams = FromSchema<typeof blankSchema>;

/**
 * RemoveBlankPagesAction: each page is rendered small as shown (annotations too) on the engine's workers in parallel
 * shares, and a page whose share of non-white pixels is below the threshold is removed.
 */
export const RemoveBlankPagesAction: ActionDefinition<BlankParams> = {
  name: 'RemoveBlankPagesAction',
  target: 'pages',
  need: 'assemble',
  summary:
    'Removes blank pages: each page (of pageRange, default all) is rendered at dpi, and a page whose share of pixels darker than whiteLevel in any of red, green and blue is below ' +
    'threshold (default 0.001, a tenth of a percent) is removed. dryRun only lists them. The report lists the removed pages (zero-based, and as a 1-based pageRange) and each one\'s ink. ' +
    'A document whose every page is blank is 400: a PDF keeps at least one page. See docs/page-numbers.md.',
  schema: blankSchema,
  async execute(input) {
    const { params, source, engine, ctx } = input;
    const { pdf } = source;
    // One share a core (the workers' default number), as the whole document's text is extracted (pages.ts, extractAll).
    const wanted = Math.max(1, availableParallelism());
    const parts = pdf instanceof Uint8Array && pdf.length > SPLIT_MAX_BYTES ? 1 : wanted;
    // The shares are one request's work: one group, counted once against the user's task limit (pool.ts).
    const group = {};
    const shares = await Promise.all(
      Array.from({ length: parts }, (_, part) => engine.run('pageInk', { pdf, password: ctx.documentPassword, pageRange: params.pageRange, part, parts, dpi: params.dpi, whiteLevel: params.whiteLevel }, { group })),
    );
    const measured = shares.flatMap((s) => s.pages).sort((a, b) => a.pageIndex - b.pageIndex);
    const blank = measured.filter((p) => p.ink < params.threshold);
    const ink = blank.map((p) => Math.round(p.ink * 1e6) / 1e6);
    return removeFound('RemoveBlankPagesAction', input, { pageCount: shares[0]!.pageCount, pages: blank.map((p) => p.pageIndex) }, { ink });
  },
};

const textSchema = {
  type: 'object',
  properties: {
    ...COMMON,
    searchText: { type: 'string', minLength: 1, maxLength: 1000, pattern: NOT_BLANK, description: 'The text (or regular expression) a page to remove has' },
    regex: { type: 'boolean', default: false, description: 'searchText is a JavaScript regular expression (run under a time budget, as redaction\'s search)' },
    caseSensitive: { type: 'boolean', default: false },
    wholeWord: { type: 'boolean', default: false, description: 'Match whole words only' },
    match: { type: 'string', enum: ['contains', 'only'], default: 'contains', description: 'contains: the page\'s text has a match; only: the page\'s whole text (spaces and line breaks around it aside) is a match' },
  },
  required: ['searchText'],
  additionalProperties: false,
} as const;
type TextParams = FromSchema<typeof textSchema>;

/** RemovePagesByTextAction: removes the pages whose content text matches a search (or is nothing but a match). */
export const RemovePagesByTextAction: ActionDefinition<TextParams> = {
  name: 'RemovePagesByTextAction',
  target: 'pages',
  need: 'assemble',
  summary:
    'Removes the pages (of pageRange, default all) whose text contains searchText (match "contains"), or whose whole text is searchText (match "only": separator sheets). ' +
    'searchText is literal (whitespace matches any whitespace) or, with regex, a regular expression under a time budget, as the redaction search. Text of annotations is not searched. ' +
    'dryRun only lists the pages. A search that matches every page is 400. See docs/page-numbers.md.',
  schema: textSchema,
  async execute(input) {
    const { params, source, engine, ctx } = input;
    const search = { searchText: params.searchText, regex: params.regex, caseSensitive: params.caseSensitive, wholeWord: params.wholeWord, whole: params.match === 'only' };
    const found = await engine.run('pagesWithText', { pdf: source.pdf, password: ctx.documentPassword, search, pageRange: params.pageRange });
    return removeFound('RemovePagesByTextAction', input, found, {});
  },
};
