/**
 * The trade and assets screens on a phone (360 × 740, touch, a desktop browser's user agent, so the
 * trade page stays on this site instead of redirecting to the mobile one — as the "trade page stays"
 * case of mobile.spec.ts): the chart's interval bar fits with its "more" select; a funded member
 * places a spot limit order through the sticky Buy bar's sheet, finds it as a card under Open orders
 * and cancels it from the card; opens a futures long through the Long bar and sees the position as
 * a card with its PnL; and sees the assets, its bills and deposit records as cards with their
 * figures. In English and in German, no screen is wider than the phone (trade, records, order
 * centre, earn and loan orders), and the tables a phone cut off are cards with every column's
 * figure: the loan schedule, the earn assets, the login log and the API keys.
 *
 * Every wait is an auto-retrying assertion; nothing sleeps.
 *
 * @module
 */

import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { type Lang, type Shell, apiPost, confirmIdentity, escapeRegExp, expect, t, test } from './fixtures';
import { PNG_1X1, createStakingProduct, fundTradingWallet, newOperator } from './operator';

const PHONE = { width: 360, height: 740 };
/** The smallest touch target the cards' buttons must keep. */
const TOUCH_PX = 44;

test.use({ viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 1 });

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

/** A pattern of an i18n text whose `{{id}}` is any number. */
function withAnyId(lang: Lang, key: string, params: Record<string, string | number>): RegExp {
  return new RegExp(`^${escapeRegExp(t(lang, key, { ...params, id: 'ID' })).replace('ID', '\\d+')}$`);
}

/** Credits `amount` USDT to the member's funding wallet: a deposit claim approved by an operator (API). */
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

