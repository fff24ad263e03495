import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServiceError } from '../../../errors.js';
import { convertPdfToPdfa } from '../../actions/PDFAConvertAction.js';
import { htmlToPdf } from '../../../tools/chromium.js';
import { checkToolOutput } from '../../tool-output.js';
import { PDF_TYPE } from '../pdf.js';
import type { ConversionOutput, ConvertDeps, Converter, StagedFile } from '../types.js';
import { finishHtmlPdf } from './finish.js';
import { allowedUrl, FetchBudget, fetchAllowed, MAX_URL_LENGTH, urlOfList, type WebPolicy } from './web.js';
import { FOOTER_ASSET, HEADER_ASSET, HTML_DEFAULTS, pdfOptionsOf, type HtmlOptions } from './options.js';

export const HTML_TYPE = 'text/html';
export const MARKDOWN_TYPE = 'text/markdown';
/** A web page by URL: the upload is a URI list (RFC 2483) of one URL. */
export const URI_LIST_TYPE = 'text/uri-list';

/** The converters Chromium prints for (HTML, Markdown, web pages): they take the HTML options (docs/html.md#options). */
export const PRINTED_CONVERTERS: readonly string[] = ['html', 'markdown', 'url'];

/** What the page of each printed converter is, for messages. */
export const PRINTED_WHAT: Readonly<Record<string, string>> = { html: 'an HTML page', markdown: 'Markdown text', url: 'a web page by URL' };

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
async function printPage(page: { name: string; bytes: Uint8Array; type?: string }, files: readonly Asset[], options: HtmlOptions, deps: ConvertDeps, web?: NonNullable<Parameters<typeof htmlToPdf>[1]['web']>): Promise<ConversionOutput> {
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
    web,
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
    // Loaded with the first Markdown upload: markdown-it costs every start about 60 ms of CPU otherwise (docs/testing.md).
    const { markdownToHtml } = await import('./markdown.js');
    const html = markdownToHtml(text, { css, title: options.title, lang: options.language, page: !ownPaper });
    const page = { name: 'index.html', bytes: new TextEncoder().encode(html) };
    return printPage(page, files.filter((file) => file.name !== page.name), { ...options, preferCssPageSize: options.preferCssPageSize ?? !ownPaper }, deps);
  },
};

/** Requests one web page may make besides its document: past them the page prints without the rest. */
export const MAX_PAGE_REQUESTS = 200;

/** The URL a text/uri-list upload names, allowed by the policy (web.ts's 400 and 403s): decided before the upload is answered. */
export async function checkUrlUpload(main: StagedFile, web: WebPolicy | undefined): Promise<URL> {
  // One URL and a few comment lines: a larger list is never read into memory.
  if (main.content.size > 2 * MAX_URL_LENGTH) throw new ServiceError('BAD_REQUEST', `A text/uri-list upload names one URL: this one is ${main.content.size} bytes`);
  const { text } = await readUtf8(main, 'URI list');
  return allowedUrl(web, urlOfList(text));
}

/**
 * Web pages by URL (docs/html.md, "Web pages by URL"): the body is a URI list of one URL on the operator's
 * allow-list. The service fetches the page (web.ts: redirects checked hop by hop, public addresses only, bounded),
 * then Chromium, still without network, prints it at its address; each request the page makes is handed back to the
 * service and fetched under the same policy, within the page's byte budget. A page that is not HTML, or answers
 * an error status, is 422 URL_FETCH_FAILED.
 */
export const urlConverter: Converter = {
  name: 'url',
  takes: { kind: 'file', mediaTypes: [URI_LIST_TYPE], extensions: { uri: URI_LIST_TYPE, uris: URI_LIST_TYPE } },
  produces: PDF_TYPE,
  long: false,
  // A URI list has no signature: only a declared type or a name's extension makes an upload one.
  sniff: () => undefined,
  async convert({ main }, deps) {
    const policy = deps.web;
    const url = await checkUrlUpload(main, policy);
    const scratch = await mkdtemp(path.join(tmpdir(), 'pdfservice-url-'));
    try {
      const budget = new FetchBudget(policy!.maxBytes);
      const fetched = await fetchAllowed(policy!, url, path.join(scratch, 'page'), budget, deps.signal);
      if (fetched.status < 200 || fetched.status > 299) throw new ServiceError('URL_FETCH_FAILED', `${fetched.url} answered ${fetched.status}`);
      const type = fetched.type.split(';')[0]!.trim().toLowerCase();
      if (type !== 'text/html' && type !== 'application/xhtml+xml') throw new ServiceError('URL_FETCH_FAILED', `${fetched.url} is ${type}, not an HTML page`);
      const bytes = await readFile(fetched.file);
      let requests = 0;
      const fetch = async (address: string, file: string) => {
        if (++requests > MAX_PAGE_REQUESTS) return null;
        try {
          const answer = await fetchAllowed(policy!, new URL(address), file, budget, deps.signal);
          return { status: answer.status, type: answer.type, file: answer.file };
        } catch (err) {
          // A sub-resource refused or failed is left out of the page; the page still prints.
          if (err instanceof ServiceError) return null;
          throw err;
        }
      };
      // The page's address as the browser requests it: without its fragment.
      const page = new URL(fetched.url);
      page.hash = '';
      return await printPage({ name: 'page', bytes, type: fetched.type }, [], deps.htmlOptions ?? {}, deps, { page: page.href, fetch });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
};
