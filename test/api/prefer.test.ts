import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jobPlan, MAX_WAIT_SECONDS, parsePrefer } from '../../src/http/prefer.js';

test('no Prefer header: inline', () => {
  assert.deepEqual(parsePrefer(undefined), { respondAsync: false });
  assert.deepEqual(parsePrefer(''), { respondAsync: false });
});

test('respond-async and wait, in one comma list or several headers, names case-insensitive', () => {
  assert.deepEqual(parsePrefer('respond-async, wait=10'), { respondAsync: true, wait: 10 });
  assert.deepEqual(parsePrefer(['Respond-Async', 'WAIT=5']), { respondAsync: true, wait: 5 });
  assert.deepEqual(parsePrefer('wait=3'), { respondAsync: false, wait: 3 });
  assert.deepEqual(parsePrefer('wait="7"'), { respondAsync: false, wait: 7 });
});

test('unknown preferences, parameters and bad wait values are ignored', () => {
  assert.deepEqual(parsePrefer('return=minimal, handling=lenient; x="a,respond-async", respond-async; foo=bar'), { respondAsync: true });
  assert.deepEqual(parsePrefer('wait=soon, wait=-1, wait=1.5'), { respondAsync: false });
  assert.deepEqual(parsePrefer('respond-asynchronously'), { respondAsync: false });
});

test('the first wait wins and a huge one is capped', () => {
  assert.deepEqual(parsePrefer('wait=2, wait=9'), { respondAsync: false, wait: 2 });
  assert.deepEqual(parsePrefer('wait=99999999'), { respondAsync: false, wait: MAX_WAIT_SECONDS });
});

test('jobPlan: ordinary work runs inline unless respond-async; long work is a job unless nothing else is asked, waiting wait=N', () => {
  assert.equal(jobPlan(parsePrefer(undefined), false), null);
  assert.equal(jobPlan(parsePrefer('wait=5'), false), null, 'wait alone does not make ordinary work a job');
  assert.deepEqual(jobPlan(parsePrefer('respond-async'), false), { waitMs: 0, applied: 'respond-async' });
  assert.deepEqual(jobPlan(parsePrefer('respond-async, wait=3'), false), { waitMs: 3000, applied: 'respond-async, wait=3' });
  assert.deepEqual(jobPlan(parsePrefer(undefined), true), { waitMs: 0 }, 'long work: 202 at once, no preference applied');
  assert.deepEqual(jobPlan(parsePrefer('wait=120'), true), { waitMs: 120_000, applied: 'wait=120' });
  assert.deepEqual(jobPlan(parsePrefer('respond-async'), true), { waitMs: 0, applied: 'respond-async' });
});
