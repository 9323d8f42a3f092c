/**
 * USDT-M futures end to end, as a member clicks through them: a member with 1,000 USDT in the
 * trading wallet (a deposit approved by an operator, moved with `asset/transferFunds`) opens a 10x
 * isolated long at market on BTC/USDT — the liquidation price the order form's wasm-core preview
 * showed is exactly the one the server stored on the position (`expectedStrongParity`) —, sets a
 * take profit and a stop loss, adds margin and sees the new liquidation price the dialog showed,
 * closes half, closes the rest, and finds the orders in the history. Every wait is an
 * auto-retrying assertion; nothing sleeps.
 *
 * A market order fills at the book the server reads when it arrives, and the simulator moves the
 * book once a second: the test waits for a new trade on the tape and then for the asks to change (a
 * tick just happened and its depth is in) before it reads the preview and clicks, so the preview and
 * the fill see the same book. Other specs trade BTC/USDT at the same time, so the book can still move
 * between the two: then the test closes that position and opens again (at most five tries).
 *
 * @module
 */

import type { Page } from '@playwright/test';
import { apiPost, expect, t, test } from './fixtures';
import { escapeRegExp } from './i18n';
import { fundTradingWallet } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);
const PAIR = 'BTC/USDT';

async function openScreen(page: Page): Promise<void> {
  await page.goto('/trade/index?type=usta&symbol=btcusdt');
  await expect(page.getByRole('heading', { level: 1, name: PAIR, exact: true })).toBeVisible();
}

/**
 * Resolves once the tape shows a trade it did not show before and then the asks changed too (the
 * simulator just ticked, and its depth diff, which can arrive after the trade, is in): a market
 * buy's preview reads the best ask.
 */
async function nextTick(page: Page): Promise<void> {
  const newest = page.getByRole('table', { name: en('market.trades.title') }).getByRole('row').nth(1);
  const asks = page.getByRole('table', { name: en('market.book.asks'), exact: true });
  await expect(newest).toBeVisible();
  await expect(asks.getByRole('row').nth(1)).toBeVisible();
  const [tape, book] = [await newest.textContent(), await asks.textContent()];
  await expect(newest).not.toHaveText(tape ?? '', { timeout: 5_000 });
  await expect(asks).not.toHaveText(book ?? '', { timeout: 10_000 });
}

/** A price as the page shows it (`67,012.50`) as a number, for choosing triggers in the test only. */
function priceNumber(text: string): number {
  return Number(text.replace(/,/g, ''));
}

