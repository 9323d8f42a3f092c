/**
 * Earn end to end: an operator creates a staking product in /admin; a member funded by an approved
 * deposit subscribes on /pledge/add with the schedule preview shown; the test clock
 * (`POST /api/admin/test/clock/advance`, served because playwright.config.ts sets
 * `EXCHANGE_TEST_CLOCK`) crosses two days and the payout run pays the first reward (D+2), which
 * shows in the order, the bills and the finance assets; an early redemption's preview applies the
 * product's rule (principal less the rewards paid) and the redeemed order shows what came back.
 *
 * @module
 */

import type { APIRequestContext, Page } from '@playwright/test';
import { apiPost, expect, t, test } from './fixtures';
import { PNG_1X1, newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

/** The operator's session token (from its page's cookie). */
async function tokenOf(page: Page): Promise<string> {
  return (await page.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
}

/** Credits `amount` USDT to the member's funding account: a deposit claim approved by `operator` (API). */
async function fundMember(request: APIRequestContext, token: string, operatorToken: string, amount: string): Promise<void> {
  const upload = await request.post('/api/common/upload/OSS', {
    headers: { satoken: token },
    multipart: { file: { name: 'payment.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  });
  const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
  const claim = await apiPost<{ id: number }>(request, '/api/recharge/submit', { coin: 'usdt', network: 'TRC20', amount, screenshot: String(fileId) }, token);
  await apiPost(request, `/api/admin/deposits/${claim.id}/review`, { approve: true }, operatorToken);
}

/** The operator creates a 7-day staking product at 1 % a day in /admin (early redemption deducts paid rewards). */
async function createProduct(operator: Page, name: string): Promise<void> {
  await operator.goto('/admin?queue=earn');
  await expect(operator.getByRole('heading', { name: en('earn.admin.title'), exact: true })).toBeVisible();
  await operator.getByRole('button', { name: en('earn.admin.create'), exact: true }).click();
  const form = operator.getByRole('dialog', { name: en('earn.admin.create') });
  await form.getByLabel(en('earn.admin.fields.nameIn', { language: 'English' }), { exact: true }).fill(name);
  await form.getByLabel(en('earn.admin.fields.nameIn', { language: 'Deutsch' }), { exact: true }).fill(`${name} DE`);
  await form.getByLabel(en('earn.admin.fields.rate'), { exact: true }).fill('0.01');
  await form.getByLabel(en('earn.admin.fields.lockDays'), { exact: true }).fill('7');
  await form.getByLabel(en('earn.admin.fields.minAmount'), { exact: true }).fill('10');
  await form.getByLabel(en('earn.admin.fields.maxAmount'), { exact: true }).fill('1000');
  await form.getByLabel(en('earn.admin.fields.totalQuota'), { exact: true }).fill('100000');
  // Open since an hour ago (the form's default start is now, to the minute).
  const start = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16);
  await form.getByLabel(en('earn.admin.fields.startAt'), { exact: true }).fill(start);
  await form.getByRole('button', { name: en('earn.admin.save'), exact: true }).click();
  await expect(form).toHaveCount(0);
  const row = operator.getByRole('row').filter({ hasText: name });
  await expect(row.getByText(en('earn.status.open'), { exact: true })).toBeVisible();
}

test('a member subscribes to staking, sees the D+2 payout after two days, and redeems early by the rule', async ({ member: page, memberToken, browser, baseURL, request }) => {
  const operator = await newOperator(browser, baseURL!, request);
  const operatorToken = await tokenOf(operator);
  const name = `E2E staking ${Date.now()}`;
  await createProduct(operator, name);
  await fundMember(request, memberToken, operatorToken, '1000');

  // The product's card: rates both ways, term, and a subscribe link.
  await page.goto('/pledge/index');
  await expect(page.getByRole('heading', { level: 1, name: en('earn.titles.pledge'), exact: true })).toBeVisible();
  const card = page.getByRole('article', { name });
  await expect(card.getByText('1%', { exact: true })).toBeVisible();
  await expect(card.getByText('365%', { exact: true })).toBeVisible();
  await expect(card.getByText(en('earn.product.days', { days: 7 }), { exact: true })).toBeVisible();
  await card.getByRole('link', { name: en('earn.product.subscribe'), exact: true }).click();
  await expect(page).toHaveURL(/\/pledge\/add\?id=\d+$/);

  // Amount, the balance, and the schedule from wasm-core before confirming.
  await expect(page.getByText('1,000 USDT', { exact: true })).toBeVisible();
  await page.getByLabel(en('earn.form.amount'), { exact: true }).fill('5');
  await expect(page.getByText(en('earn.form.problem.belowMin', { amount: '10', coin: 'USDT' }), { exact: true })).toBeVisible();
  await page.getByLabel(en('earn.form.amount'), { exact: true }).fill('100');
  const preview = page.getByRole('group', { name: en('earn.preview.title') });
  await expect(preview.getByText(en('earn.preview.daily'), { exact: true })).toBeVisible();
  await expect(preview.getByRole('definition').filter({ hasText: /^1 USDT$/ })).toHaveCount(1);
  await expect(preview.getByText('7 USDT', { exact: true })).toBeVisible();
  await expect(preview.getByText(en('earn.preview.valueDate'), { exact: true })).toBeVisible();
  await expect(page.getByText(en('earn.rule.deduct'), { exact: true })).toBeVisible();
  const confirm = page.getByRole('button', { name: en('earn.form.confirm'), exact: true });
  await expect(confirm).toBeDisabled();
  await page.getByText(en('earn.form.agree'), { exact: true }).click();
  await confirm.click();

  // The order list: in progress, nothing paid yet.
  await expect(page).toHaveURL('/pledge/order');
  const order = page.getByRole('article', { name });
  await expect(order.getByText('100 USDT', { exact: true })).toBeVisible();
  await expect(order.getByText(en('earn.orders.accruedValue', { days: 0, total: 7 }), { exact: true })).toBeVisible();

  // Two days later the payout run pays the first day's reward (accrued on D+1, paid on D+2).
  await apiPost(request, '/api/admin/test/clock/advance', { days: 2 }, operatorToken);
  const run = await apiPost<{ payouts: number }>(request, '/api/admin/earn/run', {}, operatorToken);
  expect(run.payouts).toBeGreaterThanOrEqual(1);
  await page.reload();
  await expect(order.getByRole('definition').filter({ hasText: /^1 USDT$/ })).toHaveCount(1);

  // The reward is in the bills and in the finance assets.
  await page.goto('/assets/index?key=records&tab=bills');
  await expect(page.getByText(/Reward of earn product #\d+ for \d{4}-\d{2}-\d{2}/).first()).toBeVisible();
  await page.goto('/assets/index?key=finance');
  await expect(page.getByRole('heading', { name: en('earn.assets.financeTitle'), exact: true })).toBeVisible();
  const usdt = page.getByRole('row').filter({ hasText: 'USDT' });
  await expect(usdt.getByRole('cell').nth(1)).toHaveText('100');
  await expect(usdt.getByRole('cell').nth(2)).toHaveText('1');
  await page.goto('/assets/index?key=investment');
  await expect(page.getByText(/^#\d+ · 100 USDT$/)).toBeVisible();

  // Early redemption: the rule takes the paid reward back from the principal.
  await page.goto('/pledge/order');
  await page.getByRole('article', { name }).getByRole('button', { name: en('earn.orders.redeem'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: en('earn.redeem.title') });
  const figures = dialog.getByRole('group', { name: en('earn.redeem.title') });
  await expect(figures.getByText('−1 USDT', { exact: true })).toBeVisible();
  await expect(figures.getByText('99 USDT', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: en('earn.redeem.confirm'), exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('tab', { name: en('earn.orders.tabs.redeemed'), exact: true }).click();
  const redeemed = page.getByRole('article', { name });
  await expect(redeemed.getByText('99 USDT', { exact: true })).toBeVisible();
  await operator.context().close();
});
