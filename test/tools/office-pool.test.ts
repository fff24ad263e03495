import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, type Reply } from '../helpers/http.js';
import { docx, paragraph } from '../helpers/office-fixtures.js';
import { ServiceError } from '../../src/errors.js';
import { libreOffice, officeToPdf, type OfficeConversion } from '../../src/tools/libreoffice.js';
import { ToolSupervisor } from '../../src/tools/supervisor.js';
import { pdfinfo, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * The warm LibreOffice pool (docs/office.md, "The pool") on the real service
 * with real LibreOffice: one instance, replaced after 2 conversions, a line
 * of 1 conversion waiting for it, and a job queue of 4. Which soffice serves is read from
 * /proc: the soffice.bin whose command line names the service's scratch
 * folder (its profile lives in its instance's home there).
 */
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const WAIT = { prefer: 'wait=300' };
/** Jobs queued and running at once (the busy one and the accepted part of a burst). */
const JOB_QUEUE = 4;
/** Jobs of one user running at once: more than the one instance and its line, so that a job waits beyond the line. */
const USER_JOBS = 3;
const OFFICE_QUEUE = 1;
/** Low enough that a small file of much text trips it in seconds; an instance starts and converts ordinary files well below it. */
const OFFICE_MEMORY_MB = 1000;

let server: TestServer;
let scratchRoot: string;

before(async () => {
  // Our own data folder, which stop() leaves, so that the last test can look into it after the stop.
  server = await startServer({ dataDir: mkdtempSync(path.join(tmpdir(), 'pdfservice-pool-')), env: {
      PDFSERVICE_OFFICE_INSTANCES: '1',
      PDFSERVICE_OFFICE_QUEUE: String(OFFICE_QUEUE),
      PDFSERVICE_OFFICE_RESTART_AFTER: '2',
      PDFSERVICE_JOB_QUEUE_LIMIT: String(JOB_QUEUE),
      PDFSERVICE_USER_JOB_LIMIT: String(USER_JOBS),
      PDFSERVICE_JOB_CONCURRENCY: String(USER_JOBS),
      PDFSERVICE_OFFICE_MEMORY_MB: String(OFFICE_MEMORY_MB),
    },
  });
  scratchRoot = path.join(server.dataDir, 'office-scratch');
});
after(async () => {
  await server.stop();
  rmSync(server.dataDir, { recursive: true, force: true });
});

/** Long enough that LibreOffice is still converting it while a test acts (as in office-security.test.ts). */
const LONG = docx(Array.from({ length: 6000 }, (_, i) => paragraph(`Long body ${i} ${'lorem ipsum dolor sit amet '.repeat(6)}`)).join(''));

function upload(name: string, body: Buffer, headers: Record<string, string> = WAIT): Promise<Reply> {
  return call(server, 'PUT', `/documents/pool/${name}.pdf`, { body, headers: { 'content-type': DOCX, ...headers } });
}

async function assertStored(name: string, text: string): Promise<void> {
  const pdf = (await call(server, 'GET', `/documents/pool/${name}.pdf`)).bytes;
  assert.ok(qpdfCheck(pdf).ok, `${name} passes qpdf --check`);
  assert.match(pdftotext(pdf), new RegExp(text));
}

/** Live (not zombie) soffice.bin processes of this service's pool (or of the pool whose scratch folder is `root`). */
function soffices(root = scratchRoot): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('soffice.bin') && argv.some((arg) => arg.includes(root)) && alive(Number(entry))) found.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

/** Processes of any kind whose command line names the scratch folder (the helper, bwrap, soffice). */
function poolProcesses(): number[] {
  return readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(scratchRoot) && alive(Number(entry));
    } catch {
      return false;
    }
  }).map(Number);
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** A run's input in an instance's home: the conversion has begun. */
function converting(): boolean {
  if (!existsSync(scratchRoot)) return false;
  return readdirSync(scratchRoot).some((instance) => {
    try {
      // The input is named after the stored document ("killed.docx" for pool/killed.pdf, docs/office.md).
      return readdirSync(path.join(scratchRoot, instance)).some((run) => run.startsWith('run-') && readdirSync(path.join(scratchRoot, instance, run)).some((name) => name.endsWith('.docx')));
    } catch {
      return false;
    }
  });
}

async function waitFor<T>(what: string, seconds: number, probe: () => T | undefined | false): Promise<T> {
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
  }
  throw new Error(`timed out waiting until ${what}`);
}

