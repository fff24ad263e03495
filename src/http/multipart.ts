import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';
import type { ActionFile } from '../operations/actions/types.js';
import type { DocumentStore } from '../storage/store.js';
import { mediaTypeOf } from './uploads.js';

export interface MultipartBody {
  /** Text parts (and small JSON parts sent as files) by field name. */
  fields: Map<string, string>;
  /** File parts, staged on disk. The caller discards them. */
  files: ActionFile[];
}

/**
 * Reads a multipart/form-data request: file parts are staged through the store
 * (so large files never sit in memory), parts named in `textFields` are read as
 * text even when sent as files (curl -F 'pageAction=@a.json').
 */
export async function readMultipart(
  request: FastifyRequest,
  store: DocumentStore,
  options: { fileLimit: number; textLimit: number; textFields: readonly string[] },
): Promise<MultipartBody> {
  if (!request.isMultipart()) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Expected multipart/form-data');
  const fields = new Map<string, string>();
  const files: ActionFile[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields.set(part.fieldname, String(part.value));
        continue;
      }
      if (options.textFields.includes(part.fieldname)) {
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of part.file) {
          size += (chunk as Buffer).length;
          if (size > options.textLimit) throw new ServiceError('PAYLOAD_TOO_LARGE', `Part ${part.fieldname} is too large`);
          chunks.push(chunk as Buffer);
        }
        fields.set(part.fieldname, Buffer.concat(chunks).toString('utf8'));
        continue;
      }
      const content = await store.stage(part.file, options.fileLimit);
      files.push({ field: part.fieldname, fileName: part.filename || undefined, mediaType: mediaTypeOf(part.mimetype, part.filename), content });
    }
  } catch (err) {
    await Promise.all(files.map((f) => f.content.discard()));
    throw err;
  }
  return { fields, files };
}
