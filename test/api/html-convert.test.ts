/**
 * HTML uploads through the warm Chromium pool (docs/html.md), with the real Debian browser and the real server over
 * HTTP; results read by poppler (pdftotext, pdfinfo, pdffonts, pdfimages) and the service's own page render.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call, type Reply } from '../helpers/http.js';
import { decodePng } from '../helpers/png.js';
import { serverForSuite, startServer } from '../helpers/server.js';
import { verapdfVerdict } from '../helpers/verapdf.js';

const CHROMIUM = '/usr/lib/chromium/chromium';

function putHtml(server: Parameters<typeof call>[0], path: string, html: string, query = ''): Promise<Reply> {
  return call(server, 'PUT', `/documents/${path}${query}`, { body: Buffer.from(html), headers: { 'content-type': 'text/html' } });
}

function pdfinfo(bytes: Buffer): Record<string, string> {
  const out = execFileSync('pdfinfo', ['-'], { input: bytes }).toString('utf8');
  return Object.fromEntries(out.split('\n').filter((line) => line.includes(':')).map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]));
}

function pdftext(bytes: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString('utf8');
}

/** Page size in points from pdfinfo's "W x H pts". */
function pageSize(info: Record<string, string>): [number, number] {
  const match = /([\d.]+) x ([\d.]+) pts/.exec(info['Page size'] ?? '');
  assert.ok(match, `no page size in ${JSON.stringify(info)}`);
  return [Number(match[1]), Number(match[2])];
}

