import { ServiceError } from '../../../errors.js';

/** The paper sizes Chromium prints by name (playwright-core's `format`). */
export const PAPER_SIZES = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

/** A CSS length Chromium takes for paper and margins: a number with px, in, cm or mm. */
export const CSS_LENGTH_PATTERN = '^\\d{1,5}(\\.\\d{1,4})?(px|in|cm|mm)$';

/** Longest waitDelay (ms): a delay is for a page's last script to settle, never a way to hold a browser. */
export const MAX_WAIT_DELAY_MS = 10_000;

/** An HTML upload's options (query parameters; docs/html.md#options). Absent ones take the defaults of HTML_DEFAULTS. */
export interface HtmlOptions {
  paperSize?: PaperSize;
  width?: string;
  height?: string;
  marginTop?: string;
  marginRight?: string;
  marginBottom?: string;
  marginLeft?: string;
  landscape?: boolean;
  scale?: number;
  printBackground?: boolean;
  /** 1-based pages and ranges ("1-3,5"), as the Office uploads' pageRange. */
  pageRange?: string;
  preferCssPageSize?: boolean;
  headerTemplate?: string;
  footerTemplate?: string;
  media?: 'print' | 'screen';
  waitForSelector?: string;
  waitForExpression?: string;
  waitDelay?: number;
  javascript?: boolean;
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  language?: string;
  tagged?: boolean;
  outline?: boolean;
  /** Image uploads only (a page describes its images by <img alt>): 400 on an HTML or Markdown upload. */
  alt?: string;
  /** The printed PDF converted to this PDF/A flavour (PDFAConvertAction's conversion), as the Office uploads' pdfa. */
  pdfa?: 'pdfa1b' | 'pdfa2b' | 'pdfa3b';
}

/** The defaults (docs/html.md#options lists them; a test reads the table). */
export const HTML_DEFAULTS = {
  paperSize: 'A4',
  margin: '1cm',
  landscape: false,
  scale: 1,
  printBackground: true,
  preferCssPageSize: false,
  media: 'print',
  javascript: false,
  tagged: true,
  outline: true,
} as const;

/** The metadata options, which the finished PDF gets (finish.ts). */
export type HtmlMetadata = Pick<HtmlOptions, 'title' | 'author' | 'subject' | 'keywords' | 'language'>;

/** Files of a bundle that are the header and footer templates when the options give none. */
export const HEADER_ASSET = 'header.html';
export const FOOTER_ASSET = 'footer.html';

/**
 * Chromium's page.pdf options for an upload's options and the bundle's templates: 400 BAD_REQUEST for a width without a
 * height (or the reverse), and for a paper size given with either.
 */
export function pdfOptionsOf(options: HtmlOptions, templates: { header?: string | undefined; footer?: string | undefined }): Record<string, unknown> {
  if ((options.width === undefined) !== (options.height === undefined)) throw new ServiceError('BAD_REQUEST', 'width and height go together: give both, or paperSize');
  if (options.width !== undefined && options.paperSize !== undefined) throw new ServiceError('BAD_REQUEST', 'Give paperSize, or width and height, not both');
  const header = options.headerTemplate ?? templates.header;
  const footer = options.footerTemplate ?? templates.footer;
  const margin = HTML_DEFAULTS.margin;
  return {
    ...(options.width !== undefined ? { width: options.width, height: options.height } : { format: options.paperSize ?? HTML_DEFAULTS.paperSize }),
    margin: { top: options.marginTop ?? margin, right: options.marginRight ?? margin, bottom: options.marginBottom ?? margin, left: options.marginLeft ?? margin },
    landscape: options.landscape ?? HTML_DEFAULTS.landscape,
    scale: options.scale ?? HTML_DEFAULTS.scale,
    printBackground: options.printBackground ?? HTML_DEFAULTS.printBackground,
    preferCSSPageSize: options.preferCssPageSize ?? HTML_DEFAULTS.preferCssPageSize,
    ...(options.pageRange !== undefined ? { pageRanges: options.pageRange } : {}),
    // Chromium prints its own date and title header when displayHeaderFooter is on and a template is missing: an empty one instead.
    ...(header !== undefined || footer !== undefined ? { displayHeaderFooter: true, headerTemplate: header ?? '<span></span>', footerTemplate: footer ?? '<span></span>' } : {}),
    tagged: options.tagged ?? HTML_DEFAULTS.tagged,
    outline: options.outline ?? HTML_DEFAULTS.outline,
  };
}

/** The options HTML and Office uploads both take (the query's Office ones): HtmlOptions carries them too. */
export const SHARED_OPTIONS = ['pageRange', 'landscape', 'pdfa', 'tagged'] as const;

/** The options given that only HTML uploads take. */
export function htmlOnlyOptions(options: HtmlOptions | undefined): string[] {
  return options ? Object.keys(options).filter((key) => !(SHARED_OPTIONS as readonly string[]).includes(key)) : [];
}
