import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';
import type { ActionFile } from '../operations/actions/types.js';
import type { DocumentOperations } from '../operations/documents.js';
import { operationContext } from './request-context.js';
import { mediaTypeOf } from './uploads.js';

/** Parts a multipart body may have (docs/api.md "Limits"): files among them, and parts in all. */
export const MULTIPART_LIMITS = { files: 10, parts: 30 } as const;

export interface MultipartBody {
  /** Text parts (and small JSON parts sent as files) by field name. */
  fields: Map<string, string>;
  /** File parts, staged on disk. The caller discards them. */
  files: ActionFile[];
}

/** A part read into memory (signing: a key store is never written to disk). */
export interface MemoryPart {
  name: string;
  mediaType: string;
  isFile: boolean;
  bytes: Buffer;
}

/**
 * The text of a field part, whatever its declared type. @fastify/multipart
 * parses a field sent as application/json (curl -F 'a={..};type=application/json')
 * into a value; it is written back as JSON text, so a JSON part reads the same
 * sent as a plain field, a typed field or a file (curl -F 'a=@a.json').
 */
function fieldText(part: MultipartValue): string {
  return typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
}

/** A file part's bytes, at most `limit` of them (a new buffer; the chunks read are zeroed). */
async function fileBytes(part: MultipartFile, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of part.file) {
      size += (chunk as Buffer).length;
      if (size > limit || part.file.truncated) throw new ServiceError('PAYLOAD_TOO_LARGE', `Part ${part.fieldname} is larger than ${limit} bytes`);
      chunks.push(chunk as Buffer);
    }
    if (part.file.truncated) throw new ServiceError('PAYLOAD_TOO_LARGE', `Part ${part.fieldname} is larger than ${limit} bytes`);
    return Buffer.concat(chunks);
  } finally {
    for (const c of chunks) c.fill(0);
  }
}

/** A JSON part's value: 400 MALFORMED_JSON naming the part when it is not JSON. */
export function parseJsonPart(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError('MALFORMED_JSON', `The ${name} part is not well-formed JSON`);
  }
}

function requireMultipart(request: FastifyRequest, hint: string): void {
  if (!request.isMultipart()) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', hint, { accepted: ['multipart/form-data'] }, { Accept: 'multipart/form-data' });
}

/**
 * Reads a multipart/form-data request: file parts are staged through the store
 * of the request's user (so large files never sit in memory), parts named in `textFields` are read as
 * text even when sent as files (curl -F 'pageAction=@a.json').
 */
/** Where file parts are staged (DocumentOperations). */
type Staging = Pick<DocumentOperations, 'stage'>;

export async function readMultipart(
  request: FastifyRequest,
  staging: Staging,
  options: { fileLimit: number; textLimit: number; textFields: readonly string[] },
): Promise<MultipartBody> {
  requireMultipart(request, 'Expected multipart/form-data');
  const fields = new Map<string, string>();
  const files: ActionFile[] = [];
  const ctx = operationContext(request);
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields.set(part.fieldname, fieldText(part));
      } else if (options.textFields.includes(part.fieldname)) {
        fields.set(part.fieldname, (await fileBytes(part, options.textLimit)).toString('utf8'));
      } else {
        const content = await staging.stage(part.file, options.fileLimit, ctx);
        files.push({ field: part.fieldname, fileName: part.filename || undefined, mediaType: mediaTypeOf(part.mimetype, part.filename), content });
      }
    }
  } catch (err) {
    await Promise.all(files.map((f) => f.content.discard()));
    throw err;
  }
  return { fields, files };
}

/**
 * Reads every part into memory, each at most `limit` bytes; for secrets that
 * must never be staged on disk. The caller zeroes the bytes when done.
 */
export async function readMultipartInMemory(request: FastifyRequest, limit: number, hint: string): Promise<MemoryPart[]> {
  requireMultipart(request, hint);
  const parts: MemoryPart[] = [];
  try {
    for await (const part of request.parts({ limits: { fileSize: limit } })) {
      const mediaType = (part.mimetype ?? '').split(';')[0]!.trim().toLowerCase();
      const isFile = part.type === 'file';
      const bytes = isFile ? await fileBytes(part, limit) : Buffer.from(fieldText(part), 'utf8');
      parts.push({ name: part.fieldname, mediaType, isFile, bytes });
    }
  } catch (err) {
    for (const p of parts) p.bytes.fill(0);
    throw err;
  }
  return parts;
}
