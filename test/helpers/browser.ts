import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Debian's package (scripts/setup.sh installs it for the tests); playwright's own browser downloads are not used. */
export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless, driven by playwright-core (the tests run as root, hence no sandbox). */
export async function launchChromium(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium (scripts/setup.sh test does)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** axe-core run in the page (evaluated over the DevTools protocol, which the page's CSP does not govern): no violation. */
export async function assertAccessible(tab: Page, screen: string): Promise<void> {
  await tab.evaluate(AXE);
  const violations = await tab.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; help: string; nodes: { target: unknown }[] }[] }> } }).axe.run();
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
  });
  assert.deepEqual(violations, [], `axe-core on the ${screen} screen`);
}
