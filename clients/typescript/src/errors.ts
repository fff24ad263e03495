/**
 * The service's errors as one class: every 4xx and 5xx answer is an RFC 9457 problem document with a stable `code`
 * (docs/errors.md), and a failed job carries the same document as its `error`.
 */

/** A problem document: the fields every error has, plus the extension members some codes add (docs/errors.md). */
export interface Problem {
  type?: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  instance?: string;
  requestId?: string;
  [extension: string]: unknown;
}

export class PdfServiceError extends Error {
  /** The HTTP status (a failed job: the status the inline request would have answered). */
  readonly status: number;
  /** The stable code to switch on (`DOCUMENT_NOT_FOUND`, `MALFORMED_PDF`, …). */
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  /** The service's request id, to quote when reporting a problem. */
  readonly requestId: string | undefined;
  /** The whole document, extension members included (`actions`, `requiredRight`, `report`, …). */
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title}`);
    this.name = 'PdfServiceError';
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.requestId = problem.requestId;
    this.problem = problem;
  }

  /**
   * The error an answer carries. A body that is not a JSON problem document (a proxy's page, say) still makes
   * one, with the code `HTTP_<status>`, so callers have one thing to catch.
   */
  static async fromResponse(response: Response): Promise<PdfServiceError> {
    const text = await response.text().catch(() => '');
    const requestId = response.headers.get('x-request-id') ?? undefined;
    try {
      const body = JSON.parse(text) as Partial<Problem>;
      if (typeof body.code === 'string' && typeof body.title === 'string') {
        return new PdfServiceError({ ...body, status: body.status ?? response.status, code: body.code, title: body.title, ...(requestId && !body.requestId ? { requestId } : {}) });
      }
    } catch {
      // Not JSON: described below from the status line.
    }
    return new PdfServiceError({
      status: response.status,
      code: `HTTP_${response.status}`,
      title: response.statusText || `HTTP ${response.status}`,
      ...(text ? { detail: text.slice(0, 500) } : {}),
      ...(requestId ? { requestId } : {}),
    });
  }
}
