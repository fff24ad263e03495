/**
 * `npm run config-table`: writes README.md's configuration table from the settings blocks (src/config/, merged by
 * src/config.ts). A test fails while the README's table differs from this one.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { configurationTable } from '../config.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const text = await readFile(README, 'utf8');
const start = text.indexOf('| variable | default | meaning |');
const end = text.indexOf('\n\n', start);
if (start < 0 || end < 0) throw new Error('README.md has no configuration table (a line "| variable | default | meaning |")');
await writeFile(README, text.slice(0, start) + configurationTable() + text.slice(end + 1));
process.stdout.write('README.md: configuration table written\n');
