import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { basicAuth, serverForSuite } from '../helpers/server.js';
import { call, putPdf, type Reply } from '../helpers/http.js';
import { makeManyPagesPdf } from '../helpers/pdf.js';
import { serializePdf } from '../helpers/pdf-writer.js';

const PAGES = 100_000;

interface PagesModel {
  pages: { pageIndex: number; width: number; height: number }[];
  total: number;
  offset: number;
  limit: number;
  next?: string;
  prev?: string;
}

describe(`GET .../pages of a ${PAGES.toLocaleString('en')}-page document: paged, and the service keeps answering`, () => {
  const server = serverForSuite({ env: { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });
  const url = '/documents/paging/huge.pdf/pages';
  const listPath = `/pdfservice/v1${url}`;

  test('the list is paged: 1,000 pages by default, offset and limit, total, next and prev in the body and the Link header', async () => {
    assert.equal((await putPdf(server, 'paging/huge.pdf', makeManyPagesPdf(PAGES))).status, 201);

    const first = await call(server, 'GET', url);
    assert.equal(first.status, 200, first.text);
    const body = first.json<PagesModel>();
    assert.equal(body.total, PAGES);
    assert.equal(body.offset, 0);
    assert.equal(body.limit, 1000);
    assert.deepEqual(body.pages.map((p) => p.pageIndex), Array.from({ length: 1000 }, (_, i) => i));
    assert.ok(body.pages.every((p) => p.width === 300 && p.height === 200));
    assert.equal(body.next, `${listPath}?offset=1000&limit=1000`);
    assert.equal(body.prev, undefined);
    assert.equal(first.headers.get('link'), `<${listPath}?offset=1000&limit=1000>; rel="next"`);

    const middle = await call(server, 'GET', `${url}?offset=5000&limit=10`);
    const m = middle.json<PagesModel>();
    assert.deepEqual(m.pages.map((p) => p.pageIndex), [5000, 5001, 5002, 5003, 5004, 5005, 5006, 5007, 5008, 5009]);
    assert.equal(m.next, `${listPath}?offset=5010&limit=10`);
    assert.equal(m.prev, `${listPath}?offset=4990&limit=10`);
    assert.equal(middle.headers.get('link'), `<${listPath}?offset=5010&limit=10>; rel="next", <${listPath}?offset=4990&limit=10>; rel="prev"`);

    const last = (await call(server, 'GET', `${url}?offset=${PAGES - 3}&limit=10000`)).json<PagesModel>();
    assert.deepEqual(last.pages.map((p) => p.pageIndex), [PAGES - 3, PAGES - 2, PAGES - 1]);
    assert.equal(last.next, undefined);
    assert.equal(last.prev, `${listPath}?offset=${PAGES - 10003}&limit=10000`);

    const past = (await call(server, 'GET', `${url}?offset=${PAGES}`)).json<PagesModel>();
    assert.deepEqual([past.pages.length, past.total, past.next], [0, PAGES, undefined]);

    for (const bad of ['limit=0', 'limit=10001', 'offset=-1', 'limit=many']) {
      const reply = await call(server, 'GET', `${url}?${bad}`);
      assert.equal(reply.status, 400, bad);
      assert.equal(reply.json().code, 'VALIDATION_FAILED', bad);
    }

    const xml = await call(server, 'GET', `${url}?offset=10&limit=2`, { headers: { accept: 'application/xml' } });
    assert.match(xml.text, /<Pages>\s*<page>\s*<pageIndex>10<\/pageIndex>[\s\S]*<pageIndex>11<\/pageIndex>[\s\S]*<\/page>\s*<total>100000<\/total>\s*<offset>10<\/offset>\s*<limit>2<\/limit>\s*<next>/);
  });

  test('one content under two paths: each listing links its own path (the cached body is per path)', async () => {
    const small = makeManyPagesPdf(3);
    for (const name of ['twin-a', 'twin-b']) assert.equal((await putPdf(server, `paging/${name}.pdf`, small)).status, 201);
    for (const name of ['twin-a', 'twin-b']) {
      const listed = await call(server, 'GET', `/documents/paging/${name}.pdf/pages?limit=1`);
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.json<PagesModel>().next, `/pdfservice/v1/documents/paging/${name}.pdf/pages?offset=1&limit=1`);
      assert.equal(listed.headers.get('link'), `</pdfservice/v1/documents/paging/${name}.pdf/pages?offset=1&limit=1>; rel="next"`);
    }
  });

  test('annotationCount in a slice is the whole listing\'s: an annotation on two pages counts on the first, also when the slice starts after it', async () => {
    // Pages 1 and 3 list annotation 6; page 3 also its own 7. The whole listing counts 6 on page 1 only (as the annotation
    // listing does); a slice without annotations of its own is answered without walking the document (src/engine/pages/list.ts).
    const note = (x: number) => `<< /Type /Annot /Subtype /Square /Rect [${x} 10 ${x + 20} 30] >>`;
    const pdf = serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 /MediaBox [0 0 200 200] >>',
      '<< /Type /Page /Parent 2 0 R /Annots [6 0 R] >>',
      '<< /Type /Page /Parent 2 0 R >>',
      '<< /Type /Page /Parent 2 0 R /Annots [6 0 R 7 0 R] >>',
      note(10),
      note(50),
    ], '/Root 1 0 R');
    assert.equal((await putPdf(server, 'paging/shared-annots.pdf', pdf)).status, 201);
    const counts = async (query: string) => {
      const reply = await call(server, 'GET', `/documents/paging/shared-annots.pdf/pages${query}`);
      assert.equal(reply.status, 200, reply.text);
      return reply.json<{ pages: { annotationCount: number }[] }>().pages.map((p) => p.annotationCount);
    };
    assert.deepEqual(await counts(''), [1, 0, 1]);
    assert.deepEqual(await counts('?offset=1&limit=1'), [0]);
    assert.deepEqual(await counts('?offset=1&limit=2'), [0, 1]);
    assert.deepEqual(await counts('?offset=2&limit=1'), [1]);
  });

  test('ten concurrent XML listings by a GET-only user leave /health answering throughout (no request waits seconds)', async () => {
    assert.equal((await call(server, 'POST', '/users', { body: { username: 'reader', password: 'reader-password-1', rights: ['GET'] } })).status, 201);
    const reader = basicAuth('reader', 'reader-password-1');
    // The first /health of a service waits for the tools' version probes (docs/api.md, "Health"), which start a JVM and
    // LibreOffice's launcher: that wait, slow on two busy cores, is not the frozen event loop this test looks for.
    assert.equal((await call(server, 'GET', '/health', { auth: false })).status, 200);
    let done = 0;
    const listings = Array.from({ length: 10 }, (_, i) =>
      call(server, 'GET', `${url}?offset=${i * 1000}`, { auth: reader, headers: { accept: 'application/xml' } }).then((reply: Reply) => {
        done++;
        return reply;
      }),
    );
    const health: { status: number; ms: number }[] = [];
    while (done < 10) {
      const started = performance.now();
      const reply = await call(server, 'GET', '/health', { auth: false });
      health.push({ status: reply.status, ms: performance.now() - started });
    }
    for (const [i, reply] of (await Promise.all(listings)).entries()) {
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.text.match(/<page>/g)?.length, 1000);
      assert.match(reply.text, new RegExp(`<pageIndex>${i * 1000}</pageIndex>`));
    }
    assert.ok(health.length > 0);
    assert.ok(health.every((h) => h.status === 200), 'every health request succeeded');
    // Not a timing measurement (bench/ has the p99): a bound far above any answer, to detect a frozen event loop.
    const slowest = Math.max(...health.map((h) => h.ms));
    assert.ok(slowest < 2000, `/health took ${Math.round(slowest)} ms while the listings ran`);
  });
});
