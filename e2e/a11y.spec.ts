/**
 * Accessibility of every main screen: axe-core (WCAG 2.1 A and AA rules) in Chromium, light and
 * dark, once the screen has its data. A serious or critical violation fails the test, listed with
 * the rule and the elements it found.
 *
 * The trade pages (issue 23: Lighthouse accessibility ≥ 95) are also held — in the same axe run — to Lighthouse's own set of
 * axe rules — WCAG A/AA plus the best practices its accessibility score counts (heading order,
 * positive tabindex, label in name, definition lists, target size, select names…) — where any
 * violation, of whatever impact, fails: as a visitor, with a member's open futures position, with
 * the position's dialogs open and at phone width with the order sheet open.
 *
 * @module
 */

import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, t, test } from './fixtures';
import { fundTradingWallet } from './operator';

/** The impacts that fail the test. */
const BLOCKING = new Set(['serious', 'critical']);

/** The WCAG 2.1 A and AA tags of axe's rules. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** An axe violation as a test failure lists it: the rule, then its first elements. */
type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** One line for `violation` and up to six of its elements. */
function described(violation: Violation): string {
  return (
    `${violation.id} (${violation.impact}): ${violation.help}\n` +
    violation.nodes
      .slice(0, 6)
      .map((node) => `    ${node.html.slice(0, 140)}\n      ${(node.any[0] ?? node.all[0] ?? node.none[0])?.message ?? ''}`)
      .join('\n')
  );
}

/** The serious and critical WCAG 2.1 A/AA violations among `found`, one line each. */
function blocking(found: Violation[]): string[] {
  return found
    .filter((violation) => BLOCKING.has(violation.impact ?? '') && violation.tags.some((tag) => WCAG_TAGS.includes(tag)))
    .map(described);
}

/** The serious and critical violations on `page` now, one line each. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return blocking(results.violations);
}

/**
 * The axe options of Lighthouse 12's accessibility gatherer (`core/gather/gatherers/accessibility.js`
 * in the pinned `bench/` Lighthouse): WCAG 2 A/AA rules plus the ones it switches on or off.
 */
const LIGHTHOUSE_AXE_OPTIONS = {
  runOnly: { type: 'tag' as const, values: ['wcag2a', 'wcag2aa'] },
  rules: {
    accesskeys: { enabled: true },
    'area-alt': { enabled: false },
    'aria-allowed-role': { enabled: true },
    'aria-braille-equivalent': { enabled: false },
    'aria-conditional-attr': { enabled: true },
    'aria-deprecated-role': { enabled: true },
    'aria-dialog-name': { enabled: true },
    'aria-prohibited-attr': { enabled: true },
    'aria-roledescription': { enabled: false },
    'aria-treeitem-name': { enabled: true },
    'aria-text': { enabled: true },
    'audio-caption': { enabled: false },
    blink: { enabled: false },
    'duplicate-id': { enabled: false },
    'empty-heading': { enabled: true },
    'frame-focusable-content': { enabled: false },
    'frame-title-unique': { enabled: false },
    'heading-order': { enabled: true },
    'html-xml-lang-mismatch': { enabled: true },
    'identical-links-same-purpose': { enabled: true },
    'image-redundant-alt': { enabled: true },
    'input-button-name': { enabled: true },
    'label-content-name-mismatch': { enabled: true },
    'landmark-one-main': { enabled: true },
    'link-in-text-block': { enabled: true },
    marquee: { enabled: false },
    'meta-viewport': { enabled: true },
    'nested-interactive': { enabled: false },
    'no-autoplay-audio': { enabled: false },
    'role-img-alt': { enabled: false },
    'scrollable-region-focusable': { enabled: false },
    'select-name': { enabled: true },
    'server-side-image-map': { enabled: false },
    'skip-link': { enabled: true },
    'summary-name': { enabled: false },
    'svg-img-alt': { enabled: false },
    tabindex: { enabled: true },
    'table-duplicate-name': { enabled: true },
    'table-fake-caption': { enabled: true },
    'target-size': { enabled: true },
    'td-has-header': { enabled: true },
  },
};

/** Every violation of Lighthouse's rule set on `page` now (any impact), one line each. */
async function lighthouseViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options(LIGHTHOUSE_AXE_OPTIONS).analyze();
  return results.violations.map(described);
}

/** Whether Lighthouse's rule set counts a violation of rule `id` tagged `tags`. */
function countedByLighthouse(id: string, tags: string[]): boolean {
  const rule = (LIGHTHOUSE_AXE_OPTIONS.rules as Record<string, { enabled: boolean }>)[id];
  if (rule) return rule.enabled;
  return tags.some((tag) => LIGHTHOUSE_AXE_OPTIONS.runOnly.values.includes(tag));
}

/**
 * Both checks of a trade page in one axe run (one run of the page's rules instead of two): the
 * WCAG 2.1 A/AA rules, plus the rules Lighthouse switches on; then `wcag`, the serious and critical
 * WCAG violations (as {@link violations}), and `lighthouse`, every violation Lighthouse's rule set
 * counts (as {@link lighthouseViolations}).
 */
