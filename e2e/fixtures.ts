/**
 * Test fixtures: page objects of the shell, the home page and the auth screens (roles and accessible
 * names only, in the language the page is showing), accounts registered through the API with codes
 * read from the dev outbox, a clean `visitor` page and a `member` page logged in as a fresh account.
 *
 * @module
 */

import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { type APIRequestContext, type BrowserContext, type Locator, type Page, test as base, expect } from '@playwright/test';
import { type Lang, LANGUAGE_NAMES, escapeRegExp, t, tickerName } from './i18n';

export { expect } from '@playwright/test';
export { escapeRegExp, t, tickerName, tPattern, type Lang } from './i18n';

/** The site name the backend is configured with (its default). */
export const SITE_NAME = 'Kestrel Exchange';

/** Cookie whose presence makes the shell treat the browser as logged in. */
export const ACCESS_TOKEN_COOKIE = 'coin-access-token';

/** The spot pairs the home page must list (a subset of the seeded coin list). */
export const LISTED_PAIRS = [
  'BTC/USDT',
  'ETH/USDT',
  'BNB/USDT',
  'DOGE/USDT',
  'XRP/USDT',
  'ADA/USDT',
  'SOL/USDT',
  'LTC/USDT',
] as const;

/** A price with thousands separators and exactly two decimals (BTC/USDT's precision). */
export const BTC_PRICE = /^\d{1,3}(,\d{3})*\.\d{2}$/;

/** A price with thousands separators and `decimals` decimals. */
export function pricePattern(decimals: number): RegExp {
  return decimals > 0 ? new RegExp(`^\\d{1,3}(,\\d{3})*\\.\\d{${decimals}}$`) : /^\d{1,3}(,\d{3})*$/;
}

/** A 24h change such as `+1.25%`, `-0.40%`, `0.00%`, or the placeholder `--`. */
export const CHANGE = /^([+-]?\d+\.\d{2}%|--)$/;

/** The top bar, side menu, footer and switches, located by role and label in language `lang`. */
export class Shell {
  constructor(
    readonly page: Page,
    readonly lang: Lang = 'en',
  ) {}

  /** The same page object, reading labels in another language (after a switch). */
  in(lang: Lang): Shell {
    return new Shell(this.page, lang);
  }

  /** `t()` in this page object's language. */
  t(key: string, params?: Record<string, string | number>): string {
    return t(this.lang, key, params);
  }

  get banner(): Locator {
    return this.page.getByRole('banner');
  }

  get main(): Locator {
    return this.page.getByRole('main');
  }

  get footer(): Locator {
    return this.page.getByRole('contentinfo');
  }

  get menuButton(): Locator {
    return this.banner.getByRole('button', { name: this.t('nav.openMenu'), exact: true });
  }

