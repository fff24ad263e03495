/**
 * Web pages by URL (docs/html.md, "Web pages by URL"), with the real Chromium and the real server: the service fetches
 * the page and each of its requests itself, only from allowed origins and public addresses. Loopback is always
 * refused, so the allowed origins are test names (PDFSERVICE_URL_TEST_HOSTS, honoured with NODE_ENV=test only) mapped
 * to a loopback listener that is exempt for them alone; every other name maps to an address that must be refused,
 * and the listener records every request it receives.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { call, expectUnchanged, type Reply } from '../helpers/http.js';
import { encodeRgbPng } from '../helpers/png.js';
import { startServer, type TestServer } from '../helpers/server.js';

const CHROMIUM = '/usr/lib/chromium/chromium';
const MAX_BYTES = 1024 * 1024;

function putUrl(server: TestServer, docPath: string, url: string, query = ''): Promise<Reply> {
  return call(server, 'PUT', `/documents/${docPath}${query}`, { body: Buffer.from(`# the page\r\n${url}\r\n`), headers: { 'content-type': 'text/uri-list' } });
}

function pdftext(bytes: Buffer): string {
  return execFileSync('pdftotext', ['-', '-'], { input: bytes }).toString('utf8');
}

/** A 48 x 32 red PNG. */
function redPng(): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(48 * 3, Buffer.from([220, 20, 20]))]);
  return encodeRgbPng(48, 32, Buffer.concat(Array.from({ length: 32 }, () => row)));
}