/** Nothing on the page is wider than the phone (no sideways scrolling of the page itself). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** A button is at least a finger's size high. */
async function expectTouchSize(button: Locator): Promise<void> {
  await expect.poll(async () => (await button.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(TOUCH_PX);
}

test('on a phone the chart bar fits: main intervals as buttons, the rest in a select', async ({ visitor: page }) => {
  await page.goto('/trade/index?type=bb&symbol=btcusdt');
  await expect(page.getByRole('heading', { level: 1, name: 'BTC/USDT', exact: true })).toBeVisible();
  const intervals = page.getByRole('radiogroup', { name: en('market.interval.label'), exact: true });
  for (const interval of ['15m', '1h', '4h', '1d']) {
    await expect(intervals.getByRole('radio', { name: en(`market.interval.long.${interval}`), exact: true })).toBeInViewport();
  }
  await expect(intervals.getByRole('radio', { name: en('market.interval.long.1w'), exact: true })).toHaveCount(0);
  const more = page.getByRole('combobox', { name: en('market.interval.more'), exact: true });
  await expect(more).toBeInViewport();
  await more.selectOption({ label: en('market.interval.long.1w') });
  await expect(page.getByRole('img', { name: en('market.chart.label', { pair: 'BTC/USDT', interval: en('market.interval.long.1w') }) })).toBeVisible();
  await expect(intervals.getByRole('radio', { checked: true })).toHaveCount(0);
  await intervals.getByRole('radio', { name: en('market.interval.long.1h'), exact: true }).click();
  await expect(more).toHaveValue('');
  await expect(page.getByRole('img', { name: en('market.chart.label', { pair: 'BTC/USDT', interval: en('market.interval.long.1h') }) })).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test('a member places a spot limit order from the sticky bar and cancels it from its card', async ({ member: page, memberToken, browser, baseURL, request }) => {
  test.slow();
  await fundMember(request, browser, baseURL!, memberToken, '1000');
  await page.goto('/trade/index?type=bb&symbol=btcusdt');
  await expect(page.getByRole('heading', { level: 1, name: 'BTC/USDT', exact: true })).toBeVisible();

  // The form is not on the page: the bar at the bottom of the screen opens it.
  const buyForm = page.getByRole('form', { name: en('trade.form.buyForm', { coin: 'BTC' }), exact: true });
  await expect(buyForm).toHaveCount(0);
  const bar = page.getByRole('group', { name: en('trade.sheet.bar'), exact: true });
  await expect(bar).toBeInViewport();
  const barBox = await bar.boundingBox();
  expect(barBox!.y + barBox!.height).toBeLessThanOrEqual(PHONE.height + 1);

  // Sell opens the form on the sell side.
  await bar.getByRole('button', { name: en('trade.form.sell'), exact: true }).click();
  const sheet = page.getByRole('dialog', { name: en('trade.sheet.title', { pair: 'BTC/USDT' }), exact: true });
  await expect(sheet.getByRole('form', { name: en('trade.form.sellForm', { coin: 'BTC' }), exact: true })).toBeVisible();
  await expect(sheet.getByRole('tab', { name: en('trade.form.sell'), exact: true })).toHaveAttribute('aria-selected', 'true');
  await sheet.getByRole('button', { name: en('common.close'), exact: true }).click();
  await expect(sheet).toHaveCount(0);

  // Buy opens it on the buy side: a limit buy far below the market, with the form's own preview.
  await bar.getByRole('button', { name: en('trade.form.buy'), exact: true }).click();
  const form = sheet.getByRole('form', { name: en('trade.form.buyForm', { coin: 'BTC' }), exact: true });
  await expect(form.getByRole('status', { name: en('trade.form.available'), exact: true })).toHaveText('1,000.00 USDT');
  await form.getByRole('textbox', { name: en('trade.form.price'), exact: true }).fill('1000');
  await form.getByRole('textbox', { name: en('trade.form.quantity'), exact: true }).fill('0.05');
  await expect(form.getByRole('group', { name: en('trade.preview.title'), exact: true })).toContainText('50 USDT');
  await form.getByRole('button', { name: en('trade.form.submitBuy', { coin: 'BTC' }), exact: true }).click();
  await expect(sheet).toHaveCount(0);

  // The order is a card under Open orders: pair, side, type, price, amount, filled, time.
  const open = page.getByRole('list', { name: en('trade.orders.tabs.open'), exact: true });
  const card = open.getByRole('listitem', { name: withAnyId('en', 'trade.orders.card', { side: en('trade.orders.side.buy'), pair: 'BTC/USDT' }) });
  await expect(card).toHaveCount(1);
  await card.scrollIntoViewIfNeeded();
  for (const text of ['BTC/USDT', en('trade.orders.side.buy'), en('trade.orders.type.limit'), '1,000.00', /0\.050* BTC/, en('trade.orders.status.waitDeal')]) {
    await expect(card).toContainText(text);
  }
  await expect(card.getByRole('definition').filter({ hasText: /^0(\.0+)?$/ })).toHaveCount(1);
  await expect(card).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
  const cancel = card.getByRole('button', { name: withAnyId('en', 'trade.orders.cancelOrder', { pair: 'BTC/USDT' }) });
  await expect(cancel).toBeInViewport();
  await expectTouchSize(cancel);
  await expectNoSidewaysScroll(page);

  // Cancelled from the card: the list is empty again.
  await cancel.click();
  await expect(open.getByText(en('trade.orders.empty.open'), { exact: true })).toBeVisible();
  await expect(card).toHaveCount(0);
});

test('a member opens a futures long from the sticky bar and sees the position as a card with its PnL', async ({ member: page, memberToken, browser, baseURL, request }) => {
  test.slow();
  await fundTradingWallet(request, browser, baseURL!, memberToken, '1000');
  await page.goto('/trade/index?type=usta&symbol=btcusdt');
  await expect(page.getByRole('heading', { level: 1, name: 'BTC/USDT', exact: true })).toBeVisible();
  const bar = page.getByRole('group', { name: en('futures.sheet.bar'), exact: true });
  await bar.getByRole('button', { name: en('futures.form.openLong'), exact: true }).click();
  const sheet = page.getByRole('dialog', { name: en('futures.sheet.title', { pair: 'BTC/USDT' }), exact: true });
  const form = sheet.getByRole('form', { name: en('futures.form.title', { pair: 'BTC/USDT' }), exact: true });
  await form.getByRole('textbox', { name: en('futures.form.quantity'), exact: true }).fill('0.002');
  await expect(form.getByLabel(en('futures.preview.forLong', { label: en('futures.preview.liquidation') }))).toHaveText(/\d/);
  // Opened on the long side: only Open long is offered.
  await expect(form.getByRole('button', { name: en('futures.form.openShort'), exact: true })).toHaveCount(0);
  await form.getByRole('button', { name: en('futures.form.openLong'), exact: true }).click();
  await expect(sheet).toHaveCount(0);

  const positions = page.getByRole('list', { name: en('futures.positions.table'), exact: true });
  const card = positions.getByRole('listitem', { name: en('futures.positions.row', { pair: 'BTC/USDT', side: en('futures.side.long') }), exact: true });
  await card.scrollIntoViewIfNeeded();
  await expect(card).toBeVisible();
  for (const key of ['size', 'entry', 'mark', 'liquidation', 'pnl', 'margin']) {
    await expect(card.getByRole('term').filter({ hasText: new RegExp(`^${escapeRegExp(en(`futures.positions.${key}`))}$`) })).toBeVisible();
  }
  await expect(card).toContainText('0.002');
  await expect(card.getByLabel(en('futures.positions.liquidationOf', { pair: 'BTC/USDT' }))).toHaveText(/^\d{1,3}(,\d{3})*\.\d+$/);
  await expect(card.getByLabel(en('futures.positions.pnlOf', { pair: 'BTC/USDT' }))).toHaveText(/^[+-]?\d[\d,]*\.\d+ \([+-]?\d+\.\d+%\)$/);
  const close = card.getByRole('button', { name: en('futures.positions.close'), exact: true });
  await expect(close).toBeInViewport();
  await expectTouchSize(close);
  await expectNoSidewaysScroll(page);

  // Closed (through the API), it is a card of the position history in the order centre.
  await apiPost(request, '/api/contract/order/submit', { symbol: 'btcusdt', side: 'sell', orderType: 'market', closePosition: true }, memberToken);
  await page.goto('/account/entrust/future/u');
  await page.getByRole('tab', { name: en('futures.account.closed'), exact: true }).click();
  const closed = page.getByRole('list', { name: en('futures.closed.table'), exact: true });
  const closedCard = closed.getByRole('listitem', { name: en('futures.positions.row', { pair: 'BTC/USDT', side: en('futures.side.long') }), exact: true });
  await closedCard.scrollIntoViewIfNeeded();
  for (const key of ['closed.size', 'closed.pnl', 'positions.entry', 'closed.exit', 'closed.fees', 'closed.closedAt']) {
    await expect(closedCard.getByRole('term').filter({ hasText: new RegExp(`^${escapeRegExp(en(`futures.${key}`))}$`) })).toBeInViewport();
  }
  await expect(closedCard).toContainText(en('futures.closed.statuses.closed'));
  await expectNoSidewaysScroll(page);
});

/** Switches the page to `lang` through the shell's own switcher. */
async function inLanguage(shell: Shell, lang: Lang): Promise<void> {
  if (lang !== 'en') await shell.switchLanguage(lang);
}

for (const lang of ['en', 'de'] as const) {
  test(`the assets are cards with their value and actions, and no screen is wider than the phone (${lang})`, async ({ member: page, memberToken, shell, browser, baseURL, request }) => {
    test.slow();
    await fundMember(request, browser, baseURL!, memberToken, '1000');
    await page.goto('/assets/index?key=overview');
    await inLanguage(shell, lang);
    const funding = page.getByRole('list', { name: t(lang, 'funds.overview.tableLabel', { bucket: t(lang, 'funds.buckets.funding') }), exact: true });
    const usdt = funding.getByRole('listitem', { name: t(lang, 'funds.overview.card', { coin: 'USDT' }), exact: true });
    await usdt.scrollIntoViewIfNeeded();
    await expect(usdt.getByText(t(lang, 'funds.columns.valuation'), { exact: true })).toBeInViewport();
    await expect(usdt).toContainText('1,000.00 USDT');
    const deposit = usdt.getByRole('link', { name: t(lang, 'funds.actions.depositCoin', { coin: 'USDT' }), exact: true });
    await expect(deposit).toBeInViewport();
    await expectTouchSize(deposit);
    await expectNoSidewaysScroll(page);

    // The bucket tabs keep their whole labels and scroll sideways inside their row: the last one
    // is reachable and picks its list.
    for (const bucket of ['funding', 'trading', 'earn']) {
      const tab = page.getByRole('tab', { name: t(lang, `funds.buckets.${bucket}`), exact: true });
      await expect.poll(() => tab.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    const lastBucket = page.getByRole('tab', { name: t(lang, 'funds.buckets.earn'), exact: true });
    await lastBucket.click();
    await expect(lastBucket).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('list', { name: t(lang, 'funds.overview.tableLabel', { bucket: t(lang, 'funds.buckets.earn') }), exact: true })).toBeVisible();

    // The records are cards too: the deposit's bill and its deposit record show their whole figures
    // (a table cut the amount, balance and details off at 360 px).
    await page.goto('/assets/index?key=records&tab=bills');
    const bills = page.getByRole('list', { name: t(lang, 'funds.records.bills'), exact: true });
    const bill = bills.getByRole('listitem', { name: new RegExp(`^${escapeRegExp(t(lang, 'funds.bills.kinds.deposit'))} USDT `) }).first();
    await bill.scrollIntoViewIfNeeded();
    for (const column of ['amount', 'balance', 'account', 'memo']) {
      await expect(bill.getByRole('term').filter({ hasText: new RegExp(`^${escapeRegExp(t(lang, `funds.columns.${column}`))}$`) })).toBeInViewport();
    }
    await expect(bill.getByRole('definition').filter({ hasText: /^\+1,000(\.0+)?$/ })).toBeInViewport();
    await expectNoSidewaysScroll(page);
    await page.getByRole('tab', { name: t(lang, 'funds.records.deposits'), exact: true }).click();
    const depositCard = page.getByRole('list', { name: t(lang, 'funds.records.deposits'), exact: true }).getByRole('listitem').first();
    await expect(depositCard).toContainText(t(lang, 'funds.status.passed'));
    await expect(depositCard.getByRole('definition').filter({ hasText: /^1,000(\.0+)?$/ })).toBeInViewport();
    await expectNoSidewaysScroll(page);
    await page.getByRole('tab', { name: t(lang, 'funds.records.transfers'), exact: true }).click();
    await expect(page.getByRole('list', { name: t(lang, 'funds.transfer.buckets'), exact: true })).toContainText(t(lang, 'funds.records.empty'));
    await expectNoSidewaysScroll(page);

    // The trade screens fit the phone in this language too.
    for (const path of [
      '/trade/index?type=bb&symbol=btcusdt',
      '/trade/index?type=usta&symbol=btcusdt',
      '/assets/index?key=records&tab=withdrawals',
      '/assets/index?key=contract',
      '/account/entrust/spot?tab=history',
      '/account/entrust/future/u',
      '/pledge/order',
      '/loan/order',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSidewaysScroll(page);
    }
  });
}

/**
 * An earn holding of the member's (500 USDT subscribed to a new staking product) and a new loan
 * product named `loanName` open to every member (API, by a new operator).
 */
async function earnAndLoanOffers(request: APIRequestContext, browser: Browser, baseURL: string, token: string, loanName: string): Promise<void> {
  await fundMember(request, browser, baseURL, token, '1000');
  const operator = await newOperator(browser, baseURL, request);
  const operatorToken = (await operator.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
  await operator.context().close();
  const product = await createStakingProduct(request, operatorToken);
  await apiPost(request, '/api/earn/subscribe', { productId: product.id, amount: '500' }, token);
  await apiPost(request, '/api/admin/loans/pool/fund', { coin: 'usdt', amount: '100000' }, operatorToken);
  await apiPost(
    request,
    '/api/admin/loans/products',
    {
      coin: 'usdt',
      scale: 2,
      minAmount: '100',
      maxAmount: '5000',
      cycles: [60],
      dayRate: '0.0005',
      repayWays: ['equal_instalments'],
      institution: 'Kestrel Lending',
      penaltyDayRate: '0.001',
      graceDays: 3,
      minCreditScore: 0,
      kycLevel: 0,
      names: { en: loanName, de: loanName },
      enabled: true,
    },
    operatorToken,
  );
}

/** Every one of `columns` (i18n keys) labels a figure of `card` that is on the screen. */
async function expectFigures(card: Locator, lang: Lang, columns: string[]): Promise<void> {
  await card.scrollIntoViewIfNeeded();
  for (const column of columns) {
    await expect(card.getByRole('term').filter({ hasText: new RegExp(`^${escapeRegExp(t(lang, column))}$`) })).toBeInViewport();
  }
}

for (const lang of ['en', 'de'] as const) {
  test(`the loan schedule, the earn assets, the login log and the API keys are cards at 360 px (${lang})`, async ({
    member: page,
    memberAccount,
    memberToken,
    shell,
    browser,
    baseURL,
    request,
  }) => {
    test.slow();
    const loanName = `Phone loan ${lang} ${Date.now()}`;
    await earnAndLoanOffers(request, browser, baseURL!, memberToken, loanName);
    await confirmIdentity(request, memberAccount, memberToken);
    const keyLabel = 'Grid bot on the office machine';
    await apiPost(request, '/api/coin/coin/member/api', { label: keyLabel, permissions: ['read', 'trade'], ipWhitelist: ['203.0.113.7', '2001:db8:85a3::8a2e:370:7334'] }, memberToken);

    // The security tab: the login log and the API keys as cards (the tables cut the device, the
    // IP whitelist, the creation time and the delete button off at 360 px).
    await page.goto('/account/center/security');
    await inLanguage(shell, lang);
    const log = page.getByRole('list', { name: t(lang, 'account.loginLog.title'), exact: true });
    const attempt = log.getByRole('listitem').first();
    await expectFigures(attempt, lang, ['account.loginLog.ip', 'account.loginLog.device']);
    await expect(attempt).toContainText(t(lang, 'account.loginLog.success'));
    await expect(attempt).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
    await expectNoSidewaysScroll(page);
    const key = page.getByRole('list', { name: t(lang, 'account.apiKeys.title'), exact: true }).getByRole('listitem', { name: keyLabel, exact: true });
    await expectFigures(key, lang, ['account.apiKeys.accessKey', 'account.apiKeys.permissions', 'account.apiKeys.created', 'account.apiKeys.ipWhitelist']);
    await expect(key.getByText('203.0.113.7, 2001:db8:85a3::8a2e:370:7334', { exact: true })).toBeInViewport();
    await expect(key).toContainText(t(lang, 'account.apiKeys.permission.trade'));
    const remove = key.getByRole('button', { name: t(lang, 'account.apiKeys.deleteNamed', { label: keyLabel }), exact: true });
    await expect(remove).toBeInViewport();
    await expectTouchSize(remove);
    await expectTouchSize(key.getByRole('button', { name: t(lang, 'account.apiKeys.copyAccessKey'), exact: true }));
    await expectNoSidewaysScroll(page);

    // The earn assets: a card per coin with its principal and rewards.
    await page.goto('/assets/index?key=finance');
    const usdt = page.getByRole('list', { name: t(lang, 'earn.assets.financeTitle'), exact: true }).getByRole('listitem', { name: 'USDT', exact: true });
    await expectFigures(usdt, lang, ['earn.assets.principal', 'earn.assets.rewards']);
    await expect(usdt.getByRole('definition').filter({ hasText: /^500(\.0+)?$/ })).toBeInViewport();
    await expectNoSidewaysScroll(page);

    // The loan schedule before applying: a card per instalment with its date and every figure.
    await page.goto('/loan/index');
    await page.getByRole('article', { name: loanName }).getByRole('button', { name: t(lang, 'loans.product.apply'), exact: true }).click();
    await page.getByLabel(t(lang, 'loans.apply.amount'), { exact: true }).fill('1000');
    const preview = page.getByRole('group', { name: t(lang, 'loans.preview.title') });
    const instalments = preview.getByRole('list', { name: t(lang, 'loans.preview.title'), exact: true }).getByRole('listitem');
    await expect(instalments).toHaveCount(2);
    for (const instalment of [instalments.first(), instalments.last()]) {
      await expectFigures(instalment, lang, ['loans.preview.due', 'loans.preview.amount', 'loans.preview.principal', 'loans.preview.interest']);
      await expect(instalment).toContainText(/\d{4}-\d{2}-\d{2}/);
    }
    await expect(preview.getByRole('table')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
  });
}
