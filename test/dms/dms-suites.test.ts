/**
 * Issue 23: annotations, actions, signing, forms, redaction, passwords and page text work on DMS documents as on
 * local ones. Runs a subset of the existing test files, unchanged, with PDFSERVICE_TEST_STORE=webdav (the service
 * over the Apache WebDAV test server, test/helpers/server.ts), so the suite's one command covers it.
 * docs/dms.md "The test server" names the files left out and why.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { TEST_STORE } from '../helpers/server.js';

const SUBSET = [
  'api/annotations',
  'api/pages',
  'api/folders-and-actions',
  'engine/signing',
  'api/fields',
  'engine/redaction',
  'api/permissions',
  'api/document-passwords',
  'api/attachments',
  'api/rights',
].map((name) => fileURLToPath(new URL(`../${name}.test.js`, import.meta.url)));
/**
 * The tests those files held when the subset was chosen: fewer passing means some did not run. Five files were left
 * out on 2 December (annotation-content, fields-data, stamps, pages-edit, xfdf-appearance: 66 tests, about 40 s of
 * the CI's two lanes): they vary what is drawn or filled in, not how a document is read and written, which the files
 * kept exercise for each area of issue 23 (docs/dms.md).
 */
const EXPECTED_PASSES = 202;

// Under PDFSERVICE_TEST_STORE=webdav every file already runs over WebDAV: running the subset again would only repeat it.
test('the subset of suites passes over the WebDAV store', { skip: TEST_STORE === 'webdav' && 'the whole run is over WebDAV already', timeout: 15 * 60_000 }, async () => {
  // NODE_TEST_CONTEXT, set by the runner that started this file, would make the child report to it in its own
  // binary form instead of printing TAP: the child is a runner of its own.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawn(process.execPath, ['--test', '--test-reporter=tap', '--test-concurrency=2', ...SUBSET], {
    env: { ...env, PDFSERVICE_TEST_STORE: 'webdav' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  // Generous for a loaded CI machine; it takes about two minutes here.
  const timer = setTimeout(() => child.kill('SIGKILL'), 12 * 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  const summary = out.split('\n').filter((line) => /^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /.test(line));
  console.log(summary.join('\n'));
  // The failing tests' reports, so a CI log shows what broke without a rerun.
  // With each error: line, the two after it: a multi-line message (`error: |-`) has its text there.
  const lines = out.split('\n');
  const report = lines.filter((line, i) => /not ok|error:|location:/.test(line) || [1, 2].some((back) => /error: [|>]-?$/.test(lines[i - back] ?? '')));
  assert.equal(code, 0, report.slice(0, 80).join('\n'));
  const passed = Number(/^# pass (\d+)$/m.exec(out)?.[1] ?? 0);
  assert.ok(passed >= EXPECTED_PASSES, `${passed} tests passed, the subset holds ${EXPECTED_PASSES}`);
});
