import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { corpusDir } from '../../corpus/manifest.js';
import { ServiceError } from '../../src/errors.js';
import { registry } from '../../src/metrics.js';
import { ToolSupervisor } from '../../src/tools/index.js';
import { validatePdfa, VERAPDF, verapdf } from '../../src/tools/verapdf.js';
import { makePdf } from '../helpers/pdf.js';
import { installedVerapdfVersion, verapdfDir } from '../helpers/verapdf.js';

/**
 * The warm veraPDF helper (src/tools/verapdf.ts) under the real supervisor:
 * verdicts on veraPDF's own corpus files, one JVM kept across validations,
 * a damaged file answered without losing the JVM, a killed JVM replaced.
 */
const corpus = corpusDir();
/** Process ids of running JVMs of the helper (its main class on the command line) of this test's supervisor (working in its folder). */
function helperJvms(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (path.basename(argv[0] ?? '') === 'java' && argv.includes('pdfservice.verapdf.Helper') && readlinkSync(`/proc/${entry}/cwd`).startsWith(root)) found.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

async function programRuns(program: string, outcome: string): Promise<number> {
  const metric = (await registry.getSingleMetric('pdfservice_program_runs_total')!.get()).values.find((v) => v.labels.program === program && v.labels.outcome === outcome);
  return metric?.value ?? 0;
}

let root: string;

describe('veraPDF, warm under the supervisor', { skip: corpus ? false : 'no corpus (../shared/corpus or PDFSERVICE_CORPUS)' }, () => {
  let tools: ToolSupervisor;
  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'pdfservice-verapdf-'));
    // The helper's jars are outside the sandbox's usual paths: a copy of the declaration the service uses, pointed at them.
    tools = new ToolSupervisor([verapdf({ timeoutMs: 120_000, dir: verapdfDir })], root);
    const [status] = await tools.init();
    assert.equal(status!.available, true, status!.reason);
    assert.equal(status!.version, installedVerapdfVersion());
  });
  after(() => {
    tools.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('a pass and a fail file of the veraPDF corpus get their verdicts, the failure with its clause, test number and location', { timeout: 120_000 }, async () => {
    const pass = await validatePdfa(tools, { pdf: readFileSync(path.join(corpus!, 'verapdf/PDF_A-2b/6-1-12-t02-pass-a.pdf')), profile: 'pdfa2b' });
    assert.equal(pass.compliant, true);
    assert.equal(pass.profile, 'pdfa2b');
    assert.deepEqual(pass.validator, { name: 'veraPDF', version: installedVerapdfVersion() });
    assert.equal(pass.failedChecks, 0);
    assert.deepEqual(pass.rules, []);
    assert.ok(pass.passedChecks > 100, `passed ${pass.passedChecks}`);

    const fail = await validatePdfa(tools, { pdf: readFileSync(path.join(corpus!, 'verapdf/PDF_A-2b/6-1-12-t02-fail-a.pdf')), profile: 'pdfa2b' });
    assert.equal(fail.compliant, false);
    assert.equal(fail.failedChecks, 2);
    assert.equal(fail.rules.length, 1);
    const [rule] = fail.rules;
    assert.equal(rule!.specification, 'ISO 19005-2:2011');
    assert.equal(rule!.clause, '6.1.12');
    assert.equal(rule!.testNumber, 2);
    assert.match(rule!.description, /DocMDP/);
    assert.equal(rule!.failedChecks, 2);
    assert.equal(rule!.locations.length, 2);
    assert.equal(rule!.locations[0]!.objectNumber, 14);
    assert.match(rule!.locations[0]!.context, /PDSignature/);
    // Both validations in one JVM, in the sandbox: a network namespace of its own (no network), an empty environment.
    const jvms = helperJvms();
    assert.equal(jvms.length, 1);
    assert.notEqual(readlinkSync(`/proc/${jvms[0]}/ns/net`), readlinkSync('/proc/self/ns/net'));
    const environment = readFileSync(`/proc/${jvms[0]}/environ`, 'utf8').split('\0').filter(Boolean).map((entry) => entry.split('=')[0]).sort();
    assert.deepEqual(environment, ['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR']); // PWD: bwrap's --chdir
  });

  test('the flavour asked for is the one validated: a PDF/A-1b file passes 1b and fails 1a', { timeout: 120_000 }, async () => {
    const pdf = readFileSync(path.join(corpus!, 'verapdf/PDF_A-1b/6-1-2-t02-pass-a.pdf'));
    assert.equal((await validatePdfa(tools, { pdf, profile: 'pdfa1b' })).compliant, true);
    const asA = await validatePdfa(tools, { pdf, profile: 'pdfa1a' });
    assert.equal(asA.compliant, false);
    assert.ok(asA.rules.every((rule) => rule.specification === 'ISO 19005-1:2005'));
  });

  test('a damaged file is a non-compliant result naming why; the JVM answers the next file', { timeout: 120_000 }, async () => {
    const jvm = helperJvms();
    const damaged = await validatePdfa(tools, { pdf: new TextEncoder().encode('%PDF-1.7\nthis is not a PDF at all\n'), profile: 'pdfa2b' });
    assert.equal(damaged.compliant, false);
    assert.equal(damaged.rules[0]!.clause, '6.1');
    assert.equal(damaged.rules[0]!.testNumber, 0);
    assert.match(damaged.rules[0]!.description, /could not be parsed/);
    const plain = await validatePdfa(tools, { pdf: makePdf(), profile: 'pdfa2b' });
    assert.equal(plain.compliant, false); // no XMP metadata: not PDF/A
    assert.ok(plain.rules.some((rule) => rule.clause === '6.6.2.1'), JSON.stringify(plain.rules.map((rule) => rule.clause)));
    assert.deepEqual(helperJvms(), jvm);
  });

  test('a JVM killed from outside is replaced by the next validation', { timeout: 120_000 }, async () => {
    const [jvm] = helperJvms();
    assert.ok(jvm);
    process.kill(jvm, 'SIGKILL');
    for (let i = 0; i < 200 && helperJvms().includes(jvm); i++) await new Promise((r) => setTimeout(r, 25));
    const report = await validatePdfa(tools, { pdf: readFileSync(path.join(corpus!, 'verapdf/PDF_A-2b/6-1-12-t02-pass-a.pdf')), profile: 'pdfa2b' });
    assert.equal(report.compliant, true);
    const now = helperJvms();
    assert.equal(now.length, 1);
    assert.notEqual(now[0], jvm);
  });

  test('a cancelled validation is TASK_CANCELLED and kills that JVM; the next one starts a new one', { timeout: 120_000 }, async () => {
    const before = await programRuns(VERAPDF, 'ok');
    const controller = new AbortController();
    const big = readFileSync(path.join(corpus!, 'verapdf/PDF_A-2b/6-1-12-t02-pass-a.pdf'));
    const running = validatePdfa(tools, { pdf: big, profile: 'pdfa2b', signal: controller.signal });
    controller.abort();
    await assert.rejects(running, (err: unknown) => err instanceof ServiceError && err.code === 'TASK_CANCELLED');
    const report = await validatePdfa(tools, { pdf: big, profile: 'pdfa2b' });
    assert.equal(report.compliant, true);
    assert.equal(await programRuns(VERAPDF, 'ok'), before + 1);
  });
});

describe('veraPDF missing', () => {
  test('without its jars the tool is unavailable naming scripts/setup.sh, and a validation is 503 COMPONENT_MISSING', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-verapdf-none-'));
    try {
      const tools = new ToolSupervisor([verapdf({ timeoutMs: 10_000, dir: path.join(dir, 'absent') })], dir);
      const [status] = await tools.init();
      assert.equal(status!.available, false);
      assert.match(status!.reason!, /scripts\/setup\.sh/);
      await assert.rejects(
        validatePdfa(tools, { pdf: makePdf(), profile: 'pdfa1b' }),
        (err: unknown) => err instanceof ServiceError && err.code === 'COMPONENT_MISSING' && err.status === 503 && /PDF\/A validation needs/.test(err.detail ?? ''),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
