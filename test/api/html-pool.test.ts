/**
 * The Chromium pool's limits (docs/html.md, "The pool" and "Tested limits"), with the real browser and server: the
 * browsers started with the service by default, a browser replaced after PDFSERVICE_CHROMIUM_RESTART_AFTER
 * conversions and past PDFSERVICE_CHROMIUM_MAX_RSS_MB (its process changes, the restart is counted), a page carrying
 * a data: URL image of tens of MB, and page ranges that are open-ended, run past the last page or select none of it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call, type Reply } from '../helpers/http.js';
import { encodeRgbPng } from '../helpers/png.js';
import { descendants, isChromium } from '../helpers/processes.js';
import { serverForSuite, type TestServer } from '../helpers/server.js';

const CHROMIUM = '/usr/lib/chromium/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium`;

function putHtml(server: TestServer, docPath: string, html: string | Buffer, query = ''): Promise<Reply> {
  return call(server, 'PUT', `/documents/${docPath}${query}`, { body: Buffer.from(html), headers: { 'content-type': 'text/html' } });
}

/** The main browser processes below the service: Chromium processes whose parent is not one (the helper's child). */
function browsers(server: TestServer): number[] {
  const below = descendants(server.child.pid!);
  const parentOf = (pid: number): number => {
    try {
      const stat = execFileSync('cat', [`/proc/${pid}/stat`]).toString('latin1');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return 0;
    }
  };
  // A process that ended meanwhile (a closed context's renderer) has no parent to read: it is no browser.
  return [...below].filter(([pid, comm]) => {
    if (!isChromium(comm)) return false;
    const parent = parentOf(pid);
    return parent !== 0 && !isChromium(below.get(parent));
  }).map(([pid]) => pid);
}

/** pdfservice_program_restarts_total of chromium for a reason. */
async function restarts(server: TestServer, reason: string): Promise<number> {
  const text = (await call(server, 'GET', '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`pdfservice_program_restarts_total{program="chromium",reason="${reason}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** Waits (bounded) until the count of restarts for `reason` reaches `count`: a worn-out browser is retired meanwhile. */
async function restartsReach(server: TestServer, reason: string, count: number): Promise<number> {
  let seen = await restarts(server, reason);
  for (let i = 0; i < 100 && seen < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await restarts(server, reason);
  }
  return seen;
}

async function convertOne(server: TestServer, docPath: string, text: string): Promise<void> {
  const reply = await putHtml(server, docPath, `<!DOCTYPE html><p>${text}</p>`);
  assert.equal(reply.status, 201, reply.text);
  assert.match(execFileSync('pdftotext', ['-', '-'], { input: (await call(server, 'GET', `/documents/${docPath}`)).bytes }).toString(), new RegExp(text));
}

describe('the browsers are started with the service by default (PDFSERVICE_CHROMIUM_PREWARM)', { skip }, () => {
  // An empty value is the default (on), which the test servers otherwise turn off.
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_PREWARM: '', PDFSERVICE_CHROMIUM_INSTANCES: '1' } });

  test('a browser runs below the service before any HTML upload, and the first page is printed by it', async () => {
    // A browser with processes of its own (its zygotes): the version probe, a chromium process below the sandbox
    // too, has none and ends at once.
    const running = () => browsers(server).filter((pid) => [...descendants(pid).values()].some(isChromium));
    let started = running();
    for (let i = 0; i < 1200 && started.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      started = running();
    }
    assert.equal(started.length, 1, 'no browser was started with the service within 60 s');
    await convertOne(server, 'pool/prewarmed.pdf', 'Prewarmed');
    assert.deepEqual(browsers(server), started, 'the first page was printed by the browser started with the service');
  });
});

describe('a browser is replaced after PDFSERVICE_CHROMIUM_RESTART_AFTER conversions', { skip }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1', PDFSERVICE_CHROMIUM_RESTART_AFTER: '2' } });

  test('the first browser serves two conversions, then another process serves the third', async () => {
    await convertOne(server, 'pool/uses-1.pdf', 'First');
    const first = browsers(server);
    assert.equal(first.length, 1, `one browser expected, found ${first.join(', ')}`);
    await convertOne(server, 'pool/uses-2.pdf', 'Second');
    assert.equal(await restartsReach(server, 'uses', 1), 1, 'the browser was replaced after its second conversion');
    await convertOne(server, 'pool/uses-3.pdf', 'Third');
    const second = browsers(server);
    assert.equal(second.length, 1, `one browser expected, found ${second.join(', ')}`);
    assert.notEqual(second[0], first[0]);
    assert.ok(!existsSync(`/proc/${first[0]}`), 'the first browser ended');
    // The new browser has one use: it is not replaced after it.
    assert.equal(await restarts(server, 'uses'), 1);
  });
});

