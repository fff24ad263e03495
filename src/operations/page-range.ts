import { pageOutOfRangeDetail, ServiceError, type ErrorOrigin } from '../errors.js';

/** A page index checked against a page count the operation already knows (from a cached model): 400, or 404 when it is part of the URL path. */
export function checkPage(pageIndex: number | undefined, pageCount: number, origin: ErrorOrigin = {}): void {
  if (pageIndex !== undefined && (pageIndex < 0 || pageIndex >= pageCount)) {
    throw new ServiceError('PAGE_OUT_OF_RANGE', pageOutOfRangeDetail(pageIndex, pageCount), undefined, undefined, origin);
  }
}
