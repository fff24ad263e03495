/**
 * CORS as a browser applies it (issue 35 item 14): curl and fetch in Node do not enforce CORS, so a header the
 * preflight does not allow, or an answer header that is not exposed, passes there and fails in a browser. A page
 * served from another origin (a small HTTP server on another port) calls the service from Debian's Chromium,
 * driven by playwright-core: it starts a background job with `Prefer: respond-async` and reads `Location` and
 * `Preference-Applied`, then follows the job's events with `Last-Event-ID`.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { call } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { freePort } from '../helpers/processes.js';
import { ADMIN, basicAuth, serverForSuite } from '../helpers/server.js';

const pagePort = await freePort();
// localhost and 127.0.0.1 are different origins (and sites): every call below is cross-origin.
const PAGE_ORIGIN = `http://localhost:${pagePort}`;

describe('CORS in Chromium', () => {
  const server = serverForSuite({ env: { PDFSERVICE_CORS_ORIGINS: PAGE_ORIGIN } });
  let page: http.Server;
  let browser: Browser;

  before(async () => {
    page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
    await new Promise<void>((resolve) => page.listen(pagePort, '127.0.0.1', resolve));
    browser = await launchChromium();
    const created = await call(server, 'PUT', '/documents/browser/report.pdf', { body: makePdf({ pages: 2 }), headers: { 'content-type': 'application/pdf' } });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => page?.close(resolve));
  });

  test('a page on another origin starts a job with Prefer: respond-async, reads Location and Preference-Applied, and follows its events', async () => {
    const tab = await browser.newPage();
    await tab.goto(`${PAGE_ORIGIN}/`);
    const seen = await tab.evaluate(async ({ api, authorization }) => {
      // Network errors (a refused preflight) reject fetch: report them rather than throw, to see which step failed.
      try {
        const started = await fetch(`${api}/documents/browser/report.pdf/pages`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json', prefer: 'respond-async' },
          body: JSON.stringify({ TextStampAction: { text: 'From the browser', x: 72, y: 72, pageIndex: 0 } }),
        });
        const location = started.headers.get('location');
        const applied = started.headers.get('preference-applied');
        const job = (await started.json()) as { id: string };
        let events = { status: 0, type: '', text: '' };
        if (location) {
          const stream = await fetch(`${new URL(api).origin}${location}/events`, { headers: { authorization, 'last-event-id': '0', accept: 'text/event-stream' } });
          events = { status: stream.status, type: stream.headers.get('content-type') ?? '', text: await stream.text() };
        }
        return { status: started.status, location, applied, id: job.id, events };
      } catch (err) {
        return { error: String(err) };
      }
    }, { api: server.api, authorization: basicAuth(ADMIN.username, ADMIN.password) });
    await tab.close();

    assert.ok(!('error' in seen), `the browser refused a call: ${JSON.stringify(seen)}`);
    assert.equal(seen.status, 202);
    assert.equal(seen.location, `/pdfservice/v1/jobs/${seen.id}`);
    assert.equal(seen.applied, 'respond-async');
    assert.equal(seen.events.status, 200);
    assert.match(seen.events.type, /^text\/event-stream/);
    // The stream ends with the job; the events after id 0 are there.
    assert.match(seen.events.text, /event: end/);
  });
});
