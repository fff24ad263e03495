/**
 * Export of tables to XLSX and CSV (docs/export.md, "XLSX and CSV"), as a job and from the cache, over HTTP against the
 * real server. The ground truth is an HTML page written here (two bordered tables with numbers written the English and
 * the German way), converted by the service's own HTML upload (Chromium). The workbook is read by openpyxl and by
 * LibreOffice (soffice --convert-to csv), the CSV by Python's csv module: none of them the service's code.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { call, jobEnded } from '../helpers/http.js';
import { encryptPdf, makePdf } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

const CHROMIUM = '/usr/lib/chromium/chromium';
/** Debian's Python, where python3-openpyxl is installed (scripts/setup.sh), whatever python3 comes first on PATH. */
const PYTHON = '/usr/bin/python3';

const TABLE1 = [
  ['Item', 'Amount', 'Share', 'Change', 'Code'],
  ['Widgets', '1,234.50', '12%', '(300)', '01234'],
  ['Gadgets', '99', '7.5%', '-7', 'A-1'],
  ['Gizmos, large', '€5.00', '80.5%', '+3', 'say "hi"'],
];
/** The cells as numbers where they are numbers (docs/export.md's rules), else the text. */
const VALUES1: (string | number)[][] = [
  TABLE1[0]!,
  ['Widgets', 1234.5, 0.12, -300, '01234'],
  ['Gadgets', 99, 0.075, -7, 'A-1'],
  ['Gizmos, large', 5, 0.805, 3, 'say "hi"'],
];
const TABLE2 = [
  ['Land', 'Betrag'],
  ['Deutschland', '1.234,50'],
  ['Österreich', '12,5'],
];
const VALUES2: (string | number)[][] = [TABLE2[0]!, ['Deutschland', 1234.5], ['Österreich', 12.5]];

const htmlTable = (rows: string[][]) =>
  `<table><tr>${rows[0]!.map((c) => `<th>${c}</th>`).join('')}</tr>${rows
    .slice(1)
    .map((r) => `<tr>${r.map((c) => `<td>${c.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}</td>`).join('')}</tr>`)
    .join('')}</table>`;

const GROUND_TRUTH = `<!DOCTYPE html><html><head><title>Figures</title><style>
body { font-family: serif; font-size: 12pt } table { border-collapse: collapse } td, th { border: 1px solid black; padding: 4px }
section + section { page-break-before: always }
</style></head><body>
<section><h1>Sales figures</h1><p>The figures of the year.</p>${htmlTable(TABLE1)}</section>
<section><h2>Umsatz</h2>${htmlTable(TABLE2)}<p>Ende.</p></section>
</body></html>`;

const work = mkdtempSync(path.join(tmpdir(), 'pdfservice-sheets-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Each sheet of a workbook as openpyxl reads it: name, cell values (with their Python types), bold header cells, freeze. */
function readWorkbook(xlsx: Buffer): { name: string; rows: (string | number | null)[][]; types: string[][]; headerBold: boolean[]; freeze: string | null }[] {
  const file = path.join(work, `book-${Math.random().toString(36).slice(2)}.xlsx`);
  writeFileSync(file, xlsx);
  const script = `
import sys, json, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
out = []
for ws in wb.worksheets:
    rows = [[c.value for c in r] for r in ws.iter_rows()]
    types = [[type(c.value).__name__ for c in r] for r in ws.iter_rows()]
    out.append({'name': ws.title, 'rows': rows, 'types': types, 'headerBold': [bool(c.font.b) for c in ws[1]], 'freeze': ws.freeze_panes})
print(json.dumps(out))`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file]).toString('utf8')) as ReturnType<typeof readWorkbook>;
}

/** CSV records as Python's csv module reads them. */
function readCsv(text: string): string[][] {
  return JSON.parse(execFileSync(PYTHON, ['-c', 'import sys, csv, io, json; print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline="")))))'], { input: text }).toString('utf8')) as string[][];
}

/**
 * The first sheet of a workbook as LibreOffice Calc opens it, saved as CSV with the cells' raw values (not as shown):
 * numbers come out as plain numbers only if they are numbers in the workbook.
 */
