/**
 * Full-page screenshots of the screens for review, written to ../docs/screenshots (git-ignored).
 * Only the `screenshots` project runs this file: `make screenshots` or `npx playwright test screenshots`.
 * Every shot waits for live prices (a formatted BTC/USDT price) and for images to be decoded.
 *
 * @module
 */

import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { AuthPages, HomePage, type Lang, type Shell, apiPost, confirmIdentity, expect, t, test } from './fixtures';
import { escapeRegExp } from './i18n';
import { PNG_1X1, createStakingProduct, fundTradingWallet, newOperator } from './operator';

const OUT_DIR = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

/** The route progress bar's name in the languages the shots use. */
const PAGE_LOADING = new RegExp(`^(${(['en', 'de', 'ja'] as const).map((lang) => escapeRegExp(t(lang, 'nav.pageLoading'))).join('|')})$`);

test.use({ viewport: { width: 1440, height: 900 } });

/** Loads every image now (coin logos are lazy) and waits until they are decoded. */
async function settleImages(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const images = Array.from(document.images);
    for (const image of images) image.loading = 'eager';
    await Promise.all(images.map((image) => image.decode().catch(() => undefined)));
    await document.fonts.ready;
  });
}

/**
 * Writes `<name>.png`: the full page, or only the viewport for overlays (a fixed drawer and its
 * backdrop cover the viewport only, so a full-page shot would show them cut off half-way).
 */
async function shoot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  // The route progress bar runs for 0.7 s after a navigation; shoot once it is gone (by its name:
  // a screen's own progress bars, such as the tier tab's, stay).
  await expect(page.getByRole('progressbar', { name: PAGE_LOADING })).toHaveCount(0);
  // No hover highlight left on the control clicked last.
  await page.mouse.move(0, 0);
  await settleImages(page);
  await page.screenshot({ path: `${OUT_DIR}${name}.png`, fullPage, animations: 'disabled', caret: 'hide' });
}

/** Opens the home page in `lang` and `theme` through the shell's own switches. */
async function homeIn(page: Page, shell: Shell, lang: Lang, theme: 'light' | 'dark'): Promise<Shell> {
  await page.goto('/home/index');
  await new HomePage(page).waitForPrices();
  const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
  if (theme === 'dark') {
    await current.themeSwitch.click();
    await current.expectDarkTheme(true);
  }
  await new HomePage(page, lang).waitForPrices();
  await expect(current.btcTicker).toBeVisible();
  return current;
}

for (const lang of ['en', 'de'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`home ${theme} ${lang}`, async ({ visitor: page, shell }) => {
      await homeIn(page, shell, lang, theme);
      await shoot(page, `home-${theme}-${lang}`);
    });
  }
}

test('side menu open', async ({ visitor: page, shell }) => {
  await homeIn(page, shell, 'en', 'light');
  await shell.openMenu();
  await expect(shell.sideMenuGroup('menu.account')).toBeVisible();
  await shoot(page, 'side-menu-open', { fullPage: false });
});

test('login', async ({ visitor: page, shell }) => {
  await homeIn(page, shell, 'en', 'light');
  await shell.loginLink.click();
  await expect(page).toHaveURL('/user/login');
  await expect(shell.pageHeading).toHaveText(t('en', 'screens.userLogin'));
  await shoot(page, 'user-login');
});

/** Opens `path` (a full-page auth screen) in `lang` and `theme` through the bar's own switches. */
async function authScreenIn(page: Page, shell: Shell, path: string, screen: string, lang: Lang, theme: 'light' | 'dark'): Promise<void> {
  await page.goto(path);
  await expect(shell.pageHeading).toHaveText(t('en', `screens.${screen}`));
  const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
  if (theme === 'dark') {
    await current.themeSwitch.click();
    await current.expectDarkTheme(true);
  }
  await expect(current.pageHeading).toHaveText(t(lang, `screens.${screen}`));
}

for (const { path, screen, name } of [
  { path: '/user/login', screen: 'userLogin', name: 'user-login' },
  { path: '/user/register', screen: 'userRegister', name: 'user-register' },
  { path: '/user/reset', screen: 'userReset', name: 'user-reset' },
] as const) {
  for (const lang of ['en', 'de'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      test(`${name} ${theme} ${lang}`, async ({ visitor: page, shell }) => {
        await authScreenIn(page, shell, path, screen, lang, theme);
        await shoot(page, `${name}-${theme}-${lang}`);
      });
    }
  }
}

for (const theme of ['light', 'dark'] as const) {
  test(`register with errors ${theme}`, async ({ visitor: page, shell }) => {
    await authScreenIn(page, shell, '/i&KX7P2M9Q', 'userRegister', 'en', theme);
    const auth = new AuthPages(page);
    await auth.account.fill('jane.example.com');
    await auth.password.fill('password');
    await auth.confirmPassword.fill('passw0rd');
    await auth.registerButton.click();
    // The error first, the field's hint kept after it.
    await expect(auth.account).toHaveAccessibleDescription(new RegExp(`^${escapeRegExp(t('en', 'errors.emailFormat'))}`));
    await shoot(page, `user-register-errors-${theme}`);
  });
}

test('account menu open', async ({ member: page, memberAccount, shell }) => {
  await homeIn(page, shell, 'en', 'light');
  await shell.banner.getByRole('button', { name: t('en', 'nav.accountMenu.labelFor', { account: memberAccount.account }) }).click();
  await expect(page.getByRole('menuitem', { name: t('en', 'nav.accountMenu.logout'), exact: true })).toBeVisible();
  await shoot(page, 'account-menu-open', { fullPage: false });
});

