import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { withTempFile } from './pdf.js';

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
  return withTempFile(bytes, (file) => {
    const cp = `${path.join(verapdfDir, 'verapdf-helper.jar')}:${path.join(verapdfDir, 'lib')}/*`;
    const out = execFileSync('java', ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true', '-cp', cp, 'pdfservice.verapdf.Helper'], {
      input: `${JSON.stringify({ file, flavour })}\n`,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const answer = JSON.parse(out.trim().split('\n').at(-1)!) as { ok: boolean; error?: string; report?: { compliant: boolean; rules: VerapdfRule[] } };
    if (!answer.ok || !answer.report) throw new Error(`veraPDF could not validate: ${answer.error ?? out}`);
    return { compliant: answer.report.compliant, rules: answer.report.rules };
  });
}
