// node scripts/run-tests-in-order.mjs CONCURRENCY FILE...
// `node --test` with the files started in the order given (the command line sorts them by path): .ci/run starts the
// longest files first, so that the run does not end with one long file alone on one core (docs/testing.md, "CI time").
// Reports TAP as `node --test` does without a terminal; exit status 1 when a test failed.
import path from 'node:path';
import { run } from 'node:test';
import { createWriteStream } from 'node:fs';
import { tap } from 'node:test/reporters';
import failures from './test-failures.mjs';

const [concurrency, ...files] = process.argv.slice(2);
if (!/^[1-9]\d*$/.test(concurrency ?? '') || files.length === 0) {
  console.error('usage: node scripts/run-tests-in-order.mjs CONCURRENCY FILE...');
  process.exit(2);
}
// execArgv: the test files run with this process's Node.js options (PDFSERVICE_NODE_FLAGS, as `node --test` passes them on).
const stream = run({ files: files.map((file) => path.resolve(file)), concurrency: Number(concurrency), execArgv: process.execArgv });
stream.on('test:fail', (event) => {
  if (!event.todo) process.exitCode = 1;
});
stream.compose(tap).pipe(process.stdout);
// PDFSERVICE_TEST_FAILURES (set by .ci/run): a line per failed test appended to that file (scripts/test-failures.mjs).
if (process.env.PDFSERVICE_TEST_FAILURES) {
  stream.compose(failures).pipe(createWriteStream(process.env.PDFSERVICE_TEST_FAILURES, { flags: 'a' }));
}