function libreOfficeCsv(xlsx: Buffer): string[][] {
  const dir = mkdtempSync(path.join(work, 'lo-'));
  const file = path.join(dir, 'book.xlsx');
  writeFileSync(file, xlsx);
  // Its own profile, so that it runs beside the service's LibreOffice pool; tokens: comma, quote, UTF-8, line 1, …, "as shown" off.
  execFileSync('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false', '--outdir', dir, file], { stdio: 'pipe', timeout: 120_000 });
  return readCsv(readFileSync(path.join(dir, 'book.csv'), 'utf8'));
}

describe('export to XLSX and CSV', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1' } });
  const doc = '/documents/sheets/figures.pdf';
  let stored: Buffer;

  /** A counter of the server's /metrics (0 when it has no sample yet). */
  async function metric(pattern: RegExp): Promise<number> {
    const reply = await call(server, 'GET', '/metrics');
    assert.equal(reply.status, 200, reply.text);
    return Number(pattern.exec(reply.text)?.[1] ?? 0);
  }
  const exportHits = () => metric(/^pdfservice_read_model_lookups_total\{model="export",outcome="hit"\} (\d+)$/m);
  const tasksDone = () => metric(/^pdfservice_engine_tasks_total\{outcome="completed"\} (\d+)$/m);

  test('the ground truth uploads through the HTML converter', async () => {
    const put = await call(server, 'PUT', doc, { body: Buffer.from(GROUND_TRUTH), headers: { 'content-type': 'text/html' } });
    assert.equal(put.status, 201, put.text);
    stored = (await call(server, 'GET', doc)).bytes;
    assert.equal(execFileSync('pdfinfo', ['-'], { input: stored }).toString('utf8').match(/Pages:\s+(\d+)/)?.[1], '2');
  });

  test('XLSX: a sheet per table, numbers as numbers, the header row bold and frozen (openpyxl)', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=xlsx`);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    assert.match(reply.headers.get('content-disposition') ?? '', /attachment; filename="figures\.xlsx"/);
    const sheets = readWorkbook(reply.bytes);
    assert.deepEqual(sheets.map((s) => s.name), ['Table 1 (page 1)', 'Table 2 (page 2)']);
    assert.deepEqual(sheets[0]!.rows, VALUES1);
    assert.deepEqual(sheets[1]!.rows, VALUES2);
    // Numbers are numbers (int or float), never text; the code with a leading zero stays text.
    assert.deepEqual(sheets[0]!.types[1], ['str', 'float', 'float', 'int', 'str']);
    for (const s of sheets) {
      assert.ok(s.headerBold.every(Boolean), `${s.name}: the header row is bold`);
      assert.equal(s.freeze, 'A2', `${s.name}: the header row is frozen`);
    }
    // By Accept: the same workbook's content; one table by ?table=.
    const byAccept = await call(server, 'GET', `${doc}/export`, { headers: { accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } });
    assert.deepEqual(readWorkbook(byAccept.bytes).map((s) => s.rows), [VALUES1, VALUES2]);
    const second = readWorkbook((await call(server, 'GET', `${doc}/export?format=xlsx&table=2`)).bytes);
    assert.deepEqual(second.map((s) => [s.name, s.rows]), [['Table 2 (page 2)', VALUES2]]);
  });

  test('XLSX opens in LibreOffice with the same values, numbers stored as numbers', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=xlsx`);
    assert.equal(reply.status, 200, reply.text);
    const rows = libreOfficeCsv(reply.bytes);
    // Saved unformatted, each number is its plain value (LibreOffice keeps the % of a percentage); text is the source's.
    assert.deepEqual(rows, VALUES1.map((r, i) => r.map((v, c) => (c === 2 && i > 0 ? TABLE1[i]![c]! : String(v)))));
  });

  test('CSV: one table, RFC 4180 (CRLF, quoted fields), UTF-8 without BOM; ?table= picks another', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=csv`);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.match(reply.headers.get('content-disposition') ?? '', /filename="figures\.csv"/);
    assert.notEqual(reply.bytes[0], 0xef, 'no byte order mark');
    assert.ok(reply.text.endsWith('\r\n') && !/[^\r]\n/.test(reply.text), 'CRLF line ends');
    assert.match(reply.text, /\r\n"Gizmos, large",€5\.00,80\.5%,\+3,"say ""hi"""\r\n$/);
    assert.deepEqual(readCsv(reply.text), TABLE1);
    const second = await call(server, 'GET', `${doc}/export?format=csv&table=2`);
    assert.deepEqual(readCsv(second.text), TABLE2);
    assert.equal(Buffer.from(second.text, 'utf8').includes(Buffer.from('Österreich', 'utf8')), true);
  });

  test('a repeated export is answered from the cache (no engine task); If-None-Match is 304', async () => {
    const first = await call(server, 'GET', `${doc}/export?format=csv&pageRange=1`);
    assert.equal(first.status, 200, first.text);
    const [hits, tasks] = [await exportHits(), await tasksDone()];
    const second = await call(server, 'GET', `${doc}/export?format=csv&pageRange=1`);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.text, first.text);
    assert.equal(second.headers.get('etag'), first.headers.get('etag'));
    assert.equal(await exportHits(), hits + 1);
    assert.equal(await tasksDone(), tasks, 'no engine task for a cached export');
    const notModified = await call(server, 'GET', `${doc}/export?format=csv&pageRange=1`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    assert.equal(notModified.status, 304);
    // Another table, another format: other answers, other ETags.
    assert.notEqual((await call(server, 'GET', `${doc}/export?format=csv&pageRange=1&table=1`)).headers.get('etag'), first.headers.get('etag'));
    assert.notEqual((await call(server, 'GET', `${doc}/export?format=xlsx&pageRange=1`)).headers.get('etag'), first.headers.get('etag'));
  });

  test('Prefer: respond-async runs the export as a job whose result file is the export', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=csv&table=2`, { headers: { prefer: 'respond-async' } });
    assert.equal(reply.status, 202, reply.text);
    assert.equal(reply.headers.get('preference-applied'), 'respond-async');
    const id = (reply.headers.get('location') ?? '').split('/').pop()!;
    const job = await jobEnded(server, id);
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    assert.equal(job.action, 'export');
    assert.equal(job.result.file.name, 'figures.csv');
    assert.equal(job.result.file.mediaType, 'text/csv');
    // A file result as every one made from a stored document: the file, and the document exported (its version) unchanged.
    assert.deepEqual(Object.keys(job.result).sort(), ['document', 'file', 'path', 'status', 'url']);
    assert.equal(job.result.status, 200);
    assert.equal(job.document, doc.replace('/documents/', ''));
    assert.equal(job.result.path, doc.replace('/documents', ''));
    assert.equal(job.result.url, `/pdfservice/v1${doc}`);
    const source = await call(server, 'GET', doc, { headers: { accept: 'application/json' } });
    assert.equal(job.result.document.etag, source.json().etag);
    assert.equal(job.result.document.path, job.result.path);
    assert.equal(job.result.file.url, `/pdfservice/v1/jobs/${id}/result`);
    const result = await call(server, 'GET', `/jobs/${id}/result`);
    assert.equal(result.status, 200, result.text);
    assert.equal(result.bytes.length, job.result.file.size);
    assert.equal(result.headers.get('etag'), job.result.file.etag);
    assert.deepEqual(readCsv(result.text), TABLE2);

    const xlsxJob = await call(server, 'GET', `${doc}/export?format=xlsx`, { headers: { prefer: 'respond-async' } });
    assert.equal(xlsxJob.status, 202, xlsxJob.text);
    const xlsxId = (xlsxJob.headers.get('location') ?? '').split('/').pop()!;
    assert.equal((await jobEnded(server, xlsxId)).state, 'succeeded');
    const book = await call(server, 'GET', `/jobs/${xlsxId}/result`);
    assert.match(book.headers.get('content-disposition') ?? '', /figures\.xlsx/);
    assert.deepEqual(readWorkbook(book.bytes).map((s) => s.rows), [VALUES1, VALUES2]);
    // Waited for: the file itself, as the inline answer.
    const waited = await call(server, 'GET', `${doc}/export?format=csv`, { headers: { prefer: 'respond-async, wait=60' } });
    assert.equal(waited.status, 200, waited.text);
    assert.deepEqual(readCsv(waited.text), TABLE1);
    // A 4xx the export can decide first is answered at once, with no job.
    const bad = await call(server, 'GET', `${doc}/export?format=csv&pageRange=9`, { headers: { prefer: 'respond-async' } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json().code, 'PAGE_OUT_OF_RANGE');
  });

  test('more pages than the inline limit run as a job without Prefer', async () => {
    const long = makePdf({ pages: 101, text: (i) => `Page ${i + 1} of the long report` });
    assert.equal((await call(server, 'PUT', '/documents/sheets/long.pdf', { body: long, headers: { 'content-type': 'application/pdf' } })).status, 201);
    const reply = await call(server, 'GET', '/documents/sheets/long.pdf/export?format=markdown');
    assert.equal(reply.status, 202, reply.text);
    assert.equal(reply.headers.get('preference-applied'), null);
    const id = (reply.headers.get('location') ?? '').split('/').pop()!;
    assert.equal((await jobEnded(server, id)).state, 'succeeded');
    const md = (await call(server, 'GET', `/jobs/${id}/result`)).text;
    assert.match(md, /Page 101 of the long report/);
    // A range of at most the limit is answered inline.
    assert.equal((await call(server, 'GET', '/documents/sheets/long.pdf/export?format=markdown&pageRange=1-100')).status, 200);
  });

  test('bad input: no table, a table past the last, a table for a text format, savePath, encrypted; the document unchanged', async () => {
    const plain = makePdf({ pages: 1, text: () => 'Only words here' });
    assert.equal((await call(server, 'PUT', '/documents/sheets/plain.pdf', { body: plain, headers: { 'content-type': 'application/pdf' } })).status, 201);
    for (const format of ['xlsx', 'csv']) {
      const none = await call(server, 'GET', `/documents/sheets/plain.pdf/export?format=${format}`);
      assert.equal(none.status, 422, none.text);
      assert.equal(none.json().code, 'NO_TABLES');
    }
    const past = await call(server, 'GET', `${doc}/export?format=csv&table=3`);
    assert.equal(past.status, 400, past.text);
    assert.equal(past.json().code, 'TABLE_OUT_OF_RANGE');
    assert.match(past.json().detail, /2 tables/);
    const pastOnPage = await call(server, 'GET', `${doc}/export?format=xlsx&pageRange=2&table=2`);
    assert.equal(pastOnPage.json().code, 'TABLE_OUT_OF_RANGE');
    for (const query of ['format=csv&table=0', 'format=csv&table=x', 'format=markdown&table=1', 'format=xlsx&savePath=sheets/figures.xlsx']) {
      const reply = await call(server, 'GET', `${doc}/export?${query}`);
      assert.equal(reply.status, 400, `${query}: ${reply.text}`);
      assert.equal(reply.json().code, 'VALIDATION_FAILED', query);
    }
    const range = await call(server, 'GET', `${doc}/export?format=xlsx&pageRange=2-1`);
    assert.equal(range.json().code, 'INVALID_PAGE_RANGE');

    const locked = encryptPdf(stored, 'user-pw', 'owner-pw');
    assert.equal((await call(server, 'PUT', '/documents/sheets/locked.pdf', { body: locked, headers: { 'content-type': 'application/pdf' } })).status, 201);
    const without = await call(server, 'GET', '/documents/sheets/locked.pdf/export?format=xlsx');
    assert.equal(without.status, 403, without.text);
    assert.equal(without.json().code, 'DOCUMENT_PASSWORD_REQUIRED');
    const asJob = await call(server, 'GET', '/documents/sheets/locked.pdf/export?format=xlsx', { headers: { prefer: 'respond-async' } });
    assert.equal(asJob.status, 403, asJob.text);
    // With a page range too: the password is what is missing, not a page.
    const ranged = await call(server, 'GET', '/documents/sheets/locked.pdf/export?format=xlsx&pageRange=2', { headers: { prefer: 'respond-async' } });
    assert.equal(ranged.json().code, 'DOCUMENT_PASSWORD_REQUIRED', ranged.text);
    const right = await call(server, 'GET', '/documents/sheets/locked.pdf/export?format=xlsx', { headers: { 'x-service-documentpassword': 'owner-pw' } });
    assert.equal(right.status, 200, right.text);
    assert.deepEqual(readWorkbook(right.bytes).map((s) => s.rows), [VALUES1, VALUES2]);
    // The cached export is not given to a request with a wrong password.
    const wrong = await call(server, 'GET', '/documents/sheets/locked.pdf/export?format=xlsx', { headers: { 'x-service-documentpassword': 'nope' } });
    assert.equal(wrong.json().code, 'DOCUMENT_PASSWORD_INVALID');

    assert.deepEqual((await call(server, 'GET', doc)).bytes, stored);
    assert.deepEqual((await call(server, 'GET', '/documents/sheets/locked.pdf')).bytes, locked);
    assert.deepEqual((await call(server, 'GET', '/documents/sheets/plain.pdf')).bytes, plain);
  });
});