/** A deposit claim of `amount` USDT with a payment screenshot, through the API; its id. */
async function claimDeposit(request: APIRequestContext, token: string, amount: string): Promise<number> {
  const upload = await request.post('/api/common/upload/OSS', {
    headers: { satoken: token },
    multipart: { file: { name: 'payment.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  });
  const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
  return (await apiPost<{ id: number }>(request, '/api/recharge/submit', { coin: 'usdt', network: 'TRC20', amount, screenshot: String(fileId) }, token)).id;
}

/** Credits 2,500 USDT to the member through a real deposit claim and an operator's approval (API). */
async function fundMember(request: APIRequestContext, browser: Browser, baseURL: string, token: string): Promise<void> {
  const claim = await claimDeposit(request, token, '2500');
  const operator = await newOperator(browser, baseURL, request);
  const operatorToken = (await operator.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
  await apiPost(request, `/api/admin/deposits/${claim}/review`, { approve: true }, operatorToken);
  await operator.context().close();
}

/** Opens `/assets/index?key=…` (or a wallet path) in `lang` and `theme`, waiting for its heading. */
async function fundsScreenIn(page: Page, shell: Shell, path: string, heading: string, lang: Lang, theme: 'light' | 'dark'): Promise<void> {
  await page.goto(path);
  const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
  if (theme === 'dark') {
    await current.themeSwitch.click();
    await current.expectDarkTheme(true);
  }
  await expect(page.getByRole('heading', { name: t(lang, heading), exact: true }).first()).toBeVisible();
  await expect(page.getByRole('status', { name: t(lang, 'funds.loading') })).toHaveCount(0);
}

for (const { path, heading, name, lang, theme } of [
  { path: '/assets/index?key=overview', heading: 'funds.screens.overview', name: 'assets-overview', lang: 'en', theme: 'light' },
  { path: '/assets/index?key=overview', heading: 'funds.screens.overview', name: 'assets-overview', lang: 'de', theme: 'dark' },
  { path: '/assets/index?key=recharge', heading: 'funds.screens.recharge', name: 'assets-deposit', lang: 'en', theme: 'light' },
  { path: '/assets/index?key=withdraw', heading: 'funds.screens.withdraw', name: 'assets-withdraw', lang: 'de', theme: 'light' },
  { path: '/assets/index?key=swap', heading: 'funds.screens.swap', name: 'assets-swap', lang: 'en', theme: 'dark' },
  { path: '/assets/index?key=transfer', heading: 'funds.screens.transfer', name: 'assets-transfer', lang: 'en', theme: 'light' },
  { path: '/assets/index?key=records&tab=bills', heading: 'funds.screens.records', name: 'assets-bills', lang: 'en', theme: 'light' },
  { path: '/assets/index?key=order', heading: 'funds.screens.order', name: 'assets-order', lang: 'en', theme: 'light' },
  { path: '/account/wallet/assets', heading: 'funds.wallet.title', name: 'wallet-assets', lang: 'de', theme: 'light' },
] as const) {
  test(`${name} ${theme} ${lang}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await fundMember(request, browser, baseURL!, memberToken);
    await fundsScreenIn(page, shell, path, heading, lang, theme);
    await shoot(page, `${name}-${theme}-${lang}`);
  });
}

test('admin deposit review', async ({ memberToken, request, browser, baseURL }) => {
  await claimDeposit(request, memberToken, '120');
  const operator = await newOperator(browser, baseURL!, request);
  await operator.setViewportSize({ width: 1440, height: 900 });
  await operator.goto('/admin?queue=deposits');
  await expect(operator.getByRole('table', { name: t('en', 'funds.admin.deposits.table'), exact: true })).toBeVisible();
  await shoot(operator, 'admin-deposits');
  await operator.context().close();
});

/** A funded member with a fill and a resting order, so the trade page's tables have rows. */
async function traderWithOrders(request: APIRequestContext, browser: Browser, baseURL: string, token: string): Promise<void> {
  await fundMember(request, browser, baseURL, token);
  await apiPost(request, '/api/currency/order/submit', { symbol: 'btcusdt', side: 'buy', orderType: 'market', quoteAmount: '150' }, token);
  await apiPost(request, '/api/currency/order/submit', { symbol: 'btcusdt', side: 'buy', orderType: 'limit', price: '90000', quantity: '0.01' }, token);
}

for (const { lang, theme, width } of [
  { lang: 'en', theme: 'light', width: 1440 },
  { lang: 'en', theme: 'dark', width: 1440 },
  { lang: 'de', theme: 'light', width: 1440 },
  { lang: 'de', theme: 'dark', width: 1024 },
] as const) {
  test(`trade ${theme} ${lang} ${width}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await page.setViewportSize({ width, height: 900 });
    await traderWithOrders(request, browser, baseURL!, memberToken);
    await page.goto('/trade/index?type=bb&symbol=btcusdt');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('heading', { level: 1, name: 'BTC/USDT', exact: true })).toBeVisible();
    await expect(page.getByRole('table', { name: t(lang, 'market.book.asks'), exact: true }).getByRole('row').nth(1)).toBeVisible();
    await shoot(page, `trade-${theme}-${lang}-${width}`);
  });
}

for (const { path, name, lang, theme } of [
  { path: '/assets/index?key=order&tab=history', name: 'assets-order-history', lang: 'de', theme: 'light' },
  { path: '/account/entrust/spot', name: 'entrust-spot', lang: 'en', theme: 'dark' },
  { path: '/account/entrust/future/u', name: 'entrust-futures', lang: 'de', theme: 'light' },
] as const) {
  test(`${name} ${theme} ${lang}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await traderWithOrders(request, browser, baseURL!, memberToken);
    await page.goto(path);
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shoot(page, `${name}-${theme}-${lang}`);
  });
}

for (const { lang, theme } of [
  { lang: 'en', theme: 'light' },
  { lang: 'de', theme: 'dark' },
] as const) {
  test(`spot rules ${theme} ${lang}`, async ({ visitor: page, shell }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/rule/index?modelType=6');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('table').first()).toBeVisible();
    await shoot(page, `rules-spot-${theme}-${lang}`);
  });
}

/** A funded member with one settled 5 s flash contract and one open 300 s one, so both tables have rows. */
async function bettorWithOrders(request: APIRequestContext, browser: Browser, baseURL: string, token: string): Promise<void> {
  await fundMember(request, browser, baseURL, token);
  await apiPost(request, '/api/seconds/order/submit', { symbol: 'btcusdt', direction: 'up', periodSeconds: 5, quantity: '50' }, token);
  await apiPost(request, '/api/seconds/order/submit', { symbol: 'btcusdt', direction: 'down', periodSeconds: 300, quantity: '120' }, token);
}

for (const { lang, theme, width } of [
  { lang: 'en', theme: 'light', width: 1440 },
  { lang: 'en', theme: 'dark', width: 1440 },
  { lang: 'de', theme: 'light', width: 1440 },
  { lang: 'de', theme: 'dark', width: 1440 },
] as const) {
  test(`seconds ${theme} ${lang} ${width}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await page.setViewportSize({ width, height: 900 });
    await bettorWithOrders(request, browser, baseURL!, memberToken);
    await page.goto('/trade/index?type=seconds&symbol=btcusdt');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('heading', { level: 1, name: 'BTC/USDT', exact: true })).toBeVisible();
    const form = page.getByRole('form', { name: t(lang, 'seconds.form.title') });
    await form.getByLabel(t(lang, 'seconds.form.stake')).fill('100');
    await expect(page.getByRole('table', { name: t(lang, 'seconds.orders.openTable') }).getByRole('timer').first()).toBeVisible();
    await shoot(page, `seconds-${theme}-${lang}-${width}`);
    await page.getByRole('tab', { name: t(lang, 'seconds.orders.history') }).click();
    const history = page.getByRole('table', { name: t(lang, 'seconds.orders.historyTable') });
    await expect(history.getByText(/^#\d+ → #\d+$/)).toBeVisible({ timeout: 20_000 });
    await shoot(page, `seconds-history-${theme}-${lang}-${width}`);
  });
}

for (const { lang, theme } of [
  { lang: 'en', theme: 'light' },
  { lang: 'de', theme: 'dark' },
] as const) {
  test(`seconds rules ${theme} ${lang}`, async ({ visitor: page, shell }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/rule/index?modelType=4');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('table', { name: t(lang, 'rules.seconds.table.caption') }).getByRole('row').nth(1)).toBeVisible();
    await shoot(page, `rules-seconds-${theme}-${lang}`);
  });
}

/** A member with 1,000 USDT in the trading wallet and an open 10x isolated long of 0.002 BTC with TP/SL (API). */
async function futuresTrader(request: APIRequestContext, browser: Browser, baseURL: string, token: string): Promise<void> {
  await fundTradingWallet(request, browser, baseURL, token, '1000');
  const opened = await request.post('/api/contract/order/submit', {
    headers: { satoken: token, 'Idempotency-Key': crypto.randomUUID() },
    data: { symbol: 'btcusdt', side: 'buy', orderType: 'market', quantity: '0.002', leverage: '10', marginMode: 'isolated' },
  });
  const order = ((await opened.json()) as { data: { dealAverPrice: string } }).data;
  const entry = Number(order.dealAverPrice);
  await apiPost(request, '/api/contract/position/stopOrder', { symbol: 'btcusdt', takeProfitPrice: String(Math.round(entry * 1.2)), stopLossPrice: String(Math.round(entry * 0.95)) }, token);
}

async function futuresIn(page: Page, shell: Shell, lang: Lang, theme: 'light' | 'dark'): Promise<void> {
  await page.goto('/trade/index?type=usta&symbol=btcusdt');
  const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
  if (theme === 'dark') {
    await current.themeSwitch.click();
    await current.expectDarkTheme(true);
  }
  await expect(page.getByRole('heading', { level: 1, name: 'BTC/USDT', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: t(lang, 'market.book.asks'), exact: true }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('table', { name: t(lang, 'futures.positions.table') }).getByLabel(t(lang, 'futures.positions.liquidationOf', { pair: 'BTC/USDT' }))).toBeVisible();
  const form = page.getByRole('region', { name: t(lang, 'futures.form.title', { pair: 'BTC/USDT' }) });
  await form.getByLabel(t(lang, 'futures.form.quantity')).fill('0.003');
  await form.getByText(t(lang, 'futures.form.tpsl'), { exact: true }).click();
  await expect(form.getByLabel(t(lang, 'futures.preview.forLong', { label: t(lang, 'futures.preview.liquidation') }))).toHaveText(/\d/);
}

for (const { lang, theme, width } of [
  { lang: 'en', theme: 'light', width: 1440 },
  { lang: 'en', theme: 'dark', width: 1440 },
  { lang: 'de', theme: 'light', width: 1440 },
  { lang: 'de', theme: 'dark', width: 1440 },
] as const) {
  test(`futures ${theme} ${lang} ${width}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await page.setViewportSize({ width, height: 900 });
    await futuresTrader(request, browser, baseURL!, memberToken);
    await futuresIn(page, shell, lang, theme);
    await shoot(page, `futures-${theme}-${lang}-${width}`);
  });
}

for (const { lang, theme, width } of [
  { lang: 'en', theme: 'light', width: 1440 },
] as const) {
  test(`futures dialogs ${theme} ${lang} ${width}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await page.setViewportSize({ width, height: 900 });
    await futuresTrader(request, browser, baseURL!, memberToken);
    await futuresIn(page, shell, lang, theme);
    const row = page.getByRole('table', { name: t(lang, 'futures.positions.table') }).getByRole('row').nth(1);
    await row.getByRole('button', { name: t(lang, 'futures.positions.setTpSl'), exact: true }).click();
    let dialog = page.getByRole('dialog', { name: t(lang, 'futures.tpsl.title') });
    await expect(dialog).toBeVisible();
    await shoot(page, `futures-dialog-tpsl-${theme}-${lang}-${width}`, { fullPage: false });
    await dialog.getByRole('button', { name: t(lang, 'futures.dialogs.cancel'), exact: true }).click();
    await row.getByRole('button', { name: t(lang, 'futures.positions.adjustMargin'), exact: true }).click();
    dialog = page.getByRole('dialog', { name: t(lang, 'futures.margin.title') });
    await dialog.getByLabel(t(lang, 'futures.margin.amount')).fill('5');
    await expect(dialog.getByRole('group', { name: t(lang, 'futures.margin.newLiquidation') })).toContainText(/\d/);
    await shoot(page, `futures-dialog-margin-${theme}-${lang}-${width}`, { fullPage: false });
    await dialog.getByRole('button', { name: t(lang, 'futures.dialogs.cancel'), exact: true }).click();
    await row.getByRole('button', { name: t(lang, 'futures.positions.close'), exact: true }).click();
    dialog = page.getByRole('dialog', { name: t(lang, 'futures.close.title') });
    await dialog.getByRole('button', { name: t(lang, 'futures.close.percent', { percent: 50 }) }).click();
    await shoot(page, `futures-dialog-close-${theme}-${lang}-${width}`, { fullPage: false });
  });
}

for (const { lang, theme, width } of [
  { lang: 'en', theme: 'light', width: 1440 },
  { lang: 'en', theme: 'dark', width: 1440 },
  { lang: 'de', theme: 'light', width: 1440 },
] as const) {
  test(`futures statements ${theme} ${lang} ${width}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await page.setViewportSize({ width, height: 900 });
    await futuresTrader(request, browser, baseURL!, memberToken);
    await apiPost(request, '/api/contract/order/submit', { symbol: 'btcusdt', side: 'sell', orderType: 'market', closePosition: true }, memberToken);
    await page.goto('/trade/index?type=usta&symbol=btcusdt');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await page.getByRole('tab', { name: t(lang, 'futures.account.closed') }).click();
    const closed = page.getByRole('table', { name: t(lang, 'futures.closed.table') });
    await expect(closed.getByRole('cell', { name: t(lang, 'futures.closed.statuses.closed'), exact: true })).toBeVisible();
    await closed.scrollIntoViewIfNeeded();
    await shoot(page, `futures-position-history-${theme}-${lang}-${width}`, { fullPage: false });
    await page.goto('/assets/index?key=records&tab=bills');
    await page.getByRole('tab', { name: t(lang, 'funds.records.bills'), exact: true }).click();
    await page.getByRole('combobox', { name: t(lang, 'funds.bills.kind') }).selectOption({ label: t(lang, 'funds.bills.kinds.futures') });
    const bills = page.getByRole('table', { name: t(lang, 'funds.records.bills'), exact: true });
    await expect(bills.getByRole('row').filter({ hasText: t(lang, 'funds.bills.kinds.futures_fill') }).first()).toBeVisible();
    await shoot(page, `bills-futures-${theme}-${lang}-${width}`);
  });
}

for (const { path, name, lang, theme } of [
  { path: '/assets/index?key=contract', name: 'assets-contract', lang: 'de', theme: 'light' },
  { path: '/account/entrust/margin-fixed', name: 'entrust-margin-fixed', lang: 'en', theme: 'dark' },
  { path: '/rule/index?modelType=8', name: 'rules-futures', lang: 'de', theme: 'light' },
] as const) {
  test(`${name} ${theme} ${lang}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await futuresTrader(request, browser, baseURL!, memberToken);
    await page.goto(path);
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('table').first()).toBeVisible();
    await shoot(page, `${name}-${theme}-${lang}`);
  });
}

/**
 * Phones (360 × 740, touch): the spot, futures and flash contract screens with their sticky bar,
 * the order sheet open, the orders and positions as cards, a position's dialog, and the assets as
 * cards — light and dark, English and German.
 */
test.describe('phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });

  /**
   * Opens `path` in `lang` and `theme`, switched through the shell's own switches on the home page
   * first (both are remembered): the trade screens keep a phone's main thread busier, and a pick in
   * the language list can take longer there than the switcher's retry allows.
   */
  async function openIn(page: Page, shell: Shell, path: string, lang: Lang, theme: 'light' | 'dark'): Promise<void> {
    await page.goto('/home/index');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect.poll(() => current.htmlLang()).toBe(lang);
  }

  for (const lang of ['en', 'de'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      const suffix = `${theme}-${lang}-360`;

      test(`spot ${theme} ${lang} 360`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
        await traderWithOrders(request, browser, baseURL!, memberToken);
        await openIn(page, shell, '/trade/index?type=bb&symbol=btcusdt', lang, theme);
        await expect(page.getByRole('table', { name: t(lang, 'market.book.asks'), exact: true }).getByRole('row').nth(1)).toBeVisible();
        await shoot(page, `phone-spot-${suffix}`, { fullPage: false });
        const open = page.getByRole('list', { name: t(lang, 'trade.orders.tabs.open'), exact: true });
        await open.getByRole('listitem').first().scrollIntoViewIfNeeded();
        await shoot(page, `phone-spot-orders-${suffix}`, { fullPage: false });
        await page.getByRole('group', { name: t(lang, 'trade.sheet.bar'), exact: true }).getByRole('button', { name: t(lang, 'trade.form.buy'), exact: true }).click();
        const sheet = page.getByRole('dialog', { name: t(lang, 'trade.sheet.title', { pair: 'BTC/USDT' }), exact: true });
        await sheet.getByRole('textbox', { name: t(lang, 'trade.form.quantity'), exact: true }).fill('0.01');
        await expect(sheet.getByRole('group', { name: t(lang, 'trade.preview.title'), exact: true })).toContainText(/\d/);
        await shoot(page, `phone-spot-sheet-${suffix}`, { fullPage: false });
      });

      test(`futures ${theme} ${lang} 360`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
        await futuresTrader(request, browser, baseURL!, memberToken);
        await openIn(page, shell, '/trade/index?type=usta&symbol=btcusdt', lang, theme);
        const card = page
          .getByRole('list', { name: t(lang, 'futures.positions.table'), exact: true })
          .getByRole('listitem', { name: t(lang, 'futures.positions.row', { pair: 'BTC/USDT', side: t(lang, 'futures.side.long') }), exact: true });
        await expect(card.getByLabel(t(lang, 'futures.positions.liquidationOf', { pair: 'BTC/USDT' }))).toHaveText(/\d/);
        await expect(page.getByRole('table', { name: t(lang, 'market.book.asks'), exact: true }).getByRole('row').nth(1)).toBeVisible();
        await shoot(page, `phone-futures-${suffix}`, { fullPage: false });
        await card.scrollIntoViewIfNeeded();
        await shoot(page, `phone-futures-positions-${suffix}`, { fullPage: false });
        await card.getByRole('button', { name: t(lang, 'futures.positions.setTpSl'), exact: true }).click();
        const dialog = page.getByRole('dialog', { name: t(lang, 'futures.tpsl.title') });
        await expect(dialog).toBeVisible();
        await shoot(page, `phone-futures-dialog-tpsl-${suffix}`, { fullPage: false });
        await dialog.getByRole('button', { name: t(lang, 'futures.dialogs.cancel'), exact: true }).click();
        await page.getByRole('group', { name: t(lang, 'futures.sheet.bar'), exact: true }).getByRole('button', { name: t(lang, 'futures.form.openShort'), exact: true }).click();
        const sheet = page.getByRole('dialog', { name: t(lang, 'futures.sheet.title', { pair: 'BTC/USDT' }), exact: true });
        await sheet.getByLabel(t(lang, 'futures.form.quantity')).fill('0.003');
        await expect(sheet.getByLabel(t(lang, 'futures.preview.forShort', { label: t(lang, 'futures.preview.liquidation') }))).toHaveText(/\d/);
        await shoot(page, `phone-futures-sheet-${suffix}`, { fullPage: false });
      });

      test(`assets ${theme} ${lang} 360`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
        await fundMember(request, browser, baseURL!, memberToken);
        await fundsScreenIn(page, shell, '/assets/index?key=overview', 'funds.screens.overview', lang, theme);
        await expect(page.getByRole('listitem', { name: t(lang, 'funds.overview.card', { coin: 'USDT' }), exact: true })).toBeVisible();
        await shoot(page, `phone-assets-${suffix}`);
      });
    }
  }

  test('seconds light de 360', async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await bettorWithOrders(request, browser, baseURL!, memberToken);
    await openIn(page, shell, '/trade/index?type=seconds&symbol=btcusdt', 'de', 'light');
    await expect(page.getByRole('table', { name: t('de', 'seconds.orders.openTable') }).getByRole('timer').first()).toBeVisible();
    await shoot(page, 'phone-seconds-light-de-360', { fullPage: false });
    await page.getByRole('group', { name: t('de', 'seconds.sheet.bar'), exact: true }).getByRole('button').first().click();
    const sheet = page.getByRole('dialog', { name: t('de', 'seconds.sheet.title', { pair: 'BTC/USDT' }), exact: true });
    await sheet.getByLabel(t('de', 'seconds.form.stake')).fill('100');
    await shoot(page, 'phone-seconds-sheet-light-de-360', { fullPage: false });
  });

  test('bills and contract assets dark de 360', async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await futuresTrader(request, browser, baseURL!, memberToken);
    await fundsScreenIn(page, shell, '/assets/index?key=contract', 'funds.screens.contract', 'de', 'dark');
    await expect(page.getByRole('listitem', { name: t('de', 'futures.positions.row', { pair: 'BTC/USDT', side: t('de', 'futures.side.long') }), exact: true })).toBeVisible();
    await shoot(page, 'phone-assets-contract-dark-de-360');
    await page.goto('/assets/index?key=records&tab=bills');
    await expect(page.getByRole('status', { name: t('de', 'funds.loading') })).toHaveCount(0);
    await shoot(page, 'phone-assets-bills-dark-de-360');
  });
});