async function wcagAndLighthouseViolations(page: Page): Promise<{ wcag: string[]; lighthouse: string[] }> {
  const switchedOn = Object.fromEntries(Object.entries(LIGHTHOUSE_AXE_OPTIONS.rules).filter(([, rule]) => rule.enabled));
  const results = await new AxeBuilder({ page })
    .options({ runOnly: { type: 'tag', values: WCAG_TAGS }, rules: switchedOn })
    .analyze();
  return {
    wcag: blocking(results.violations),
    lighthouse: results.violations.filter((violation) => countedByLighthouse(violation.id, violation.tags)).map(described),
  };
}

/** Switches the page to `theme` (stored as the shell's theme switch stores it) and reloads it. */
async function inTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate((mode) => localStorage.setItem('coin_web-theme', mode), theme);
  await page.reload();
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

// The trade pages: below, with Lighthouse's rules in the same run.
for (const path of ['/home/index', '/quotes/index', '/user/login', '/user/register']) {
  test(`${path} has no serious accessibility violation`, async ({ visitor: page }) => {
    await audit(page, path, main);
  });
}

for (const path of ['/assets/index', '/account/center/info', '/account/center/security']) {
  test(`${path} (signed in) has no serious accessibility violation`, async ({ member: page }) => {
    await audit(page, path, main);
  });
}

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

/** The trade page has its live data: the pair's heading and both sides of the book. */
async function tradeReady(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'BTC/USDT', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: en('market.book.bids'), exact: true }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('table', { name: en('market.book.asks'), exact: true }).getByRole('row').nth(1)).toBeVisible();
  await page.waitForLoadState('networkidle');
}

for (const type of ['bb', 'usta'] as const) {
  test(`/trade/index?type=${type} has no serious accessibility violation and passes Lighthouse's rules (light and dark)`, async ({ visitor: page }) => {
    test.slow();
    await page.goto(`/trade/index?type=${type}&symbol=btcusdt`);
    for (const theme of ['light', 'dark'] as const) {
      await inTheme(page, theme);
      await tradeReady(page);
      const found = await wcagAndLighthouseViolations(page);
      expect(found.wcag, `${type} (${theme}): WCAG`).toEqual([]);
      expect(found.lighthouse, `${type} (${theme}): Lighthouse`).toEqual([]);
    }
  });
}

test("the futures page with an open position and its dialogs passes Lighthouse's accessibility rules", async ({ member: page, memberToken, request, browser, baseURL }) => {
  // Eight axe runs on a streaming page.
  test.setTimeout(300_000);
  await fundTradingWallet(request, browser, baseURL!, memberToken, '1000');
  const opened = await request.post('/api/contract/order/submit', {
    headers: { satoken: memberToken, 'Idempotency-Key': crypto.randomUUID() },
    data: { symbol: 'btcusdt', side: 'buy', orderType: 'market', quantity: '0.002', leverage: '10', marginMode: 'isolated' },
  });
  expect(((await opened.json()) as { code: number }).code).toBe(200);
  await page.goto('/trade/index?type=usta&symbol=btcusdt');
  const row = page.getByRole('row', { name: en('futures.positions.row', { pair: 'BTC/USDT', side: en('futures.side.long') }), exact: true });
  for (const theme of ['light', 'dark'] as const) {
    await inTheme(page, theme);
    await tradeReady(page);
    await expect(row).toBeVisible();
    expect(await lighthouseViolations(page), `open position (${theme})`).toEqual([]);
    // The dialogs once, in the dark theme (the lighter one's colours are the page's own).
    if (theme === 'light') continue;
    for (const [button, title] of [
      ['futures.positions.setTpSl', 'futures.tpsl.title'],
      ['futures.positions.adjustMargin', 'futures.margin.title'],
      ['futures.positions.close', 'futures.close.title'],
    ] as const) {
      await row.getByRole('button', { name: en(button), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: en(title) });
      await expect(dialog).toBeVisible();
      expect(await lighthouseViolations(page), `${title} dialog (${theme})`).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  for (const [type, bar, title] of [
    ['bb', 'trade.sheet.bar', 'trade.sheet.title'],
    ['usta', 'futures.sheet.bar', 'futures.sheet.title'],
  ] as const) {
    test(`/trade/index?type=${type} with its order sheet open passes Lighthouse's accessibility rules`, async ({ visitor: page }) => {
      test.slow();
      await page.goto(`/trade/index?type=${type}&symbol=btcusdt`);
      for (const theme of ['light', 'dark'] as const) {
        await inTheme(page, theme);
        await tradeReady(page);
        expect(await lighthouseViolations(page), `${type} phone (${theme})`).toEqual([]);
        await page.getByRole('group', { name: en(bar), exact: true }).getByRole('button').first().click();
        const sheet = page.getByRole('dialog', { name: en(title, { pair: 'BTC/USDT' }), exact: true });
        await expect(sheet).toBeVisible();
        expect(await lighthouseViolations(page), `${type} sheet (${theme})`).toEqual([]);
        await page.keyboard.press('Escape');
        await expect(sheet).toBeHidden();
      }
    });
  }
});
