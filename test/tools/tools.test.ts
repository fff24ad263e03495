import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FULL_CHROMIUM_PROGRAM, HEADLESS_SHELL_PROGRAM } from '../../src/config/tools.js';
import { ServiceError } from '../../src/errors.js';
import { registry } from '../../src/metrics.js';
import { ToolSupervisor } from '../../src/tools/index.js';
import { call, putPdf } from '../helpers/http.js';
import { docx, paragraph } from '../helpers/office-fixtures.js';
import { makePdf } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { shTool } from '../helpers/test-tools.js';
import { installedVerapdfVersion } from '../helpers/verapdf.js';

/**
 * The supervisor of external programs (src/tools), run on real small programs
 * declared as test tools, and through the service for LibreOffice.
 */
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Process ids whose command line holds `text`. */
function processesNaming(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').some((arg) => arg.includes(text))) found.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

async function waitFor(what: string, seconds: number, probe: () => boolean): Promise<void> {
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
    if (probe()) return;
  }
  throw new Error(`timed out waiting until ${what}`);
}

async function programRuns(program: string, outcome: string): Promise<number> {
  const metric = (await registry.getSingleMetric('pdfservice_program_runs_total')!.get()).values.find((v) => v.labels.program === program && v.labels.outcome === outcome);
  return metric?.value ?? 0;
}

