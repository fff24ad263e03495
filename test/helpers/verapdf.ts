import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config.js';

/** Where the service finds the veraPDF helper by default (.tools/verapdf, built by scripts/setup.sh). */
export const verapdfDir = loadConfig({}).verapdfDir;

/** The installed veraPDF library's version, from its jar's name (what /health must show). */
export function installedVerapdfVersion(): string {
  const jar = readdirSync(path.join(verapdfDir, 'lib')).find((name) => /^validation-model-.*\.jar$/.test(name));
  return /^validation-model-(.*)\.jar$/.exec(jar!)![1]!;
}

/** One failed rule of a veraPDF report, as the helper program answers it. */
export interface VerapdfRule {
  clause: string;
  testNumber: number;
  description: string;
}

/** One veraPDF verdict, as the helper program answers it. */
export interface VerapdfVerdict {
  compliant: boolean;
  rules: VerapdfRule[];
}

/** The test process's one veraPDF JVM (started at its first verdict), and the verdicts waiting for their answer line. */
let jvm: { child: ChildProcessWithoutNullStreams; waiting: ((line: string) => void)[]; ready: Promise<void> } | undefined;

/** Holds the test process open only while a verdict is awaited: an idle JVM must not keep a finished test file alive. */
function hold(on: boolean): void {
  if (!jvm) return;
  for (const handle of [jvm.child, jvm.child.stdout, jvm.child.stdin] as { ref(): void; unref(): void }[]) {
    if (on) handle.ref();
    else handle.unref();
  }
}

function startJvm(): NonNullable<typeof jvm> {
  const cp = `${path.join(verapdfDir, 'verapdf-helper.jar')}:${path.join(verapdfDir, 'lib')}/*`;
  const child = spawn('java', ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true', '-cp', cp, 'pdfservice.verapdf.Helper'], { stdio: ['pipe', 'pipe', 'ignore'] }) as unknown as ChildProcessWithoutNullStreams;
  const started: NonNullable<typeof jvm> = { child, waiting: [], ready: Promise.resolve() };
  let readyLine: ((line: string) => void) | undefined;
  started.ready = new Promise<void>((resolve) => (readyLine = () => resolve()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (readyLine) {
      readyLine(line);
      readyLine = undefined;
      return;
    }
    started.waiting.shift()?.(line);
  });
  child.once('exit', () => {
    if (jvm === started) jvm = undefined;
    for (const waiter of started.waiting.splice(0)) waiter('{"ok":false,"error":"the veraPDF JVM ended"}');
  });
  return started;
}

/**
 * veraPDF's verdict on `bytes` for `flavour` (veraPDF's flavour ids: 'ua1', '2b', ...) from a JVM of the test's own
 * (the helper program, as veraPDF's command line would run it), not the service's warm one: an independent check. One
 * JVM answers every verdict of a test file, one after another, as the service's does: a JVM started for each check
 * cost seconds of a loaded machine's time each.
 */
export async function verapdfVerdict(bytes: Buffer | Uint8Array, flavour: string): Promise<VerapdfVerdict> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-verapdf-'));
  const file = path.join(dir, 'doc.pdf');
  writeFileSync(file, bytes);
  jvm ??= startJvm();
  const current = jvm;
  hold(true);
  try {
    await current.ready;
    const line = await new Promise<string>((resolve) => {
      current.waiting.push(resolve);
      current.child.stdin.write(`${JSON.stringify({ file, flavour })}\n`);
    });
    const answer = JSON.parse(line) as { ok: boolean; error?: string; report?: { compliant: boolean; rules: VerapdfRule[] } };
    if (!answer.ok || !answer.report) throw new Error(`veraPDF could not validate: ${answer.error ?? line}`);
    return { compliant: answer.report.compliant, rules: answer.report.rules };
  } finally {
    if (current.waiting.length === 0) hold(false);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Several verdicts from one such JVM (one start for a whole table of files): one request line per file, in order. */
export function verapdfVerdicts(requests: ReadonlyArray<{ bytes: Buffer | Uint8Array; flavour: string }>): VerapdfVerdict[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'verapdf-verdicts-'));
  try {
    const lines = requests.map(({ bytes, flavour }, index) => {
      const file = path.join(dir, `${index}.pdf`);
      writeFileSync(file, bytes);
      return `${JSON.stringify({ file, flavour })}\n`;
    });
    const cp = `${path.join(verapdfDir, 'verapdf-helper.jar')}:${path.join(verapdfDir, 'lib')}/*`;
    const out = execFileSync('java', ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true', '-cp', cp, 'pdfservice.verapdf.Helper'], {
      input: lines.join(''),
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    // The first line is the helper's "ready"; then one answer per request.
    const answers = out.trim().split('\n').slice(1);
    assert.equal(answers.length, requests.length, `veraPDF answered ${answers.length} of ${requests.length} requests`);
    return answers.map((line) => {
      const answer = JSON.parse(line) as { ok: boolean; error?: string; report?: VerapdfVerdict };
      if (!answer.ok || !answer.report) throw new Error(`veraPDF could not validate: ${answer.error ?? line}`);
      return { compliant: answer.report.compliant, rules: answer.report.rules };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
