/**
 * Referral end to end: A invites B (B registers through A's link `/i&CODE`, the register form
 * prefilled), B invites C, C invites D (API registrations with the codes); an operator makes A an
 * agent with rates of its own in /admin; D, funded by an approved deposit, buys BTC at market
 * (a spot fill against the simulated book); the test clock
 * (`POST /api/admin/test/clock/advance`) moves past the next hour and the hourly batch (it ticks
 * every minute on the shared clock) records D's fee for C (generation 1), B (2) and A (3). Each
 * of them opens the reward centre's statement and drills down to D's fill: pair, fee, generation
 * and rate (A's agent rate for generation 3). Every account of the suite logs in from 127.0.0.1
 * and none is verified, so the batch withholds these rebates and each line says why
 * (`not_verified`); the paid path, the amounts and the cap are proved by the backend's HTTP tests.
 *
 * @module
 */

import type { APIRequestContext, Page } from '@playwright/test';
import { ACCESS_TOKEN_COOKIE, TEST_PASSWORD, apiPost, expect, loginToken, registerAccount, t, test, uniqueEmail } from './fixtures';
import { PNG_1X1, newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

interface Summary {
  inviteCode: string;
}

interface Line {
  fillId: number;
  generation: number;
  rate: string;
  status: string;
  withheldReason?: string;
  symbol: string;
}

async function apiGet<D>(request: APIRequestContext, path: string, token: string): Promise<D> {
  const response = await request.get(path, { headers: { satoken: token } });
  const body = (await response.json()) as { code: number; msg: string; data: D };
  if (body.code !== 200) throw new Error(`${path}: ${body.msg}`);
  return body.data;
}

async function tokenOf(page: Page): Promise<string> {
  return (await page.context().cookies()).find((c) => c.name === ACCESS_TOKEN_COOKIE)!.value;
}

/** Credits `amount` USDT to the member's funding account: a deposit claim approved by `operatorToken`. */
async function fund(request: APIRequestContext, token: string, operatorToken: string, amount: string): Promise<void> {
  const upload = await request.post('/api/common/upload/OSS', {
    headers: { satoken: token },
    multipart: { file: { name: 'payment.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  });
  const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
  const claim = await apiPost<{ id: number }>(request, '/api/recharge/submit', { coin: 'usdt', network: 'TRC20', amount, screenshot: String(fileId) }, token);
  await apiPost(request, `/api/admin/deposits/${claim.id}/review`, { approve: true }, operatorToken);
}

test('A invites B invites C invites D; D trades; A, B and C drill down to the fill', async ({ visitor: page, auth, request, browser, baseURL }) => {
  test.setTimeout(240_000);
  const a = await registerAccount(request);
  const aToken = await loginToken(request, a);
  const aCode = (await apiGet<Summary>(request, '/api/referral/summary', aToken)).inviteCode;

  // B follows A's link: the register form carries A's code.
  await page.goto(`/i&${aCode}`);
  await expect(page).toHaveURL(`/user/register?invite_code=${aCode}`);
  await expect(auth.inviteCode).toHaveValue(aCode);
  const b = { account: uniqueEmail('referral-b'), password: TEST_PASSWORD };
  await auth.account.fill(b.account);
  await auth.code.fill(await auth.sendCode(request, b.account));
  await auth.password.fill(TEST_PASSWORD);
  await auth.confirmPassword.fill(TEST_PASSWORD);
  await auth.registerButton.click();
  await expect(page).toHaveURL('/user/login');
  const bToken = await loginToken(request, b);
  const bSummary = await apiGet<Summary & { invitedBy?: number }>(request, '/api/referral/summary', bToken);
  expect(bSummary.invitedBy).toBe(a.userId);

  const c = await registerAccount(request, { inviteCode: bSummary.inviteCode });
  const cToken = await loginToken(request, c);
  const d = await registerAccount(request, { inviteCode: (await apiGet<Summary>(request, '/api/referral/summary', cToken)).inviteCode });
  const dToken = await loginToken(request, d);

  // The operator makes A an agent at 30 / 15 / 7.5 % in /admin.
  const operator = await newOperator(browser, baseURL!, request);
  const operatorToken = await tokenOf(operator);
  await operator.goto('/admin?queue=agents');
  const form = operator.getByRole('form', { name: en('referral.admin.add') });
  await form.getByLabel(en('referral.admin.userId')).fill(String(a.userId));
  await form.getByLabel(en('referral.admin.rateN', { n: 1 })).fill('30');
  await form.getByLabel(en('referral.admin.rateN', { n: 2 })).fill('15');
  await form.getByLabel(en('referral.admin.rateN', { n: 3 })).fill('7.5');
  await form.getByRole('button', { name: en('referral.admin.save') }).click();
  await expect(operator.getByRole('table', { name: en('referral.admin.title') }).getByText('30% / 15% / 7.5%')).toBeVisible();

  // D trades: a market buy of 150 USDT of BTC.
  await fund(request, dToken, operatorToken, '500');
  await apiPost(request, '/api/currency/order/submit', { symbol: 'btcusdt', side: 'buy', orderType: 'market', quoteAmount: '150' }, dToken);

  // Past the next hour; the batch ticks once a minute.
  await apiPost(request, '/api/admin/test/clock/advance', { ms: 2 * 3_600_000 }, operatorToken);
  await operator.context().close();
  const linesOf = async (token: string) => (await apiGet<{ records: Line[] }>(request, '/api/referral/statement', token)).records;
  await expect.poll(async () => (await linesOf(aToken)).length, { timeout: 150_000, intervals: [5_000] }).toBeGreaterThan(0);

  const fillId = (await linesOf(cToken))[0]!.fillId;
  for (const [token, generation, rate] of [
    [cToken, 1, '20%'],
    [bToken, 2, '10%'],
    [aToken, 3, '7.5%'],
  ] as const) {
    // A market order may fill at several levels of the book: one line per fill, the newest first.
    const lines = await linesOf(token);
    expect(lines.find((l) => l.fillId === fillId)).toMatchObject({ generation, symbol: 'btcusdt', status: 'withheld', withheldReason: 'not_verified' });
    const newest = lines[0]!;

    const context = await browser.newContext({ baseURL: baseURL!, locale: 'en-US', timezoneId: 'America/New_York' });
    await context.addCookies([{ name: ACCESS_TOKEN_COOKIE, value: token, url: baseURL!, sameSite: 'Lax' }]);
    const member = await context.newPage();
    await member.goto('/account/center/reward-center');
    const statement = member.getByRole('list', { name: en('referral.statement.title') });
    await expect(statement.getByText(en('referral.withheld.not_verified')).first()).toBeVisible();
    await statement.getByRole('button', { name: en('referral.statement.details') }).first().click();
    await expect(statement.getByText(`#${newest.fillId}`)).toBeVisible();
    await expect(statement.getByText('BTCUSDT').first()).toBeVisible();
    await expect(statement.getByText(en('referral.generationN', { n: generation })).first()).toBeVisible();
    await expect(statement.getByText(rate, { exact: true })).toBeVisible();
    await context.close();
  }
});
