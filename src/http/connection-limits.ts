import type { ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/**
 * Limits that keep anonymous or slow clients from holding connections (and so
 * file descriptors) for ever. Four layers, each configurable:
 *
 * - Node's own deadlines: headers must arrive within `headersTimeoutMs`; a whole
 *   request within `requestTimeoutMs` (long: uploads are guarded by a rate, not a
 *   total); idle keep-alive connections close after `keepAliveTimeoutMs`.
 * - A body deadline for requests nobody has logged in for (the login body):
 *   they have no reason to be slow.
 * - A minimum transfer rate for every other body: less than `bodyMinBytes` in a
 *   window of `bodyRateWindowSeconds` while the service is waiting for data cuts
 *   the connection. A slow but moving upload of any size passes.
 * - Caps on connections in total and per client address, so one client cannot
 *   take the descriptors that /health and everyone else need.
 */

/** Fastify's server options for the deadlines Node enforces itself. */
export function serverTimeouts(config: Config): { requestTimeout: number; keepAliveTimeout: number; connectionTimeout: number; http: ServerOptions } {
  const request = config.requestTimeoutMs;
  // Node refuses a headers deadline longer than a (non-zero) request deadline.
  const headers = request > 0 ? Math.min(config.headersTimeoutMs, request) : config.headersTimeoutMs;
  return {
    requestTimeout: request,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // No inactivity timeout on the socket: a long engine task sends nothing while it runs.
    connectionTimeout: 0,
    // Node checks its deadlines every 30 s by default; a stalled connection should not outlive its deadline by that much.
    http: { headersTimeout: headers, connectionsCheckingInterval: Math.min(1000, headers) },
  };
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client. */
function clientAddress(socket: Socket): string {
  const address = socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export function registerConnectionLimits(app: FastifyInstance, config: Config): void {
  const server = app.server;
  server.maxConnections = config.maxConnections;
  const perAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    if (config.maxConnectionsPerAddress === 0) return;
    const address = clientAddress(socket);
    const count = (perAddress.get(address) ?? 0) + 1;
    if (count > config.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    perAddress.set(address, count);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });

  app.addHook('preParsing', (request, _reply, payload, done) => {
    watchBody(request, config);
    done(null, payload);
  });
}

/** Cuts the connection of a request whose body is too slow: a deadline before login, a minimum rate after it. */
function watchBody(request: FastifyRequest, config: Config): void {
  const raw = request.raw;
  const socket = raw.socket;
  const hasBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length']) > 0;
  if (!hasBody || raw.complete || !socket) return;
  const timers: NodeJS.Timeout[] = [];
  const stop = () => timers.forEach((t) => clearTimeout(t));
  const cut = (reason: string) => {
    stop();
    if (raw.complete || socket.destroyed) return;
    request.log.info({ reason }, 'request body too slow; connection closed');
    socket.destroy();
  };
  if (request.principal === null && config.publicBodyTimeoutMs > 0) {
    timers.push(setTimeout(() => cut(`no login and the body took longer than ${config.publicBodyTimeoutMs} ms`), config.publicBodyTimeoutMs).unref());
  }
  if (config.bodyMinBytes > 0) {
    let last = socket.bytesRead;
    const tick = () => {
      if (raw.complete || socket.destroyed) return stop();
      const now = socket.bytesRead;
      // Data waiting in the request's buffer means the service is the slow side (a lock, a busy disk): not the client's fault.
      if (now - last < config.bodyMinBytes && raw.readableLength === 0) {
        return cut(`less than ${config.bodyMinBytes} bytes of body in ${config.bodyRateWindowSeconds} s`);
      }
      last = now;
    };
    timers.push(setInterval(tick, config.bodyRateWindowSeconds * 1000).unref());
  }
  raw.once('end', stop);
  raw.once('close', stop);
}
