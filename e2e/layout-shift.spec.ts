/**
 * Layout stability of the trade pages (issue 23: CLS ≤ 0.1): Chromium's `layout-shift` entries,
 * observed from before the first paint until the page has its live data (order book on both sides,
 * recent trades, the pair header's figures, the chart) and a few more seconds of streaming, are
 * grouped into session windows as Lighthouse and web-vitals do (shifts less than 1 s apart, a window
 * at most 5 s long); the largest window is the page's cumulative layout shift. At Lighthouse's
 * desktop viewport (1350 × 940), as a visitor, in light and dark. Shifts right after user input do
 * not count (there is none).
 *
 * Every wait is an auto-retrying assertion; nothing sleeps.
 *
 * @module
 */

import type { Page } from '@playwright/test';
import { expect, t, test } from './fixtures';

/** Lighthouse's desktop preset's screen. */
test.use({ viewport: { width: 1350, height: 940 } });

/** The goal of issue 23. */
const CLS_GOAL = 0.1;

declare global {
  interface Window {
    /** The layout shifts seen so far: start time (ms) and value. */
    __shifts?: Array<{ time: number; value: number }>;
  }
}

/** Records every layout shift of the page from its first paint on. */
async function observeShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) window.__shifts!.push({ time: entry.startTime, value: entry.value });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The largest session window of the shifts so far (Lighthouse's CLS), and the shifts themselves. */
async function cumulativeLayoutShift(page: Page): Promise<{ cls: number; shifts: Array<{ time: number; value: number }> }> {
  const shifts = await page.evaluate(() => window.__shifts ?? []);
  let cls = 0;
  let current = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const shift of shifts) {
    if (shift.time - last < 1000 && shift.time - first < 5000) {
      current += shift.value;
    } else {
      current = shift.value;
      first = shift.time;
    }
    last = shift.time;
    cls = Math.max(cls, current);
  }
  return { cls, shifts };
}

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

for (const type of ['usta', 'bb'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`/trade/index?type=${type} keeps its layout while its data arrives (${theme})`, async ({ visitor: page }) => {
      await page.emulateMedia({ colorScheme: theme });
      await observeShifts(page);
      await page.goto(`/trade/index?type=${type}`);
      await expect(page.getByRole('heading', { level: 1, name: 'BTC/USDT', exact: true })).toBeVisible();
      // The live data: both sides of the book, a trade on the tape, the candles.
      await expect(page.getByRole('table', { name: en('market.book.bids'), exact: true }).getByRole('row').nth(1)).toBeVisible();
      await expect(page.getByRole('table', { name: en('market.book.asks'), exact: true }).getByRole('row').nth(1)).toBeVisible();
      await expect(page.getByRole('table', { name: en('market.trades.title') }).getByRole('row').nth(2)).toBeVisible();
      await page.waitForLoadState('networkidle');
      // A few more ticks of streaming: a new trade at the top of the tape, twice.
      const trades = page.getByRole('table', { name: en('market.trades.title') });
      for (let tick = 0; tick < 2; tick += 1) {
        const newest = await trades.getByRole('row').nth(1).textContent();
        await expect(trades.getByRole('row').nth(1)).not.toHaveText(newest ?? '', { timeout: 15_000 });
      }
      const { cls, shifts } = await cumulativeLayoutShift(page);
      expect(cls, `layout shifts (ms, value): ${JSON.stringify(shifts.map((s) => [Math.round(s.time), Number(s.value.toFixed(4))]))}`).toBeLessThanOrEqual(CLS_GOAL);
    });
  }
}