describe('HTML uploads (Chromium)', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '2', PDFSERVICE_CHROMIUM_TIMEOUT_MS: '8000' } });

  test('a self-contained page becomes a tagged PDF: its text, A4 by default, fonts embedded, metadata from the options', async () => {
    const html = '<!DOCTYPE html><html><head><title>Invoice 42</title></head><body><h1>Invoice 42</h1><p>Total due: 1,234.56 EUR</p><h2>Terms</h2><p>Payable within 30 days.</p></body></html>';
    const reply = await putHtml(server, 'html/invoice.pdf', html, '?author=Jane%20Doe&subject=Billing&keywords=invoice%2C%2042&language=en-GB');
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.json().pageCount, 1);
    const pdf = (await call(server, 'GET', '/documents/html/invoice.pdf')).bytes;
    const text = pdftext(pdf);
    assert.match(text, /Invoice 42/);
    assert.match(text, /Total due: 1,234\.56 EUR/);
    const info = pdfinfo(pdf);
    assert.equal(info.Pages, '1');
    const [width, height] = pageSize(info);
    assert.ok(Math.abs(width - 595) < 2 && Math.abs(height - 842) < 2, `A4 expected, got ${width} x ${height}`);
    assert.equal(info.Tagged, 'yes');
    assert.equal(info.Title, 'Invoice 42');
    assert.equal(info.Author, 'Jane Doe');
    assert.equal(info.Subject, 'Billing');
    assert.equal(info.Keywords, 'invoice, 42');
    const fonts = execFileSync('pdffonts', ['-'], { input: pdf }).toString('utf8').split('\n').slice(2).filter(Boolean);
    assert.ok(fonts.length > 0, 'no fonts listed');
    for (const line of fonts) assert.match(line, /\byes\s+yes\s+(yes|no)\s+\d+\s+\d+\s*$/, `a font not embedded (or not subset): ${line}`);
    // Headings become bookmarks (outline on by default).
    const outline = await call(server, 'GET', '/documents/html/invoice.pdf/outline');
    assert.equal(outline.status, 200, outline.text);
    assert.match(outline.text, /Terms/);
    // Finished by finishTaggedPdf: a clean page is PDF/UA-1 by veraPDF's verdict.
    const verdict = await verapdfVerdict(pdf, 'ua1');
    assert.ok(verdict.compliant, `PDF/UA-1 failed: ${JSON.stringify(verdict.rules)}`);
  });

  test('options: Letter, landscape, pageRange; a body that is no HTML and options of other uploads are refused', async () => {
    const pages = Array.from({ length: 3 }, (_, i) => `<section style="page-break-after: always">Section ${i + 1}</section>`).join('');
    const reply = await putHtml(server, 'html/letter.pdf', `<!DOCTYPE html><body>${pages}</body>`, '?paperSize=Letter&landscape=true&pageRange=2-3');
    assert.equal(reply.status, 201, reply.text);
    const pdf = (await call(server, 'GET', '/documents/html/letter.pdf')).bytes;
    const info = pdfinfo(pdf);
    assert.equal(info.Pages, '2');
    assert.deepEqual(pageSize(info).map(Math.round), [792, 612]);
    assert.doesNotMatch(pdftext(pdf), /Section 1/);
    const office = await putHtml(server, 'html/sheet.pdf', '<!DOCTYPE html><p>x</p>', '?sheet=2');
    assert.equal(office.status, 400, office.text);
    const pdfOption = await call(server, 'PUT', '/documents/html/plain.pdf?javascript=true', { body: Buffer.from('%PDF-1.4\n'), headers: { 'content-type': 'application/pdf' } });
    assert.equal(pdfOption.status, 400, pdfOption.text);
    const notHtml = await putHtml(server, 'html/bad.pdf', '%PDF-1.7\n%binary');
    assert.equal(notHtml.status, 422, notHtml.text);
    assert.equal(notHtml.json().code, 'HTML_CONVERSION_FAILED');
    assert.equal((await call(server, 'GET', '/documents/html/bad.pdf')).status, 404);
  });

  test('a bundle: the page, its style sheet and its image as asset parts; the CSS applies (its @page size, its colours)', async () => {
    await call(server, 'PUT', '/documents/bundle');
    const png = execFileSync('/usr/bin/convert', ['-size', '40x30', 'xc:blue', 'png:-']);
    const form = new FormData();
    form.append('file', new Blob(['<!DOCTYPE html><html><head><link rel="stylesheet" href="style.css"></head><body><h1>Styled</h1><img src="logo.png" alt="Logo"></body></html>'], { type: 'text/html' }), 'index.html');
    form.append('asset', new Blob(['@page { size: 100mm 150mm; margin: 0 } html, body { margin: 0; background: #000; color: #fff }'], { type: 'text/css' }), 'style.css');
    form.append('asset', new Blob([png], { type: 'image/png' }), 'logo.png');
    const reply = await call(server, 'POST', '/documents/bundle?preferCssPageSize=true', { body: form });
    assert.equal(reply.status, 201, reply.text);
    const pdf = (await call(server, 'GET', '/documents/bundle/index.pdf')).bytes;
    const [width, height] = pageSize(pdfinfo(pdf));
    assert.ok(Math.abs(width - 283.46) < 1.5 && Math.abs(height - 425.2) < 1.5, `the @page size expected, got ${width} x ${height}`);
    assert.match(pdftext(pdf), /Styled/);
    const images = execFileSync('pdfimages', ['-list', '-'], { input: pdf }).toString('utf8').split('\n').slice(2).filter(Boolean);
    assert.equal(images.length, 1, `the image expected once: ${images.join('\n')}`);
    assert.match(images[0]!, /\s40\s+30\s/);
    // The page's background is black (the style sheet's), not the white of a page without it.
    const render = await call(server, 'GET', '/documents/bundle/index.pdf/pages/0/image?dpi=36');
    assert.equal(render.status, 200);
    const raster = decodePng(render.bytes);
    assert.ok(raster.gray(5, raster.height - 5) < 20, `a black page expected, gray ${raster.gray(5, raster.height - 5)}`);
  });

  test('header and footer templates with the page number and total, from the query and from a footer.html asset', async () => {
    const pages = Array.from({ length: 3 }, (_, i) => `<p style="page-break-after: always">Body ${i + 1}</p>`).join('');
    const footer = '<div style="font-size:10px;width:100%;text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>';
    const reply = await putHtml(server, 'html/numbered.pdf', `<!DOCTYPE html><body>${pages}</body>`, `?marginBottom=2cm&marginTop=2cm&headerTemplate=${encodeURIComponent('<div style="font-size:10px;margin-left:1cm">ACME Ltd</div>')}&footerTemplate=${encodeURIComponent(footer)}`);
    assert.equal(reply.status, 201, reply.text);
    const text = pdftext((await call(server, 'GET', '/documents/html/numbered.pdf')).bytes).split('\f');
    for (const n of [1, 2, 3]) {
      assert.match(text[n - 1]!, new RegExp(`Page ${n} of 3`));
      assert.match(text[n - 1]!, /ACME Ltd/);
    }
    await call(server, 'PUT', '/documents/footers');
    const form = new FormData();
    form.append('file', new Blob([`<!DOCTYPE html><body>${pages}</body>`], { type: 'text/html' }), 'report.html');
    form.append('asset', new Blob([footer.replace('Page', 'Sheet')], { type: 'text/html' }), 'footer.html');
    const bundle = await call(server, 'POST', '/documents/footers?marginBottom=2cm', { body: form });
    assert.equal(bundle.status, 201, bundle.text);
    assert.match(pdftext((await call(server, 'GET', '/documents/footers/report.pdf')).bytes), /Sheet 3 of 3/);
  });
});

