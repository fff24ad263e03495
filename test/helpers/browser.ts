import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's package (scripts/setup.sh installs it for the tests); playwright's own browser downloads are not used. */
export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless, driven by playwright-core (the tests run as root, hence no sandbox). */
export async function launchChromium(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium (scripts/setup.sh test does)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}
