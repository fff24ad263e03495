import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldDataFormat } from '../../engine/field-data.js';
import { ServiceError } from '../../errors.js';
import type { AppDeps } from '../context.js';
import { negotiate } from '../negotiation.js';
import { contentDisposition, sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams } from '../schemas/common.js';

const XFDF_TYPE = 'application/vnd.adobe.xfdf';
const FDF_TYPE = 'application/vnd.fdf';
/** application/fdf is not registered, but older tools send it. */
const IMPORT_TYPES = [XFDF_TYPE, FDF_TYPE, 'application/fdf'];
const EXPORT_TYPES = [XFDF_TYPE, FDF_TYPE] as const;

const params = filePathParams;
const headers = { type: 'object', properties: documentPasswordHeader } as const;

const fieldsImportSchema = {
  type: 'object',
  description: 'FieldsImport (XML: <FieldsImport> with <set><name>…</name></set> and so on): what the import did',
  properties: {
    set: { type: 'array', items: { type: 'string' }, description: 'Fully qualified names of the fields that were set' },
    unknown: { type: 'array', items: { type: 'string' }, description: 'Names in the body that no field of the document has; nothing was done with them' },
    warnings: { type: 'array', items: { type: 'string' }, description: 'What was dropped or simplified (JavaScript in an FDF, rich text, annotations)' },
  },
  required: ['set', 'unknown', 'warnings'],
} as const;
const FIELDS_IMPORT_XML = { root: 'FieldsImport', items: { set: 'name', unknown: 'name', warnings: 'warning' } };

/** The body's format by its media type (XFDF when none is given). */
function importFormat(request: FastifyRequest): FieldDataFormat {
  const type = (request.headers['content-type'] ?? XFDF_TYPE).split(';')[0]!.trim().toLowerCase();
  if (type === XFDF_TYPE) return 'xfdf';
  if (IMPORT_TYPES.includes(type)) return 'fdf';
  throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `Field data imports take ${XFDF_TYPE} or ${FDF_TYPE}`);
}

const importSchema = (summary: string) => ({
  summary,
  description:
    'The body is an XFDF (Content-Type application/vnd.adobe.xfdf) or FDF (application/vnd.fdf) file with field values. Fields are matched by ' +
    'fully qualified name (nested <field> elements or /Kids, or a flat dotted name). Text fields take text; checkboxes and radio buttons a state name ' +
    '("Off" or one of the widget\'s appearance states, 400 naming the allowed ones otherwise); combo boxes and list boxes export values from their ' +
    'options (an editable combo box any text; several values only for multi-select lists). A read-only field is 409 FIELD_READ_ONLY. All values are ' +
    'checked before anything changes. Names no field has are answered in `unknown`. Appearances are regenerated so the values show in every viewer. ' +
    'JavaScript in an FDF is dropped with a warning. Opened with the user password, the document must allow filling in forms.',
  tags: ['fields'],
  params,
  headers,
  consumes: IMPORT_TYPES,
  response: { 200: fieldsImportSchema, ...errorResponses },
});

export function registerFieldRoutes(api: FastifyInstance, deps: AppDeps): void {
  const { fields } = deps.operations;

  api.get('/documents/:filePath.pdf/fields/content', {
    schema: {
      summary: 'Export form field values as XFDF or FDF',
      description:
        'Accept application/vnd.adobe.xfdf (the default) or application/vnd.fdf. Names nest as in the form (`<field name="person"><field name="name">`). ' +
        'Push buttons and signature fields hold no data and are left out. ?exportEmptyFields=true also writes fields without a value (an empty value; ' +
        '"Off" for checkboxes and radio buttons). ?attachment=true delivers the file as a download named after the document.',
      tags: ['fields'],
      params,
      headers,
      querystring: {
        type: 'object',
        properties: {
          exportEmptyFields: { type: 'boolean', default: false },
          attachment: { type: 'boolean', default: false },
        },
      },
      response: {
        200: { description: 'The XFDF or FDF file', content: { [XFDF_TYPE]: { schema: { type: 'string' } }, [FDF_TYPE]: { schema: { type: 'string', format: 'binary' } } } },
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    const type = negotiate(request.headers.accept, EXPORT_TYPES);
    if (!type) throw new ServiceError('NOT_ACCEPTABLE', `Field data is exported as ${EXPORT_TYPES.join(' or ')}`);
    const format: FieldDataFormat = type === XFDF_TYPE ? 'xfdf' : 'fdf';
    const { exportEmptyFields, attachment } = request.query as { exportEmptyFields?: boolean; attachment?: boolean };
    const path = documentPathParam(request);
    const { content } = await fields.export(path, operationContext(request), { format, exportEmptyFields: exportEmptyFields === true });
    if (attachment) reply.header('Content-Disposition', contentDisposition('attachment', path.name.replace(/\.pdf$/i, `.${format}`)));
    return reply
      .header('Vary', 'Accept')
      .type(format === 'xfdf' ? `${XFDF_TYPE}; charset=utf-8` : FDF_TYPE)
      .send(Buffer.from(content.buffer, content.byteOffset, content.byteLength));
  });

  const importHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const format = importFormat(request);
    if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
      throw new ServiceError(format === 'xfdf' ? 'MALFORMED_XFDF' : 'MALFORMED_FDF', 'The body is empty');
    }
    const { result, etag } = await fields.import(documentPathParam(request), operationContext(request), request.body, format);
    reply.header('ETag', etag);
    return sendModel(request, reply, FIELDS_IMPORT_XML, result);
  };
  api.post('/documents/:filePath.pdf/fields/content', { config: { model: true }, schema: importSchema('Import form field values from XFDF or FDF') }, importHandler);
  api.post('/documents/:filePath.pdf/fields', { config: { model: true }, schema: importSchema('Import form field values from XFDF or FDF (same as POST .../fields/content)') }, importHandler);
}