  /** The drawer dialog holding the side menu (named "Main menu"). */
  get sideMenuDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('nav.mainMenu'), exact: true });
  }

  /** The side menu's navigation landmark (inside the drawer dialog). */
  get sideMenu(): Locator {
    return this.sideMenuDialog.getByRole('navigation', { name: this.t('nav.mainMenu'), exact: true });
  }

  /** One titled group (Resource, Features, Account) of the side menu. */
  sideMenuGroup(key: 'menu.resource' | 'menu.features' | 'menu.account'): Locator {
    return this.sideMenu.getByRole('region', { name: this.t(key), exact: true });
  }

  /** The language select (a combobox whose options are the languages' own names). */
  get languageSwitcher(): Locator {
    return this.banner.getByRole('combobox', { name: this.t('nav.language'), exact: true });
  }

  /** The option of the open language select that picks `lang`. */
  languageOption(lang: Lang): Locator {
    return this.page.getByRole('listbox', { name: this.t('nav.language'), exact: true }).getByRole('option', {
      name: LANGUAGE_NAMES[lang],
      exact: true,
    });
  }

  /** The theme switch: a toggle button named "Dark theme", pressed while the dark theme is on. */
  get themeSwitch(): Locator {
    return this.banner.getByRole('button', { name: this.t('nav.darkTheme'), exact: true });
  }

  /** The link of the top bar's logo to the home page. */
  get homeLink(): Locator {
    return this.banner.getByRole('link', { name: this.t('nav.homeLink', { siteName: SITE_NAME }), exact: true });
  }

  get loginLink(): Locator {
    return this.banner.getByRole('link', { name: this.t('nav.login'), exact: true });
  }

  get registerLink(): Locator {
    return this.banner.getByRole('link', { name: this.t('nav.register'), exact: true });
  }

  get featuresButton(): Locator {
    return this.banner.getByRole('navigation', { name: this.t('nav.primary'), exact: true }).getByRole('button', {
      name: this.t('nav.features'),
      exact: true,
    });
  }

  /** The top bar's BTC/USDT price link (its label carries the price and the change). */
  get btcTicker(): Locator {
    return this.banner.getByRole('link', { name: tickerName(this.lang, 'BTC/USDT') });
  }

  /** The level-1 heading of the routed screen. */
  get pageHeading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  async openMenu(): Promise<Locator> {
    await this.menuButton.click();
    await expect(this.sideMenu).toBeVisible();
    // The drawer answers Escape once it has trapped focus; before that a key press goes to the page.
    await expect.poll(() => this.sideMenuDialog.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    return this.sideMenu;
  }

  /** Picks `lang` in the switcher and waits until the page shows it; returns the new page object. */
  async switchLanguage(lang: Lang): Promise<Shell> {
    const next = this.in(lang);
    // A pick can be dropped by the select (seen once, at 360 px, the list still shown open and the
    // page in English): pick again, from a list opened again if it closed, until the page shows it.
    await expect(async () => {
      // A pick that took longer than the poll below still counts: the switcher then has the new name.
      if ((await next.htmlLang()) === lang) return;
      if (!(await this.languageOption(lang).isVisible())) await this.languageSwitcher.click({ timeout: 2_000 });
      await this.languageOption(lang).click({ timeout: 2_000 });
      await expect.poll(() => next.htmlLang(), { timeout: 2_000 }).toBe(lang);
    }).toPass({ timeout: 15_000 });
    await next.expectLanguage();
    return next;
  }

  /** The page is in this page object's language: `<html lang>` and the switcher's own label. */
  async expectLanguage(): Promise<void> {
    await expect.poll(() => this.htmlLang()).toBe(this.lang);
    await expect(this.languageSwitcher).toBeVisible();
  }

  /** Whether the theme switch reads as pressed (dark theme on). */
  async expectDarkTheme(on: boolean): Promise<void> {
    await expect(this.themeSwitch).toHaveAttribute('aria-pressed', String(on));
  }

  /** `<html lang>` of the page. */
  htmlLang(): Promise<string> {
    return this.page.evaluate(() => document.documentElement.lang);
  }

  /** Whether the page is in dark mode, as the webapp marks it on `<html>` (class and color-scheme). */
  colorMode(): Promise<{ className: string; colorScheme: string }> {
    return this.page.evaluate(() => ({
      className: document.documentElement.className,
      colorScheme: getComputedStyle(document.documentElement).colorScheme,
    }));
  }
}

/** The home page's coin table and search, by role and label. */
export class HomePage {
  constructor(
    readonly page: Page,
    readonly lang: Lang = 'en',
  ) {}

  async goto(): Promise<void> {
    await this.page.goto('/home/index');
    await expect(this.table).toBeVisible();
  }

  get table(): Locator {
    return this.page.getByRole('main').getByRole('table', { name: t(this.lang, 'home.marketsTitle'), exact: true });
  }

  get search(): Locator {
    return this.page
      .getByRole('search', { name: t(this.lang, 'home.searchLabel'), exact: true })
      .getByRole('searchbox', { name: t(this.lang, 'home.searchLabel'), exact: true });
  }

