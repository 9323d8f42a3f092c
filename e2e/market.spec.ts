/**
 * /market/main: a moving last price, the chart's history and live candle, switching the interval,
 * the live order book and recent trades; and favourite markets that persist for a visitor (local
 * storage) and for a member (on the account, merged from the browser on the first login).
 *
 * @module
 */

import type { Locator, Page, Request } from '@playwright/test';
import { BTC_PRICE, escapeRegExp, expect, t, test } from './fixtures';

/** A page of `POST /api/market/kline` (the fields read here). */
interface KlinePage {
  candles: Array<{ openTime: number }>;
  hasMore: boolean;
}

/** A price with thousands separators and two decimals, anywhere in a text. */
const PRICE_2 = /\d{1,3}(,\d{3})*\.\d{2}/;

/** The market screen's parts, by role and accessible name (English). */
class MarketScreen {
  constructor(readonly page: Page) {}

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/market/main${query}`);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  /** The header's last price (a group named by its "Last price" caption). */
  get lastPrice(): Locator {
    return this.page.getByRole('main').getByRole('group', { name: t('en', 'market.lastPrice'), exact: true });
  }

  chart(pair: string, interval: string): Locator {
    return this.page.getByRole('img', {
      name: t('en', 'market.chart.label', { pair, interval: t('en', `market.interval.long.${interval}`) }),
      exact: true,
    });
  }

  get legend(): Locator {
    return this.page.getByRole('group', { name: t('en', 'market.chart.lastCandle'), exact: true });
  }

  interval(interval: string): Locator {
    return this.page
      .getByRole('radiogroup', { name: t('en', 'market.interval.label'), exact: true })
      .getByRole('radio', { name: t('en', `market.interval.long.${interval}`), exact: true });
  }

  indicator(name: string): Locator {
    return this.page.getByRole('group', { name: t('en', 'market.indicators'), exact: true }).getByRole('button', { name, exact: true });
  }

  get asks(): Locator {
    return this.page.getByRole('table', { name: t('en', 'market.book.asks'), exact: true });
  }

  get bids(): Locator {
    return this.page.getByRole('table', { name: t('en', 'market.book.bids'), exact: true });
  }

  get grouping(): Locator {
    return this.page.getByRole('combobox', { name: t('en', 'market.book.grouping'), exact: true });
  }

  get trades(): Locator {
    return this.page.getByRole('table', { name: t('en', 'market.trades.title'), exact: true });
  }

  /** The data rows of a table (the header row has column headers, not cells). */
  rows(table: Locator): Locator {
    return table.getByRole('row').filter({ has: this.page.getByRole('cell') });
  }

  /** The first cell (price) of each data row. */
  prices(table: Locator): Locator {
    return this.rows(table).locator(this.page.getByRole('cell').first());
  }
}

/** The chart's description ("Candles loaded: …") with the count matching `count` (a pattern). */
function loadedPattern(count: string): RegExp {
  const text = t('en', 'market.chart.description', { count: '\u0001', from: '\u0002', to: '\u0003', zone: 'UTC-05:00' });
  const source = escapeRegExp(text).replace('\u0001', count).replace('\u0002', '.+?').replace('\u0003', '.+?');
  return new RegExp(`^${source}$`);
}

/** `"96,542.96"` → 96542.96, for comparing prices in a test (never for money). */
function numberOf(text: string): number {
  return Number((PRICE_2.exec(text)?.[0] ?? 'NaN').replace(/,/g, ''));
}

test.describe('market screen', () => {
  test('shows BTC/USDT by default with a moving last price and the 24h statistics', async ({ visitor: page }) => {
    const market = new MarketScreen(page);
    await market.goto();
    await expect(market.heading).toHaveText('BTC/USDT');
    await expect(market.lastPrice).toHaveText(BTC_PRICE);
    const first = await market.lastPrice.innerText();
    await expect.poll(() => market.lastPrice.innerText(), { timeout: 20_000, message: 'the last price moves' }).not.toBe(first);
    await expect(market.lastPrice).toHaveText(BTC_PRICE);
    // The statistics are a description list: a term and its value each.
    for (const key of ['market.stats.high', 'market.stats.low', 'market.stats.mark', 'market.stats.index']) {
      const term = page.getByRole('term').filter({ hasText: new RegExp(`^${t('en', key)}$`) });
      await expect(term).toBeVisible();
    }
    await expect(page.getByRole('definition').filter({ hasText: BTC_PRICE }).first()).toBeVisible();
    await expect(page.getByRole('main').getByRole('status').filter({ hasText: t('en', 'live.live') })).toBeVisible();
  });

  test('the chart loads history and extends the live candle', async ({ visitor: page }) => {
    const market = new MarketScreen(page);
    await market.goto();
    const chart = market.chart('BTC/USDT', '15m');
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAttribute('aria-busy', 'false');
    // A day of history at 15 minutes: more than 50 candles.
    await expect(chart).toHaveAccessibleDescription(loadedPattern('([5-9]\\d|\\d{3,})'));

    await expect(market.legend).toContainText(t('en', 'market.candle.close'));
    await expect(market.legend).toContainText(PRICE_2);
    const before = await market.legend.innerText();
    await expect.poll(() => market.legend.innerText(), { timeout: 20_000, message: 'the live candle changes' }).not.toBe(before);
  });

  test('scrolling the chart back loads and draws an older page of history', async ({ visitor: page }) => {
    const market = new MarketScreen(page);
    await market.goto();
    await expect(market.chart('BTC/USDT', '15m')).toHaveAttribute('aria-busy', 'false');
    const isKlinePage = (request: Request, older: boolean) =>
      request.url().endsWith('/api/market/kline') &&
      request.postDataJSON()?.interval === '1m' &&
      request.postDataJSON()?.limit === 500 &&
      (typeof request.postDataJSON()?.endTime === 'number') === older;
    const first = page.waitForResponse((response) => isKlinePage(response.request(), false));
    await market.interval('1m').click();
    const chart = market.chart('BTC/USDT', '1m');
    await expect(chart).toHaveAttribute('aria-busy', 'false');
    // The newest page of one-minute candles (500 of a day stored), and the live one or two.
    const newest: KlinePage = (await (await first).json()).data;
    expect(newest.candles).toHaveLength(500);
    expect(newest.hasMore).toBe(true);
    await expect(chart).toHaveAccessibleDescription(loadedPattern('50[0-2]'));

    const older = page.waitForRequest((request) => isKlinePage(request, true));
    // A horizontal wheel over the canvas scrolls the chart back; past its oldest candle,
    // klinecharts asks for the page before it.
    const box = await chart.boundingBox();
    if (!box) throw new Error('the chart is not laid out');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(-20_000, 0);

    const request = await older;
    expect(request.postDataJSON()).toMatchObject({ symbol: 'btcusdt', endTime: newest.candles[0]!.openTime });
    const response = await request.response();
    const previous: KlinePage = (await response!.json()).data;
    expect(previous.candles).toHaveLength(500);
    expect(previous.candles.at(-1)!.openTime).toBeLessThan(newest.candles[0]!.openTime);
    // The chart now holds and draws both pages: a thousand candles and the live ones.
    await expect(chart).toHaveAccessibleDescription(loadedPattern('100[0-2]'));
    await expect(chart).toHaveAttribute('aria-busy', 'false');
  });

  test('switching the interval reloads the history, and the choice is kept', async ({ visitor: page }) => {
    const market = new MarketScreen(page);
    await market.goto();
    await expect(market.chart('BTC/USDT', '15m')).toHaveAttribute('aria-busy', 'false');
    await expect(market.interval('15m')).toHaveAttribute('aria-checked', 'true');

    await market.interval('1h').click();
    await expect(market.interval('1h')).toHaveAttribute('aria-checked', 'true');
    await expect(market.interval('15m')).toHaveAttribute('aria-checked', 'false');
    const hourly = market.chart('BTC/USDT', '1h');
    await expect(hourly).toBeVisible();
    await expect(hourly).toHaveAttribute('aria-busy', 'false');
    // Hourly candles open on the hour (New York time).
    await expect(market.legend).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:00:00/);
    await expect(hourly).toHaveAccessibleDescription(loadedPattern('\\d+'));

    // Indicators toggle.
    await expect(market.indicator('MACD')).toHaveAttribute('aria-pressed', 'false');
    await market.indicator('MACD').click();
    await expect(market.indicator('MACD')).toHaveAttribute('aria-pressed', 'true');

    await page.reload();
    await expect(market.chart('BTC/USDT', '1h')).toHaveAttribute('aria-busy', 'false');
    await expect(market.interval('1h')).toHaveAttribute('aria-checked', 'true');
    await expect(market.indicator('MACD')).toHaveAttribute('aria-pressed', 'true');
  });

  test('the order book shows asks above bids, and groups to a coarser tick', async ({ visitor: page }) => {
    const market = new MarketScreen(page);
    await market.goto();
    await expect(market.rows(market.asks)).toHaveCount(12);
    await expect(market.rows(market.bids)).toHaveCount(12);
    await expect(market.prices(market.asks).first()).toHaveText(BTC_PRICE);
    await expect(market.prices(market.bids).first()).toHaveText(BTC_PRICE);
    // Asks are listed from the highest down to the best; every ask is above every bid. Both tables
    // are read in one go: the live book may redraw between two separate reads.
    const [askTexts, bidTexts] = await page.evaluate(
      ({ asksName, bidsName }) => {
        const firstCells = (name: string) =>
          [...document.querySelectorAll(`table[aria-label="${name}"] tbody tr`)].map((row) => row.querySelector('td')?.textContent ?? '');
        return [firstCells(asksName), firstCells(bidsName)];
      },
      { asksName: t('en', 'market.book.asks'), bidsName: t('en', 'market.book.bids') },
    );
    const asks = askTexts.map(numberOf);
    const bids = bidTexts.map(numberOf);
    expect(asks).toHaveLength(12);
    expect(bids).toHaveLength(12);
    expect(asks).toEqual([...asks].sort((a, b) => b - a));
    expect(bids).toEqual([...bids].sort((a, b) => b - a));
    expect(Math.min(...asks)).toBeGreaterThan(Math.max(...bids));

    // Grouping to 100 USDT: whole hundreds, shown without decimals.
    await market.grouping.selectOption('100');
    const wholeHundreds = /^\d{1,3}(,\d{3})*(?<=00)$/;
    await expect(market.prices(market.bids).first()).toHaveText(wholeHundreds);
    await expect(market.prices(market.asks).last()).toHaveText(wholeHundreds);
  });

  test('recent trades appear, newest first, with the taker side', async ({ visitor: page }) => {
    const market = new MarketScreen(page);
    await market.goto('?symbol=ethusdt');
    await expect(market.heading).toHaveText('ETH/USDT');
    await expect(market.rows(market.trades).first()).toBeVisible();
    await expect(market.prices(market.trades).first()).toHaveText(new RegExp(`^${PRICE_2.source} (${t('en', 'market.trades.buy')}|${t('en', 'market.trades.sell')})$`));
    await expect(market.rows(market.trades).first().getByRole('cell').nth(2)).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
    const newest = await market.rows(market.trades).first().innerText();
    await expect.poll(() => market.rows(market.trades).first().innerText(), { timeout: 20_000, message: 'new trades arrive' }).not.toBe(newest);
  });

  test('the pair menu switches the market', async ({ visitor: page }) => {
    const market = new MarketScreen(page);
    await market.goto();
    await expect(market.heading).toHaveText('BTC/USDT');
    await page.getByRole('button', { name: t('en', 'market.choosePair'), exact: true }).click();
    await page.getByRole('menuitem', { name: 'SOL/USDT', exact: true }).click();
    await expect(page).toHaveURL(/\/market\/main\?symbol=solusdt$/);
    await expect(market.heading).toHaveText('SOL/USDT');
    await expect(market.chart('SOL/USDT', '15m')).toHaveAttribute('aria-busy', 'false');
  });

  test('an unknown pair says so', async ({ visitor: page }) => {
    const market = new MarketScreen(page);
    await market.goto('?symbol=nopeusdt');
    await expect(page.getByRole('alert')).toContainText(t('en', 'market.unknownPair', { symbol: 'nopeusdt' }));
    await page.getByRole('link', { name: t('en', 'market.backToDefault', { pair: 'BTC/USDT' }), exact: true }).click();
    await expect(market.heading).toHaveText('BTC/USDT');
  });
});

/** The star of `pair` in the markets page's Spot tab. */
async function spotStar(page: Page, pair: string): Promise<Locator> {
  await page.getByRole('tab', { name: t('en', 'markets.tab.spot'), exact: true }).click();
  const table = page.getByRole('table', { name: t('en', 'markets.tab.spot'), exact: true });
  await expect(table).toBeVisible();
  return table.getByRole('button', { name: t('en', 'markets.favourite', { pair }), exact: true });
}

async function favouritesTab(page: Page): Promise<Locator> {
  await page.getByRole('tab', { name: t('en', 'markets.tab.favourites'), exact: true }).click();
  return page.getByRole('table', { name: t('en', 'markets.tab.favourites'), exact: true });
}

test('a visitor’s favourites persist across a reload', async ({ visitor: page }) => {
  await page.goto('/quotes/index');
  const star = await spotStar(page, 'ETH/USDT');
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');

  await page.reload();
  await expect(await spotStar(page, 'ETH/USDT')).toHaveAttribute('aria-pressed', 'true');
  const favourites = await favouritesTab(page);
  await expect(favourites.getByRole('rowheader')).toHaveText(['ETH/USDT']);
});

test('a member’s favourites live on the account, merged from the browser on the first login', async ({ member: page, memberToken, request }) => {
  // Favourited as a visitor on this browser before logging in.
  await page.goto('/platform/dev/config.js');
  await page.evaluate(() => window.localStorage.setItem('coin_web-favourites', JSON.stringify(['spot:solusdt'])));

  await page.goto('/quotes/index');
  await expect(await spotStar(page, 'SOL/USDT')).toHaveAttribute('aria-pressed', 'true');
  const star = await spotStar(page, 'BTC/USDT');
  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');

  const serverList = async () => {
    const response = await request.get('/api/market/favourites', { headers: { satoken: memberToken } });
    const body = (await response.json()) as { code: number; data: Array<{ market: string; symbol: string }> };
    return body.data.map((f) => `${f.market}:${f.symbol}`).sort();
  };
  await expect.poll(serverList).toEqual(['spot:btcusdt', 'spot:solusdt']);

  // A reload reads them from the account (the browser's list was emptied by the merge).
  await page.reload();
  const favourites = await favouritesTab(page);
  await expect(favourites.getByRole('rowheader')).toHaveText(['BTC/USDT', 'SOL/USDT']);
  expect(await page.evaluate(() => window.localStorage.getItem('coin_web-favourites'))).toBe('[]');

  // Removing one removes it on the account.
  const btc = await spotStar(page, 'BTC/USDT');
  await btc.click();
  await expect(btc).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(serverList).toEqual(['spot:solusdt']);
});