describe('the supervisor, on test tools', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'pdfservice-tools-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  // The time-out: a supervisor that killed only the program would wait for the background sleep's output forever.
  test('a run over its time limit is 504 ENGINE_TIMEOUT; its whole process group is killed and its scratch folder removed', { timeout: 30_000 }, async () => {
    const tools = new ToolSupervisor([shTool({ timeoutMs: 300 })], root);
    await tools.init();
    // A number no other process has on its command line: the background sleep is what a kill of the leader alone would leave.
    const marker = `${1000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    const before = await programRuns('sh', 'timeout');
    let scratch = '';
    await assert.rejects(
      tools.run('test-sh', async (run) => {
        scratch = run.scratch;
        writeFileSync(path.join(run.scratch, 'input'), 'x');
        await run.exec(['-c', `sleep ${marker} & sleep ${marker}`]);
      }),
      (err: unknown) => err instanceof ServiceError && err.code === 'ENGINE_TIMEOUT' && err.status === 504,
    );
    await waitFor('no sleep of the run is left', 5, () => processesNaming(marker).length === 0);
    assert.ok(scratch.startsWith(path.join(root, 'sh-scratch') + path.sep));
    assert.equal(existsSync(scratch), false, 'the run folder is removed');
    assert.deepEqual(readdirSync(path.join(root, 'sh-scratch')), []);
    assert.equal((await programRuns('sh', 'timeout')) - before, 1, 'the supervisor counted the run as a time-out');
  });

  test('the scratch folder is removed after a failing run, and emptied at start (what a crash left)', async () => {
    const tools = new ToolSupervisor([shTool()], root);
    await tools.init();
    await assert.rejects(
      tools.run('test-sh', async (run) => {
        writeFileSync(path.join(run.scratch, 'partial'), 'x');
        throw new Error('the caller failed');
      }),
      /the caller failed/,
    );
    assert.deepEqual(readdirSync(path.join(root, 'sh-scratch')), []);
    mkdirSync(path.join(root, 'sh-scratch', 'run-left-by-a-crash'));
    writeFileSync(path.join(root, 'sh-scratch', 'run-left-by-a-crash', 'input'), 'x');
    await new ToolSupervisor([shTool()], root).init();
    assert.deepEqual(readdirSync(path.join(root, 'sh-scratch')), []);
  });

  test('the version probe names the version; a probe that fails makes the tool unavailable', async () => {
    const statuses = await new ToolSupervisor([shTool(), shTool({ name: 'broken', scratch: 'broken', versionProbe: { args: ['-c', 'echo broken >&2; exit 3'] } })], root).init();
    assert.deepEqual(statuses[0], { name: 'test-sh', debianPackage: 'dash', available: true, version: '9.8.7' });
    assert.equal(statuses[1]!.available, false);
    assert.match(statuses[1]!.reason!, /does not run here \(broken\)/);
  });

  test('prepare() runs no probe: a run or checked() runs it, once; a failing one makes the run 503', async () => {
    const probes = path.join(root, 'probes.log');
    // The probes run in the sandbox-less scratch folder: each appends a line to the log, so the log counts them.
    const counting = (name: string, exit: number) =>
      shTool({ name, scratch: name, versionProbe: { args: ['-c', `echo probed >> ${probes}; echo "Test shell 1.2.3"; exit ${exit}`], pattern: /^Test shell (\S+)/ } });
    const tools = new ToolSupervisor([counting('lazy', 0), counting('lazy-broken', 3)], root);
    const told: string[] = [];
    await tools.prepare();
    tools.onChecked((status) => told.push(`${status.name} ${status.available}`));
    assert.equal(existsSync(probes), false, 'no probe ran at prepare()');
    assert.equal((await tools.run('lazy', (run) => run.exec(['-c', 'echo ran']))).stdout.trim(), 'ran');
    assert.equal(readFileSync(probes, 'utf8'), 'probed\n', 'the run probed its own tool only');
    await assert.rejects(tools.run('lazy-broken', async () => assert.fail('a broken tool runs nothing')), (err: unknown) => err instanceof ServiceError && err.code === 'COMPONENT_MISSING');
    const statuses = await tools.checked();
    assert.deepEqual(statuses[0], { name: 'lazy', debianPackage: 'dash', available: true, version: '1.2.3' });
    assert.equal(statuses[1]!.available, false);
    assert.equal(readFileSync(probes, 'utf8'), 'probed\nprobed\n', 'each probe ran once');
    assert.deepEqual(told, ['lazy true', 'lazy-broken false'], 'the start-up log is told each final status once');
  });

  test('a program that ends leaving a child behind ends the child with it', { timeout: 30_000 }, async () => {
    const tools = new ToolSupervisor([shTool()], root);
    await tools.init();
    const marker = `${2000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    const result = await tools.run('test-sh', (run) => run.exec(['-c', `sleep ${marker} & echo started`]));
    assert.equal(result.stdout.trim(), 'started');
    assert.equal(result.timedOut, false);
    await waitFor('the left child is gone', 5, () => processesNaming(marker).length === 0);
  });

  test('runs beyond the concurrency limit wait for a free slot', async () => {
    const tools = new ToolSupervisor([shTool({ concurrency: 2 })], root);
    await tools.init();
    let active = 0;
    let most = 0;
    const outputs = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        tools.run('test-sh', async (run) => {
          most = Math.max(most, ++active);
          const result = await run.exec(['-c', `echo run ${i}; sleep 0.1`]);
          active--;
          return result.stdout.trim();
        }),
      ),
    );
    assert.deepEqual(outputs, Array.from({ length: 6 }, (_, i) => `run ${i}`));
    assert.equal(most, 2);
  });

  // A job's cancel (and a client that went away) must stop the program at once, not at its time-out.
  test('a signal stops a running program (its whole process group) and a run waiting for a slot: TASK_CANCELLED, scratch removed', { timeout: 30_000 }, async () => {
    const tools = new ToolSupervisor([shTool({ concurrency: 1, timeoutMs: 60_000 })], root);
    await tools.init();
    const marker = `${2000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    const stop = new AbortController();
    let scratch = '';
    const started = Date.now();
    const running = tools.run('test-sh', async (run) => {
      scratch = run.scratch;
      await run.exec(['-c', `sleep ${marker} & sleep ${marker}`]);
      return 'ran to the end';
    }, stop.signal);
    const stopWaiting = new AbortController();
    let waiterRan = false;
    const waiting = tools.run('test-sh', async () => {
      waiterRan = true;
    }, stopWaiting.signal);
    await waitFor('the program runs', 5, () => processesNaming(marker).length > 0);
    stopWaiting.abort();
    await assert.rejects(waiting, (err: unknown) => err instanceof ServiceError && err.code === 'TASK_CANCELLED');
    stop.abort();
    await assert.rejects(running, (err: unknown) => err instanceof ServiceError && err.code === 'TASK_CANCELLED' && err.status === 409);
    assert.ok(Date.now() - started < 10_000, 'stopped long before its time-out');
    await waitFor('no sleep of the run is left', 5, () => processesNaming(marker).length === 0);
    assert.equal(waiterRan, false, 'the waiting run never started');
    assert.equal(existsSync(scratch), false, 'the run folder is removed');
    // The slot was given back: the next run goes ahead.
    assert.equal(await tools.run('test-sh', async (run) => (await run.exec(['-c', 'echo next'])).stdout.trim()), 'next');
  });

  test('a tool whose program is not installed is 503 COMPONENT_MISSING naming its Debian package; nothing runs', async () => {
    const tools = new ToolSupervisor([shTool({ name: 'absent', command: 'pdfservice-no-such-program', debianPackage: 'pdfservice-absent-package', scratch: 'absent' })], root);
    const [status] = await tools.init();
    assert.equal(status!.available, false);
    assert.equal(status!.version, null);
    assert.match(status!.reason!, /pdfservice-absent-package/);
    let ran = false;
    await assert.rejects(
      tools.run('absent', async () => {
        ran = true;
      }),
      (err: unknown) => err instanceof ServiceError && err.code === 'COMPONENT_MISSING' && err.status === 503 && /Test run needs .*Debian package pdfservice-absent-package/.test(err.detail ?? ''),
    );
    assert.equal(ran, false);
  });
});

describe('the service and its tools', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  test('/health lists LibreOffice, Tesseract, veraPDF, Ghostscript, qpdf and Chromium with the versions they report, and the log names them once probed', async () => {
    const reported = /LibreOffice (\S+)/.exec(execFileSync('soffice', ['--version'], { encoding: 'utf8' }))![1];
    const tesseract = /^tesseract (\S+)/m.exec(execFileSync('tesseract', ['--version'], { encoding: 'utf8' }))![1];
    const ghostscript = execFileSync('gs', ['--version'], { encoding: 'utf8' }).trim();
    const qpdf = /qpdf version (\S+)/.exec(execFileSync('qpdf', ['--version'], { encoding: 'utf8' }))![1];
    // The pool's browser: Debian's headless shell where installed, else the full browser (docs/html.md, "The pool").
    const browser = existsSync(HEADLESS_SHELL_PROGRAM) ? { program: HEADLESS_SHELL_PROGRAM, debianPackage: 'chromium-headless-shell' } : { program: FULL_CHROMIUM_PROGRAM, debianPackage: 'chromium' };
    const chromium = /Chromium (\S+)/.exec(execFileSync(browser.program, ['--version'], { encoding: 'utf8' }))![1];
    const health = await call(server, 'GET', '/health', { auth: false });
    assert.equal(health.status, 200);
    assert.deepEqual(health.json().tools, [
      { name: 'libreoffice', debianPackage: 'libreoffice-writer', available: true, version: reported },
      { name: 'tesseract', debianPackage: 'tesseract-ocr', available: true, version: tesseract },
      { name: 'verapdf', debianPackage: 'default-jre-headless', available: true, version: installedVerapdfVersion() },
      { name: 'ghostscript', debianPackage: 'ghostscript', available: true, version: ghostscript },
      { name: 'qpdf', debianPackage: 'qpdf', available: true, version: qpdf },
      { name: 'chromium', debianPackage: browser.debianPackage, available: true, version: chromium },
    ]);
    // Logged once probed (on first need, here this /health): the line comes through the service's stdout pipe.
    const logged = () => server.output.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.tool === 'libreoffice');
    await waitFor('the start-up log names LibreOffice', 10, () => logged() !== undefined);
    assert.equal(logged()?.version, reported);
  });

  test('a LibreOffice that is not the full build, or whose instance cannot start, shows in /health and makes a Word upload 503 COMPONENT_MISSING, never a 4xx that blames the document', async () => {
    // Issue 35 item 15: with the -nogui build swapped in, valid DOCX files were 422 MALFORMED_DOCUMENT. The fake answers
    // --version as LibreOffice does and then ends as that build's instance did.
    const fake = mkdtempSync(path.join(tmpdir(), 'pdfservice-fake-soffice-'));
    writeFileSync(path.join(fake, 'soffice'), '#!/bin/sh\nif [ "$1" = --version ]; then echo "LibreOffice 7.4.7.2 40(Build:2)"; exit 0; fi\necho "Binary URP bridge disposed during call" >&2\nexit 81\n', { mode: 0o755 });
    const office = async (instance: TestServer) => (await call(instance, 'GET', '/health', { auth: false })).json().tools.find((tool: { name: string }) => tool.name === 'libreoffice');
    const upload = async (instance: TestServer) => {
      const reply = await call(instance, 'PUT', '/documents/memo.pdf', { body: docx(paragraph('A valid document')), headers: { 'content-type': DOCX, prefer: 'wait=60' } });
      assert.equal(reply.status, 503, reply.text);
      assert.equal(reply.json().code, 'COMPONENT_MISSING');
      assert.equal((await call(instance, 'GET', '/documents/memo.pdf')).status, 404);
      return reply.json().detail as string;
    };
    try {
      // No VCL plug-in beside it: what Debian's -nogui build looks like; found at start.
      const nogui = await startServer({ env: { PDFSERVICE_OFFICE_PROGRAM: path.join(fake, 'soffice') } });
      try {
        const status = await office(nogui);
        assert.equal(status.available, false);
        assert.match(status.reason, /-nogui/);
        assert.match(await upload(nogui), /Word conversion needs LibreOffice's full build/);
      } finally {
        await nogui.stop();
      }
      // Looks like the full build, but its instance cannot start: found at the first conversion, then shown in /health.
      writeFileSync(path.join(fake, 'libvclplug_genlo.so'), '');
      const broken = await startServer({ env: { PDFSERVICE_OFFICE_PROGRAM: path.join(fake, 'soffice') } });
      try {
        assert.equal((await office(broken)).available, true);
        assert.match(await upload(broken), /could not be started/);
        const status = await office(broken);
        assert.equal(status.available, false);
        assert.match(status.reason, /instance could not be started/);
        assert.match(await upload(broken), /could not be started/);
      } finally {
        await broken.stop();
      }
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });

  test('without LibreOffice and Tesseract on PATH, a Word upload and OCRAction are 503 COMPONENT_MISSING naming their packages, /health shows them missing, PDFs still work', async () => {
    const bare = await startServer({ env: { PATH: '/nonexistent' } });
    try {
      const health = (await call(bare, 'GET', '/health', { auth: false })).json();
      assert.equal(health.tools[0].name, 'libreoffice');
      assert.equal(health.tools[0].available, false);
      assert.match(health.tools[0].reason, /libreoffice-writer/);
      assert.equal(health.tools[1].name, 'tesseract');
      assert.equal(health.tools[1].available, false);
      assert.equal(health.tools[2].name, 'verapdf');
      assert.equal(health.tools[2].available, false);
      assert.match(health.tools[2].reason, /default-jre-headless/);
      assert.equal(health.tools[3].name, 'ghostscript');
      assert.equal(health.tools[3].available, false);
      assert.match(health.tools[3].reason, /Debian package ghostscript/);
      // A Word conversion is a job unless the client waits for it; waiting, the answer is the inline one.
      const reply = await call(bare, 'PUT', '/documents/memo.pdf', { body: docx(paragraph('Not converted')), headers: { 'content-type': DOCX, prefer: 'wait=60' } });
      assert.equal(reply.status, 503, reply.text);
      assert.equal(reply.json().code, 'COMPONENT_MISSING');
      assert.match(reply.json().detail, /Word conversion needs .*Debian package libreoffice-writer/);
      assert.equal((await call(bare, 'GET', '/documents/memo.pdf')).status, 404);
      assert.equal((await putPdf(bare, 'plain.pdf', makePdf())).status, 201);
      // OCRAction checks its language with tesseract before it is accepted: 503 at once, no job.
      const ocr = await call(bare, 'POST', '/documents/plain.pdf/pages', { body: { OCRAction: {} } });
      assert.equal(ocr.status, 503, ocr.text);
      assert.match(ocr.json().detail, /OCR needs .*Debian package tesseract-ocr/);
      assert.equal(health.tools[4].name, 'qpdf');
      assert.equal(health.tools[4].available, false);
      const linearize = await call(bare, 'POST', '/documents/plain.pdf', { body: { LinearizeAction: {} } });
      assert.equal(linearize.status, 503, linearize.text);
      assert.match(linearize.json().detail, /Linearization needs .*Debian package qpdf/);
      assert.ok(bare.output.some((line) => line.includes('external tool missing')));
    } finally {
      await bare.stop();
    }
  });
});
