import { ServiceError } from '../../../errors.js';
import { convertPdfToPdfa } from '../../actions/PDFAConvertAction.js';
import { htmlToPdf } from '../../../tools/chromium.js';
import { checkToolOutput } from '../../tool-output.js';
import { PDF_TYPE } from '../pdf.js';
import type { ConversionOutput, ConvertDeps, Converter, StagedFile } from '../types.js';
import { finishHtmlPdf } from './finish.js';
import { markdownToHtml } from './markdown.js';
import { FOOTER_ASSET, HEADER_ASSET, HTML_DEFAULTS, pdfOptionsOf, type HtmlOptions } from './options.js';

export const HTML_TYPE = 'text/html';
export const MARKDOWN_TYPE = 'text/markdown';

/** The converters Chromium prints for (HTML and Markdown): they take the HTML options (docs/html.md#options). */
export const PRINTED_CONVERTERS: readonly string[] = ['html', 'markdown'];

/** What an asset is served as when its part declared no type of its own (octet-stream), by its extension. */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  css: 'text/css',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  js: 'text/javascript',
  mjs: 'text/javascript',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The first bytes of an HTML document (after a byte order mark, spaces and comments): a doctype or an html, head or body tag. */
function looksLikeHtml(head: Uint8Array): boolean {
  const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1').replace(/^\xef\xbb\xbf/, '');
  return /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body)[\s>]/i.test(text);
}

/** The name a bundle's file is served at: its file name as sent, without a leading slash. */
function assetName(file: StagedFile, index: number): string {
  const name = (file.fileName ?? '').replace(/^\/+/, '');
  if (name === '') throw new ServiceError('MALFORMED_MULTIPART', `The "asset" part ${index + 1} needs a file name (Content-Disposition filename): the page refers to it by that name`);
  return name;
}

function assetType(file: StagedFile, name: string): string {
  const declared = file.mediaType.toLowerCase();
  if (declared !== '' && declared !== 'application/octet-stream') return declared === 'text/html' ? 'text/html; charset=utf-8' : declared;
  return ASSET_TYPES[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
}

interface Asset {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** The main file's text: 422 HTML_CONVERSION_FAILED for bytes that are not UTF-8 (`what`: "page" or "Markdown text"). */
async function readUtf8(main: StagedFile, what: string): Promise<{ bytes: Uint8Array; text: string }> {
  const bytes = await main.content.read();
  try {
    return { bytes, text: UTF8.decode(bytes) };
  } catch {
    throw new ServiceError('HTML_CONVERSION_FAILED', `The ${what} is not UTF-8 text (the service reads it as UTF-8)`);
  }
}

async function readAssets(assets: readonly StagedFile[]): Promise<Asset[]> {
  return Promise.all(assets.map(async (file, index) => {
    const name = assetName(file, index);
    return { name, type: assetType(file, name), bytes: await file.content.read() };
  }));
}

/**
 * One page printed by the pool with its bundle's files, finished (finish.ts) and checked as every converter's output:
 * the one way HTML and Markdown uploads reach Chromium.
 */
async function printPage(page: { name: string; bytes: Uint8Array }, files: readonly Asset[], options: HtmlOptions, deps: ConvertDeps): Promise<ConversionOutput> {
  const { engine, tools, signal, background, onQueued, onConverting } = deps;
  const template = (name: string) => {
    const file = files.find((candidate) => candidate.name === name);
    return file ? Buffer.from(file.bytes).toString('utf8') : undefined;
  };
  const pdfOptions = pdfOptionsOf(options, { header: template(HEADER_ASSET), footer: template(FOOTER_ASSET) });
  const printed = await htmlToPdf(tools, {
    main: page,
    assets: files,
    javascript: options.javascript ?? false,
    media: options.media ?? 'print',
    waitForSelector: options.waitForSelector,
    waitForExpression: options.waitForExpression,
    waitDelayMs: options.waitDelay,
    pdf: pdfOptions,
    signal,
    background,
    onQueued,
    onConverting,
  });
  const finished = await finishHtmlPdf(engine, printed, options.tagged ?? HTML_DEFAULTS.tagged, { title: options.title, author: options.author, subject: options.subject, keywords: options.keywords, language: options.language });
  // PDF/A last, on the finished PDF (its metadata, tags and outline kept where the conversion keeps them: docs/html.md, "PDF/A").
  const pdf = options.pdfa === undefined ? finished : await convertPdfToPdfa(finished, options.pdfa, { engine, tools, signal });
  return { content: pdf, mediaType: PDF_TYPE, summary: await checkToolOutput(engine, { program: 'Chromium', pdf }, { encrypted: false }) };
}

/**
 * HTML pages by a warm, sandboxed Chromium (docs/html.md): one self-contained page, or a bundle (a multipart upload's
 * `file` and its `asset` parts: style sheets, images, fonts, header and footer templates) that the page refers to by
 * the assets' file names. Nothing else is loaded: every other request of the page is refused.
 */
export const htmlConverter: Converter = {
  name: 'html',
  takes: { kind: 'bundle', mediaTypes: [HTML_TYPE], extensions: { html: HTML_TYPE, htm: HTML_TYPE } },
  produces: PDF_TYPE,
  long: false,
  sniff: (head) => (looksLikeHtml(head) ? HTML_TYPE : undefined),
  async convert({ main, assets }, deps) {
    const { bytes } = await readUtf8(main, 'page');
    const files = await readAssets(assets);
    const mainName = main.fileName && !files.some((file) => file.name === main.fileName) ? main.fileName.replace(/^\/+/, '') : 'index.html';
    return printPage({ name: mainName, bytes }, files, deps.htmlOptions ?? {}, deps);
  },
};

/** Options that set the paper or its margins: given any, a Markdown page leaves its default @page rule out. */
const PAPER_OPTIONS = ['paperSize', 'width', 'height', 'landscape', 'marginTop', 'marginRight', 'marginBottom', 'marginLeft'] as const;

/**
 * Markdown (docs/html.md, "Markdown"): the text made into one HTML page with the default print style sheet
 * (markdown.ts), then printed as an HTML upload is, with the same options. A bundle's style sheets (`asset` parts of
 * type text/css) are the user's CSS, after the default one, in the order sent; its other files (images) are served
 * to the page by their names. The default page is A4 from the style sheet's @page rule, unless the options set the
 * paper or margins; the page's language is the `language` option.
 */
export const markdownConverter: Converter = {
  name: 'markdown',
  takes: { kind: 'bundle', mediaTypes: [MARKDOWN_TYPE], extensions: { md: MARKDOWN_TYPE, markdown: MARKDOWN_TYPE } },
  produces: PDF_TYPE,
  long: false,
  // Markdown has no signature: an octet-stream upload is named by its extension, never sniffed.
  sniff: () => undefined,
  async convert({ main, assets }, deps) {
    const options: HtmlOptions = deps.htmlOptions ?? {};
    const { text } = await readUtf8(main, 'Markdown text');
    const files = await readAssets(assets);
    const css = files.filter((file) => file.type.split(';')[0] === 'text/css').map((file) => Buffer.from(file.bytes).toString('utf8')).join('\n');
    const ownPaper = PAPER_OPTIONS.some((key) => options[key] !== undefined);
    const html = markdownToHtml(text, { css, title: options.title, lang: options.language, page: !ownPaper });
    const page = { name: 'index.html', bytes: new TextEncoder().encode(html) };
    return printPage(page, files.filter((file) => file.name !== page.name), { ...options, preferCssPageSize: options.preferCssPageSize ?? !ownPaper }, deps);
  },
};
