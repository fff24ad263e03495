import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';

/** Where the service finds the veraPDF helper by default (.tools/verapdf, built by scripts/setup.sh). */
export const verapdfDir = loadConfig({}).verapdfDir;

/** The installed veraPDF library's version, from its jar's name (what /health must show). */
export function installedVerapdfVersion(): string {
  const jar = readdirSync(path.join(verapdfDir, 'lib')).find((name) => /^validation-model-.*\.jar$/.test(name));
  return /^validation-model-(.*)\.jar$/.exec(jar!)![1]!;
}
