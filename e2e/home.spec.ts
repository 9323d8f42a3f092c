/**
 * /home/index: the coin table with live, formatted prices, the search, hot coins and the top bar's
 * BTC/USDT price.
 *
 * @module
 */

import { BTC_PRICE, CHANGE, LISTED_PAIRS, expect, fetchSpotCoins, pairName, pricePattern, t, test, tickerName } from './fixtures';

test.beforeEach(async ({ visitor: _visitor, home }) => {
  await home.goto();
});

test('lists the coins in a table with column headers', async ({ home }) => {
  await expect(home.table.getByRole('columnheader')).toHaveText([
    t('en', 'home.colPair'),
    t('en', 'home.colPrice'),
    t('en', 'home.colChange'),
    t('en', 'home.colAction'),
  ]);
  for (const pair of LISTED_PAIRS) {
    await expect(home.table.getByRole('rowheader', { name: pair, exact: true })).toBeVisible();
    await expect(home.row(pair).getByRole('link', { name: t('en', 'home.tradePair', { pair }), exact: true })).toHaveAttribute(
      'href',
      `/trade/index?type=bb&symbol=${pair.replace('/', '').toLowerCase()}`,
    );
  }
});

test('formats prices with thousands separators and each pair’s decimals, and the 24h change', async ({ home, request }) => {
  await expect(home.priceCell('BTC/USDT')).toHaveText(BTC_PRICE);
  const coins = await fetchSpotCoins(request);
  expect(coins.length).toBeGreaterThanOrEqual(LISTED_PAIRS.length);
  await expect(home.pairNames).toHaveCount(coins.length);
  for (const coin of coins) {
    const pair = pairName(coin);
    await expect(home.priceCell(pair), `${pair} price`).toHaveText(pricePattern(coin.pricePrecision));
    await expect(home.changeCell(pair), `${pair} 24h change`).toHaveText(CHANGE);
  }
});

test('prices move live', async ({ home }) => {
  const btc = home.priceCell('BTC/USDT');
  await expect(btc).toHaveText(BTC_PRICE);
  const first = await btc.innerText();
  // The simulator ticks every second; BTC moves by dollars per tick.
  await expect.poll(() => btc.innerText(), { timeout: 20_000, message: 'BTC/USDT price changes' }).not.toBe(first);
  await expect(btc).toHaveText(BTC_PRICE);
});

test('the search box filters the table', async ({ home }) => {
  await expect(home.pairNames).not.toHaveCount(1);
  await home.search.fill('sol');
  await expect(home.pairNames).toHaveText(['SOL/USDT'], { useInnerText: true });

  await home.search.fill('zzz-no-such-coin');
  await expect(home.pairNames).toHaveCount(0);
  await expect(home.table.getByRole('cell', { name: t('en', 'home.noResults', { query: 'zzz-no-such-coin' }) })).toBeVisible();

  await home.search.clear();
  for (const pair of LISTED_PAIRS) {
    await expect(home.table.getByRole('rowheader', { name: pair, exact: true })).toBeVisible();
  }
});

test('shows the hot coins', async ({ home, request }) => {
  const hot = (await fetchSpotCoins(request)).filter((coin) => coin.hot).map(pairName);
  expect(hot.length).toBeGreaterThan(0);
  await expect(home.hotCoins.getByRole('heading', { name: t('en', 'home.hotCoins'), exact: true })).toBeVisible();
  const cards = home.hotCoins.getByRole('listitem');
  await expect(cards).toHaveCount(hot.length);
  for (const pair of hot) {
    // Each card's link reads like the top bar's ticker: pair, last price, 24h change.
    const card = cards.getByRole('link', { name: tickerName('en', pair) });
    await expect(card).toBeVisible();
  }
});

test('the top bar shows the latest BTC/USDT price', async ({ shell, home }) => {
  await expect(shell.btcTicker).toBeVisible();
  await expect(shell.btcTicker).toHaveAccessibleName(/^BTC\/USDT last price \d{1,3}(,\d{3})*\.\d{2} 24h change ([+-]?\d+\.\d{2}%|--)$/);
  // The top bar and the table render the same ticker: at any moment they agree.
  await expect
    .poll(async () => {
      const [name, cell] = await Promise.all([
        shell.btcTicker.evaluate((link) => link.textContent ?? ''),
        home.priceCell('BTC/USDT').innerText(),
      ]);
      return name.includes(` ${cell} `);
    })
    .toBe(true);
});
