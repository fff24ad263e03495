import { EXPORT_FORMATS, isSheetFormat, type ExportFormat } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import { EXPORT_ASYNC_PAGES } from '../../operations/pages.js';
import type { Api, AppDeps } from '../context.js';
import { negotiate } from '../negotiation.js';
import { jobPlan, requestPreferences } from '../prefer.js';
import { contentDisposition, warningHeaders } from '../reply.js';
import { answerNotModified, variantEtag, versionHeaders } from '../rendered-cache.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams, notModifiedResponse } from '../schemas/common.js';
import { jobAcceptedResponse, preferHeader } from '../schemas/jobs.js';
import { answerWithJob } from './jobs.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** Each format's media type, in the order Accept chooses among them (JSON first: a missing Accept or * / * is JSON). */
const MEDIA_TYPES: Record<ExportFormat, string> = {
  json: 'application/json',
  markdown: 'text/markdown',
  html: 'text/html',
  docx: DOCX,
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
};
/** The file name extension of each format's download (the job's result file, Content-Disposition). */
const EXTENSIONS: Record<ExportFormat, string> = { json: 'json', markdown: 'md', html: 'html', docx: 'docx', xlsx: 'xlsx', csv: 'csv' };
/** Binary formats carry no charset. */
const BINARY: readonly ExportFormat[] = ['docx', 'xlsx'];
const contentType = (format: ExportFormat) => (BINARY.includes(format) ? MEDIA_TYPES[format] : `${MEDIA_TYPES[format]}; charset=utf-8`);
const formatOf = (mediaType: string) => EXPORT_FORMATS.find((f) => MEDIA_TYPES[f] === mediaType)!;

/** Export of a stored document as JSON, Markdown, HTML or DOCX (docs/export.md). */
export function registerExportRoutes(api: Api, deps: AppDeps): void {
  const { pages, jobs } = deps.operations;
  api.get('/documents/:filePath.pdf/export', {
    schema: {
      summary: 'Export the document (or some pages) as JSON, Markdown, HTML, DOCX, XLSX or CSV',
      description:
        'The text of the document in reading order as blocks: headings (by font size and weight), paragraphs (lines joined, hyphenation at line ends ' +
        'undone), list items, tables (rows and cells) and image placeholders; running headers, footers and page numbers left out. ?format= (json, ' +
        'markdown, html, docx) or, without it, Accept (application/json, text/markdown, text/html, ' + DOCX + ') chooses the format. DOCX is a ' +
        'flowing Word document: Heading 1-6 and Normal styles, Word lists, tables with a repeated header row, images in place, a page break per ' +
        'PDF page, links; its warnings (images left out, pages without text) in X-Service-Warning headers. ?pageRange= (1-based, e.g. "1-3,7") ' +
        'exports some pages. Pages without any text are 422 NO_TEXT (run OCRAction first). Needs extractTextAllowed when the document was opened with ' +
        'its user password. format=xlsx: every table a sheet (numbers as numbers, header row bold and frozen); format=csv: one table (?table=N, 1-based, ' +
        'default the first; RFC 4180, UTF-8); no table is 422 NO_TABLES. ETag and If-None-Match (304) by document version and options; a repeated ' +
        'export is answered from a cache. Prefer: respond-async (or more than ' + String(EXPORT_ASYNC_PAGES) + ' pages exported) runs it as a job whose ' +
        'result file is the export. See docs/export.md for the JSON schema and what is lost.',
      tags: ['export'],
      params: filePathParams,
      headers: { type: 'object', properties: { ...documentPasswordHeader, ...(jobs ? preferHeader : {}) } },
      querystring: {
        type: 'object',
        properties: {
          format: { type: 'string', enum: [...EXPORT_FORMATS], description: 'The format; absent: chosen by Accept (JSON by default)' },
          pageRange: { type: 'string', maxLength: 1000, description: 'Pages to export, 1-based as in a print dialog ("1-3,7,10-"); absent: every page' },
          table: { type: 'integer', minimum: 1, description: 'xlsx and csv: the table to write, 1-based in reading order; absent: every table (xlsx) or the first (csv)' },
        },
      },
      response: {
        200: {
          description: 'The export',
          content: {
            'application/json': { schema: { type: 'object', description: 'ExportModel (docs/export.md)', additionalProperties: true } },
            'text/markdown': { schema: { type: 'string', description: 'CommonMark with GFM tables, UTF-8' } },
            'text/html': { schema: { type: 'string', description: 'An HTML document, UTF-8' } },
            [MEDIA_TYPES.xlsx]: { schema: { type: 'string', format: 'binary', description: 'An XLSX workbook, a sheet per table' } },
            'text/csv': { schema: { type: 'string', description: 'One table as CSV (RFC 4180), UTF-8 without a byte order mark' } },
            [DOCX]: { schema: { type: 'string', format: 'binary', description: 'A DOCX (Office Open XML) document' } },
          },
        },
        ...(jobs ? jobAcceptedResponse : {}),
        ...notModifiedResponse,
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    const { format: asked, pageRange, table } = request.query;
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
    if (table !== undefined && !isSheetFormat(format)) throw new ServiceError('VALIDATION_FAILED', `querystring/table applies to format=xlsx and format=csv, not ${format}`);
    const path = documentPathParam(request);
    const ctx = operationContext(request);
    const options = { format, pageRange, table };
    const variant = `export|${format}|${pageRange ?? ''}|${table ?? ''}`;
    if (await answerNotModified(request, reply, variant, () => pages.viewableVersion(path, ctx))) return reply;
    const name = `${path.name.replace(/\.pdf$/iu, '')}.${EXTENSIONS[format]}`;
    if (jobs) {
      // As every long read (docs/jobs.md): a job when asked for, or when it exports many pages or a large document.
      const size = await pages.exportSize(path, ctx, pageRange);
      const plan = jobPlan(requestPreferences(request.raw.headers), size.pages > EXPORT_ASYNC_PAGES || jobs.longByNature({ bytes: size.bytes }));
      if (plan) {
        jobs.checkRoom(ctx);
        const job = await jobs.submitExport(path.toString(), ctx, { format, ...(pageRange !== undefined ? { pageRange } : {}), ...(table !== undefined ? { table } : {}), ...(ctx.versionId !== undefined ? { versionId: ctx.versionId } : {}), mediaType: MEDIA_TYPES[format], pages: size.pages }, async (exec) => ({
          content: (await pages.export(path, ctx, options, exec)).content,
          name,
          // The result names the document exported (its version's ETag), as an action's file result does.
          source: await pages.viewable(path, ctx),
        }));
        return answerWithJob(request, reply, jobs, job, plan);
      }
    }
    const { content, warnings, etag } = await pages.export(path, ctx, options);
    versionHeaders(reply, variantEtag(etag, variant)).type(contentType(format));
    // DOCX's warnings (images left out, pages without text) in headers: the other formats carry them in their JSON.
    if (format === 'docx') warningHeaders(reply, warnings);
    if (BINARY.includes(format) || format === 'csv') reply.header('Content-Disposition', contentDisposition('attachment', name));
    return reply.send(content);
  });
}
