import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldDataFormat } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps, SchemaRequest } from '../context.js';
import { negotiate } from '../negotiation.js';
import { RenderedCache, sendVersionedModel } from '../rendered-cache.js';
import { contentDisposition, sendModel, warningHeaders } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams, notModifiedResponse } from '../schemas/common.js';
import { FIELD_XML, FIELDS_XML, fieldSchema, fieldsSchema, fieldValueSchema } from '../schemas/fields.js';
import { requireXmlRoot } from '../xml.js';

const XFDF_TYPE = 'application/vnd.adobe.xfdf';
const FDF_TYPE = 'application/vnd.fdf';
/** application/fdf is not registered, but older tools send it. */
const IMPORT_TYPES = [XFDF_TYPE, FDF_TYPE, 'application/fdf'];
const EXPORT_TYPES = [XFDF_TYPE, FDF_TYPE] as const;

const params = filePathParams;
const headers = { type: 'object', properties: documentPasswordHeader } as const;

const fieldsImportSchema = {
  title: 'FieldImportResult',
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

export function registerFieldRoutes(api: Api, deps: AppDeps): void {
  const { fields } = deps.operations;
  const rendered = new RenderedCache(16 * 1024 * 1024);

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
    const { exportEmptyFields, attachment } = request.query;
    const path = documentPathParam(request);
    const { content, warnings } = await fields.export(path, operationContext(request), { format, exportEmptyFields: exportEmptyFields === true });
    warningHeaders(reply, warnings);
    if (attachment) reply.header('Content-Disposition', contentDisposition('attachment', path.name.replace(/\.pdf$/i, `.${format}`)));
    return reply
      .header('Vary', 'Accept')
      .type(format === 'xfdf' ? `${XFDF_TYPE}; charset=utf-8` : FDF_TYPE)
      .send(Buffer.from(content.buffer, content.byteOffset, content.byteLength));
  });

  const importHandler = async (request: SchemaRequest<{ params: typeof params }>, reply: FastifyReply) => {
    const format = importFormat(request);
    const { result, etag } = await fields.import(documentPathParam(request), operationContext(request), request.body, format, deps.config.maxXfdfBytes);
    reply.header('ETag', etag);
    return sendModel(request, reply, FIELDS_IMPORT_XML, result);
  };
  api.get('/documents/:filePath.pdf/fields', {
    config: { model: true },
    schema: {
      summary: 'List the form fields',
      description:
        'Every terminal field with its fully qualified name, type, value, default value, options, flags, tooltip and widgets (page and rectangle), ' +
        'in field-tree order. hasXfa says whether the document also has an XFA form (only the AcroForm is read and written).',
      tags: ['fields'],
      params,
      headers,
      response: { 200: fieldsSchema, ...notModifiedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const { model, etag } = await fields.list(documentPathParam(request), operationContext(request));
    return sendVersionedModel(request, reply, rendered, FIELDS_XML, { etag, variant: 'fields' }, () => model);
  });

  api.delete('/documents/:filePath.pdf/fields', {
    config: { model: true },
    schema: {
      summary: 'Reset every field to its default value',
      description:
        'Each field that holds data gets its default value (/DV; none: empty, "Off" for buttons), read-only fields included, with new appearances. ' +
        'A default a field cannot take empties it and is reported in warnings. Answers the fields afterwards.',
      tags: ['fields'],
      params,
      headers,
      response: { 200: fieldsSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { model, warnings, etag } = await fields.reset(documentPathParam(request), operationContext(request));
    reply.header('ETag', etag);
    return sendModel(request, reply, FIELDS_XML, { ...model, warnings });
  });

  api.put('/documents/:filePath.pdf/fields/:fieldName', {
    config: { model: true },
    schema: {
      summary: 'Set one field\'s value',
      description:
        'fieldName is the fully qualified name (URL-encoded). The value is checked as in an import: 404 FIELD_NOT_FOUND, 409 FIELD_READ_ONLY, ' +
        '400 naming the values the field allows. Appearances are regenerated. Answers the field afterwards.',
      tags: ['fields'],
      params: { type: 'object', properties: { ...params.properties, fieldName: { type: 'string', minLength: 1, maxLength: 10000 } }, required: [...params.required, 'fieldName'] },
      headers,
      consumes: ['application/json', 'application/xml'],
      xmlRoot: 'Field',
      body: fieldValueSchema,
      response: { 200: fieldSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, 'Field');
    const { fieldName } = request.params;
    const { value } = request.body;
    const { field, etag } = await fields.setValue(documentPathParam(request), operationContext(request), fieldName, value);
    reply.header('ETag', etag);
    return sendModel(request, reply, FIELD_XML, field);
  });

  api.post('/documents/:filePath.pdf/fields/content', { config: { model: true }, schema: importSchema('Import form field values from XFDF or FDF') }, importHandler);
  api.post('/documents/:filePath.pdf/fields', { config: { model: true }, schema: importSchema('Import form field values from XFDF or FDF (same as POST .../fields/content)') }, importHandler);
}
