import { ServiceError } from '../../../errors.js';
import { htmlToPdf } from '../../../tools/chromium.js';
import { checkToolOutput } from '../../tool-output.js';
import { PDF_TYPE } from '../pdf.js';
import type { Converter, StagedFile } from '../types.js';
import { finishHtmlPdf } from './finish.js';
import { FOOTER_ASSET, HEADER_ASSET, pdfOptionsOf, type HtmlOptions } from './options.js';

export const HTML_TYPE = 'text/html';

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
  async convert({ main, assets }, { engine, tools, htmlOptions, signal, background, onQueued, onConverting }) {
    const options: HtmlOptions = htmlOptions ?? {};
    const bytes = await main.content.read();
    try {
      UTF8.decode(bytes);
    } catch {
      throw new ServiceError('HTML_CONVERSION_FAILED', 'The page is not UTF-8 text (the service reads HTML as UTF-8)');
    }
    const files = await Promise.all(assets.map(async (file, index) => {
      const name = assetName(file, index);
      return { name, type: assetType(file, name), bytes: await file.content.read() };
    }));
    const template = (name: string) => {
      const file = files.find((candidate) => candidate.name === name);
      return file ? Buffer.from(file.bytes).toString('utf8') : undefined;
    };
    const pdfOptions = pdfOptionsOf(options, { header: template(HEADER_ASSET), footer: template(FOOTER_ASSET) });
    const mainName = main.fileName && !files.some((file) => file.name === main.fileName) ? main.fileName.replace(/^\/+/, '') : 'index.html';
    const printed = await htmlToPdf(tools, {
      main: { name: mainName, bytes },
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
    const pdf = await finishHtmlPdf(engine, printed, { title: options.title, author: options.author, subject: options.subject, keywords: options.keywords, language: options.language });
    return { content: pdf, mediaType: PDF_TYPE, summary: await checkToolOutput(engine, { program: 'Chromium', pdf }, { encrypted: false }) };
  },
};
