import { createHash } from 'node:crypto';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { ServiceError } from '../../errors.js';

/** How long a client is told to wait before retrying when S3 cannot be reached (Retry-After). */
const RETRY_AFTER_SECONDS = 5;

export interface S3Settings {
  endpoint?: string | undefined;
  region: string;
  /** Both or neither: without them the SDK's default chain (environment, profile, instance role) applies. */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
  /** A request that waits this long for a connection or an answer fails (503 STORE_UNAVAILABLE). */
  timeoutMs?: number | undefined;
}

/**
 * The SDK client the S3 store uses. Checksums only where S3 requires them: the
 * SDK's default since 2025 adds CRC32 trailers to every upload, which non-AWS
 * servers do not all understand (docs/s3.md). Path-style addressing for servers
 * without a DNS name per bucket.
 */
export function createS3Client(settings: S3Settings, overrides: Partial<S3ClientConfig> = {}): S3Client {
  const client = new S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    ...(settings.accessKeyId && settings.secretAccessKey ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } } : {}),
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(settings.timeoutMs ? { requestHandler: { connectionTimeout: settings.timeoutMs, requestTimeout: settings.timeoutMs } } : {}),
    ...overrides,
  });
  return withContentMd5(client);
}

/**
 * DeleteObjects must carry an integrity check. The SDK sends a CRC32
 * (x-amz-checksum-crc32) where it used to send Content-MD5, and servers that
 * predate that (Swift's s3api, MinIO before 2023) refuse the request for want
 * of Content-MD5; AWS accepts either. This computes the MD5 of the body and
 * sends it instead.
 */
export function withContentMd5(client: S3Client): S3Client {
  const middleware =
    <A extends { request: unknown }, R>(next: (args: A) => Promise<R>, context: { commandName?: string }) =>
    async (args: A): Promise<R> => {
      const request = args.request as { headers?: Record<string, string>; body?: unknown };
      const body = request.body;
      if (context.commandName === 'DeleteObjectsCommand' && request.headers && (typeof body === 'string' || body instanceof Uint8Array)) {
        for (const name of Object.keys(request.headers)) if (/^x-amz-(checksum-|sdk-checksum-algorithm)/i.test(name)) delete request.headers[name];
        request.headers['content-md5'] = createHash('md5').update(body).digest('base64');
      }
      return next(args);
    };
  // In the build step after the SDK's checksum middleware (normal priority), before signing (finalizeRequest): a
  // client-wide middleware cannot be placed relative to that one, which only the commands that use it add.
  client.middlewareStack.add(middleware, { step: 'build', priority: 'low', name: 'pdfserviceContentMd5' });
  return client;
}

export function storeUnavailable(detail: string): ServiceError {
  return new ServiceError('STORE_UNAVAILABLE', detail, undefined, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}

/** The HTTP status of an S3 error answer; undefined when no answer came (the connection failed). */
export function s3Status(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

/**
 * A failure the service's user cannot fix, as 503 STORE_UNAVAILABLE: no answer
 * (refused, reset, timed out), a 5xx, or a 403. S3 has no per-user rights
 * here (the service signs every request with its own key), so a 403 means the
 * key or the bucket policy is wrong: a configuration problem for the operator,
 * not the client's. Anything else is returned as it is for the caller to read.
 */
export function s3Failure(err: unknown, what: string): unknown {
  if (err instanceof ServiceError || err instanceof TypeError || err instanceof RangeError) return err;
  const status = s3Status(err);
  const name = (err as Error | undefined)?.name ?? 'Error';
  if (status === undefined) return storeUnavailable(`S3 cannot be reached (${what}: ${(err as Error | undefined)?.message ?? String(err)})`);
  if (status >= 500) return storeUnavailable(`S3 answered ${what} with ${status} ${name}`);
  if (status === 403) return storeUnavailable(`S3 refused ${what} (403 ${name}): check the service's S3 credentials and the bucket's policy`);
  return err;
}

/**
 * A read of a key (HEAD, GET) that answers 404 asked once more. Swift answers 404 for an object that exists while a
 * PUT replaces it: its object server lists the object's files, then opens the newest, and the PUT's cleanup (in another
 * thread) may unlink that one in between (swift/obj/diskfile.py, DiskFile.open and DiskFileWriter._finalize_put: the
 * new file is renamed in before the old one goes). So the second read finds the new object, unless another write's
 * cleanup meets it in turn. Seen: a versions list during a concurrent batch of the soak answered DOCUMENT_NOT_FOUND
 * (test/api/versions-soak.test.ts, seed 7, write 261: its stat's HEAD met a write's PUT); the test server answered 2
 * HEADs of 3,567 with 404 while three writers replaced the key 1,200 times. AWS never answers so; a key that is not
 * there costs a second request, on the paths that read without the key's commit lock only (under it no write of the
 * service runs).
 */
export async function readAgain<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (s3Status(err) !== 404) throw err;
  }
  return read();
}