test('one warm instance serves conversion after conversion and is replaced after PDFSERVICE_OFFICE_RESTART_AFTER (2) of them', async () => {
  assert.deepEqual(soffices(), [], 'instances start with the first conversion');
  assert.equal((await upload('first', docx(paragraph('First pooled document')))).status, 201);
  const [first, ...others] = soffices();
  assert.ok(first !== undefined && others.length === 0, 'one instance, still running after its conversion');
  assert.equal((await upload('second', docx(paragraph('Second pooled document')))).status, 201);
  await waitFor('the instance is replaced after its second conversion', 30, () => !alive(first));
  assert.equal((await upload('third', docx(paragraph('Third pooled document')))).status, 201);
  const [third] = soffices();
  assert.ok(third !== undefined && third !== first, 'a fresh soffice converted the third');
  await assertStored('first', 'First pooled document');
  await assertStored('second', 'Second pooled document');
  await assertStored('third', 'Third pooled document');
});

test('soffice killed mid-conversion: that upload is 422 CONVERSION_FAILED naming the reason, nothing is stored, the next one gets a fresh instance', async () => {
  const long = upload('killed', LONG);
  await waitFor('the conversion runs', 120, converting);
  const [victim, ...others] = soffices();
  assert.ok(victim !== undefined && others.length === 0);
  process.kill(victim, 'SIGKILL');
  const reply = await long;
  assert.equal(reply.status, 422, reply.text);
  assert.match(reply.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(reply.json().code, 'CONVERSION_FAILED');
  assert.match(reply.json().detail, /LibreOffice ended/);
  assert.equal((await call(server, 'GET', '/documents/pool/killed.pdf')).status, 404);
  const next = await upload('after-kill', docx(paragraph('Converted after the kill')));
  assert.equal(next.status, 201, next.text);
  await assertStored('after-kill', 'Converted after the kill');
  assert.ok(!soffices().includes(victim));
});

test('a conversion past PDFSERVICE_OFFICE_MEMORY_MB is 422 CONVERSION_FAILED saying so, nothing is stored, and the next conversion gets a fresh instance', async () => {
  // Issue 35 item 11: a 1.2 MB .docx holding 400 MB of text drove LibreOffice to 5 GB. Here 3 million short paragraphs,
  // a few hundred KB compressed (measured: unbounded, soffice grows by about 20 MB a second past 1 GB).
  const huge = execFileSync('python3', ['-c', [
    'import io, sys, zipfile',
    'W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"',
    'R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"',
    'out = io.BytesIO()',
    'with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:',
    '    z.writestr("[Content_Types].xml", \'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>\')',
    '    z.writestr("_rels/.rels", \'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="\' + R + \'/officeDocument" Target="word/document.xml"/></Relationships>\')',
    '    with z.open("word/document.xml", "w") as f:',
    '        f.write(("<?xml version=\\"1.0\\" encoding=\\"UTF-8\\"?><w:document xmlns:w=\\"" + W + "\\"><w:body>").encode())',
    '        chunk = b"<w:p><w:r><w:t>lorem ipsum</w:t></w:r></w:p>" * 1000',
    '        for _ in range(3000): f.write(chunk)',
    '        f.write(b"</w:body></w:document>")',
    'sys.stdout.buffer.write(out.getvalue())',
  ].join('\n')], { maxBuffer: 64 * 1024 * 1024 });
  assert.ok(huge.length < 2 * 1024 * 1024, `a small file (${huge.length} bytes)`);
  const earlier = soffices();
  const reply = await upload('huge', huge);
  assert.equal(reply.status, 422, reply.text);
  assert.equal(reply.json().code, 'CONVERSION_FAILED');
  assert.match(reply.json().detail, new RegExp(`exceeded the memory limit of ${OFFICE_MEMORY_MB} MB`));
  assert.equal((await call(server, 'GET', '/documents/pool/huge.pdf')).status, 404);
  const next = await upload('after-memory', docx(paragraph('Converted after the memory limit')));
  assert.equal(next.status, 201, next.text);
  await assertStored('after-memory', 'Converted after the memory limit');
  for (const pid of earlier) assert.ok(!soffices().includes(pid), 'the instance that hit the limit was replaced');
});

test('20 uploads at once while the instance is busy: each is stored, or refused at once with 503 SERVICE_BUSY and Retry-After; the line stays bounded', async () => {
  // Office uploads are always jobs (docs/jobs.md): the jobs' line (PDFSERVICE_JOB_QUEUE_LIMIT) refuses the excess at
  // submission; the accepted ones reach the pool USER_JOBS at a time, past its own line of OFFICE_QUEUE, where a job
  // waits rather than fails (the pool's 503 itself is tested in tools-pooled.test.ts).
  const busy = upload('busy', LONG);
  await waitFor('the long conversion runs', 120, converting);
  const settled: Reply[] = [];
  const burst = Array.from({ length: 20 }, (_, i) =>
    upload(`burst-${i}`, docx(paragraph(`Burst document ${i}`))).then((reply) => {
      settled.push(reply);
      return reply;
    }),
  );
  const replies = await Promise.all(burst);
  // Refusals come at once, before the busy conversion ends and any accepted one can be stored.
  const firstStored = settled.findIndex((reply) => reply.status === 201);
  assert.ok(firstStored > 0 && settled.slice(0, firstStored).every((reply) => reply.status === 503), `the refusals came first: ${settled.map((reply) => reply.status).join(' ')}`);
  const stored: number[] = [];
  for (const [i, reply] of replies.entries()) {
    if (reply.status === 201) {
      stored.push(i);
      await assertStored(`burst-${i}`, `Burst document ${i}`);
      continue;
    }
    assert.equal(reply.status, 503, reply.text);
    assert.equal(reply.json().code, 'SERVICE_BUSY');
    assert.match(reply.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal((await call(server, 'GET', `/documents/pool/burst-${i}.pdf`)).status, 404);
  }
  // More than the pool's one instance and its line of one: the rest waited as jobs; far fewer than 20.
  assert.ok(stored.length > 1 + OFFICE_QUEUE && stored.length < 20 - 10, `stored ${stored.length}`);
  assert.equal((await busy).status, 201);
  assert.ok(qpdfCheck((await call(server, 'GET', '/documents/pool/busy.pdf')).bytes).ok);
});

test('no LibreOffice process and no instance folder is left after the service stops mid-conversion', async () => {
  const long = upload('stopped', LONG).catch(() => undefined);
  await waitFor('the conversion runs', 120, converting);
  assert.ok(soffices().length > 0);
  await server.stop();
  await long;
  await waitFor('no process of the pool is left', 10, () => poolProcesses().length === 0);
  // A stop that waited in vain for the upload ends with SIGKILL (test/helpers/server.ts): the next start empties the folder.
  const restarted = await startServer({ dataDir: server.dataDir });
  await restarted.stop();
  assert.deepEqual(readdirSync(scratchRoot), []);
});

/** A flat ODF spreadsheet with one sheet per name, each holding its name in A1. */
function fods(sheets: string[]): Buffer {
  const tables = sheets.map((name) => `<table:table table:name="${name}"><table:table-row><table:table-cell office:value-type="string"><text:p>Sheet ${name}</text:p></table:table-cell></table:table-row></table:table>`);
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>' +
      '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">' +
      `<office:body><office:spreadsheet>${tables.join('')}</office:spreadsheet></office:body></office:document>`,
  );
}

test('a warm instance honours the import filter, typed FilterData and the sheet options; a document it cannot load is 422 and the instance stays', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'pdfservice-pool-direct-'));
  const tools = new ToolSupervisor([{ ...libreOffice(120_000, { instances: 1 }), scratch: '.' }], root);
  try {
    await tools.init();
    const sheets = fods(['Alpha', 'Beta', 'Gamma']);
    const convert = (extra: Partial<OfficeConversion> = {}) =>
      officeToPdf(tools, { bytes: sheets, extension: 'fods', importFilter: 'OpenDocument Spreadsheet Flat XML', exportFilter: 'calc_pdf_Export', ...extra });
    // Calc's default header and footer add the sheet's name and the page number: the cells tell the sheets apart.
    const cellsOf = (pdf: Buffer) => [...pdftotext(pdf).matchAll(/Sheet (\w+)/g)].map((m) => m[1]).join(' ');
    const all = await convert();
    assert.equal(pdfinfo(all)['Pages'], '3');
    assert.equal(cellsOf(all), 'Alpha Beta Gamma');
    const [pid] = soffices(root);
    // A string (PageRange) and a number (SelectPdfVersion, a UNO long: PDF/A-2b, named in the XMP metadata).
    const ranged = await convert({ filterData: { PageRange: '2', SelectPdfVersion: 2 } });
    assert.equal(cellsOf(ranged), 'Beta');
    assert.match(ranged.toString('latin1'), /pdfaid:part[^0-9]{0,3}2/);
    const only = await convert({ sheets: { only: 3 } });
    assert.equal(pdfinfo(only)['Pages'], '1');
    assert.equal(cellsOf(only), 'Gamma');
    const [width, height] = /([\d.]+) x ([\d.]+)/.exec(pdfinfo(await convert({ sheets: { landscape: true } }))['Page size']!)!.slice(1).map(Number) as [number, number];
    assert.ok(width > height, `landscape: ${width} x ${height}`);
    await assert.rejects(convert({ sheets: { only: 4 } }), (err: unknown) => err instanceof ServiceError && err.code === 'BAD_REQUEST' && /3 sheets/.test(err.detail ?? err.message));
    await assert.rejects(
      officeToPdf(tools, { bytes: Buffer.from('not a spreadsheet at all'), extension: 'xlsx', importFilter: 'Calc MS Excel 2007 XML', exportFilter: 'calc_pdf_Export' }),
      (err: unknown) => err instanceof ServiceError && err.code === 'MALFORMED_DOCUMENT' && err.status === 422,
    );
    assert.equal(cellsOf(await convert({ sheets: { only: 1 } })), 'Alpha');
    assert.deepEqual(soffices(root), [pid], 'one instance served them all');
  } finally {
    await tools.close();
    rmSync(root, { recursive: true, force: true });
  }
});
