/**
 * Accessibility of every main screen: axe-core (WCAG 2.1 A and AA rules) in Chromium, light and
 * dark, once the screen has its data. A serious or critical violation fails the test, listed with
 * the rule and the elements it found.
 *
 * @module
 */

import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** The impacts that fail the test. */
const BLOCKING = new Set(['serious', 'critical']);

/** The serious and critical violations on `page` now, one line each. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n` +
        violation.nodes
          .slice(0, 6)
          .map((node) => `    ${node.html.slice(0, 140)}\n      ${(node.any[0] ?? node.all[0] ?? node.none[0])?.message ?? ''}`)
          .join('\n'),
    );
}

/** Opens `path` in both themes and expects no blocking violation once `ready` is visible. */
async function audit(page: Page, path: string, ready: (page: Page) => Promise<void>): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(path);
    await page.evaluate((mode) => localStorage.setItem('coin_web-theme', mode), theme);
    await page.reload();
    await ready(page);
    expect(await violations(page), `${path} (${theme})`).toEqual([]);
  }
}

const main = async (page: Page) => {
  await expect(page.getByRole('main')).toBeVisible();
  await page.waitForLoadState('networkidle');
};

for (const path of ['/home/index', '/quotes/index', '/trade/index?type=bb', '/trade/index?type=usta', '/user/login', '/user/register']) {
  test(`${path} has no serious accessibility violation`, async ({ visitor: page }) => {
    await audit(page, path, main);
  });
}

for (const path of ['/assets/index', '/account/center/info', '/account/center/security']) {
  test(`${path} (signed in) has no serious accessibility violation`, async ({ member: page }) => {
    await audit(page, path, main);
  });
}
