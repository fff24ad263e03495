import type { FromSchema } from 'json-schema-to-ts';
import type { SignRequest } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import { compileValidator } from '../../validation.js';
import type { Api, AppDeps } from '../context.js';
import { documentUrl } from '../document-urls.js';
import { parseJsonPart, readMultipartInMemory, type MemoryPart } from '../multipart.js';
import { RenderedCache, sendVersionedModel } from '../rendered-cache.js';
import { filePart, multipartBody } from '../openapi.js';
import { sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams, notModifiedResponse } from '../schemas/common.js';
import {
  newSignatureFieldSchema,
  SIGNATURE_FIELD_XML,
  SIGNATURE_FIELDS_XML,
  signatureFieldSchema,
  signatureFieldsSchema,
  signRequestSchema,
} from '../schemas/signatures.js';
import { requireXmlRoot } from '../xml.js';

const headers = { type: 'object', properties: documentPasswordHeader } as const;
const namedParams = {
  type: 'object',
  properties: { ...filePathParams.properties, fieldName: { type: 'string', minLength: 1, maxLength: 10000, description: 'Fully qualified field name, URL-encoded' } },
  required: [...filePathParams.required, 'fieldName'],
} as const;

/** A key store is a few kilobytes; this bounds what is held in memory for one. */
const KEYSTORE_LIMIT = 1024 * 1024;

// What the schema guarantees; parseSignRequest's return type checks it against the engine's SignRequest.
const validateSignRequest = compileValidator<FromSchema<typeof signRequestSchema>>(signRequestSchema, 'signature');

const fieldNameOf = (request: { params: { fieldName: string } }) => request.params.fieldName;

/** The JSON part (named `signature`, else the one application/json part) and the key store (named `file`, else the one other file part). */
function pickParts(parts: MemoryPart[]): { json: MemoryPart; keyStore: MemoryPart } {
  const json = parts.find((p) => p.name === 'signature') ?? only(parts.filter((p) => p.mediaType === 'application/json'), 'JSON part (application/json)');
  const keyStore = parts.find((p) => p.name === 'file' && p.isFile) ?? only(parts.filter((p) => p.isFile && p !== json), 'file part holding the key store');
  return { json, keyStore };
}

function only(candidates: MemoryPart[], what: string): MemoryPart {
  if (candidates.length === 1) return candidates[0]!;
  throw new ServiceError('MALFORMED_MULTIPART', candidates.length === 0
    ? `The request needs a ${what}: send the key store in part "file" and the parameters in part "signature" (application/json)`
    : `The request has ${candidates.length} candidates for the ${what}: name them "file" and "signature"`);
}

