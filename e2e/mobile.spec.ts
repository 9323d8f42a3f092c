/**
 * Phones opening the trade page go to the configured mobile site (EXCHANGE_MOBILE_SITE_URL, set to
 * https://m.kestrel.test/ by playwright.config.ts); desktops stay. The mobile host is answered by a
 * route handler, so nothing leaves the machine.
 *
 * @module
 */

import { type Page, devices } from '@playwright/test';
import { expect, t, test } from './fixtures';

const MOBILE_SITE = 'https://m.kestrel.test/';

/** Answers the mobile site locally and counts the requests that reached it. */
async function fakeMobileSite(page: Page): Promise<{ hits: string[] }> {
  const seen = { hits: [] as string[] };
  await page.route('https://m.kestrel.test/**', (route) => {
    seen.hits.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>mobile</title>' });
  });
  return seen;
}

test.describe('on a phone', () => {
  const { userAgent, viewport, deviceScaleFactor, isMobile, hasTouch } = devices['Pixel 7'];
  test.use({ userAgent, viewport, deviceScaleFactor, isMobile, hasTouch });

  test('the trade page redirects to the mobile site', async ({ visitor: page }) => {
    const mobile = await fakeMobileSite(page);
    await page.goto('/trade/index?type=bb');
    await expect(page).toHaveURL(MOBILE_SITE);
    await expect(page).toHaveTitle('mobile');
    expect(mobile.hits).toEqual([MOBILE_SITE]);
  });

  test('other pages stay on the desktop site', async ({ visitor: page, shell }) => {
    const mobile = await fakeMobileSite(page);
    await page.goto('/home/index');
    await expect(shell.main.getByRole('heading', { name: t('en', 'home.marketsTitle'), exact: true })).toBeVisible();
    await expect(page).toHaveURL('/home/index');
    expect(mobile.hits).toEqual([]);
  });
});

test.describe('on a desktop', () => {
  test('the trade page stays', async ({ visitor: page, shell }) => {
    const mobile = await fakeMobileSite(page);
    await page.goto('/trade/index?type=bb');
    await expect(shell.pageHeading).toHaveText('BTC/USDT');
    await expect(page).toHaveURL('/trade/index?type=bb');
    expect(mobile.hits).toEqual([]);
  });
});