describe('web pages by URL', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const received: string[] = [];
  let listener: http.Server;
  let port = 0;
  let server: TestServer;
  const origin = (name: string) => `http://${name}:${port}`;
  // An https listener whose certificate (made here, trusted by the service through NODE_EXTRA_CA_CERTS) names
  // secure.test alone: wrong.test reaches the same listener and must fail the certificate's name check.
  let secure: https.Server;
  let securePort = 0;
  const secureReceived: string[] = [];
  const certDir = mkdtempSync(path.join(tmpdir(), 'pdfservice-url-tls-'));

  before(async () => {
    listener = http.createServer((request, response) => {
      received.push(`${request.headers.host} ${request.url}`);
      const send = (type: string, body: string | Buffer) => {
        response.writeHead(200, { 'content-type': type });
        response.end(body);
      };
      if (request.url === '/page.html') {
        return send('text/html; charset=utf-8', `<!DOCTYPE html><html lang="en"><head><title>Fetched report</title><link rel="stylesheet" href="/style.css"></head>
<body><h1>Fetched report</h1><p>Quarterly figures from the web.</p><img src="/logo.png" alt="Logo" style="width:48px;height:32px">
<img src="${origin('other.test')}/evil.png" alt="x"></body></html>`);
      }
      if (request.url === '/style.css') return send('text/css', 'body { font-family: sans-serif } h1 { color: #1a237e }');
      if (request.url === '/logo.png') return send('image/png', redPng());
      if (request.url === '/redirect') {
        response.writeHead(302, { location: `${origin('other.test')}/target.html` });
        return response.end();
      }
      if (request.url === '/hop') {
        response.writeHead(301, { location: '/page.html' });
        return response.end();
      }
      if (request.url === '/huge.html') {
        response.writeHead(200, { 'content-type': 'text/html' });
        // Three times the page's budget, in chunks: the service stops reading past the bound.
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const more = () => {
          while (sent < 3 * MAX_BYTES) {
            sent += chunk.length;
            if (!response.write(chunk)) return response.once('drain', more);
          }
          response.end();
        };
        response.on('error', () => undefined);
        return more();
      }
      response.writeHead(404);
      response.end();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=secure.test', '-addext', 'subjectAltName=DNS:secure.test',
      '-keyout', path.join(certDir, 'key.pem'), '-out', path.join(certDir, 'cert.pem')], { stdio: 'ignore' });
    secure = https.createServer({ key: readFileSync(path.join(certDir, 'key.pem')), cert: readFileSync(path.join(certDir, 'cert.pem')) }, (request, response) => {
      secureReceived.push(`${request.headers.host} ${request.url}`);
      if (request.url === '/page.html') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return response.end('<!DOCTYPE html><html lang="en"><head><title>Over TLS</title><link rel="stylesheet" href="/style.css"></head><body><h1>Fetched over TLS</h1></body></html>');
      }
      if (request.url === '/style.css') {
        response.writeHead(200, { 'content-type': 'text/css' });
        return response.end('h1 { color: #2e7d32 }');
      }
      response.writeHead(404);
      response.end();
    });
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    securePort = (secure.address() as AddressInfo).port;
    const names = ['site.test', 'loop.test', 'loop6.test', 'mapped.test', 'ten.test', 'meta.test'];
    server = await startServer({
      env: {
        NODE_ENV: 'test',
        PDFSERVICE_CHROMIUM_INSTANCES: '1',
        PDFSERVICE_CHROMIUM_TIMEOUT_MS: '20000',
        PDFSERVICE_URL_MAX_BYTES: String(MAX_BYTES),
        PDFSERVICE_URL_ALLOWLIST: [...names.map(origin), `http://127.0.0.1:${port}`, `https://secure.test:${securePort}`, `https://wrong.test:${securePort}`].join(','),
        // site.test and other.test reach the listener (exempt), secure.test and wrong.test the https one; the others
        // name addresses that are always refused.
        PDFSERVICE_URL_TEST_HOSTS: `site.test=127.0.0.1!,other.test=127.0.0.1!,secure.test=127.0.0.1!,wrong.test=127.0.0.1!,loop.test=127.0.0.1,loop6.test=::1,mapped.test=::ffff:127.0.0.1,ten.test=10.0.0.1,meta.test=169.254.169.254`,
        NODE_EXTRA_CA_CERTS: path.join(certDir, 'cert.pem'),
      },
    });
  });
  after(async () => {
    await server?.stop();
    await new Promise((resolve) => listener.close(resolve));
    await new Promise((resolve) => secure.close(resolve));
    rmSync(certDir, { recursive: true, force: true });
  });

  test('an https page is fetched with its certificate checked against the name: its style sheet too; a certificate for another name is 422', async () => {
    secureReceived.length = 0;
    const reply = await putUrl(server, 'web/tls.pdf', `https://secure.test:${securePort}/page.html`);
    assert.equal(reply.status, 201, reply.text);
    assert.match(pdftext((await call(server, 'GET', '/documents/web/tls.pdf')).bytes), /Fetched over TLS/);
    assert.deepEqual(secureReceived, [`secure.test:${securePort} /page.html`, `secure.test:${securePort} /style.css`]);
    secureReceived.length = 0;
    const wrong = await putUrl(server, 'web/wrong-name.pdf', `https://wrong.test:${securePort}/page.html`);
    assert.equal(wrong.status, 422, wrong.text);
    assert.equal(wrong.json().code, 'URL_FETCH_FAILED');
    assert.match(wrong.json().detail, /wrong\.test/);
    // The TLS handshake failed before any request was sent.
    assert.deepEqual(secureReceived, []);
    assert.equal((await call(server, 'HEAD', '/documents/web/wrong-name.pdf')).status, 404);
  });

  test('a page with its style sheet and image from the allowed origin is printed; a sub-resource of another origin is not fetched', async () => {
    received.length = 0;
    const reply = await putUrl(server, 'web/report.pdf', `${origin('site.test')}/page.html#top`);
    assert.equal(reply.status, 201, reply.text);
    const pdf = (await call(server, 'GET', '/documents/web/report.pdf')).bytes;
    const text = pdftext(pdf);
    assert.match(text, /Fetched report/);
    assert.match(text, /Quarterly figures from the web\./);
    const images = execFileSync('pdfimages', ['-list', '-'], { input: pdf }).toString('utf8').split('\n').slice(2).filter(Boolean);
    // The logo, once; the refused image is Chromium's small broken-image icon, if anything.
    assert.equal(images.filter((line) => /\simage\s+48\s+32\s/.test(line)).length, 1, `the logo expected once: ${images.join('\n')}`);
    assert.ok(received.includes(`site.test:${port} /page.html`), received.join('\n'));
    assert.ok(received.includes(`site.test:${port} /style.css`), received.join('\n'));
    assert.ok(received.includes(`site.test:${port} /logo.png`), received.join('\n'));
    assert.deepEqual(received.filter((line) => line.includes('other.test') || line.includes('evil')), []);
    // A redirect within the allowed origin is followed: the page is printed from where it ended.
    const hop = await putUrl(server, 'web/hop.pdf', `${origin('site.test')}/hop`);
    assert.equal(hop.status, 201, hop.text);
    assert.match(pdftext((await call(server, 'GET', '/documents/web/hop.pdf')).bytes), /Fetched report/);
  });

  test('an origin not on the list is 403 before any fetch', async () => {
    received.length = 0;
    const reply = await putUrl(server, 'web/other.pdf', `${origin('other.test')}/page.html`);
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.json().code, 'URL_NOT_ALLOWED');
    assert.match(reply.json().detail, /not on the service's allow-list/);
    const https = await putUrl(server, 'web/other.pdf', `https://site.test:${port}/page.html`);
    assert.equal(https.json().code, 'URL_NOT_ALLOWED', https.text);
    const file = await putUrl(server, 'web/other.pdf', 'file:///etc/passwd');
    assert.equal(file.json().code, 'URL_NOT_ALLOWED', file.text);
    assert.deepEqual(received, []);
    assert.equal((await call(server, 'HEAD', '/documents/web/other.pdf')).status, 404);
  });

  test('names resolving to loopback, private and link-local addresses are refused, and the listener receives nothing', async () => {
    received.length = 0;
    for (const name of ['loop.test', 'loop6.test', 'mapped.test', 'ten.test', 'meta.test', '127.0.0.1']) {
      const reply = await putUrl(server, 'web/private.pdf', `${origin(name)}/page.html`);
      assert.equal(reply.status, 403, `${name}: ${reply.text}`);
      assert.equal(reply.json().code, 'URL_NOT_ALLOWED');
      assert.match(reply.json().detail, /non-public address/);
    }
    assert.deepEqual(received, []);
  });

  test('a redirect to an origin not on the list is refused; a stored document stays unchanged', async () => {
    const first = await putUrl(server, 'web/kept.pdf', `${origin('site.test')}/page.html`);
    assert.equal(first.status, 201, first.text);
    received.length = 0;
    const reply = await expectUnchanged(server, 'web/kept.pdf', () => putUrl(server, 'web/kept.pdf', `${origin('site.test')}/redirect`), 403, 'URL_NOT_ALLOWED');
    assert.match(reply.json().detail, /other\.test/);
    assert.deepEqual(received, [`site.test:${port} /redirect`]);
  });

  test('a body past the byte bound is 422 URL_FETCH_FAILED', async () => {
    const reply = await putUrl(server, 'web/huge.pdf', `${origin('site.test')}/huge.html`);
    assert.equal(reply.status, 422, reply.text);
    assert.equal(reply.json().code, 'URL_FETCH_FAILED');
    assert.match(reply.json().detail, /larger than/);
    assert.equal((await call(server, 'HEAD', '/documents/web/huge.pdf')).status, 404);
  });

  test('a form upload of a .uri file stores the page; a one-shot conversion answers it', async () => {
    assert.equal((await call(server, 'PUT', '/documents/web-form')).status, 201);
    const form = new FormData();
    form.append('file', new Blob([`${origin('site.test')}/page.html\n`], { type: 'application/octet-stream' }), 'q3.uri');
    const stored = await call(server, 'POST', '/documents/web-form', { body: form });
    assert.equal(stored.status, 201, stored.text);
    assert.match(pdftext((await call(server, 'GET', '/documents/web-form/q3.pdf')).bytes), /Quarterly figures/);
    const oneshot = new FormData();
    oneshot.append('file', new Blob([`${origin('site.test')}/page.html\n`], { type: 'text/uri-list' }), 'page.uri');
    const converted = await call(server, 'POST', '/convert', { body: oneshot });
    assert.equal(converted.status, 200, converted.text);
    assert.match(pdftext(converted.bytes), /Fetched report/);
    const refused = new FormData();
    refused.append('file', new Blob([`${origin('ten.test')}/page.html\n`], { type: 'text/uri-list' }), 'page.uri');
    assert.equal((await call(server, 'POST', '/convert', { body: refused })).json().code, 'URL_NOT_ALLOWED');
  });

  test('a list of two URLs is 400; HTML options apply to a web page', async () => {
    const two = await call(server, 'PUT', '/documents/web/two.pdf', { body: Buffer.from(`${origin('site.test')}/a\n${origin('site.test')}/b\n`), headers: { 'content-type': 'text/uri-list' } });
    assert.equal(two.status, 400, two.text);
    const landscape = await putUrl(server, 'web/landscape.pdf', `${origin('site.test')}/page.html`, '?landscape=true&paperSize=A5');
    assert.equal(landscape.status, 201, landscape.text);
    const info = execFileSync('pdfinfo', ['-'], { input: (await call(server, 'GET', '/documents/web/landscape.pdf')).bytes }).toString('utf8');
    const match = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info);
    assert.ok(match && Math.abs(Number(match[1]) - 595.3) < 2 && Math.abs(Number(match[2]) - 419.5) < 2, info);
  });
});

describe('web pages by URL without an allow-list', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  test('are 403 URL_FETCH_DISABLED, nothing stored', async () => {
    const reply = await putUrl(server, 'off.pdf', 'https://example.com/');
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.json().code, 'URL_FETCH_DISABLED');
    assert.match(reply.json().detail, /PDFSERVICE_URL_ALLOWLIST/);
    assert.equal((await call(server, 'HEAD', '/documents/off.pdf')).status, 404);
  });
});
