import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { ERROR_CATALOG, isErrorCode } from '../src/errors.js';
import { call, type Reply } from '../test/helpers/http.js';
import { docx, paragraph } from '../test/helpers/office-fixtures.js';
import { pdfinfo, qpdfCheck, withTempFile } from '../test/helpers/pdf.js';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { corpusDir } from './manifest.js';
import { retarget } from './office-links.js';

/**
 * The Office corpus (../shared/corpus/office: real documents from public test suites, MANIFEST.tsv) through the API:
 * every file the service accepts converts to as many pages as LibreOffice's own `soffice --convert-to pdf` of the
 * same file (run here, outside the service, in a fresh profile), holds the text the MANIFEST names and passes
 * `qpdf --check`; encrypted and unloadable files fail with a documented 4xx; hostile files (links to pictures,
 * subdocuments, workbooks and OLE objects, INCLUDEPICTURE/INCLUDETEXT fields, macros) convert or fail cleanly while a
 * loopback listener receives nothing and no canary file the test writes shows in the output. Hostile files are also
 * sent retargeted: their external URLs pointed at the listener and their file links at the canaries, so that a fetch
 * or a read would show (the corpus's own targets, example.com or X:\PATH, could not be observed).
 */

/** The formats whose acceptance the suite requires (on main when it was written); others are held to the same checks once the API lists their media type. */
const REQUIRED_FORMATS = new Set(['doc', 'docx']);

