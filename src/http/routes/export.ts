import { EXPORT_FORMATS, type ExportFormat } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import { noneMatch } from '../conditional.js';
import type { Api, AppDeps } from '../context.js';
import { negotiate } from '../negotiation.js';
import { variantEtag } from '../rendered-cache.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams, notModifiedResponse } from '../schemas/common.js';

/** Each format's media type, in the order Accept chooses among them (JSON first: a missing Accept or * / * is JSON). */
const MEDIA_TYPES: Record<ExportFormat, string> = { json: 'application/json', markdown: 'text/markdown', html: 'text/html' };
const formatOf = (mediaType: string) => EXPORT_FORMATS.find((f) => MEDIA_TYPES[f] === mediaType)!;

/** Export of a stored document as JSON, Markdown or HTML (docs/export.md). */
export function registerExportRoutes(api: Api, deps: AppDeps): void {
  const { pages } = deps.operations;
  api.get('/documents/:filePath.pdf/export', {
    schema: {
      summary: 'Export the document (or some pages) as JSON, Markdown or HTML',
      description:
        'The text of the document in reading order as blocks: headings (by font size and weight), paragraphs (lines joined, hyphenation at line ends ' +
        'undone), list items, tables (rows and cells) and image placeholders; running headers, footers and page numbers left out. ?format= (json, ' +
        'markdown, html) or, without it, Accept (application/json, text/markdown, text/html) chooses the format. ?pageRange= (1-based, e.g. "1-3,7") ' +
        'exports some pages. Pages without any text are 422 NO_TEXT (run OCRAction first). Needs extractTextAllowed when the document was opened with ' +
        'its user password. ETag and If-None-Match (304) by document version and options. See docs/export.md for the JSON schema and what is lost.',
      tags: ['export'],
      params: filePathParams,
      headers: { type: 'object', properties: documentPasswordHeader },
      querystring: {
        type: 'object',
        properties: {
          format: { type: 'string', enum: [...EXPORT_FORMATS], description: 'The format; absent: chosen by Accept (JSON by default)' },
          pageRange: { type: 'string', maxLength: 1000, description: 'Pages to export, 1-based as in a print dialog ("1-3,7,10-"); absent: every page' },
        },
      },
      response: {
        200: {
          description: 'The export',
          content: {
            'application/json': { schema: { type: 'object', description: 'ExportModel (docs/export.md)', additionalProperties: true } },
            'text/markdown': { schema: { type: 'string', description: 'CommonMark with GFM tables, UTF-8' } },
            'text/html': { schema: { type: 'string', description: 'An HTML document, UTF-8' } },
          },
        },
        ...notModifiedResponse,
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    const { format: asked, pageRange } = request.query;
    const accept = request.headers.accept;
    let format: ExportFormat;
    if (asked) {
      if (accept && !negotiate(accept, [MEDIA_TYPES[asked]])) throw new ServiceError('NOT_ACCEPTABLE', `format=${asked} is ${MEDIA_TYPES[asked]}, which the Accept header refuses`);
      format = asked;
    } else {
      const chosen = negotiate(accept, EXPORT_FORMATS.map((f) => MEDIA_TYPES[f]));
      if (!chosen) throw new ServiceError('NOT_ACCEPTABLE', `An export is ${EXPORT_FORMATS.map((f) => MEDIA_TYPES[f]).join(', ')} (or choose with ?format=)`);
      format = formatOf(chosen);
    }
    const path = documentPathParam(request);
    const ctx = operationContext(request);
    const variant = `export|${format}|${pageRange ?? ''}`;
    reply.header('Cache-Control', 'private, no-cache').header('Vary', 'Accept');
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch) {
      const etag = variantEtag(await pages.viewableVersion(path, ctx), variant);
      if (noneMatch(ifNoneMatch, etag)) return reply.header('ETag', etag).code(304).send();
    }
    const { content, etag } = await pages.export(path, ctx, { format, pageRange });
    return reply.header('ETag', variantEtag(etag, variant)).type(`${MEDIA_TYPES[format]}; charset=utf-8`).send(content);
  });
}