test('a member opens a 10x isolated long, sets TP/SL, adds margin, closes half and then the rest', async ({ member: page, memberToken, browser, baseURL, request }) => {
  // 25–47 s alone on this machine; several openings (each waiting for a tick) under a full run's
  // load passed the default 60 s (CI, stop 36).
  test.slow();
  await fundTradingWallet(request, browser, baseURL!, memberToken, '1000');
  await openScreen(page);
  const form = page.getByRole('region', { name: en('futures.form.title', { pair: PAIR }) });
  await expect(form.getByRole('radio', { name: en('futures.marginMode.isolated') })).toHaveAttribute('aria-checked', 'true');
  await expect(form.getByLabel(en('futures.form.leverage', { max: 125 }))).toHaveValue('10');
  await expect(form.getByRole('status')).toHaveText('1,000.00 USDT');

  await form.getByRole('tab', { name: en('futures.form.market') }).click();
  const quantity = form.getByLabel(en('futures.form.quantity'));
  await quantity.fill('0');
  await expect(form.getByText(en('futures.form.errors.quantityPositive'))).toBeVisible();
  await quantity.fill('0.002');
  const previewLiquidation = form.getByLabel(en('futures.preview.forLong', { label: en('futures.preview.liquidation') }));
  await expect(previewLiquidation).toHaveText(/^\d{1,3}(,\d{3})*\.\d{2}$/);

  // Right after a tick: the liquidation price the preview shows, then the order; the position the
  // server stored has exactly that liquidation price. When the book moved between the preview and
  // the fill after all (another spec's order took the best ask, or the browser's copy of the book
  // was a moment late), the fill price differs from the one the preview assumed: that position is
  // closed (API) and the order placed again, at most five times — a preview that disagrees with the
  // server fails all five.
  const positions = page.getByRole('table', { name: en('futures.positions.table') });
  const liquidation = positions.getByLabel(en('futures.positions.liquidationOf', { pair: PAIR }));
  let attempts = 0;
  let shown = '';
  await expect(async () => {
    if (attempts > 0) {
      const closed = await request.post('/api/contract/order/submit', {
        headers: { satoken: memberToken, 'Idempotency-Key': crypto.randomUUID() },
        data: { symbol: 'btcusdt', side: 'sell', orderType: 'market', closePosition: true },
      });
      expect(((await closed.json()) as { code: number }).code).toBe(200);
      await expect(positions.getByText(en('futures.positions.none'))).toBeVisible();
      await quantity.fill('0.002');
    }
    attempts += 1;
    await nextTick(page);
    shown = (await previewLiquidation.textContent())!;
    await form.getByRole('button', { name: en('futures.form.openLong') }).click();
    await expect(liquidation).toHaveText(/\d/);
    expect(await liquidation.textContent()).toBe(shown);
  }).toPass({ intervals: [0], timeout: 120_000 });
  expect(attempts).toBeLessThanOrEqual(5);
  if (attempts > 1) test.info().annotations.push({ type: 'book moved before the fill', description: `opened ${attempts} times` });
  await expect(liquidation).toHaveText(shown);
  const row = positions.getByRole('row', { name: en('futures.positions.row', { pair: PAIR, side: en('futures.side.long') }) });
  await expect(row.getByRole('cell').nth(1)).toHaveText('0.002');

  // Take profit 20 % above the entry and stop loss 5 % below it (whole prices lie on the tick).
  const entry = priceNumber((await row.getByRole('cell').nth(2).textContent())!);
  const takeProfit = String(Math.round(entry * 1.2));
  const stopLoss = String(Math.round(entry * 0.95));
  await row.getByRole('button', { name: en('futures.positions.setTpSl') }).click();
  let dialog = page.getByRole('dialog', { name: en('futures.tpsl.title') });
  // The wrong side is refused before anything is sent.
  await dialog.getByLabel(en('futures.form.takeProfit')).fill(stopLoss);
  await expect(dialog.getByText(en('futures.tpsl.errors.takeProfit.long'))).toBeVisible();
  await dialog.getByLabel(en('futures.form.takeProfit')).fill(takeProfit);
  await dialog.getByLabel(en('futures.form.stopLoss')).fill(stopLoss);
  await dialog.getByRole('button', { name: en('futures.tpsl.save') }).click();
  await expect(dialog).toBeHidden();
  await expect(positions.getByLabel(en('futures.positions.takeProfitOf', { pair: PAIR }))).toHaveText(new RegExp(`^${takeProfit.replace(/\B(?=(\d{3})+$)/g, ',')}\\.00$`));
  await expect(positions.getByLabel(en('futures.positions.stopLossOf', { pair: PAIR }))).toHaveText(new RegExp(`^${stopLoss.replace(/\B(?=(\d{3})+$)/g, ',')}\\.00$`));

  // Add 5 USDT of margin: the dialog shows the new liquidation price, the position then has it.
  await row.getByRole('button', { name: en('futures.positions.adjustMargin') }).click();
  dialog = page.getByRole('dialog', { name: en('futures.margin.title') });
  await dialog.getByLabel(en('futures.margin.amount')).fill('5');
  const newLiquidation = dialog.getByRole('group', { name: en('futures.margin.newLiquidation') }).getByText(/^\d{1,3}(,\d{3})*\.\d{2}$/);
  await expect(newLiquidation).toBeVisible();
  const expected = (await newLiquidation.textContent())!;
  expect(expected).not.toBe(shown);
  await dialog.getByRole('button', { name: en('futures.margin.confirm') }).click();
  await expect(dialog).toBeHidden();
  await expect(liquidation).toHaveText(expected);

  // Close half at market, then the rest.
  await row.getByRole('button', { name: en('futures.positions.close') }).click();
  dialog = page.getByRole('dialog', { name: en('futures.close.title') });
  await dialog.getByRole('button', { name: en('futures.close.percent', { percent: 50 }) }).click();
  await expect(dialog.getByLabel(en('futures.close.quantity'))).toHaveValue('0.001');
  await dialog.getByRole('button', { name: en('futures.close.confirm') }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('cell').nth(1)).toHaveText('0.001');

  await row.getByRole('button', { name: en('futures.positions.close') }).click();
  dialog = page.getByRole('dialog', { name: en('futures.close.title') });
  await dialog.getByRole('button', { name: en('futures.close.percent', { percent: 100 }) }).click();
  await dialog.getByRole('button', { name: en('futures.close.confirm') }).click();
  await expect(dialog).toBeHidden();
  // The close toast says where it closed and what it realised.
  const closedToast = new RegExp(
    `${escapeRegExp(en('futures.close.closedAt', { quantity: '0.001', coin: 'BTC', price: '@P', pnl: '@N' }))
      .replace('@P', '\\d{1,3}(,\\d{3})*\\.\\d{2}')
      .replace('@N', '[+-]?\\d+\\.\\d{2}')}`,
  );
  await expect(page.getByRole('status').filter({ hasText: closedToast }).first()).toBeVisible();
  await expect(positions.getByText(en('futures.positions.none'))).toBeVisible();

  // The position history lists the closed positions with their entry, exit and realised PnL.
  await page.getByRole('tab', { name: en('futures.account.closed') }).click();
  const closedTable = page.getByRole('table', { name: en('futures.closed.table') });
  const closedRows = closedTable.getByRole('row', { name: en('futures.positions.row', { pair: PAIR, side: en('futures.side.long') }) });
  await expect(closedRows).toHaveCount(attempts);
  await expect(closedRows.first().getByRole('cell', { name: en('futures.closed.statuses.closed'), exact: true })).toBeVisible();

  // The history lists the opening order and both closes, filled.
  await page.getByRole('tab', { name: en('futures.account.history') }).click();
  const history = page.getByRole('table', { name: en('futures.orders.historyTable') });
  // Each attempt above opened a position (and each but the last was closed at once).
  await expect(history.getByRole('cell', { name: en('futures.orders.statuses.dealTotol'), exact: true })).toHaveCount(3 + 2 * (attempts - 1));
  await expect(history.getByRole('cell', { name: en('futures.orders.sides.buy'), exact: true })).toHaveCount(attempts);
});