  get hotCoins(): Locator {
    return this.page.getByRole('main').getByRole('region', { name: t(this.lang, 'home.hotCoins'), exact: true });
  }

  /** The pair names of the rows the table shows, in order. */
  get pairNames(): Locator {
    return this.table.getByRole('rowheader');
  }

  /** The table row of `pair` (its row header is the pair name). */
  row(pair: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('rowheader', { name: pair, exact: true }) });
  }

  /** The last-price cell of `pair` (first data cell after the row header). */
  priceCell(pair: string): Locator {
    return this.row(pair).getByRole('cell').nth(0);
  }

  /** The 24h-change cell of `pair`. */
  changeCell(pair: string): Locator {
    return this.row(pair).getByRole('cell').nth(1);
  }

  /** Waits until live prices are on screen: BTC/USDT shows a formatted price. */
  async waitForPrices(): Promise<void> {
    await expect(this.priceCell('BTC/USDT')).toHaveText(BTC_PRICE);
  }
}

/** A coin list entry as getCoinList returns it (the fields the tests read). */
export interface CoinListEntry {
  symbol: string;
  coin: string;
  baseCoin: string;
  showSymbol: string;
  customizeFlag: number;
  pricePrecision: number;
  hot: boolean;
}

/** The spot coin list from the backend (the webapp's data source). */
export async function fetchSpotCoins(request: APIRequestContext): Promise<CoinListEntry[]> {
  const response = await request.post('/api/common/getCoinList');
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { code: number; data: { currencyList: CoinListEntry[] } };
  expect(body.code).toBe(200);
  return body.data.currencyList;
}

/** The pair name the webapp shows for a coin list entry. */
export function pairName(coin: CoinListEntry): string {
  return coin.customizeFlag === 2 && coin.showSymbol ? coin.showSymbol : `${coin.coin}/${coin.baseCoin}`.toUpperCase();
}

/** The backend's English message of `key` (backend/locales/en.json and its area folders), with `{param}`s filled in. */
export function serverText(key: string, params: Record<string, string | number> = {}): string {
  const root = new URL('../backend/locales/', import.meta.url);
  const files = [new URL('en.json', root)];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory()) files.push(new URL(`${entry.name}/en.json`, root));
  }
  for (const file of files) {
    let messages: Record<string, unknown>;
    try {
      messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      continue;
    }
    const text = messages[key];
    if (typeof text === 'string') return text.replace(/\{(\w+)\}/g, (_whole, name: string) => String(params[name] ?? `{${name}}`));
  }
  throw new Error(`No backend message ${key}`);
}

/** A password that follows rule A (upper case, lower case, digit, 8+ characters). */
export const TEST_PASSWORD = 'Kestrel2026x';