describe('Markdown uploads (Chromium)', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1', PDFSERVICE_CHROMIUM_TIMEOUT_MS: '8000' } });
  const markdown = [
    '# Quarterly report',
    '',
    'Revenue grew by **12%** and costs fell ~~slightly~~ by 3%.',
    '',
    '## Figures',
    '',
    '| Region | Revenue |',
    '|---|---:|',
    '| North | 1,200 |',
    '| South | 950 |',
    '',
    '- first point',
    '- second point',
    '',
    'See <https://example.org/report> for more.',
    '',
  ].join('\n');

  test('text/markdown: tables and headings printed on A4 by the default style sheet, titled by the first heading, tagged and passing veraPDF PDF/UA-1', async () => {
    const reply = await call(server, 'PUT', '/documents/md/report.pdf?language=en', { body: Buffer.from(markdown), headers: { 'content-type': 'text/markdown' } });
    assert.equal(reply.status, 201, reply.text);
    const pdf = (await call(server, 'GET', '/documents/md/report.pdf')).bytes;
    const info = pdfinfo(pdf);
    const [width, height] = pageSize(info);
    assert.ok(Math.abs(width - 595) < 2 && Math.abs(height - 842) < 2, `A4 expected, got ${width} x ${height}`);
    assert.equal(info.Title, 'Quarterly report');
    assert.equal(info.Tagged, 'yes');
    const text = pdftext(pdf);
    assert.match(text, /Revenue grew by 12%/);
    assert.match(text, /North\s+1,200/);
    assert.match(text, /second point/);
    assert.doesNotMatch(text, /\|---/, 'the table is a table, not its source');
    const verdict = await verapdfVerdict(pdf, 'ua1');
    assert.ok(verdict.compliant, `PDF/UA-1 failed: ${JSON.stringify(verdict.rules)}`);
    const outline = await call(server, 'GET', '/documents/md/report.pdf/outline');
    assert.match(outline.text, /Figures/);
  });

  test('a Markdown bundle: the user\'s style sheet after the default one, an image served by its name; paper options replace the default page', async () => {
    await call(server, 'PUT', '/documents/mdbundle');
    const png = execFileSync('/usr/bin/convert', ['-size', '40x30', 'xc:red', 'png:-']);
    const form = new FormData();
    form.append('file', new Blob(['# Styled\n\n![A red box](box.png)\n\nBody text.\n'], { type: 'text/markdown' }), 'notes.md');
    form.append('asset', new Blob(['@page { size: A5; margin: 1cm } h1 { color: #c00000 }'], { type: 'text/css' }), 'mine.css');
    form.append('asset', new Blob([png], { type: 'image/png' }), 'box.png');
    const reply = await call(server, 'POST', '/documents/mdbundle', { body: form });
    assert.equal(reply.status, 201, reply.text);
    const pdf = (await call(server, 'GET', '/documents/mdbundle/notes.pdf')).bytes;
    const [width, height] = pageSize(pdfinfo(pdf));
    assert.ok(Math.abs(width - 419.5) < 2 && Math.abs(height - 595.3) < 2, `the user's A5 expected, got ${width} x ${height}`);
    const images = execFileSync('pdfimages', ['-list', '-'], { input: pdf }).toString('utf8').split('\n').slice(2).filter(Boolean);
    assert.equal(images.length, 1, `the image expected once: ${images.join('\n')}`);
    assert.match(pdftext(pdf), /Body text/);

    const letter = await call(server, 'PUT', '/documents/md/letter.pdf?paperSize=Letter&landscape=true', { body: Buffer.from(markdown), headers: { 'content-type': 'text/markdown' } });
    assert.equal(letter.status, 201, letter.text);
    const [w, h] = pageSize(pdfinfo((await call(server, 'GET', '/documents/md/letter.pdf')).bytes));
    assert.ok(Math.abs(w - 792) < 2 && Math.abs(h - 612) < 2, `Letter landscape expected, got ${w} x ${h}`);
  });

  test('bad Markdown uploads: not UTF-8, a PDF declared as Markdown, Office options: 4xx and nothing stored', async () => {
    const cases: [string, Buffer, string, number, string][] = [
      ['not UTF-8', Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]), '', 422, 'HTML_CONVERSION_FAILED'],
      ['a PDF declared as Markdown', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), '', 422, 'HTML_CONVERSION_FAILED'],
      ['an Office option', Buffer.from('# Hi\n'), '?sheet=1', 400, 'BAD_REQUEST'],
    ];
    for (const [what, body, query, status, code] of cases) {
      const reply = await call(server, 'PUT', `/documents/md/bad.pdf${query}`, { body, headers: { 'content-type': 'text/markdown' } });
      assert.equal(reply.status, status, `${what}: ${reply.text}`);
      assert.equal(reply.json().code, code, what);
      assert.equal((await call(server, 'GET', '/documents/md/bad.pdf')).status, 404, `${what}: nothing stored`);
    }
  });
});

describe('HTML uploads without Chromium', () => {
  test('/health shows the browser unavailable and an HTML upload is 503 COMPONENT_MISSING naming the package; nothing stored', async () => {
    const server = await startServer({ env: { PDFSERVICE_CHROMIUM_PROGRAM: '/nonexistent/chromium' } });
    try {
      const health = (await call(server, 'GET', '/health', { auth: false })).json();
      const chromium = health.tools.find((tool: { name: string }) => tool.name === 'chromium');
      assert.equal(chromium.available, false);
      assert.match(chromium.reason, /chromium/);
      const reply = await putHtml(server, 'missing.pdf', '<!DOCTYPE html><p>x</p>');
      assert.equal(reply.status, 503, reply.text);
      assert.equal(reply.json().code, 'COMPONENT_MISSING');
      assert.match(reply.json().detail, /Debian package chromium/);
      assert.equal((await call(server, 'GET', '/documents/missing.pdf')).status, 404);
    } finally {
      await server.stop();
    }
  });
});
