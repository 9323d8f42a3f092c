/**
 * Spot trading end to end, as a member would click through it: a new member whose 1,000 USDT deposit
 * an operator approved (through the API: the deposit screens have their own e2e in funds.spec.ts)
 * opens /trade/index, buys BTC at market for 100 USDT and sees the fill, the balance change and the
 * bill; then places a limit buy far below the market, finds it under Open orders with its funds held,
 * cancels it and sees the funds available again; both orders are then in the order centre
 * (/assets/index?key=order) and on /account/entrust/spot.
 *
 * Lasting states only (balances, table rows, badges): the short-lived toasts are covered by the
 * webapp's vitest tests. Every wait is an auto-retrying assertion; nothing sleeps.
 *
 * @module
 */

import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { apiPost, escapeRegExp, expect, t, test } from './fixtures';
import { PNG_1X1, newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

/** The label of a bill kind on the records screen (the raw kind while the funds texts have none). */
function billKind(kind: string): string {
  try {
    return en(`funds.bills.kinds.${kind}`);
  } catch {
    return kind;
  }
}

/** Credits `amount` USDT to the member: a deposit claim with a screenshot, approved by an operator (API). */
async function fundMember(request: APIRequestContext, browser: Browser, baseURL: string, token: string, amount: string): Promise<void> {
  const upload = await request.post('/api/common/upload/OSS', {
    headers: { satoken: token },
    multipart: { file: { name: 'payment.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  });
  const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
  const claim = await apiPost<{ id: number }>(request, '/api/recharge/submit', { coin: 'usdt', network: 'TRC20', amount, screenshot: String(fileId) }, token);
  const operator = await newOperator(browser, baseURL, request);
  const operatorToken = (await operator.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
  await apiPost(request, `/api/admin/deposits/${claim.id}/review`, { approve: true }, operatorToken);
  await operator.context().close();
}

/** /trade/index?type=bb of one pair, by role and label. */
class TradeScreen {
  constructor(readonly page: Page) {}

  async open(symbol: string, pair: string): Promise<void> {
    await this.page.goto(`/trade/index?type=bb&symbol=${symbol}`);
    await expect(this.page.getByRole('heading', { level: 1, name: pair, exact: true })).toBeVisible();
  }

  /** The order form of the side shown (`Buy BTC` / `Sell BTC`). */
  form(side: 'buy' | 'sell', coin = 'BTC'): Locator {
    return this.page.getByRole('form', { name: en(side === 'buy' ? 'trade.form.buyForm' : 'trade.form.sellForm', { coin }), exact: true });
  }

  /** The available balance line of the form. */
  available(form: Locator): Locator {
    return form.getByRole('status', { name: en('trade.form.available'), exact: true });
  }

  async tab(name: string): Promise<void> {
    const tab = this.page.getByRole('tab', { name, exact: true });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
  }

  /** A table of the bottom panel, after choosing its tab. */
  async orders(tab: 'open' | 'history' | 'trades'): Promise<Locator> {
    await this.tab(en(`trade.orders.tabs.${tab}`));
    return this.page.getByRole('table', { name: en(`trade.orders.tabs.${tab}`), exact: true });
  }
}

test('a member buys BTC at market, then places and cancels a limit buy far below the market', async ({ member, memberToken, browser, baseURL, request }) => {
  test.slow();
  await fundMember(request, browser, baseURL!, memberToken, '1000');
  const trade = new TradeScreen(member);
  await trade.open('btcusdt', 'BTC/USDT');

  // The live market is there: chart, order book with both sides, recent trades.
  await expect(member.getByRole('img', { name: /BTC\/USDT/ }).first()).toBeVisible();
  await expect(member.getByRole('table', { name: t('en', 'market.book.bids'), exact: true }).getByRole('row').nth(1)).toBeVisible();
  await expect(member.getByRole('table', { name: t('en', 'market.book.asks'), exact: true }).getByRole('row').nth(1)).toBeVisible();

  const buy = trade.form('buy');
  await expect(trade.available(buy)).toHaveText('1,000.00 USDT');

  // Market buy for 100 USDT: the preview shows the estimate, the fee and the security-fund note.
  await trade.tab(en('trade.form.market'));
  await buy.getByRole('radio', { name: en('trade.form.byAmount'), exact: true }).click();
  await buy.getByRole('textbox', { name: en('trade.form.quoteAmount'), exact: true }).fill('100');
  const preview = buy.getByRole('group', { name: en('trade.preview.title'), exact: true });
  await expect(preview).toContainText(/≈ 100 USDT/);
  await expect(preview).toContainText(en('trade.preview.securityFund'));
  await buy.getByRole('button', { name: en('trade.form.submitBuy', { coin: 'BTC' }), exact: true }).click();

  // Filled: the quote balance went down by at most 100 USDT, the form is cleared, BTC arrived.
  await expect(trade.available(buy)).toHaveText(/^900(\.\d+)? USDT$/);
  await expect(buy.getByRole('textbox', { name: en('trade.form.quoteAmount'), exact: true })).toHaveValue('');
  const fills = await trade.orders('trades');
  const fill = fills.getByRole('row').filter({ hasText: 'BTC/USDT' }).first();
  await expect(fill).toContainText(en('trade.orders.side.buy'));
  await expect(fill).toContainText(en('trade.orders.role.taker'));
  const history = await trade.orders('history');
  // A body row by its status cell (the header row has a "Filled" column too); a cancelled order's
  // cell also says why.
  const statusCell = (status: string) => ({ has: member.getByRole('cell', { name: new RegExp(`^${escapeRegExp(status)}`) }) });
  await expect(history.getByRole('row').filter(statusCell(en('trade.orders.status.dealTotol')))).toHaveCount(1);
  await trade.tab(en('trade.form.sell'));
  await expect(trade.available(trade.form('sell'))).toHaveText(/^0\.0\d+ BTC$/);

  // The bill of the trade is in the records.
  await member.goto('/assets/index?key=records&tab=bills');
  const bills = member.getByRole('table', { name: en('funds.records.bills'), exact: true });
  await expect(bills.getByRole('row').filter({ hasText: new RegExp(escapeRegExp(billKind('spot_trade'))) }).first()).toBeVisible();

  // A limit buy far below the market rests on the book and holds its 50 USDT.
  await trade.open('btcusdt', 'BTC/USDT');
  await trade.tab(en('trade.form.limit'));
  const limit = trade.form('buy');
  await expect(trade.available(limit)).toHaveText(/^900(\.\d+)? USDT$/);
  const before = (await trade.available(limit).textContent()) ?? '';
  await limit.getByRole('textbox', { name: en('trade.form.price'), exact: true }).fill('1000');
  await limit.getByRole('textbox', { name: en('trade.form.quantity'), exact: true }).fill('0.05');
  await expect(limit.getByRole('group', { name: en('trade.preview.title'), exact: true })).toContainText('50 USDT');
  await limit.getByRole('button', { name: en('trade.form.submitBuy', { coin: 'BTC' }), exact: true }).click();
  await expect(trade.available(limit)).toHaveText(/^850(\.\d+)? USDT$/);

  const open = await trade.orders('open');
  const resting = open.getByRole('row').filter({ hasText: '1,000.00' });
  await expect(resting).toHaveCount(1);
  await expect(resting).toContainText(en('trade.orders.status.waitDeal'));
  await expect(resting).toContainText('0.05');

  // Cancelled: the order leaves Open orders and its funds are available again.
  await resting.getByRole('button', { name: new RegExp(`^${escapeRegExp(en('trade.orders.cancelOrder', { pair: 'BTC/USDT', id: 'ID' })).replace('ID', '\\d+')}$`) }).click();
  await expect(open.getByText(en('trade.orders.empty.open'), { exact: true })).toBeVisible();
  await expect(trade.available(limit)).toHaveText(before);
  const finished = await trade.orders('history');
  await expect(finished.getByRole('row').filter(statusCell(en('trade.orders.status.cancelled')))).toContainText(en('trade.orders.cancelReason.user'));

  // The order centre and the orders page list the same orders (every pair), the tab kept in the URL.
  for (const path of ['/assets/index?key=order', '/account/entrust/spot']) {
    await member.goto(path);
    const none = member.getByRole('table', { name: en('trade.orders.tabs.open'), exact: true }).getByText(en('trade.orders.empty.open'), { exact: true });
    await expect(none).toBeVisible();
    const all = await trade.orders('history');
    await expect(all.getByRole('row').filter({ hasText: 'BTC/USDT' })).toHaveCount(2);
    await expect(member).toHaveURL(/[?&]tab=history(&|$)/);
  }
});

test('a visitor sees the market and is asked to log in or sign up to trade', async ({ visitor }) => {
  const trade = new TradeScreen(visitor);
  await trade.open('ethusdt', 'ETH/USDT');
  const form = trade.form('buy', 'ETH');
  const prompt = form.getByRole('group', { name: en('trade.form.loginToTrade'), exact: true });
  await expect(prompt.getByRole('link', { name: en('trade.form.login'), exact: true })).toHaveAttribute(
    'href',
    `/user/login?redirect=${encodeURIComponent('/trade/index?type=bb&symbol=ethusdt')}`,
  );
  await expect(prompt.getByRole('link', { name: en('trade.form.signup'), exact: true })).toBeVisible();
  await expect(form.getByRole('button', { name: en('trade.form.submitBuy', { coin: 'ETH' }), exact: true })).toHaveCount(0);
  // The futures screen asks a visitor to log in too.
  await visitor.goto('/trade/index?type=usta');
  await expect(visitor.getByRole('group', { name: en('futures.form.loginToTrade'), exact: true })).toBeVisible();
});
