import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';

/** Where the console is served (docs/console.md); the build's `base` (console/vite.config.ts) names the same path. */
export const CONSOLE_PATH = '/pdfservice/v1/console';
/** The console's build (console/dist, made by scripts/setup.sh), from dist/src/http/ or src/http/ alike. */
const CONSOLE_DIST = fileURLToPath(new URL('../../../console/dist', import.meta.url));
const BUILD_DIR = existsSync(CONSOLE_DIST) ? CONSOLE_DIST : fileURLToPath(new URL('../../console/dist', import.meta.url));

/**
 * What the console's pages may load and do: only files of this service, no inline script or style (the build makes
 * none), no plug-ins, no framing by other sites, forms posted only here. Page images are plain same-origin URLs;
 * `blob:` is not needed. docs/console.md, "Security".
 */
export const CONSOLE_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob:", "connect-src 'self'", "font-src 'self'",
  "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json', '.woff2': 'font/woff2',
};

interface StaticFile { body: Buffer; type: string; etag: string; immutable: boolean }

/**
 * The build's files, read once at start: the console is a few hundred kilobytes, and a build changes only with a new
 * start of the service. Files under assets/ carry their content hash in their names (Vite): cached for a year.
 */
function readBuild(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!existsSync(path.join(dir, 'index.html'))) return files;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full).split(path.sep).join('/');
    const body = readFileSync(full);
    files.set(relative, {
      body,
      type: TYPES[path.extname(entry.name)] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      immutable: relative.startsWith('assets/'),
    });
  }
  return files;
}

/** Whether If-None-Match names this entity tag (weak comparison, RFC 9110 13.1.2). */
function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The web console: its static files at CONSOLE_PATH (public: the sign-in screen is one of them; everything it shows
 * comes from the API, which authenticates as for any client), and a redirect from `/` to it. Not in the API description.
 */
export function registerConsole(app: FastifyInstance, dir = BUILD_DIR): void {
  const files = readBuild(dir);
  const send = (request: FastifyRequest, reply: FastifyReply, name: string) => {
    const file = files.get(name);
    if (!file) {
      throw files.size === 0
        ? new ServiceError('NOT_FOUND', 'The console is not built: bash scripts/setup.sh builds it (console/, docs/console.md)')
        : new ServiceError('NOT_FOUND', `The console has no file ${JSON.stringify(name)}`);
    }
    reply
      .header('Content-Security-Policy', CONSOLE_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Frame-Options', 'DENY')
      .header('ETag', file.etag)
      .header('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (notModified(request, file.etag)) return reply.code(304).send();
    return reply.type(file.type).send(file.body);
  };
  const config = { public: true };
  const schema = { hide: true };
  app.get('/', { config, schema }, async (_request, reply) => reply.redirect(`${CONSOLE_PATH}/`, 302));
  // The router ignores a trailing slash, so this route answers both: without it, the page's relative links would
  // resolve one level up, so it redirects.
  app.get(CONSOLE_PATH, { config, schema }, async (request, reply) =>
    (request.url.split('?')[0]!.endsWith('/') ? send(request, reply, 'index.html') : reply.redirect(`${CONSOLE_PATH}/`, 301)));
  app.get(`${CONSOLE_PATH}/*`, { config, schema }, async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    return send(request, reply, name === '' ? 'index.html' : name);
  });
}
