import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/** A verdict of veraPDF's. */
export interface VerapdfVerdict {
  compliant: boolean;
  rules: VerapdfRule[];
}

/**
 * veraPDF's verdict on `bytes` for `flavour` (veraPDF's flavour ids: 'ua1', '2b', ...) from a JVM of its own (the
 * helper program, as veraPDF's command line would run it), not the service's warm one: an independent check.
 */
export function verapdfVerdict(bytes: Buffer | Uint8Array, flavour: string): VerapdfVerdict {
  return verapdfVerdicts([{ bytes, flavour }])[0]!;
}

/** The verdicts on several files from one JVM of its own (one start, as a test file should have at most). */
export function verapdfVerdicts(files: readonly { bytes: Buffer | Uint8Array; flavour: string }[]): VerapdfVerdict[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-verapdf-'));
  try {
    const requests = files.map(({ bytes, flavour }, i) => {
      const file = path.join(dir, `${i}.pdf`);
      writeFileSync(file, bytes);
      return `${JSON.stringify({ file, flavour })}\n`;
    });
    const cp = `${path.join(verapdfDir, 'verapdf-helper.jar')}:${path.join(verapdfDir, 'lib')}/*`;
    const out = execFileSync('java', ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true', '-cp', cp, 'pdfservice.verapdf.Helper'], {
      input: requests.join(''),
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    // The first line says it is ready; then one answer per request, in order.
    const answers = out.trim().split('\n').slice(-files.length).map((line) => JSON.parse(line) as { ok: boolean; error?: string; report?: VerapdfVerdict });
    if (answers.length !== files.length) throw new Error(`veraPDF answered ${answers.length} of ${files.length} files: ${out}`);
    return answers.map((answer) => {
      if (!answer.ok || !answer.report) throw new Error(`veraPDF could not validate: ${answer.error ?? out}`);
      return { compliant: answer.report.compliant, rules: answer.report.rules };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
