import { DEFAULT_DPI, IMAGE_FORMATS, MAX_DPI, MAX_PIXELS, MIN_DPI } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps } from '../context.js';
import { negotiate } from '../negotiation.js';
import { answerNotModified, RenderedCache, sendVersionedModel, variantEtag, versionHeaders } from '../rendered-cache.js';
import { sliceLinks } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams, notModifiedResponse } from '../schemas/common.js';
import { DOCUMENT_TEXT_XML, documentTextSchema, PAGE_TEXT_XML, PAGES_DEFAULT_LIMIT, PAGES_MAX_LIMIT, PAGES_XML, pagesQuery, pagesSchema, pageTextSchema, textDetailQuery } from '../schemas/pages.js';

const headers = { type: 'object', properties: documentPasswordHeader } as const;
const tags = ['pages'];
const pageParams = {
  type: 'object',
  properties: {
    ...filePathParams.properties,
    // A string, so that anything that is not a page number is 404 PAGE_OUT_OF_RANGE (the URL names no page), not a schema error.
    pageIndex: { type: 'string', description: 'Zero-based page index; a value that names no page (past the end, negative, not a number) is 404 PAGE_OUT_OF_RANGE' },
  },
  required: ['filePath', 'pageIndex'],
} as const;

/** A model, or its text as text/plain. */
const textContent = (schema: object, description: string) => ({
  description,
  content: {
    'application/json': { schema },
    'application/xml': { schema },
    'text/plain': { schema: { type: 'string', description: 'UTF-8 text' } },
  },
});

/** `pageIndex` of the URL: digits only; anything else names no page. */
function pageIndexParam(request: { params: { pageIndex: string } }): number {
  const raw = request.params.pageIndex;
  if (!/^\d{1,9}$/.test(raw)) {
    throw new ServiceError('PAGE_OUT_OF_RANGE', `${JSON.stringify(raw)} is not a page: pageIndex is a zero-based page number`, undefined, undefined, { inPath: true });
  }
  return Number(raw);
}

/** The pages resource: page models, page text, the whole document's text, page images (docs/pages.md). */
export function registerPageRoutes(api: Api, deps: AppDeps): void {
  const { pages } = deps.operations;
  const rendered = new RenderedCache(64 * 1024 * 1024);

  api.get('/documents/:filePath.pdf/pages', {
    config: { model: true },
    schema: {
      summary: 'List the pages: size, rotation, boxes, annotation count',
      description:
        `One PageModel per page, in order, ${PAGES_DEFAULT_LIMIT} at a time by default (?offset=, ?limit= up to ${PAGES_MAX_LIMIT}), with the page count ` +
        'in total and the URLs of the next and previous slices in next/prev and the Link header. An offset past the end lists no pages. ' +
        'ETag and If-None-Match (304) by document version and slice. See docs/pages.md for the coordinate conventions.',
      tags,
      params: filePathParams,
      headers,
      querystring: pagesQuery,
      response: { 200: pagesSchema, ...notModifiedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const { offset, limit } = request.query;
    const { pages: list, total, etag } = await pages.list(documentPathParam(request), operationContext(request), { offset, limit });
    const { links, base, link } = sliceLinks(request, reply, offset, limit, total);
    // Access (password included) was checked above; the content does not depend on the password, so the variant leaves it out.
    // The links name this path, and one content stored under two paths has one ETag: a body with links is this path's.
    return sendVersionedModel(request, reply, rendered, PAGES_XML, { etag, variant: `pages|${offset}|${limit}|${link ? base : ''}` }, { model: () => ({ pages: list, total, offset, limit, ...links }) });
  });

  api.get('/documents/:filePath.pdf/pages/:pageIndex/text', {
    config: { model: 'text' },
    schema: {
      summary: "Get a page's text",
      description:
        'The page text in reading order: text/plain (UTF-8), or a PageTextModel as JSON or XML, which with ?detail=words|lines|blocks also ' +
        'lists those units with their bounding boxes in PDF user space. Needs extractTextAllowed when the document was opened with its user password.',
      tags,
      params: pageParams,
      headers,
      querystring: { type: 'object', properties: textDetailQuery },
      response: { 200: textContent(pageTextSchema, 'The page text'), ...notModifiedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const path = documentPathParam(request);
    const pageIndex = pageIndexParam(request);
    const { detail } = request.query;
    const { page, etag } = await pages.pageText(path, operationContext(request), pageIndex, detail);
    return sendVersionedModel(request, reply, rendered, PAGE_TEXT_XML, { etag, variant: `text|${pageIndex}|${detail ?? ''}` }, { model: () => page, text: () => page.text });
  });

  api.get('/documents/:filePath.pdf/text', {
    config: { model: 'text' },
    schema: {
      summary: "Get the whole document's text",
      description:
        'Every page\'s text, as GET .../pages/{pageIndex}/text gives it: text/plain with each page followed by a form feed ("\\f", as pdftotext ' +
        'writes it), or a DocumentTextModel (JSON or XML) with one entry per page. Kept per document version, so later page requests need no extraction.',
      tags,
      params: filePathParams,
      headers,
      response: { 200: textContent(documentTextSchema, "The document's text"), ...notModifiedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const { texts, etag } = await pages.documentText(documentPathParam(request), operationContext(request));
    return sendVersionedModel(request, reply, rendered, DOCUMENT_TEXT_XML, { etag, variant: 'text' }, {
      model: () => ({ pages: texts.map((text, pageIndex) => ({ pageIndex, text })) }),
      text: () => texts.map((text) => `${text}\f`).join(''),
    });
  });

  api.get('/documents/:filePath.pdf/pages/:pageIndex/image', {
    schema: {
      summary: 'Render a page as PNG or JPEG',
      description:
        `The page as displayed (rotation, crop box, annotations) on white, at ?dpi= (${MIN_DPI} to ${MAX_DPI}, default ${DEFAULT_DPI}): ` +
        `width × dpi / 72 pixels, rounded up. At most ${MAX_PIXELS / 1e6} megapixels (400 past it, naming the largest dpi for the page). ETag and If-None-Match (304).`,
      tags,
      params: pageParams,
      headers,
      querystring: {
        type: 'object',
        properties: {
          dpi: { type: 'integer', minimum: MIN_DPI, maximum: MAX_DPI, default: DEFAULT_DPI },
          format: { type: 'string', enum: [...IMAGE_FORMATS], default: 'png' },
        },
      },
      response: {
        200: {
          description: 'The page image',
          content: { 'image/png': { schema: { type: 'string', format: 'binary' } }, 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
        },
        ...notModifiedResponse,
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    const path = documentPathParam(request);
    const pageIndex = pageIndexParam(request);
    const { dpi, format } = request.query;
    const mediaType = `image/${format}`;
    if (request.headers.accept && !negotiate(request.headers.accept, [mediaType])) {
      throw new ServiceError('NOT_ACCEPTABLE', `This image is ${mediaType} (choose with ?format=)`);
    }
    const ctx = operationContext(request);
    const variant = `image|${pageIndex}|${dpi}|${format}`;
    if (await answerNotModified(request, reply, variant, () => pages.viewableVersion(path, ctx))) return reply;
    const { image, etag } = await pages.image(path, ctx, pageIndex, dpi, format);
    return versionHeaders(reply, variantEtag(etag, variant))
      .type(mediaType)
      .header('Content-Length', image.length)
      .send(Buffer.from(image.buffer, image.byteOffset, image.length));
  });
}