function parseSignRequest(json: MemoryPart, query: { createField?: boolean }): SignRequest {
  let parsed: unknown;
  try {
    parsed = parseJsonPart(json.bytes.toString('utf8'), 'signature');
  } finally {
    json.bytes.fill(0);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ServiceError('VALIDATION_FAILED', 'signature: must be a JSON object');
  const request = validateSignRequest(parsed);
  if (query.createField !== undefined && request.createField !== true) request.createField = query.createField;
  return request;
}

export function registerSignatureRoutes(api: Api, deps: AppDeps): void {
  const { signatures } = deps.operations;
  const rendered = new RenderedCache(8 * 1024 * 1024);

  api.get('/documents/:filePath.pdf/fields/signature-fields', {
    config: { model: true },
    schema: {
      summary: 'List the signature fields, each signature verified',
      description:
        'Every signature field with its widgets and, when signed: signer, signing time, reason, location, contact info, certification and level, ' +
        'the byte range and whether it reaches the end of the file, and `integrity`, computed by the service (digest over the byte range against the ' +
        'signed digest, and the signature against the certificate it carries). Certificate trust and revocation are not judged. See docs/signing.md.',
      tags: ['signatures'],
      params: filePathParams,
      headers,
      response: { 200: signatureFieldsSchema, ...notModifiedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const { model, etag } = await signatures.list(documentPathParam(request), operationContext(request));
    return sendVersionedModel(request, reply, rendered, SIGNATURE_FIELDS_XML, { etag, variant: 'signature-fields' }, () => model);
  });

  api.get('/documents/:filePath.pdf/fields/signature-fields/:fieldName', {
    config: { model: true },
    schema: {
      summary: 'One signature field, its signature verified',
      tags: ['signatures'],
      params: namedParams,
      headers,
      response: { 200: signatureFieldSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { field, etag } = await signatures.get(documentPathParam(request), operationContext(request), fieldNameOf(request));
    reply.header('ETag', etag);
    return sendModel(request, reply, SIGNATURE_FIELD_XML, field);
  });

  api.put('/documents/:filePath.pdf/fields/signature-fields/:fieldName', {
    config: { model: true },
    schema: {
      summary: 'Create an empty signature field',
      description:
        '`{"widget":[{"pageIndex":0,"rectangle":{"x":100,"y":100,"width":200,"height":50}}]}`: one widget per entry; no entries (or no `widget`) ' +
        'make an invisible field. 201 with Location; 409 FIELD_EXISTS when a field of that name exists. The name cannot contain ".".',
      tags: ['signatures'],
      params: namedParams,
      headers,
      consumes: ['application/json', 'application/xml'],
      xmlRoot: 'SignatureField',
      body: newSignatureFieldSchema,
      response: { 201: signatureFieldSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, 'SignatureField');
    // No body at all: an invisible field, as with no widgets.
    const body: Partial<typeof request.body> = request.body ?? {};
    const path = documentPathParam(request);
    const name = fieldNameOf(request);
    const { field, etag } = await signatures.create(path, operationContext(request), name, body.widget ?? []);
    reply.header('ETag', etag).header('Location', documentUrl(path, 'fields', 'signature-fields', name));
    return sendModel(request, reply, SIGNATURE_FIELD_XML, field, 201);
  });

  api.delete('/documents/:filePath.pdf/fields/signature-fields/:fieldName', {
    schema: {
      summary: 'Remove an unsigned signature field, or clear a signed one',
      description:
        'An unsigned field is removed with its widgets. A signed field is kept, without its signature (its value and appearance are cleared, and a ' +
        'certification it made is withdrawn); the signature stays in the file\'s earlier revision, so other signatures stay valid. 204.',
      tags: ['signatures'],
      params: namedParams,
      headers,
      response: { 204: { description: 'Removed or cleared', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { etag } = await signatures.remove(documentPathParam(request), operationContext(request), fieldNameOf(request));
    return reply.header('ETag', etag).code(204).send();
  });

  api.post('/documents/:filePath.pdf/fields/signature-fields/:fieldName/signature', {
    config: { model: true },
    schema: {
      summary: 'Sign a signature field',
      description:
        'multipart/form-data: the PKCS#12 key store (.p12, .pfx) in part `file`, the parameters as JSON in part `signature` (application/json): ' +
        'keystorePassword, keyAlias, keyPassword, certifyingSignature, certifyingPermissions (1, 2 default, 3), signReason, signLocation, ' +
        'signContactInformation, subFilter (adbe.pkcs7.detached or ETSI.CAdES.detached), createField. Parts named otherwise: the one JSON part and the one ' +
        'other file part are taken. The signature is an incremental update, so earlier signatures stay valid; the field shows signer, date and reason. ' +
        'The key store and passwords are held in memory for this request only. ?createField=true as in the JSON. See docs/signing.md.',
      tags: ['signatures'],
      params: namedParams,
      headers,
      querystring: { type: 'object', properties: { createField: { type: 'boolean' } } },
      consumes: ['multipart/form-data'],
      bodyContent: multipartBody({ signature: signRequestSchema, file: filePart('The PKCS#12 key store (.p12, .pfx)') }, ['signature', 'file']),
      response: { 200: signatureFieldSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const parts = await readMultipartInMemory(request, KEYSTORE_LIMIT, 'Signing takes multipart/form-data: the key store in part "file", the JSON parameters in part "signature"');
    try {
      const { json, keyStore } = pickParts(parts);
      const signRequest = parseSignRequest(json, request.query);
      // A buffer of its own, handed to the engine (transferred, not copied) and zeroed there after use.
      const owned = new Uint8Array(keyStore.bytes.length);
      owned.set(keyStore.bytes);
      const { field, etag } = await signatures.sign(documentPathParam(request), operationContext(request), fieldNameOf(request), owned, signRequest);
      reply.header('ETag', etag);
      return sendModel(request, reply, SIGNATURE_FIELD_XML, field);
    } finally {
      for (const p of parts) p.bytes.fill(0);
    }
  });
}
