/**
 * Crypto loans end to end: an operator funds the lending pool and creates a product in /admin; a
 * member applies on /loan/index with the wasm-core schedule preview shown and the three identity
 * images uploaded; the operator approves with the documents in view; the member sees the loan and
 * the principal in their funding balance, and repays early at exactly the previewed figure. A second
 * loan is left unpaid: the test clock (`POST /api/admin/test/clock/advance`) crosses its due date,
 * the due sweep (every second) marks it overdue, and the member sees it with the penalty.
 *
 * The two run one after the other: the second moves the shared clock by days.
 *
 * @module
 */

import type { APIRequestContext, Page } from '@playwright/test';
import { apiPost, expect, t, test } from './fixtures';
import { PNG_1X1, newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

test.describe.configure({ mode: 'serial' });

/** The operator's session token (from its page's cookie). */
async function tokenOf(page: Page): Promise<string> {
  return (await page.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
}

/** An authenticated GET's `data`. */
async function apiGet<D>(request: APIRequestContext, path: string, token: string): Promise<D> {
  const response = await request.get(path, { headers: { satoken: token } });
  expect(response.ok(), `${path}: ${response.status()}`).toBe(true);
  return ((await response.json()) as { data: D }).data;
}

/** An image upload of the member's (`POST /api/common/upload/OSS`): its file id. */
async function upload(request: APIRequestContext, token: string): Promise<number> {
  const response = await request.post('/api/common/upload/OSS', {
    headers: { satoken: token },
    multipart: { file: { name: 'document.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  });
  return ((await response.json()) as { data: { fileId: number } }).data.fileId;
}

/** Credits `amount` USDT to the member's funding account: a deposit claim approved by the operator (API). */
async function fundMember(request: APIRequestContext, token: string, operatorToken: string, amount: string): Promise<void> {
  const fileId = await upload(request, token);
  const claim = await apiPost<{ id: number }>(request, '/api/recharge/submit', { coin: 'usdt', network: 'TRC20', amount, screenshot: String(fileId) }, token);
  await apiPost(request, `/api/admin/deposits/${claim.id}/review`, { approve: true }, operatorToken);
}

/** The operator funds the USDT lending pool and creates a product in /admin (no identity level, score 0). */
async function createProduct(operator: Page, name: string, fields: { cycles: string; dayRate: string; penalty: string; grace: string }): Promise<void> {
  await operator.goto('/admin?queue=loans');
  const pool = operator.getByRole('region', { name: en('loans.admin.pool') });
  await pool.getByLabel(en('loans.admin.fundAmount'), { exact: true }).fill('100000');
  await pool.getByRole('button', { name: en('loans.admin.fund'), exact: true }).click();
  await expect(operator.getByText(en('loans.admin.funded'), { exact: true })).toBeVisible();
  await expect(pool.getByTestId('pool-usdt')).not.toHaveText('');

  await operator.getByRole('button', { name: en('loans.admin.create'), exact: true }).click();
  const form = operator.getByRole('dialog', { name: en('loans.admin.create') });
  const field = (key: string) => form.getByLabel(en(`loans.admin.fields.${key}`), { exact: true });
  await field('name').fill(name);
  await field('minAmount').fill('100');
  await field('maxAmount').fill('5000');
  await field('cycles').fill(fields.cycles);
  await field('dayRatePercent').fill(fields.dayRate);
  await field('penaltyRatePercent').fill(fields.penalty);
  await field('graceDays').fill(fields.grace);
  await field('minCreditScore').fill('0');
  await field('kycLevel').selectOption('0');
  await field('institution').fill('Kestrel Lending E2E');
  await form.getByRole('button', { name: en('loans.admin.save'), exact: true }).click();
  await expect(form).toHaveCount(0);
  await expect(operator.getByRole('row').filter({ hasText: name })).toBeVisible();
}

test('a member applies with the preview, the operator approves, the member repays early at the previewed figure', async ({ member: page, memberToken, browser, baseURL, request }) => {
  const operator = await newOperator(browser, baseURL!, request);
  const operatorToken = await tokenOf(operator);
  const name = `E2E loan ${Date.now()}`;
  await createProduct(operator, name, { cycles: '30', dayRate: '0.1', penalty: '0.5', grace: '3' });
  await fundMember(request, memberToken, operatorToken, '100');

  // The product, the credit score and its factors.
  await page.goto('/loan/index');
  await expect(page.getByRole('heading', { level: 1, name: en('loans.titles.index'), exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: en('loans.credit.title') }).getByText(en('loans.credit.factors.base'), { exact: true })).toBeVisible();
  const card = page.getByRole('article', { name });
  await expect(card.getByText('0.1%', { exact: true })).toBeVisible();
  await expect(card.getByText(en('loans.days', { days: 30 }), { exact: true })).toBeVisible();
  await card.getByRole('button', { name: en('loans.product.apply'), exact: true }).click();

  // The amount's limits, then the schedule before anything is sent: 1000 × 0.1 % × 30 days = 30.
  const form = page.getByRole('region', { name: en('loans.apply.title', { name }) });
  const submit = form.getByRole('button', { name: en('loans.apply.submit'), exact: true });
  await form.getByLabel(en('loans.apply.amount'), { exact: true }).fill('50');
  await expect(form.getByText(en('loans.apply.problem.min', { amount: '100', coin: 'USDT' }), { exact: true })).toBeVisible();
  await expect(submit).toBeDisabled();
  await form.getByLabel(en('loans.apply.amount'), { exact: true }).fill('1000');
  const preview = form.getByRole('group', { name: en('loans.preview.title') });
  await expect(preview.getByRole('definition').filter({ hasText: /^30 USDT$/ })).toHaveCount(1);
  await expect(preview.getByRole('definition').filter({ hasText: /^1,030 USDT$/ })).toHaveCount(1);
  await expect(preview.getByText(/no penalty for 3 days/)).toBeVisible();

  // The three images and the rules.
  for (const side of ['front', 'back', 'hold']) {
    await form.getByLabel(en(`loans.apply.documents.${side}`), { exact: true }).setInputFiles({ name: `${side}.png`, mimeType: 'image/png', buffer: PNG_1X1 });
  }
  await expect(form.getByText(en('loans.apply.documents.uploaded'), { exact: true })).toHaveCount(3);
  await form.getByText(en('loans.apply.accept')).click();
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page).toHaveURL(/\/loan\/order\?state=pending$/);
  await expect(page.getByRole('article').filter({ hasText: '1,000 USDT' })).toBeVisible();

  // The operator approves, with the documents and the credit score in view.
  const applications = await apiGet<{ records: { id: number }[] }>(request, '/api/loan/applications?status=pending', memberToken);
  const id = applications.records[0]!.id;
  await operator.goto('/admin?queue=loanApplications');
  const queued = operator.getByRole('article', { name: en('loans.order.application', { id }) });
  await expect(queued.getByRole('img')).toHaveCount(3);
  await queued.getByRole('button', { name: en('loans.admin.approve'), exact: true }).click();
  await expect(operator.getByText(en('loans.admin.approved'), { exact: true })).toBeVisible();

  // The member sees the loan (the channel's `loan` message refreshes the page) and the principal arrived.
  await page.goto('/loan/order?state=active');
  const loanCard = page.getByRole('article', { name: en('loans.order.loan', { id }) });
  await expect(loanCard.getByText(en('loans.status.active'), { exact: true })).toBeVisible();
  await loanCard.getByRole('button', { name: en('loans.order.open'), exact: true }).click();
  await page.getByRole('button', { name: en('loans.detail.repayFull'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: en('loans.repay.fullTitle') });
  const figures = dialog.getByRole('group').or(dialog.locator('dl'));
  await expect(figures.getByRole('definition').filter({ hasText: /^1,100 USDT$/ })).toHaveCount(1);
  await expect(dialog.getByText(en('loans.repay.checked'), { exact: true })).toBeVisible();
  const total = (await dialog.locator('dt', { hasText: en('loans.repay.amount') }).locator('xpath=following-sibling::dd[1]').textContent())!;
  expect(total).toMatch(/^1,00\d(\.\d+)? USDT$/);

  // Repaying takes exactly the previewed figure and settles the loan.
  await dialog.getByRole('button', { name: en('loans.repay.confirm', { amount: total }), exact: true }).click();
  await expect(page.getByText(en('loans.repay.done', { amount: total }), { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: en('loans.order.loan', { id }) }).getByText(en('loans.status.settled'), { exact: true })).toBeVisible();
  // What left funding is the figure shown: 100 deposited + 1,000 lent − the repayment.
  const coins = await apiPost<{ coins: { coin: string; funding: string }[] }>(request, '/api/userCoin/getUserCoin', undefined, memberToken);
  const funding = coins.coins.find((c) => c.coin.toLowerCase() === 'usdt')!.funding;
  expect(Number(funding) + Number(total.replace(/[^\d.]/g, ''))).toBeCloseTo(1100, 6);
  await operator.context().close();
});

test('an unpaid loan crosses its due date on the test clock and shows overdue with its penalty', async ({ member: page, memberToken, browser, baseURL, request }) => {
  const operator = await newOperator(browser, baseURL!, request);
  const operatorToken = await tokenOf(operator);
  const name = `E2E overdue ${Date.now()}`;
  await createProduct(operator, name, { cycles: '7', dayRate: '0.1', penalty: '1', grace: '1' });
  const offers = await apiGet<{ product: { id: number; name: string } }[]>(request, '/api/loan/products', memberToken);
  const productId = offers.find((o) => o.product.name === name)!.product.id;

  // Applied and approved through the API (the screens are the first test's); nothing else in funding,
  // so the due-time deduction (principal and interest) cannot be made.
  const application = await apiPost<{ id: number }>(
    request,
    '/api/loan/apply',
    {
      productId,
      amount: '1000',
      cycleDays: 7,
      repayWay: 'maturity',
      documents: 'upload',
      frontFileId: await upload(request, memberToken),
      backFileId: await upload(request, memberToken),
      holdFileId: await upload(request, memberToken),
      acceptRules: true,
    },
    memberToken,
  );
  await apiPost(request, `/api/admin/loans/applications/${application.id}/review`, { approve: true }, operatorToken);

  await apiPost(request, '/api/admin/test/clock/advance', { days: 10 }, operatorToken);
  await expect
    .poll(async () => (await apiGet<{ loan: { status: string } }>(request, `/api/loan/${application.id}`, memberToken)).loan.status, { timeout: 15_000 })
    .toBe('overdue');
  const detail = await apiGet<{ instalments: { penalty: string; daysOverdue: number }[]; loan: { penaltyAccrued: string } }>(request, `/api/loan/${application.id}`, memberToken);
  const row = detail.instalments[0]!;
  // 1 % a day of the 1,007 due, for each day begun after the one grace day.
  expect(Number(row.penalty)).toBeCloseTo(10.07 * (row.daysOverdue - 1), 2);

  await page.goto('/loan/order?state=overdue');
  const card = page.getByRole('article', { name: en('loans.order.loan', { id: application.id }) });
  await expect(card.getByText(en('loans.status.overdue'), { exact: true })).toBeVisible();
  await card.getByRole('button', { name: en('loans.order.open'), exact: true }).click();
  const instalments = page.getByRole('region', { name: en('loans.detail.instalments') });
  await expect(instalments.getByText(en('loans.detail.daysOverdue', { days: row.daysOverdue }), { exact: true }).filter({ visible: true })).toBeVisible();
  await expect(instalments.getByRole('cell', { name: Number(row.penalty).toLocaleString('en-US', { maximumFractionDigits: 8 }), exact: true })).toBeVisible();
  await expect(page.getByText(/no penalty for 1 days, then 1% of the unpaid amount/)).toBeVisible();
  await operator.context().close();
});