/** A fresh, unique e-mail address (the outbox keeps every message; nothing is delivered). */
export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${randomUUID().slice(0, 12)}@kestrel.test`;
}

/** A message of the dev outbox (`GET /api/dev/outbox?to=…`, newest first). */
export interface OutboxMessage {
  id: number;
  channel: string;
  to: string;
  subject: string;
  body: string;
  ageMs: number;
}

/** The dev outbox's messages to `to`, newest first. */
export async function outbox(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  const response = await request.get('/api/dev/outbox', { params: { to } });
  expect(response.ok(), 'GET /api/dev/outbox (development mode only)').toBe(true);
  return ((await response.json()) as { data: OutboxMessage[] }).data;
}

/** The id of the newest outbox message to `to`, or 0: pass it as `after` before asking for a code. */
export async function lastOutboxId(request: APIRequestContext, to: string): Promise<number> {
  return (await outbox(request, to))[0]?.id ?? 0;
}

/**
 * The 6-digit code of the newest message to `to` newer than message `after`, waiting (polling)
 * until it has arrived.
 */
export async function outboxCode(request: APIRequestContext, to: string, { after = 0 }: { after?: number } = {}): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const message = (await outbox(request, to)).find((m) => m.id > after && /\b\d{6}\b/.test(m.body));
        code = message ? (/\b(\d{6})\b/.exec(message.body)?.[1] ?? '') : '';
        return code;
      },
      { message: `a code in the dev outbox for ${to}` },
    )
    .toMatch(/^\d{6}$/);
  return code;
}

/** A POST to the API; returns the envelope after checking it succeeded. */
/** Clicks "Send code" in `scope` (a second-factor field's), reads the security code from the dev
 * outbox of `account` and fills it in. */
export async function enterSecurityCode(request: APIRequestContext, scope: Locator, account: string): Promise<void> {
  const after = await lastOutboxId(request, account);
  await scope.getByRole('button', { name: t('en', 'verify.send'), exact: true }).click();
  const code = await outboxCode(request, account, { after });
  await scope.getByRole('textbox', { name: t('en', 'verify.securityCode'), exact: true }).fill(code);
}

/** POSTs `data` (as `token`'s session) and returns the envelope's `data`, expecting success. */
export async function apiPost<D>(request: APIRequestContext, path: string, data?: unknown, token?: string): Promise<D> {
  const response = await request.post(path, { data, headers: token ? { satoken: token } : {} });
  const body = (await response.json()) as { code: number; msg: string; data: D };
  expect(body.code, `${path}: ${body.msg}`).toBe(200);
  return body.data;
}

/** An account registered through the API. */
export interface TestAccount {
  account: string;
  password: string;
  userId: number;
}

/** Confirms `token`'s session through the API: a security code sent to `account`'s e-mail, then
 * `member/reauth` with the password and that code. */
export async function confirmIdentity(request: APIRequestContext, { account, password }: Pick<TestAccount, 'account' | 'password'>, token: string): Promise<void> {
  const after = await lastOutboxId(request, account);
  // The registration code went to the same address a moment ago: wait out the (one-second) resend window.
  await expect
    .poll(async () => (await request.get('/api/coin/coin/open/send/email', { params: { purpose: 'security' }, headers: { satoken: token } })).status(), {
      message: 'send a security code',
    })
    .toBe(200);
  const code = await outboxCode(request, account, { after });
  await apiPost(request, '/api/coin/coin/member/reauth', { password, securityCode: code }, token);
}

/** Registers a fresh account through the API: sendEmailCode → code from the outbox → register. */
export async function registerAccount(
  request: APIRequestContext,
  { account = uniqueEmail(), password = TEST_PASSWORD, inviteCode }: { account?: string; password?: string; inviteCode?: string } = {},
): Promise<TestAccount> {
  const after = await lastOutboxId(request, account);
  await apiPost(request, '/api/user/sendEmailCode', { account, type: 'register' });
  const code = await outboxCode(request, account, { after });
  const { userId } = await apiPost<{ userId: number }>(request, '/api/user/register', {
    account,
    password,
    confirmPassword: password,
    code,
    ...(inviteCode ? { inviteCode } : {}),
  });
  return { account, password, userId };
}

/** Logs in through the API; returns the session token (`satoken`). */
export async function loginToken(request: APIRequestContext, { account, password }: Pick<TestAccount, 'account' | 'password'>): Promise<string> {
  return (await apiPost<{ satoken: string }>(request, '/api/user/login', { account, password })).satoken;
}

/** The login, register and reset screens' forms, by label and role, in language `lang`. */
export class AuthPages {
  constructor(
    readonly page: Page,
    readonly lang: Lang = 'en',
  ) {}

  private t(key: string, params?: Record<string, string | number>): string {
    return t(this.lang, key, params);
  }

  get main(): Locator {
    return this.page.getByRole('main');
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  get account(): Locator {
    return this.main.getByRole('textbox', { name: this.t('auth.field.account'), exact: true });
  }

  /** The password field (login and register) — `getByLabel`, since a password input has no role. */
  get password(): Locator {
    return this.main.getByLabel(this.t('auth.field.password'), { exact: true });
  }

  get newPassword(): Locator {
    return this.main.getByLabel(this.t('auth.field.newPassword'), { exact: true });
  }

  get confirmPassword(): Locator {
    return this.main.getByLabel(this.t('auth.field.confirmPassword'), { exact: true });
  }

  get code(): Locator {
    return this.main.getByRole('textbox', { name: this.t('auth.field.code'), exact: true });
  }

  get inviteCode(): Locator {
    return this.main.getByRole('textbox', { name: this.t('auth.field.inviteCode'), exact: true });
  }

  get sendCodeButton(): Locator {
    return this.main.getByRole('button', { name: this.t('auth.code.send'), exact: true });
  }

  get loginButton(): Locator {
    return this.main.getByRole('button', { name: this.t('auth.login.submit'), exact: true });
  }

  get registerButton(): Locator {
    return this.main.getByRole('button', { name: this.t('auth.register.submit'), exact: true });
  }

  get resetButton(): Locator {
    return this.main.getByRole('button', { name: this.t('auth.reset.submit'), exact: true });
  }

  /** The message of the whole form (a refused call that names no field). */
  get formError(): Locator {
    return this.main.getByRole('alert');
  }

  /** A toast (Chakra renders them as status regions) with exactly `text`. */
  toast(text: string): Locator {
    return this.page.getByRole('status').filter({ hasText: new RegExp(`^${escapeRegExp(text)}$`) });
  }

  /** Clicks Send code and reads the new code from the dev outbox. (The e2e server's resend window
   * is one second, too short to assert the countdown; vitest covers it.) */
  async sendCode(request: APIRequestContext, account: string): Promise<string> {
    const after = await lastOutboxId(request, account);
    await this.sendCodeButton.click();
    return outboxCode(request, account, { after });
  }

  /** Fills in the login form and submits it with Enter. */
  async logIn(account: string, password: string): Promise<void> {
    await expect(this.heading).toHaveText(this.t('screens.userLogin'));
    await this.account.fill(account);
    await this.password.fill(password);
    await this.password.press('Enter');
  }
}

async function clearBrowserState(context: BrowserContext, page: Page): Promise<void> {
  await context.clearCookies();
  // Local storage is per origin: open a tiny same-origin resource to reach it, then empty it.
  await page.goto('/platform/dev/config.js');
  await page.evaluate(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
}

type Fixtures = {
  /** Page objects of the shell, the home page and the auth screens, in English. */
  shell: Shell;
  home: HomePage;
  auth: AuthPages;
  /** A page with no cookies and no local storage (a visitor in English, light theme). */
  visitor: Page;
  /** A fresh account registered through the API for this test (not logged in anywhere). */
  memberAccount: TestAccount;
  /** The session token of `memberAccount`, from a login through the API. */
  memberToken: string;
  /** A clean page logged in as `memberAccount`: its session token in the `coin-access-token` cookie. */
  member: Page;
};

export const test = base.extend<Fixtures>({
  // Every page of every spec fails its test on a Content-Security-Policy violation: Chromium reports
  // each one on the console ("… violates the following Content Security Policy directive …").
  page: async ({ page }, use) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await use(page);
    expect(violations, 'Content-Security-Policy violations on the page').toEqual([]);
  },
  shell: async ({ page }, use) => {
    await use(new Shell(page));
  },
  home: async ({ page }, use) => {
    await use(new HomePage(page));
  },
  auth: async ({ page }, use) => {
    await use(new AuthPages(page));
  },
  visitor: async ({ context, page }, use) => {
    await clearBrowserState(context, page);
    await use(page);
  },
  memberAccount: async ({ request }, use) => {
    await use(await registerAccount(request));
  },
  memberToken: async ({ request, memberAccount }, use) => {
    await use(await loginToken(request, memberAccount));
  },
  member: async ({ context, page, baseURL, memberToken }, use) => {
    await clearBrowserState(context, page);
    await context.addCookies([{ name: ACCESS_TOKEN_COOKIE, value: memberToken, url: baseURL, sameSite: 'Lax' }]);
    await use(page);
  },
});
