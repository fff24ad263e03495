/**
 * The attacks of issue 41's "Bad input" on HTML uploads (docs/html.md, "Security"), with the real Chromium and the real
 * server: a loopback listener must receive nothing, no local file may appear in an output, a page that never ends is
 * a clear 422 within the time limit with the service and another conversion unaffected, and the pool survives a
 * browser killed from outside.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, type Reply } from '../helpers/http.js';
import { descendants, isChromium } from '../helpers/processes.js';
import { serverForSuite } from '../helpers/server.js';

const CHROMIUM = '/usr/lib/chromium/chromium';

function putHtml(server: Parameters<typeof call>[0], docPath: string, html: string, query = ''): Promise<Reply> {
  return call(server, 'PUT', `/documents/${docPath}${query}`, { body: Buffer.from(html), headers: { 'content-type': 'text/html' } });
}

function pdftext(bytes: Buffer): string {
  return execFileSync('pdftotext', ['-', '-'], { input: bytes }).toString('utf8');
}

describe('HTML uploads fetch nothing and survive hostile pages', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '2', PDFSERVICE_CHROMIUM_TIMEOUT_MS: '6000' } });
  const received: string[] = [];
  let listener: http.Server;
  let port = 0;
  let canaryDir = '';
  const CANARY = `canary-${process.pid}-7f3a9c`;

  before(async () => {
    listener = http.createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(`LEAKED ${request.url}`);
    });
    listener.on('upgrade', (request, socket) => {
      received.push(`UPGRADE ${request.url}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    canaryDir = mkdtempSync(path.join(tmpdir(), 'html-canary-'));
    writeFileSync(path.join(canaryDir, 'canary.txt'), CANARY);
    writeFileSync(path.join(canaryDir, 'canary.html'), `<p>${CANARY}</p>`);
  });
  after(async () => {
    await new Promise((resolve) => listener.close(resolve));
    rmSync(canaryDir, { recursive: true, force: true });
  });

  const hostile = (origin: string, tag: string) => `<!DOCTYPE html><html><head>
<link rel="stylesheet" href="${origin}/css-${tag}">
<link rel="prefetch" href="${origin}/prefetch-${tag}">
<link rel="preload" as="image" href="${origin}/preload-${tag}">
<link rel="dns-prefetch" href="${origin}">
<style>@import url("${origin}/import-${tag}"); @font-face { font-family: X; src: url("${origin}/font-${tag}"); } body { font-family: X; background: url("${origin}/bg-${tag}") }</style>
<meta http-equiv="refresh" content="0; url=${origin}/refresh-${tag}">
</head><body><p>Hostile ${tag}</p>
<img src="${origin}/img-${tag}"><img srcset="${origin}/srcset-${tag} 2x">
<iframe src="${origin}/iframe-${tag}"></iframe><object data="${origin}/object-${tag}"></object><embed src="${origin}/embed-${tag}">
<video poster="${origin}/poster-${tag}"></video><audio src="${origin}/audio-${tag}"></audio>
<iframe src="file:///etc/passwd"></iframe><iframe src="file://${canaryDir}/canary.html"></iframe><img src="file://${canaryDir}/canary.txt">
<object data="file:///etc/passwd" type="text/plain"></object>
<script>
fetch("${origin}/fetch-${tag}").catch(() => {});
const x = new XMLHttpRequest(); x.open("GET", "${origin}/xhr-${tag}"); x.send();
try { new WebSocket("${origin.replace('http', 'ws')}/ws-${tag}"); } catch {}
try { navigator.sendBeacon("${origin}/beacon-${tag}", "x"); } catch {}
try { navigator.serviceWorker.register("${origin}/sw-${tag}.js"); } catch {}
const a = document.createElement("a"); a.href = "${origin}/download-${tag}"; a.download = "x"; document.body.append(a); try { a.click(); } catch {}
fetch("file:///etc/passwd").then((r) => r.text()).then((t) => document.body.append(t)).catch(() => {});
fetch("file://${canaryDir}/canary.txt").then((r) => r.text()).then((t) => document.body.append(t)).catch(() => {});
</script>
</body></html>`;

  test('resources, frames, refresh, prefetch, fetch, XHR, WebSocket, beacons, service workers and downloads reach no listener; no local file is printed', async () => {
    // By address, by a name that resolves to it (localhost), and through IPv6's mapped form.
    const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::ffff:127.0.0.1]:${port}`];
    for (const [index, origin] of origins.entries()) {
      for (const javascript of [false, true]) {
        const reply = await putHtml(server, `attacks/page-${index}-${javascript}.pdf`, hostile(origin, `${index}`), `?javascript=${javascript}&waitDelay=300`);
        assert.equal(reply.status, 201, reply.text);
        const text = pdftext((await call(server, 'GET', `/documents/attacks/page-${index}-${javascript}.pdf`)).bytes);
        assert.match(text, new RegExp(`Hostile ${index}`));
        assert.doesNotMatch(text, /LEAKED/);
        assert.doesNotMatch(text, /root:x?:0:0/);
        assert.ok(!text.includes(CANARY), 'the canary file was printed');
      }
    }
    // A bundle's page: a relative path that climbs out of it is no file of the host either.
    const form = new FormData();
    form.append('file', new Blob([`<!DOCTYPE html><p>Bundle</p><iframe src="../../../../etc/passwd"></iframe><img src="/${canaryDir}/canary.txt">`], { type: 'text/html' }), 'index.html');
    form.append('asset', new Blob(['p { color: red }'], { type: 'text/css' }), 'style.css');
    await call(server, 'PUT', '/documents/attacks');
    const bundle = await call(server, 'POST', '/documents/attacks', { body: form });
    assert.equal(bundle.status, 201, bundle.text);
    const text = pdftext((await call(server, 'GET', '/documents/attacks/index.pdf')).bytes);
    assert.doesNotMatch(text, /root:x?:0:0/);
    assert.ok(!text.includes(CANARY));
    assert.deepEqual(received, []);
  });

  test('a script that never ends and a page too large end in 422 within the time limit; the service and a concurrent conversion are unaffected', async () => {
    const endless = putHtml(server, 'attacks/endless.pdf', '<!DOCTYPE html><p>Loop</p><script>for (;;) {}</script>', '?javascript=true');
    const huge = putHtml(server, 'attacks/huge.pdf', `<!DOCTYPE html><script>const d = document.createElement('div'); d.style.height = '50000000px'; document.documentElement.append(d); for (let i = 0; i < 100000; i++) document.body.append(document.createElement('p'));</script>`, '?javascript=true');
    const [loop, tall] = await Promise.all([endless, huge]);
    assert.equal(loop.status, 422, loop.text);
    assert.equal(loop.json().code, 'HTML_CONVERSION_FAILED');
    assert.match(loop.json().detail, /within 6 s/);
    // A page 50,000,000 px tall is tens of thousands of printed pages: printing them overruns the limit, a 422 as the
    // endless script's (docs/html.md, "Tested limits"); nothing is stored.
    assert.equal(tall.status, 422, tall.text);
    assert.equal(tall.json().code, 'HTML_CONVERSION_FAILED');
    assert.match(tall.json().detail, /within 6 s/);
    assert.equal((await call(server, 'GET', '/documents/attacks/huge.pdf')).status, 404);
    assert.equal((await call(server, 'GET', '/documents/attacks/endless.pdf')).status, 404);
    // While one browser spins on an endless script, the other converts.
    const spinning = putHtml(server, 'attacks/endless2.pdf', '<!DOCTYPE html><script>for (;;) {}</script>', '?javascript=true');
    const normal = await putHtml(server, 'attacks/normal.pdf', '<!DOCTYPE html><p>Still fine</p>');
    assert.equal(normal.status, 201, normal.text);
    assert.equal((await spinning).status, 422);
    assert.match(pdftext((await call(server, 'GET', '/documents/attacks/normal.pdf')).bytes), /Still fine/);
    const health = await call(server, 'GET', '/health');
    assert.equal(health.status, 200, health.text);
  });

  test('/health shows the browser and its version; a browser killed from outside is replaced and the next page converts', async () => {
    const health = (await call(server, 'GET', '/health')).json();
    const chromium = JSON.stringify(health);
    assert.match(chromium, /"name":"chromium"/);
    assert.match(chromium, /"name":"chromium"[^}]*"available":true/);
    assert.match(chromium, /"version":"\d+\.\d+\.\d+\.\d+"/);
    assert.equal((await putHtml(server, 'attacks/before.pdf', '<!DOCTYPE html><p>Before</p>')).status, 201);
    // The browser processes: chromium below a node helper below the service (through bwrap).
    const browsers = [...descendants(server.child.pid!)].filter(([, comm]) => isChromium(comm)).map(([pid]) => pid);
    assert.ok(browsers.length > 0, 'no chromium process found below the service');
    for (const pid of browsers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone with another */
      }
    }
    for (let i = 0; i < 3; i++) {
      const reply = await putHtml(server, `attacks/after-${i}.pdf`, `<!DOCTYPE html><p>After ${i}</p>`);
      assert.equal(reply.status, 201, reply.text);
      assert.match(pdftext((await call(server, 'GET', `/documents/attacks/after-${i}.pdf`)).bytes), new RegExp(`After ${i}`));
    }
  });
});
