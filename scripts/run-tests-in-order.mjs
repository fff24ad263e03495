// node scripts/run-tests-in-order.mjs [--times=FILE] [--spec] [--write-times=FILE] CONCURRENCY FILE...
// `node --test` with the files started in a chosen order (the command line sorts them by path), so that a run does not
// end with one long file alone on one core (docs/testing.md, "CI time"):
//   without --times, in the order given (.ci/run names the corpus stage's longest files first);
//   with --times=FILE (test/file-times.tsv: seconds, a tab, a file below dist/ or test/), longest first; a file the
//   table does not know starts as if it took NEW_FILE_SECONDS, and the table's files that are gone are ignored.
// --spec: the spec report (as `node --test` writes it to a terminal); else TAP, as `node --test` without a terminal.
// At the end: the longest files of this run with their wall time; --write-times=FILE writes every file's time there, in
// the table's form (how test/file-times.tsv is refreshed: docs/testing.md). Exit status 1 when a test failed.
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import failures from './test-failures.mjs';

/** What a file missing from the table is taken to take: started among the long ones, as a new file often is one. */
const NEW_FILE_SECONDS = 30;
/** How many of the longest files the summary names. */
const SUMMARY = 15;
/** A file whose process ends this long after its last test is named: its exit waits for something (a file's after hooks
 * and exit take well under a second). */
const LINGER_SECONDS = 2;

const options = {};
const positional = [];
for (const arg of process.argv.slice(2)) {
  const m = /^--(times|write-times|spec)(?:=(.*))?$/.exec(arg);
  if (m) options[m[1]] = m[2] ?? true;
  else positional.push(arg);
}
const [concurrency, ...given] = positional;
if (!/^[1-9]\d*$/.test(concurrency ?? '') || given.length === 0) {
  console.error('usage: node scripts/run-tests-in-order.mjs [--times=FILE] [--spec] [--write-times=FILE] CONCURRENCY FILE...');
  process.exit(2);
}

/** The table's key for a file: its path from the checkout, as the source (test/x/y.test.ts) — dist/ and .js dropped. */
const key = (file) => path.relative(process.cwd(), path.resolve(file)).replace(/^dist\//, '').replace(/\.js$/, '.ts');

let files = given;
if (typeof options.times === 'string' && existsSync(options.times)) {
  const known = new Map();
  for (const line of readFileSync(options.times, 'utf8').split('\n')) {
    const [seconds, file] = line.split('\t');
    if (file && !line.startsWith('#') && Number.isFinite(Number(seconds))) known.set(file.trim(), Number(seconds));
  }
  const cost = (file) => known.get(key(file)) ?? NEW_FILE_SECONDS;
  // A stable sort: equal times keep the given (path) order.
  files = [...given].sort((a, b) => cost(b) - cost(a));
}

// execArgv: the test files run with this process's Node.js options (PDFSERVICE_NODE_FLAGS, as `node --test` passes them on).
const stream = run({ files: files.map((file) => path.resolve(file)), concurrency: Number(concurrency), execArgv: process.execArgv });
const started = new Map();
const took = new Map();
// A named event's listener gets the event's data (a 'data' listener gets { type, data }).
stream.on('test:dequeue', ({ nesting, file, name }) => {
  if (nesting === 0 && file && name === file) started.set(file, Date.now());
});
const lastTest = new Map();
stream.on('test:complete', ({ nesting, file, name }) => {
  if (nesting !== 0 || !file) return;
  // A file's own entry (nesting 0, named by its path) completes when its process has ended: its wall time, start to exit.
  if (name === file) {
    if (started.has(file)) took.set(file, (Date.now() - started.get(file)) / 1000);
    // The time from its last test's end to its process's exit: a timer, socket or child left behind keeps a file
    // alive after its tests (a 5 s race timer in TestServer.stop did so in every file; docs/testing.md).
    if (lastTest.has(file)) lingered.set(file, (Date.now() - lastTest.get(file)) / 1000);
  } else lastTest.set(file, Date.now());
});
const lingered = new Map();
stream.on('test:fail', ({ todo }) => {
  if (!todo) process.exitCode = 1;
});
const report = options.spec ? stream.compose(new spec()) : stream.compose(tap);
report.pipe(process.stdout, { end: false });
// PDFSERVICE_TEST_FAILURES (set by .ci/run): a line per failed test appended to that file (scripts/test-failures.mjs).
if (process.env.PDFSERVICE_TEST_FAILURES) {
  stream.compose(failures).pipe(createWriteStream(process.env.PDFSERVICE_TEST_FAILURES, { flags: 'a' }));
}
report.on('end', () => {
  const times = [...took].map(([file, seconds]) => [key(file), seconds]).sort((a, b) => b[1] - a[1]);
  const total = times.reduce((sum, [, seconds]) => sum + seconds, 0);
  console.log(`\nrun-tests-in-order: ${times.length} files, ${total.toFixed(0)} s of file wall time at ${concurrency} at a time; the longest:`);
  for (const [file, seconds] of times.slice(0, SUMMARY)) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${file}`);
  const slow = [...lingered].filter(([, seconds]) => seconds >= LINGER_SECONDS).sort((a, b) => b[1] - a[1]);
  if (slow.length > 0) {
    console.log(`run-tests-in-order: files whose process outlived their last test by ${LINGER_SECONDS} s or more (something left running):`);
    for (const [file, seconds] of slow) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${key(file)}`);
  }
  if (typeof options['write-times'] === 'string') {
    const header = '# seconds\tfile: wall time of each test file in one run (scripts/run-tests-in-order.mjs --write-times), read by --times\n';
    writeFileSync(options['write-times'], header + times.map(([file, seconds]) => `${seconds.toFixed(1)}\t${file}`).join('\n') + '\n');
  }
});
