import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';
import { heldContentStream, type ByteRange } from '../open-file.js';
import { etagOf, type StagedUpload } from '../storage/store.js';
import { noneMatch } from './conditional.js';
import { negotiate } from './negotiation.js';
import { contentDisposition } from './reply.js';

/** Content to download: one version, its strong ETag, and streams of it (all, or a byte range); close() when none is sent. */
export interface Download {
  size: number;
  etag: string;
  modified?: Date | undefined;
  stream(range?: ByteRange): Readable;
  close(): Promise<void>;
}

/** A single byte range of `size` bytes, null for the whole content, or 416. Multiple ranges get the whole content. */
function parseRange(header: string | undefined, size: number, noun: string): { start: number; end: number } | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) throw rangeError(size, noun);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (Number(m[2]) < start && m[2] !== '') return null;
  }
  if (start >= size) throw rangeError(size, noun);
  return { start, end };
}

function rangeError(size: number, noun: string): ServiceError {
  return new ServiceError('RANGE_NOT_SATISFIABLE', `The ${noun} has ${size} bytes`, undefined, { 'Content-Range': `bytes */${size}` });
}

/**
 * Sends content as a download, the one way every file answer goes (a document's PDF, a job's result file): ETag
 * (and Last-Modified when known), If-None-Match (304), Range and If-Range (206, 416), Content-Disposition with its
 * name, Content-Length. HEAD gets the same headers (Fastify answers it from this GET without the body). Closes
 * `content` when no stream of it is sent (a stream closes it at its end).
 */
export async function sendDownload(request: FastifyRequest, reply: FastifyReply, content: Download, options: { mediaType: string; fileName: string; disposition: 'inline' | 'attachment'; noun?: string }): Promise<FastifyReply> {
  try {
    reply.header('ETag', content.etag);
    if (content.modified) reply.header('Last-Modified', content.modified.toUTCString());
    reply.header('Accept-Ranges', 'bytes').header('Cache-Control', 'private, no-cache');
    if (noneMatch(request.headers['if-none-match'], content.etag)) {
      await content.close();
      return reply.code(304).send();
    }
    const ifRange = request.headers['if-range'];
    const range = ifRange && ifRange !== content.etag ? null : parseRange(request.headers.range, content.size, options.noun ?? 'file');
    reply.header('Content-Disposition', contentDisposition(options.disposition, options.fileName));
    reply.type(options.mediaType);
    if (range) {
      reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${content.size}`).header('Content-Length', range.end - range.start + 1);
      return reply.send(content.stream(range));
    }
    reply.header('Content-Length', content.size);
    return reply.send(content.stream());
  } catch (err) {
    await content.close();
    throw err;
  }
}

/** 406 unless Accept admits `mediaType` (a file answer has that one form). */
export function checkAcceptable(request: FastifyRequest, mediaType: string): void {
  if (!negotiate(request.headers.accept, [mediaType])) throw new ServiceError('NOT_ACCEPTABLE', `This resource is available as ${mediaType}`);
}

/**
 * Content an operation made and did not store (an action's file answer), as a Download: bytes as they are, a staged
 * file streamed from its descriptor (or its bytes, from a store without local files). close() (or a stream's end)
 * releases it; discarding staged content is the caller's.
 */
export async function contentDownload(content: Uint8Array | StagedUpload): Promise<Download> {
  if (content instanceof Uint8Array) {
    const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    return { size: bytes.length, etag: etagOf(bytes), stream: (range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]), close: async () => {} };
  }
  // Held open until the stream is over (or close(), when none is sent); its tag is the staged content's, not hashed again.
  const opened = await content.open();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await opened.close();
  };
  return { size: content.size, etag: content.etag, stream: (range) => heldContentStream(opened, range, close), close };
}
