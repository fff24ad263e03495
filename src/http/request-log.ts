import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request at `info`: "request completed" (or "request errored") carries the request as well
 * (method, URL as sent with secret-looking query values hidden, host, client address and port), its status and its
 * time. Fastify's own "incoming request" line, written at arrival, is logged at `debug`.
 *
 * Two lines a request were the largest share of a warm cached read's loop time beyond the HTTP layer (each made, then
 * handed to libuv's thread pool to write): bench/results/issue38-listing-2026-11-29.md. The arrival line tells only when a request came
 * in, which the completion line's time already gives (its `time` less `responseTime`); a request that never
 * completes shows at `debug`.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