/** An open 30-day staking product (names in English and German) and the member funded and subscribed to it (API). */
async function earnMember(request: APIRequestContext, browser: Browser, baseURL: string, token: string): Promise<number> {
  const claim = await claimDeposit(request, token, '2500');
  const operator = await newOperator(browser, baseURL, request);
  const operatorToken = (await operator.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
  await apiPost(request, `/api/admin/deposits/${claim}/review`, { approve: true }, operatorToken);
  const product = await createStakingProduct(request, operatorToken);
  await operator.context().close();
  await apiPost(request, '/api/earn/subscribe', { productId: product.id, amount: '500' }, token);
  return product.id;
}

for (const { lang, theme, width } of [
  { lang: 'en', theme: 'light', width: 1440 },
  { lang: 'de', theme: 'dark', width: 1440 },
  { lang: 'de', theme: 'light', width: 360 },
  { lang: 'en', theme: 'dark', width: 360 },
] as const) {
  test(`earn screens ${theme} ${lang} ${width}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    const id = await earnMember(request, browser, baseURL!, memberToken);
    await page.goto('/pledge/index');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('heading', { level: 1, name: t(lang, 'earn.titles.pledge'), exact: true })).toBeVisible();
    await expect(page.getByRole('article').first()).toBeVisible();
    await shoot(page, `earn-pledge-${theme}-${lang}-${width}`);

    await page.goto(`/pledge/add?id=${id}`);
    await page.getByLabel(t(lang, 'earn.form.amount'), { exact: true }).fill('1000');
    await expect(page.getByText(t(lang, 'earn.preview.valueDate'), { exact: true })).toBeVisible();
    await shoot(page, `earn-subscribe-${theme}-${lang}-${width}`);

    await page.goto('/pledge/order');
    await expect(page.getByRole('article').first()).toBeVisible();
    await shoot(page, `earn-orders-${theme}-${lang}-${width}`);
    await page.getByRole('article').first().getByRole('button', { name: t(lang, 'earn.orders.redeem'), exact: true }).click();
    await expect(page.getByRole('dialog').getByRole('group', { name: t(lang, 'earn.redeem.title') })).toBeVisible();
    await shoot(page, `earn-redeem-${theme}-${lang}-${width}`, { fullPage: false });

    await page.goto('/finance/investment?tab=member');
    await expect(page.getByRole('note')).toBeVisible();
    await shoot(page, `earn-finance-member-${theme}-${lang}-${width}`);
  });
}

test('admin earn products', async ({ memberToken, request, browser, baseURL }) => {
  await earnMember(request, browser, baseURL!, memberToken);
  const operator = await newOperator(browser, baseURL!, request);
  await operator.setViewportSize({ width: 1440, height: 900 });
  await operator.goto('/admin?queue=earn');
  await expect(operator.getByRole('table')).toBeVisible();
  await shoot(operator, 'admin-earn');
  await operator.getByRole('button', { name: t('en', 'earn.admin.create'), exact: true }).click();
  await expect(operator.getByRole('dialog')).toBeVisible();
  await shoot(operator, 'admin-earn-form', { fullPage: false });
  await operator.context().close();
});

/** A visitor's open support chat in `lang` with a question and an operator's answer. */
async function supportChatIn(page: Page, shell: Shell, lang: Lang, theme: 'light' | 'dark', request: APIRequestContext, operatorToken: string): Promise<void> {
  await page.goto('/home/index');
  const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
  if (theme === 'dark') {
    await current.themeSwitch.click();
    await current.expectDarkTheme(true);
  }
  await current.footer.getByRole('button', { name: t(lang, 'menu.onlineCustomer') }).click();
  const chat = page.getByRole('dialog', { name: t(lang, 'chat.title') });
  const email = `shot-${theme}-${lang}-${Date.now()}@example.com`;
  await chat.getByLabel(t(lang, 'support.email')).fill(email);
  await chat.getByRole('button', { name: t(lang, 'support.start') }).click();
  const question = lang === 'de' ? 'Wann wird meine Einzahlung gutgeschrieben?' : 'When will my deposit be credited?';
  await chat.getByRole('textbox', { name: t(lang, 'support.message') }).fill(question);
  await chat.getByRole('button', { name: t(lang, 'support.send') }).click();
  await expect(chat.getByText(question)).toBeVisible();
  const queued = await request.get('/api/admin/support/conversations?queue=queued', { headers: { satoken: operatorToken } });
  const rows = ((await queued.json()) as { data: { records: { contact: string; conversation: { id: number } }[] } }).data.records;
  const id = rows.find((row) => row.contact === email)!.conversation.id;
  const reply = lang === 'de' ? 'Nach drei Bestätigungen im Netzwerk, meist innerhalb von zehn Minuten.' : 'After three network confirmations, usually within ten minutes.';
  await apiPost(request, `/api/admin/support/conversations/${id}/send`, { body: reply }, operatorToken);
  await expect(chat.getByText(reply)).toBeVisible();
}

test.describe('support chat', () => {
  for (const lang of ['en', 'de'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      test(`support chat ${theme} ${lang}`, async ({ visitor: page, shell, request, browser, baseURL }) => {
        const operator = await newOperator(browser, baseURL!, request);
        const token = (await operator.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
        await supportChatIn(page, shell, lang, theme, request, token);
        await shoot(page, `support-chat-${theme}-${lang}`, { fullPage: false });
        await operator.goto('/admin?queue=support');
        await operator.getByRole('tab', { name: t('en', 'support.admin.mine') }).click();
        await operator.getByTestId('support-row').first().click();
        await expect(operator.getByTestId('support-thread').getByRole('textbox')).toBeVisible();
        if (lang === 'en' && theme === 'light') await shoot(operator, 'admin-support-inbox', { fullPage: false });
        await operator.context().close();
      });
    }
  }
  test.describe('phone', () => {
    test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    for (const theme of ['light', 'dark'] as const) {
      test(`support chat ${theme} de 360`, async ({ visitor: page, shell, request, browser, baseURL }) => {
        const operator = await newOperator(browser, baseURL!, request);
        const token = (await operator.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
        await supportChatIn(page, shell, 'de', theme, request, token);
        await shoot(page, `phone-support-chat-${theme}-de-360`, { fullPage: false });
        await operator.context().close();
      });
    }
  });
});

for (const { lang, theme, width } of [
  { lang: 'en', theme: 'light', width: 1440 },
  { lang: 'de', theme: 'dark', width: 1440 },
  { lang: 'de', theme: 'light', width: 360 },
  { lang: 'en', theme: 'dark', width: 360 },
] as const) {
  test(`referral screens ${theme} ${lang} ${width}`, async ({ member: page, shell }) => {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    await page.goto('/account/center/reward-center');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('img', { name: t(lang, 'referral.qrLabel'), exact: true })).toBeVisible();
    await shoot(page, `referral-reward-center-${theme}-${lang}-${width}`);

    await page.goto('/account/center/contractAgents/agentManagement');
    await expect(page.getByText(t(lang, 'referral.agent.notAgent'), { exact: true })).toBeVisible();
    await shoot(page, `referral-agents-${theme}-${lang}-${width}`);

    await page.goto('/assets/index?key=promotion');
    await expect(page.getByRole('heading', { name: t(lang, 'referral.promotion.title'), exact: true })).toBeVisible();
    await shoot(page, `referral-promotion-${theme}-${lang}-${width}`);
  });
}

test('admin referral agents', async ({ request, browser, baseURL }) => {
  const operator = await newOperator(browser, baseURL!, request);
  await operator.setViewportSize({ width: 1440, height: 900 });
  await operator.goto('/admin?queue=agents');
  await expect(operator.getByRole('heading', { name: t('en', 'referral.admin.title'), exact: true })).toBeVisible();
  await shoot(operator, 'admin-referral-agents');
  await operator.context().close();
});

// Content screens (issue 27): the store's pages, the help centre, the overview and the announcements,
// at 1440 px and at 360 px, light and dark, English and German.
for (const { path, name, lang, theme, width } of [
  { path: '/about/index', name: 'about', lang: 'en', theme: 'light', width: 1440 },
  { path: '/about/index', name: 'about', lang: 'de', theme: 'dark', width: 360 },
  { path: '/article/main/index', name: 'articles', lang: 'en', theme: 'dark', width: 1440 },
  { path: '/article/main/index', name: 'articles', lang: 'de', theme: 'light', width: 360 },
  { path: '/notice/index', name: 'notices', lang: 'de', theme: 'light', width: 1440 },
  { path: '/notice/index', name: 'notices', lang: 'en', theme: 'dark', width: 360 },
  { path: '/user/index?key=helper', name: 'help-centre', lang: 'en', theme: 'light', width: 1440 },
  { path: '/user/index?key=helper', name: 'help-centre', lang: 'de', theme: 'dark', width: 360 },
  { path: '/user/index?key=all', name: 'user-overview', lang: 'en', theme: 'dark', width: 1440 },
  { path: '/user/index?key=all', name: 'user-overview', lang: 'de', theme: 'light', width: 360 },
  { path: '/rule/index?modelType=12', name: 'rule-privacy', lang: 'de', theme: 'light', width: 1440 },
  { path: '/rule/index?modelType=1', name: 'rule-new-pairs', lang: 'en', theme: 'dark', width: 360 },
] as const) {
  test(`${name} ${theme} ${lang} ${width}`, async ({ member: page, shell }) => {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
    await page.goto('/home/index');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.locator('[aria-hidden="true"].chakra-skeleton, .chakra-skeleton')).toHaveCount(0);
    await shoot(page, `content-${name}-${theme}-${lang}-${width}`);
  });
}

test('admin content editor', async ({ browser, baseURL, request }) => {
  const operator = await newOperator(browser, baseURL!, request);
  await operator.setViewportSize({ width: 1440, height: 900 });
  await operator.goto('/admin?queue=content');
  await expect(operator.getByRole('table')).toBeVisible();
  await shoot(operator, 'admin-content');
  await operator.getByRole('button', { name: /^Edit / }).first().click();
  await expect(operator.getByRole('tab', { name: t('en', 'content.admin.preview') })).toBeVisible();
  await shoot(operator, 'admin-content-editor', { fullPage: false });
  await operator.context().close();
});

/** A USDT loan product (the pool funded), the member applied and approved for 1,000 over 30 days (API); the loan's id. */
async function loanMember(request: APIRequestContext, browser: Browser, baseURL: string, token: string): Promise<number> {
  const operator = await newOperator(browser, baseURL, request);
  const operatorToken = (await operator.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
  await operator.context().close();
  await apiPost(request, '/api/admin/loans/pool/fund', { coin: 'usdt', amount: '100000' }, operatorToken);
  const product = await apiPost<{ id: number }>(
    request,
    '/api/admin/loans/products',
    {
      coin: 'usdt',
      scale: 2,
      minAmount: '100',
      maxAmount: '5000',
      cycles: [30, 60],
      dayRate: '0.0005',
      repayWays: ['maturity', 'equal_instalments'],
      institution: 'Kestrel Lending',
      penaltyDayRate: '0.001',
      graceDays: 3,
      minCreditScore: 0,
      kycLevel: 0,
      names: { en: 'USDT flexible loan', de: 'USDT-Kredit' },
      enabled: true,
    },
    operatorToken,
  );
  const fileIds: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const upload = await request.post('/api/common/upload/OSS', { headers: { satoken: token }, multipart: { file: { name: 'id.png', mimeType: 'image/png', buffer: PNG_1X1 } } });
    fileIds.push(((await upload.json()) as { data: { fileId: number } }).data.fileId);
  }
  const application = await apiPost<{ id: number }>(
    request,
    '/api/loan/apply',
    { productId: product.id, amount: '1000', cycleDays: 60, repayWay: 'equal_instalments', documents: 'upload', frontFileId: fileIds[0], backFileId: fileIds[1], holdFileId: fileIds[2], acceptRules: true },
    token,
  );
  await apiPost(request, `/api/admin/loans/applications/${application.id}/review`, { approve: true }, operatorToken);
  return application.id;
}

for (const { lang, theme, width } of [
  { lang: 'en', theme: 'light', width: 1440 },
  { lang: 'de', theme: 'dark', width: 1440 },
  { lang: 'de', theme: 'light', width: 360 },
  { lang: 'en', theme: 'dark', width: 360 },
] as const) {
  test(`loan screens ${theme} ${lang} ${width}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    const id = await loanMember(request, browser, baseURL!, memberToken);
    await page.goto('/loan/index');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('heading', { level: 1, name: t(lang, 'loans.titles.index'), exact: true })).toBeVisible();
    const card = page.getByRole('article').first();
    await expect(card).toBeVisible();
    await shoot(page, `loan-index-${theme}-${lang}-${width}`);
    // The application is pending no more (approved), so the form opens for a second loan's preview.
    await card.getByRole('button', { name: t(lang, 'loans.product.apply'), exact: true }).click();
    await page.getByLabel(t(lang, 'loans.apply.amount'), { exact: true }).fill('1000');
    await page.getByLabel(t(lang, 'loans.apply.cycle'), { exact: true }).selectOption('60');
    await page.getByLabel(t(lang, 'loans.apply.way'), { exact: true }).selectOption('equal_instalments');
    await expect(page.getByRole('group', { name: t(lang, 'loans.preview.title') }).getByRole(width === 360 ? 'list' : 'table')).toBeVisible();
    await shoot(page, `loan-apply-${theme}-${lang}-${width}`);

    await page.goto('/loan/order?state=active');
    await expect(page.getByRole('article').first()).toBeVisible();
    await shoot(page, `loan-order-${theme}-${lang}-${width}`);
    await page.goto(`/loan/order?state=active&loan=${id}`);
    await expect(page.getByRole('region', { name: t(lang, 'loans.detail.instalments') }).getByRole(width === 360 ? 'list' : 'table')).toBeVisible();
    await shoot(page, `loan-detail-${theme}-${lang}-${width}`);
    await page.getByRole('button', { name: t(lang, 'loans.detail.repayFull'), exact: true }).click();
    await expect(page.getByRole('dialog').getByText(t(lang, 'loans.repay.settles'), { exact: true })).toBeVisible();
    await shoot(page, `loan-repay-${theme}-${lang}-${width}`, { fullPage: false });
  });
}

