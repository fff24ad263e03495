import { CSS_LENGTH_PATTERN, MAX_WAIT_DELAY_MS, PAPER_SIZES, SHARED_OPTIONS, type HtmlOptions } from '../../operations/conversions/html/options.js';
import type { OfficeOptions } from '../../operations/conversions/office/formats.js';

const length = (what: string) => ({ type: 'string', pattern: CSS_LENGTH_PATTERN, description: `HTML uploads: ${what}, a CSS length with px, in, cm or mm`, examples: ['2cm'] }) as const;
// Query lengths keep a request with every option at its longest well under the 16 KB request-line and header limit
// (431 HEADERS_TOO_LARGE): longer header and footer templates go as header.html and footer.html assets.
const text = (what: string, maxLength = 500) => ({ type: 'string', maxLength, description: `HTML uploads: ${what}` }) as const;

/**
 * An HTML upload's options as query parameters (docs/html.md#options), besides pageRange, landscape, pdfa and tagged,
 * which it shares with Office uploads (schemas/office.ts); image uploads take title, language and alt of them
 * (docs/accessibility.md). PUT and form uploads take them.
 */
export const htmlOptionsQuery = {
  paperSize: { type: 'string', enum: PAPER_SIZES, description: 'HTML uploads: the paper, by name (default A4); or width and height' },
  width: length('the paper width (with height, instead of paperSize)'),
  height: length('the paper height (with width)'),
  marginTop: length('the top margin (default 1cm)'),
  marginRight: length('the right margin (default 1cm)'),
  marginBottom: length('the bottom margin (default 1cm)'),
  marginLeft: length('the left margin (default 1cm)'),
  scale: { type: 'number', minimum: 0.1, maximum: 2, description: 'HTML uploads: the rendering scale (default 1)' },
  printBackground: { type: 'boolean', description: 'HTML uploads: print background colours and images (default true)' },
  preferCssPageSize: { type: 'boolean', description: "HTML uploads: the page's CSS @page size wins over paperSize, width and height (default false)" },
  headerTemplate: text('the header on every page, HTML with the classes pageNumber, totalPages, title and date (an asset named header.html serves too); the top margin must leave it room', 2000),
  footerTemplate: text('the footer on every page, as headerTemplate (an asset named footer.html serves too)', 2000),
  media: { type: 'string', enum: ['print', 'screen'], description: 'HTML uploads: the CSS media type emulated (default print)' },
  waitForSelector: text('print once an element matching this CSS selector is in the page', 500),
  waitForExpression: text('print once this JavaScript expression is true (evaluated in the page)', 1000),
  waitDelay: { type: 'integer', minimum: 0, maximum: MAX_WAIT_DELAY_MS, description: 'HTML uploads: wait this many milliseconds after the page has loaded (and waited) before printing (default 0)' },
  javascript: { type: 'boolean', description: "HTML uploads: run the page's scripts (default false)" },
  title: { ...text("the PDF's title (default: the page's <title>)"), description: "HTML and image uploads: the PDF's title (default: the page's <title>; an image's file name)" },
  author: text("the PDF's author"),
  subject: text("the PDF's subject"),
  keywords: text("the PDF's keywords"),
  language: { type: 'string', maxLength: 35, pattern: '^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$', description: "HTML and image uploads: the document's language, a BCP 47 tag (en, de-CH)" },
  alt: { type: 'string', minLength: 1, maxLength: 1000, description: "Image uploads: the image's alternate text, written as the tagged PDF's Figure /Alt (docs/accessibility.md)" },
  outline: { type: 'boolean', description: "HTML uploads: bookmarks from the page's headings (default true)" },
} as const;

type HtmlQuery = { [K in keyof typeof htmlOptionsQuery]?: HtmlOptions[K] };

const HTML_KEYS = Object.keys(htmlOptionsQuery) as (keyof typeof htmlOptionsQuery)[];

/** The HTML options present in a validated query (pageRange, landscape and pdfa from the Office ones), or undefined when none is. */
export function htmlOptionsOf(query: HtmlQuery & Pick<OfficeOptions, (typeof SHARED_OPTIONS)[number]>): HtmlOptions | undefined {
  const options: Record<string, unknown> = {};
  for (const key of [...HTML_KEYS, ...SHARED_OPTIONS]) if (query[key] !== undefined) options[key] = query[key];
  return Object.keys(options).length > 0 ? (options as HtmlOptions) : undefined;
}