describe('a browser is replaced when its memory passes PDFSERVICE_CHROMIUM_MAX_RSS_MB', { skip }, () => {
  // 64 MB, the lowest the setting takes: a browser and its renderer use more after any page.
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1', PDFSERVICE_CHROMIUM_MAX_RSS_MB: '64' } });

  /** A conversion that waits 2 s after loading, and the browser seen converting it (it is gone once the answer came). */
  async function convertSeen(docPath: string, text: string): Promise<number> {
    const reply = putHtml(server, docPath, `<!DOCTYPE html><p>${text}</p>`, '?waitDelay=2000');
    let seen: number[] = [];
    for (let i = 0; i < 400 && seen.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      seen = browsers(server);
    }
    assert.equal((await reply).status, 201);
    assert.equal(seen.length, 1, 'the browser converting the page was seen');
    return seen[0]!;
  }

  test('each conversion leaves a browser past the bound: the next one runs in a new browser', async () => {
    const first = await convertSeen('pool/memory-1.pdf', 'Heavy one');
    assert.equal(await restartsReach(server, 'memory', 1), 1, 'the browser was replaced for its memory');
    const second = await convertSeen('pool/memory-2.pdf', 'Heavy two');
    assert.notEqual(second, first, 'the second conversion ran in a new browser');
    assert.equal(await restartsReach(server, 'memory', 2), 2);
    assert.equal(await restarts(server, 'uses'), 0);
    assert.match(execFileSync('pdftotext', ['-', '-'], { input: (await call(server, 'GET', '/documents/pool/memory-2.pdf')).bytes }).toString(), /Heavy two/);
  });
});

/** An RGB PNG of random pixels, stored without compression: `width` × `height` × 3 bytes and a little. */
function noisePng(width: number, height: number): Buffer {
  const row = 1 + width * 3;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) randomBytes(width * 3).copy(raw, y * row + 1);
  return encodeRgbPng(width, height, raw, 0);
}

describe('large pages and page ranges', { skip }, () => {
  // A generous time limit: a 19 MB page is read, decoded and printed on a shared machine (this is a limit, not a timing).
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1', PDFSERVICE_CHROMIUM_TIMEOUT_MS: '120000' } });

  test('a data: URL image of tens of MB is printed at its full size', async () => {
    const png = noisePng(2400, 2000);
    const html = `<!DOCTYPE html><p>Large image</p><img alt="Noise" style="width:100%" src="data:image/png;base64,${png.toString('base64')}">`;
    assert.ok(html.length > 18 * 1024 * 1024, `the page is ${html.length} bytes`);
    const reply = await putHtml(server, 'large/image.pdf', html);
    assert.equal(reply.status, 201, reply.text);
    const pdf = (await call(server, 'GET', '/documents/large/image.pdf')).bytes;
    assert.match(execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString(), /Large image/);
    // pdfimages reads a file: the listing names the image at its pixel size.
    const list = execFileSync('pdfimages', ['-list', '-'], { input: pdf }).toString();
    assert.match(list, /^\s+1\s+0\s+image\s+2400\s+2000\s/m, list);
  });

  const threePages = '<!DOCTYPE html><p style="break-after:page">Page one</p><p style="break-after:page">Page two</p><p>Page three</p>';
  const printed = async (docPath: string): Promise<{ pages: number; text: string }> => {
    const pdf = (await call(server, 'GET', `/documents/${docPath}`)).bytes;
    const info = execFileSync('pdfinfo', ['-'], { input: pdf }).toString();
    return { pages: Number(/^Pages:\s+(\d+)/m.exec(info)![1]), text: execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString() };
  };

  test('an open-ended page range prints to the last page; a range running past it stops there', async () => {
    const open = await putHtml(server, 'ranges/open.pdf', threePages, '?pageRange=2-');
    assert.equal(open.status, 201, open.text);
    const openPrinted = await printed('ranges/open.pdf');
    assert.equal(openPrinted.pages, 2);
    assert.match(openPrinted.text, /Page two[\s\S]*Page three/);
    assert.doesNotMatch(openPrinted.text, /Page one/);
    const past = await putHtml(server, 'ranges/past.pdf', threePages, '?pageRange=2-9');
    assert.equal(past.status, 201, past.text);
    assert.equal((await printed('ranges/past.pdf')).pages, 2);
  });

  test('a page range that selects no printed page is 400 INVALID_PAGE_RANGE and nothing is stored', async () => {
    for (const range of ['5', '4-', '4-9']) {
      const reply = await putHtml(server, `ranges/none-${range}.pdf`, threePages, `?pageRange=${range}`);
      assert.equal(reply.status, 400, `${range}: ${reply.text}`);
      assert.equal(reply.json().code, 'INVALID_PAGE_RANGE');
      assert.match(reply.json().detail, new RegExp(`"${range}".*no page`));
      assert.equal((await call(server, 'GET', `/documents/ranges/none-${range}.pdf`)).status, 404);
    }
  });
});
