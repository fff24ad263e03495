import assert from 'node:assert/strict';
import { test } from 'node:test';
import { warmUp } from '../../src/engine/core/warmup.js';

test('the engine warm-up runs every round through (its document opened, searched, redacted, verified and saved), and none when asked for none', () => {
  assert.equal(warmUp(2), true);
  assert.equal(warmUp(0), true);
});