test('the same balance reads the same on every screen, truncated, and futures bills read in German', async ({ member: page, memberToken, browser, baseURL, request }) => {
  // 298.885791 USDT (deposits take 6 decimals) in the trading wallet: 298.88 wherever it shows, never 298.89.
  await fundTradingWallet(request, browser, baseURL!, memberToken, '298.885791');
  await openScreen(page);
  const form = page.getByRole('region', { name: en('futures.form.title', { pair: PAIR }) });
  await expect(form.getByRole('status')).toHaveText('298.88 USDT');
  await page.goto('/assets/index?key=contract');
  await expect(page.getByRole('region', { name: en('funds.contract.available'), exact: true })).toContainText('298.88');
  await page.goto('/assets/index?key=overview');
  await expect(page.getByText(/^298\.88( USDT)?$/).first()).toBeVisible();
  await expect(page.getByText('298.89')).toHaveCount(0);

  // A futures trade's bills, filtered by "futures", in German: the kinds and details translated.
  await apiPost(request, '/api/contract/order/submit', { symbol: 'btcusdt', side: 'buy', orderType: 'market', quantity: '0.001', leverage: '10' }, memberToken);
  // The stored language choice (`coin_web-lang`), as the language switch leaves it.
  await page.evaluate(() => localStorage.setItem('coin_web-lang', 'de'));
  await page.goto('/assets/index?key=records');
  await page.getByRole('tab', { name: t('de', 'funds.records.bills'), exact: true }).click();
  const bills = page.getByRole('table', { name: t('de', 'funds.records.bills'), exact: true });
  await page.getByRole('combobox', { name: t('de', 'funds.bills.kind') }).selectOption({ label: t('de', 'funds.bills.kinds.futures') });
  const fill = bills.getByRole('row').filter({ hasText: t('de', 'funds.bills.kinds.futures_fill') });
  await expect(fill.first()).toContainText(/Kauf 0\.001 BTCUSDT zu \d{1,3}(,\d{3})*\.\d+/);
  await expect(bills).not.toContainText('futures_fill');
  await expect(bills).not.toContainText(' @ ');
});

test('a visitor is asked to log in', async ({ visitor: page }) => {
  await openScreen(page);
  await expect(page.getByRole('group', { name: en('futures.form.loginToTrade') })).toBeVisible();
  await expect(page.getByRole('table', { name: en('futures.positions.table') }).getByText(en('futures.account.loginPrompt'))).toBeVisible();
});
