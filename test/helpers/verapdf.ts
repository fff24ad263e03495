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

/**
 * veraPDF's verdict on `bytes` for `flavour` (veraPDF's flavour ids: 'ua1', '2b', ...) from a JVM of its own (the
 * helper program, as veraPDF's command line would run it), not the service's warm one: an independent check.
 */
export function verapdfVerdict(bytes: Buffer | Uint8Array, flavour: string): { compliant: boolean; rules: VerapdfRule[] } {
  return verapdfVerdicts([bytes], flavour)[0]!;
}

/** verapdfVerdict for several files in one JVM (the helper answers a line per file), in their order. */
export function verapdfVerdicts(files: readonly (Buffer | Uint8Array)[], flavour: string): { compliant: boolean; rules: VerapdfRule[] }[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'verapdf-'));
  try {
    const names = files.map((bytes, i) => {
      const file = path.join(dir, `${i}.pdf`);
      writeFileSync(file, bytes);
      return file;
    });
    const cp = `${path.join(verapdfDir, 'verapdf-helper.jar')}:${path.join(verapdfDir, 'lib')}/*`;
    const out = execFileSync('java', ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true', '-cp', cp, 'pdfservice.verapdf.Helper'], {
      input: names.map((file) => `${JSON.stringify({ file, flavour })}\n`).join(''),
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
      maxBuffer: 1 << 26,
    });
    // The first line is the helper's greeting; then one answer per file.
    const answers = out.trim().split('\n').slice(1);
    return names.map((_, i) => {
      const answer = JSON.parse(answers[i] ?? '{}') as { ok?: boolean; error?: string; report?: { compliant: boolean; rules: VerapdfRule[] } };
      if (!answer.ok || !answer.report) throw new Error(`veraPDF could not validate file ${i}: ${answer.error ?? out}`);
      return { compliant: answer.report.compliant, rules: answer.report.rules };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
