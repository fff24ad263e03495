/**
 * Page ranges as people type them in a print dialog (DESIGN.md): 1-based,
 * comma-separated items "n", "a-b", "a-" (to the last page) and "-b" (from
 * the first). Pure: no MuPDF.
 */
import { EngineError } from '../errors.js';

const ITEM = /^(\d+)?\s*(-)?\s*(\d+)?$/u;

/**
 * The zero-based page indexes a range names, in the order written, each once.
 * Absent: every page. Empty (or blank) is 400 INVALID_PAGE_RANGE, as any range
 * that names no page: a client that sent a range meant some pages, and an
 * empty one turning into every page would delete, extract or OCR them all. A
 * malformed range is 400 INVALID_PAGE_RANGE; a page past the end is 400
 * PAGE_OUT_OF_RANGE.
 */
export function parsePageRange(range: string | undefined, pageCount: number): number[] {
  if (range === undefined) return Array.from({ length: pageCount }, (_, i) => i);
  checkPageRangeNotEmpty(range);
  const pages: number[] = [];
  const seen = new Set<number>();
  for (const raw of range.split(',')) {
    const item = raw.trim();
    const m = ITEM.exec(item);
    if (!item || !m || (m[1] === undefined && m[3] === undefined) || (m[2] === undefined && m[3] !== undefined && m[1] !== undefined)) {
      throw new EngineError('INVALID_PAGE_RANGE', `pageRange ${JSON.stringify(range)}: ${JSON.stringify(item)} is not a page number or range (1-based, e.g. "1-3,7,10-")`);
    }
    const first = m[1] !== undefined ? Number(m[1]) : 1;
    const last = m[2] === undefined ? first : m[3] !== undefined ? Number(m[3]) : pageCount;
    if (first < 1 || last < 1) throw new EngineError('INVALID_PAGE_RANGE', `pageRange ${JSON.stringify(range)}: pages are numbered from 1`);
    if (first > last) throw new EngineError('INVALID_PAGE_RANGE', `pageRange ${JSON.stringify(range)}: ${item} runs backwards`);
    if (last > pageCount) throw new EngineError('PAGE_OUT_OF_RANGE', `pageRange ${JSON.stringify(range)} names page ${last}; the document has ${pageCount}`);
    for (let p = first; p <= last; p++) {
      if (!seen.has(p - 1)) {
        seen.add(p - 1);
        pages.push(p - 1);
      }
    }
  }
  return pages;
}

/** 400 INVALID_PAGE_RANGE for a range that is empty or blank; actions check it when they are prepared, the engine again. */
function checkPageRangeNotEmpty(range: string): void {
  if (range.trim() === '') throw new EngineError('INVALID_PAGE_RANGE', `pageRange ${JSON.stringify(range)} names no page: leave pageRange out for every page, or name pages (1-based, e.g. "1-3,7,10-")`);
}
