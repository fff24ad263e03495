import { EXPORT_FORMATS, type ExportFormat } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import { noneMatch } from '../conditional.js';
import type { Api, AppDeps } from '../context.js';
import { negotiate } from '../negotiation.js';
import { contentDisposition, warningHeaders } from '../reply.js';
import { variantEtag } from '../rendered-cache.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams, notModifiedResponse } from '../schemas/common.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** Each format's media type, in the order Accept chooses among them (JSON first: a missing Accept or * / * is JSON). */
const MEDIA_TYPES: Record<ExportFormat, string> = { json: 'application/json', markdown: 'text/markdown', html: 'text/html', docx: DOCX };
const formatOf = (mediaType: string) => EXPORT_FORMATS.find((f) => MEDIA_TYPES[f] === mediaType)!;

/** Export of a stored document as JSON, Markdown, HTML or DOCX (docs/export.md). */
export function registerExportRoutes(api: Api, deps: AppDeps): void {
  const { pages } = deps.operations;
  api.get('/documents/:filePath.pdf/export', {
    schema: {
      summary: 'Export the document (or some pages) as JSON, Markdown, HTML or DOCX',
      description:
        'The text of the document in reading order as blocks: headings (by font size and weight), paragraphs (lines joined, hyphenation at line ends ' +
        'undone), list items, tables (rows and cells) and image placeholders; running headers, footers and page numbers left out. ?format= (json, ' +
        'markdown, html, docx) or, without it, Accept (application/json, text/markdown, text/html, ' + DOCX + ') chooses the format. DOCX is a ' +
        'flowing Word document: Heading 1-6 and Normal styles, Word lists, tables with a repeated header row, images in place, a page break per ' +
        'PDF page, links; its warnings (images left out, pages without text) in X-Service-Warning headers. ?pageRange= (1-based, e.g. "1-3,7") ' +
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
            [DOCX]: { schema: { type: 'string', format: 'binary', description: 'A DOCX (Office Open XML) document' } },
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
    const { content, warnings, etag } = await pages.export(path, ctx, { format, pageRange });
    reply.header('ETag', variantEtag(etag, variant));
    if (format === 'docx') {
      warningHeaders(reply, warnings).header('Content-Disposition', contentDisposition('attachment', path.name.replace(/\.pdf$/iu, '.docx')));
      const bytes = content as Uint8Array;
      return reply.type(DOCX).send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    }
    return reply.type(`${MEDIA_TYPES[format]}; charset=utf-8`).send(content);
  });
}