// Tables that are cards on a phone (issue 23): the earn assets, and the security tab's API keys and
// login log, at 360 px in light and dark, German and English.
for (const { lang, theme } of [
  { lang: 'de', theme: 'light' },
  { lang: 'de', theme: 'dark' },
  { lang: 'en', theme: 'dark' },
] as const) {
  test(`earn assets and security tab ${theme} ${lang} 360`, async ({ member: page, memberAccount, memberToken, shell, request, browser, baseURL }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await earnMember(request, browser, baseURL!, memberToken);
    await confirmIdentity(request, memberAccount, memberToken);
    await apiPost(request, '/api/coin/coin/member/api', { label: 'Grid bot on the office machine', permissions: ['read', 'trade'], ipWhitelist: ['203.0.113.7', '2001:db8:85a3::8a2e:370:7334'] }, memberToken);
    await page.goto('/assets/index?key=finance');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('list', { name: t(lang, 'earn.assets.financeTitle'), exact: true }).getByRole('listitem', { name: 'USDT', exact: true })).toBeVisible();
    await shoot(page, `phone-earn-assets-${theme}-${lang}-360`);
    await page.goto('/account/center/security');
    await expect(page.getByRole('list', { name: t(lang, 'account.apiKeys.title'), exact: true }).getByRole('listitem')).toBeVisible();
    await expect(page.getByRole('list', { name: t(lang, 'account.loginLog.title'), exact: true }).getByRole('listitem').first()).toBeVisible();
    await shoot(page, `phone-security-${theme}-${lang}-360`);
  });
}

