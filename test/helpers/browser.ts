import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's package (scripts/setup.sh installs it for the tests); playwright's own browser downloads are not used. */
export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless, driven by playwright-core (the tests run as root, hence no sandbox). */
export async function launchChromium(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium (scripts/setup.sh test does)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core run in the page (evaluated over the DevTools protocol, which the page's CSP does not govern): no violation. */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; help: string; nodes: { target: unknown }[] }[] }> } }).axe.run();
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
  });
  assert.deepEqual(violations, [], `axe-core on the ${screen} screen`);
}

/** Opens the console at `url` and signs in with the form, as a person would; resolves once the user is shown. */
export async function signInConsole(page: Page, url: string, user: { username: string; password: string }): Promise<void> {
  await page.goto(url);
  await page.getByLabel('User name').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('username').waitFor();
}