/** The media types a format may be sent as (IANA registrations, then common aliases): the first one the API lists is used. */
const MEDIA_TYPES: Record<string, string[]> = {
  doc: ['application/msword'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  docm: ['application/vnd.ms-word.document.macroenabled.12'],
  odt: ['application/vnd.oasis.opendocument.text'],
  rtf: ['application/rtf', 'text/rtf'],
  txt: ['text/plain'],
  xls: ['application/vnd.ms-excel'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  xlsm: ['application/vnd.ms-excel.sheet.macroenabled.12'],
  ods: ['application/vnd.oasis.opendocument.spreadsheet'],
  csv: ['text/csv'],
  ppt: ['application/vnd.ms-powerpoint'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  pptm: ['application/vnd.ms-powerpoint.presentation.macroenabled.12'],
  odp: ['application/vnd.oasis.opendocument.presentation'],
};

interface OfficeEntry {
  file: string;
  absolute: string;
  format: string;
  kind: 'converts' | 'encrypted' | 'fails';
  hostile: boolean;
  expectation: string;
  pages?: number;
  /** The start of pdftotext's output, whitespace collapsed; '' when the MANIFEST says there is no extractable text. */
  text?: string;
  password?: string;
}

function readOfficeManifest(dir: string): OfficeEntry[] {
  const [, ...rows] = readFileSync(path.join(dir, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  return rows.map((row) => {
    const cells = row.split('\t');
    const file = cells[0]!;
    // A cell with quotes is CSV-quoted ("fails: ... (""source file could not be loaded"")").
    const expectation = cells[7]!.replace(/^"(.*)"$/, '$1').replace(/""/g, '"');
    const hostile = expectation.startsWith('hostile:');
    const kind = /(^|; )encrypted:/.test(expectation) ? 'encrypted' : /(^|; )fails:/.test(expectation) ? 'fails' : 'converts';
    const pages = /\bconverts; (\d+) pages?\b/.exec(expectation)?.[1];
    const text = /no extractable text/.test(expectation) ? '' : /text starts: (.*)$/.exec(expectation)?.[1]?.trim();
    const password = /encrypted: password (\S+);/.exec(expectation)?.[1];
    return {
      file,
      absolute: path.join(dir, file),
      format: cells[5]!,
      kind,
      hostile,
      expectation,
      ...(pages ? { pages: Number(pages) } : {}),
      ...(text !== undefined ? { text } : {}),
      ...(password ? { password } : {}),
    };
  });
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * A CSV's only sheet is named after the file, and Calc prints the sheet's name in the page header: the MANIFEST's text
 * starts with it ("testCSV Sample CSV File"), the service's with the name of its scratch copy. The rest is compared.
 */
function sheetNameless(entry: OfficeEntry, text: string): string {
  const stem = path.basename(entry.file).replace(/\.[^.]+$/, '');
  return entry.format === 'csv' && text.startsWith(`${stem} `) ? text.slice(stem.length + 1) : text;
}

/** pdftotext as the MANIFEST's facts were made (reading order, UTF-8), whitespace collapsed. */
function plainText(pdf: Buffer | Uint8Array): string {
  return collapse(withTempFile(pdf, (file) => execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })));
}

const pageCount = (pdf: Buffer | Uint8Array) => Number(pdfinfo(pdf)['Pages']);

/**
 * LibreOffice's own conversion of `files` (one soffice run, a fresh profile, no network: the hostile files' links must
 * not leave the machine from the reference run either): the output PDF per input, or null when soffice made none.
 */
function referenceConversions(files: OfficeEntry[]): Map<string, Buffer | null> {
  const work = mkdtempSync(path.join(tmpdir(), 'pdfservice-office-reference-'));
  const result = new Map<string, Buffer | null>();
  try {
    // Each file keeps its own name (a CSV's sheet, printed in the page header, is named after it); files whose names
    // differ only by extension (WithThreeCharts.xls and .xlsx) go to different runs, as each run's PDFs share a folder.
    const batches: { entry: OfficeEntry; source: string }[][] = [];
    files.forEach((entry, i) => {
      const source = path.join(work, 'in', String(i), path.basename(entry.file));
      mkdirSync(path.dirname(source), { recursive: true });
      copyFileSync(entry.absolute, source);
      const stem = (file: string) => path.basename(file).replace(/\.[^.]+$/, '');
      const batch = batches.find((b) => !b.some((other) => stem(other.source) === stem(source))) ?? (batches[batches.length] = []);
      batch.push({ entry, source });
    });
    const pdfOf = (b: number, source: string) => path.join(work, 'out', String(b), path.basename(source).replace(/\.[^.]+$/, '.pdf'));
    const convert = (b: number, sources: string[]) =>
      spawnSync(
        'bwrap',
        ['--dev-bind', '/', '/', '--unshare-net', '--unshare-pid', '--die-with-parent', '--', 'soffice', '--headless', '--norestore', `-env:UserInstallation=file://${work}/profile`, '--convert-to', 'pdf', '--outdir', path.join(work, 'out', String(b)), ...sources],
        { timeout: 120_000 * Math.max(1, sources.length), killSignal: 'SIGKILL', stdio: 'ignore', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: work } },
      );
    batches.forEach((batch, b) => {
      const run = convert(b, batch.map((f) => f.source));
      // A crash part-way through a run would leave the later files without a reference: those are converted alone.
      if (run.status !== 0) for (const { source } of batch.filter((f) => !existsSync(pdfOf(b, f.source)))) convert(b, [source]);
      for (const { entry, source } of batch) result.set(entry.file, existsSync(pdfOf(b, source)) ? readFileSync(pdfOf(b, source)) : null);
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return result;
}

const root = corpusDir();
const dir = root ? path.join(root, 'office') : null;
if (!dir || !existsSync(path.join(dir, 'MANIFEST.tsv'))) {
  console.log('# office corpus suite skipped: no office corpus at $PDFSERVICE_CORPUS/office or ../shared/corpus/office');
  test.skip('office corpus suite (no corpus found)');
} else {
  const suiteStarted = Date.now();
  const entries = readOfficeManifest(dir);
  const tag = randomBytes(4).toString('hex');
  const CANARY = `OfficeCanary${tag}`;
  const requests: string[] = [];
  let server: TestServer;
  let listener: Server;
  let port = 0;
  let canaries = '';
  let putTypes: string[] = [];
  let reference = new Map<string, Buffer | null>();
  let referenceSeconds = 0;
  const mediaTypeOf = (format: string) => (MEDIA_TYPES[format] ?? []).find((t) => putTypes.includes(t));

  before(async () => {
    server = await startServer();
    // The loopback listener every hostile conversion must leave untouched.
    listener = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`Fetched${tag}`);
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    // Canaries: local files a retargeted document links to; their marker must never reach a stored PDF.
    canaries = mkdtempSync(path.join(tmpdir(), 'pdfservice-office-canary-'));
    writeFileSync(path.join(canaries, 'canary.docx'), docx(paragraph(CANARY)));
    for (const ext of ['txt', 'xlsx', 'xls', 'csv', 'rtf', 'odt', 'ods', 'bin']) writeFileSync(path.join(canaries, `canary.${ext}`), `${CANARY}\n`);
    // A linked picture would be embedded rather than shown as text: the image count below catches that one.
    writeFileSync(path.join(canaries, 'canary.png'), execFileSync('convert', ['-size', '40x40', 'xc:red', 'png:-']));
    // The formats this build accepts, from its own OpenAPI description (the PUT's request body media types).
    const spec = (await call(server, 'GET', '/openapi.json')).json();
    putTypes = Object.keys(spec.paths['/pdfservice/v1/documents/{filePath}.pdf'].put.requestBody.content as object).map((t) => t.toLowerCase());
    const started = Date.now();
    reference = referenceConversions(entries.filter((e) => e.kind === 'converts' && mediaTypeOf(e.format)));
    referenceSeconds = (Date.now() - started) / 1000;
  });
  after(async () => {
    await server?.stop();
    await new Promise((resolve) => (listener ? listener.close(resolve) : resolve(undefined)));
    if (canaries) rmSync(canaries, { recursive: true, force: true });
  });

  const target = (entry: OfficeEntry, variant = '') => `office-corpus/${entry.file.replace(/[^A-Za-z0-9._-]/g, '_')}${variant}.pdf`;

  /** The upload's answer: the inline one (Prefer: wait), or the job's when the wait ran out first. */
  async function upload(documentPath: string, bytes: Buffer, mediaType: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; reply: Reply }> {
    const reply = await call(server, 'PUT', `/documents/${documentPath}`, { body: bytes, headers: { 'content-type': mediaType, prefer: 'wait=120', ...headers } });
    if (reply.status !== 202) return { status: reply.status, body: reply.headers.get('content-type')?.includes('json') ? reply.json() : reply.text, reply };
    const location = reply.headers.get('location')!;
    for (let i = 0; i < 600; i++) {
      const job = (await call(server, 'GET', `${server.baseUrl}${location}`)).json();
      if (job.state === 'succeeded') return { status: job.result.status, body: job.result.document, reply };
      if (['failed', 'cancelled', 'interrupted'].includes(job.state)) return { status: job.error?.status ?? 500, body: job.error, reply };
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`${documentPath}: the upload's job did not finish`);
  }

  /** A 4xx problem document with a catalogued code and its status, and nothing stored. */
  async function assertCleanFailure(file: string, documentPath: string, answer: { status: number; body: any; reply: Reply }): Promise<void> {
    assert.ok(answer.status >= 400 && answer.status < 500, `${file}: answered ${answer.status} ${JSON.stringify(answer.body)}`);
    const problem = answer.body;
    if (answer.reply.status !== 202) assert.match(answer.reply.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.ok(typeof problem?.code === 'string' && isErrorCode(problem.code), `${file}: ${JSON.stringify(problem)} has a catalogued code`);
    assert.equal(problem.status, answer.status);
    assert.equal(ERROR_CATALOG[problem.code as keyof typeof ERROR_CATALOG].status, answer.status, `${file}: ${problem.code} has the catalogue's status`);
    assert.equal(typeof problem.detail, 'string');
    assert.equal((await call(server, 'GET', `/documents/${documentPath}`)).status, 404, `${file}: nothing was stored`);
  }

  /** Nothing fetched and no canary in the stored PDF (text or bytes). */
  function assertNothingLeaked(file: string, pdf: Buffer | null): void {
    assert.deepEqual(requests, [], `${file}: the loopback listener received nothing`);
    if (!pdf) return;
    const text = plainText(pdf);
    for (const marker of [CANARY, `Fetched${tag}`]) {
      assert.ok(!text.includes(marker), `${file}: the PDF's text holds ${marker}`);
      assert.ok(!pdf.includes(marker), `${file}: the PDF's bytes hold ${marker}`);
    }
  }

  /**
   * Whether `text` holds `expected`, where a U+FFFD of the MANIFEST (a byte its author's UTF-8 reading could not
   * decode, as in tika/testTXT_win-1252.txt) stands for any one character: the service decodes such text as
   * Windows-1252 (docs/office.md#formats), so it has the character the byte was.
   */
  function holds(text: string, expected: string): boolean {
    if (!expected.includes('\uFFFD')) return text.includes(expected);
    const pattern = expected.split('\uFFFD').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.');
    return new RegExp(pattern, 'u').test(text);
  }

  /** The converted PDF checked against LibreOffice's own conversion and the MANIFEST. */
  function assertConverted(t: TestContext, entry: OfficeEntry, pdf: Buffer, model: { pageCount: number }): void {
    const check = qpdfCheck(pdf);
    assert.ok(check.ok, `${entry.file}: qpdf --check: ${check.output}`);
    const pages = pageCount(pdf);
    assert.equal(model.pageCount, pages, `${entry.file}: the model's pageCount is the PDF's`);
    const ref = reference.get(entry.file);
    assert.ok(ref, `${entry.file}: LibreOffice's own soffice --convert-to made no PDF of it, against the MANIFEST (${entry.expectation})`);
    assert.equal(pages, pageCount(ref), `${entry.file}: as many pages as soffice --convert-to (the MANIFEST, made without the CJK and metric-compatible fonts, says ${entry.pages})`);
    const text = plainText(pdf);
    if (entry.text === '') assert.equal(text, plainText(ref), `${entry.file}: no extractable text, as soffice's own`);
    const expected = entry.text && sheetNameless(entry, entry.text);
    if (expected && !holds(text, expected)) {
      // The MANIFEST's text came from a machine without the metric-compatible and CJK fonts; where those fonts change
      // what LibreOffice itself lays out here (a chart's axis labels cut differently), soffice's own text is the measure.
      const own = sheetNameless(entry, plainText(ref));
      assert.ok(!own.includes(expected), `${entry.file}: the text holds the MANIFEST's start, as soffice's own does\n  expected: ${expected}\n  got:      ${text.slice(0, 160)}`);
      assert.ok(text.includes(own.slice(0, 80)), `${entry.file}: the text holds soffice's own start\n  expected: ${own.slice(0, 80)}\n  got:      ${text.slice(0, 160)}`);
      t.diagnostic(`${entry.file}: on this machine soffice's own text starts "${own.slice(0, 80)}", not the MANIFEST's "${expected}"; checked against soffice's`);
    }
  }

  /**
   * A format the API does not list yet is reported as a TODO test of its own (the 415 checked), never skipped
   * silently; once the API lists it, the same test holds it to the full expectation.
   */
  async function notAcceptedYet(t: TestContext, entry: OfficeEntry): Promise<boolean> {
    if (mediaTypeOf(entry.format)) return false;
    t.todo(`${entry.format} (${(MEDIA_TYPES[entry.format] ?? ['no media type known']).join(' or ')}) is not among the PUT's media types of this build`);
    const answer = await call(server, 'PUT', `/documents/${target(entry)}`, { body: readFileSync(entry.absolute), headers: { 'content-type': MEDIA_TYPES[entry.format]?.[0] ?? 'application/octet-stream', prefer: 'wait=120' } });
    assert.equal(answer.status, 415, `${entry.file}: ${answer.text}`);
    assert.equal(answer.json().code, 'UNSUPPORTED_MEDIA_TYPE');
    return true;
  }

  describe(`every office corpus file converts like soffice --convert-to, or fails cleanly (${entries.length} files)`, () => {
    for (const format of REQUIRED_FORMATS) {
      test(`the API accepts ${format} (${MEDIA_TYPES[format]!.join(' or ')})`, () => {
        assert.ok(mediaTypeOf(format), `the PUT's media types (${putTypes.join(', ')}) name ${format}`);
      });
    }

    for (const entry of entries) {
      test(`${entry.file} (${entry.kind}${entry.hostile ? ', hostile' : ''})`, async (t) => {
        if (await notAcceptedYet(t, entry)) return;
        requests.length = 0;
        const documentPath = target(entry);
        const answer = await upload(documentPath, readFileSync(entry.absolute), mediaTypeOf(entry.format)!);
        if (entry.kind === 'converts' && (!entry.hostile || answer.status < 400)) {
          assert.equal(answer.status, 201, `${entry.file}: ${JSON.stringify(answer.body)}`);
          const pdf = (await call(server, 'GET', `/documents/${documentPath}`)).bytes;
          assertConverted(t, entry, pdf, answer.body);
          assertNothingLeaked(entry.file, pdf);
          return;
        }
        await assertCleanFailure(entry.file, documentPath, answer);
        assertNothingLeaked(entry.file, null);
        if (entry.kind === 'encrypted' && 'OFFICE_DOCUMENT_ENCRYPTED' in ERROR_CATALOG) assert.equal(answer.body.code, 'OFFICE_DOCUMENT_ENCRYPTED', entry.file);
      });
    }

    for (const entry of entries.filter((e) => e.kind === 'encrypted' && e.password)) {
      test(`${entry.file} with its password (X-Service-DocumentPassword): converted, or refused cleanly`, async (t) => {
        if (await notAcceptedYet(t, entry)) return;
        const documentPath = target(entry, '-password');
        const answer = await upload(documentPath, readFileSync(entry.absolute), mediaTypeOf(entry.format)!, { 'x-service-documentpassword': entry.password! });
        if (answer.status === 201) {
          const pdf = (await call(server, 'GET', `/documents/${documentPath}`)).bytes;
          assert.ok(qpdfCheck(pdf).ok && pageCount(pdf) >= 1, `${entry.file}: a checked PDF`);
        } else {
          await assertCleanFailure(entry.file, documentPath, answer);
        }
      });
    }

    for (const entry of entries.filter((e) => e.hostile)) {
      test(`${entry.file} retargeted: its links pointed at the listener and the canaries`, async (t) => {
        if (await notAcceptedYet(t, entry)) return;
        const retargeted = retarget(entry.absolute, port, canaries);
        if (!retargeted) {
          t.skip('no URL or path to retarget (macros, or an OLE link without a source path): checked as it is above');
          return;
        }
        t.diagnostic(`${retargeted.count} link(s) retargeted`);
        requests.length = 0;
        const documentPath = target(entry, '-retargeted');
        const answer = await upload(documentPath, retargeted.bytes, mediaTypeOf(entry.format)!);
        if (answer.status < 400) {
          assert.equal(answer.status, 201);
          const pdf = (await call(server, 'GET', `/documents/${documentPath}`)).bytes;
          assert.ok(qpdfCheck(pdf).ok, `${entry.file} retargeted: qpdf --check`);
          // A picture read from the canary folder would be one more image than the file as it is has.
          const original = await call(server, 'GET', `/documents/${target(entry)}`);
          if (original.status === 200) assert.ok(imageCount(pdf) <= imageCount(original.bytes), `${entry.file} retargeted: no more pictures than the file as it is`);
          assertNothingLeaked(entry.file, pdf);
        } else {
          await assertCleanFailure(entry.file, documentPath, answer);
          assertNothingLeaked(entry.file, null);
        }
      });
    }

    test('the listener received nothing over the whole run and the server survived it', async () => {
      assert.deepEqual(requests, []);
      assert.equal(server.child.exitCode, null);
      assert.equal((await call(server, 'GET', '/health', { auth: false })).status, 200);
      const waiting = [...new Set(entries.filter((e) => !mediaTypeOf(e.format)).map((e) => e.format))];
      console.log(`# office corpus: ${entries.filter((e) => mediaTypeOf(e.format)).length} of ${entries.length} files in formats this build accepts (not yet: ${waiting.join(', ') || 'none'}); reference soffice run ${referenceSeconds.toFixed(1)} s; suite ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s`);
    });
  });
}

function imageCount(pdf: Buffer): number {
  return withTempFile(pdf, (file) => execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })).trim().split('\n').length - 2;
}