test('admin loan screens', async ({ memberToken, request, browser, baseURL }) => {
  await loanMember(request, browser, baseURL!, memberToken);
  const operator = await newOperator(browser, baseURL!, request);
  await operator.setViewportSize({ width: 1440, height: 900 });
  await operator.goto('/admin?queue=loans');
  await expect(operator.getByRole('table')).toBeVisible();
  await shoot(operator, 'admin-loans');
  await operator.goto('/admin?queue=loanApplications');
  await operator.getByLabel(t('en', 'loans.detail.state')).selectOption('approved');
  await expect(operator.getByRole('article').first()).toBeVisible();
  await shoot(operator, 'admin-loan-applications');
  await operator.context().close();
});

// Tiers and merchants (issue 26): the tier tab, the merchant application and the merchant tool,
// at 1440 px and 360 px, light and dark, English and German; the admin merchants queue and tiers view.

/** Applies as a merchant through the API; with `approve`, a new operator approves it at 30 %. */
async function merchantMember(request: APIRequestContext, browser: Browser, baseURL: string, token: string, approve: boolean): Promise<void> {
  await apiPost(
    request,
    '/api/merchant/apply',
    { businessName: 'Kiosk am Markt', contact: 'kiosk@example.com', business: 'Phone top-ups and crypto vouchers for walk-in customers.', countries: 'Germany, Austria' },
    token,
  );
  if (!approve) return;
  const userId = (await apiPost<{ user: { userId: number } }>(request, '/api/user/getInfo', undefined, token)).user.userId;
  const operator = await newOperator(browser, baseURL, request);
  const operatorToken = (await operator.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
  await apiPost(request, '/api/admin/merchants/decide', { userId, approve: true, rebateRate: '0.3' }, operatorToken);
  await operator.context().close();
}

for (const { lang, theme, width } of [
  { lang: 'en', theme: 'light', width: 1440 },
  { lang: 'de', theme: 'dark', width: 1440 },
  { lang: 'de', theme: 'light', width: 360 },
  { lang: 'en', theme: 'dark', width: 360 },
] as const) {
  test(`tier and merchant screens ${theme} ${lang} ${width}`, async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
    await fundMember(request, browser, baseURL!, memberToken);
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    await page.goto('/account/center/tier');
    const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
    if (theme === 'dark') {
      await current.themeSwitch.click();
      await current.expectDarkTheme(true);
    }
    await expect(page.getByRole('table', { name: t(lang, 'tiers.table.accountTiers'), exact: true })).toBeVisible();
    await shoot(page, `tier-${theme}-${lang}-${width}`);

    await page.goto('/account/center/merchant');
    const form = page.getByRole('form', { name: t(lang, 'tiers.merchant.formTitle') });
    await form.getByRole('button', { name: t(lang, 'tiers.merchant.submit'), exact: true }).click();
    await expect(form.getByText(t(lang, 'tiers.merchant.errors.required'), { exact: true }).first()).toBeVisible();
    await shoot(page, `merchant-apply-${theme}-${lang}-${width}`);

    await merchantMember(request, browser, baseURL!, memberToken, true);
    await page.reload();
    await expect(page.getByRole('region', { name: t(lang, 'tiers.merchant.profile'), exact: true })).toBeVisible();
    await expect(page.getByText(t(lang, 'tiers.merchant.empty'), { exact: true })).toBeVisible();
    await shoot(page, `merchant-tool-${theme}-${lang}-${width}`);
  });
}

test('merchant pending de light 360', async ({ member: page, memberToken, shell, request, browser, baseURL }) => {
  await merchantMember(request, browser, baseURL!, memberToken, false);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto('/account/center/merchant');
  await shell.switchLanguage('de');
  await expect(page.getByText(t('de', 'tiers.merchant.pendingTitle'), { exact: true })).toBeVisible();
  await shoot(page, 'merchant-pending-light-de-360');
});

test('admin merchants and tiers', async ({ memberToken, request, browser, baseURL }) => {
  await merchantMember(request, browser, baseURL!, memberToken, false);
  const operator = await newOperator(browser, baseURL!, request);
  await operator.setViewportSize({ width: 1440, height: 900 });
  await operator.goto('/admin?queue=merchants');
  await expect(operator.getByRole('listitem', { name: /^Kiosk am Markt/ }).first()).toBeVisible();
  await shoot(operator, 'admin-merchants');
  await operator.goto('/admin?queue=tiers');
  await expect(operator.getByRole('table', { name: t('en', 'tiers.table.accountTiers'), exact: true })).toBeVisible();
  await shoot(operator, 'admin-tiers');
  await operator.context().close();
});
