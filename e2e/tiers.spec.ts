/**
 * Tiers and merchants end to end (issue 26), as users and operators click through them: a member
 * opens the tier tab, follows the merchant programme to the application, is stopped by the form's
 * checks, applies; an operator approves the application in /admin with a rate of its own; the
 * member reloads and finds the merchant tab — profile, rate, invitation link — and a user who
 * registers with the merchant's code among its customers. A rejected application shows the
 * operator's reason and can be sent again. A fresh member sees the basic tier with what is missing
 * to the next one; after a deposit of exactly the next tier's minimum is approved (the e2e deposit
 * path: a claim with a screenshot, approved by an operator) the tier tab shows that tier.
 *
 * @module
 */

import type { APIRequestContext, Page } from '@playwright/test';
import { ACCESS_TOKEN_COOKIE, apiPost, expect, registerAccount, t, test } from './fixtures';
import { PNG_1X1, newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

interface TierTable {
  accountTiers: { tier: string; minimumDepositUsd: string }[];
}

/** `1000` → `1,000.00`: how the webapp shows a USD amount. */
const usd = (amount: string) => new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(amount));

async function tokenOf(page: Page): Promise<string> {
  return (await page.context().cookies()).find((c) => c.name === ACCESS_TOKEN_COOKIE)!.value;
}

async function apiGet<D>(request: APIRequestContext, path: string, token?: string): Promise<D> {
  const response = await request.get(path, { headers: token ? { satoken: token } : {} });
  const body = (await response.json()) as { code: number; msg: string; data: D };
  expect(body.code, `${path}: ${body.msg}`).toBe(200);
  return body.data;
}

/** The account centre's tab list. */
const accountNav = (page: Page) => page.getByRole('navigation', { name: en('account.nav'), exact: true });

/** The application form's fields, by their labels (a required field's name ends with its `*`). */
function formField(page: Page, key: string) {
  return page.getByRole('form', { name: en('tiers.merchant.formTitle') }).getByRole('textbox', { name: new RegExp(`^${en(`tiers.merchant.fields.${key}`)}`) });
}

test('a member applies to be a merchant, an operator approves it in /admin, the member gets the merchant tab', async ({ member: page, request, browser, baseURL }) => {
  test.setTimeout(120_000);
  const business = `E2E Kiosk ${Date.now()}`;

  await page.goto('/account/center/tier');
  await expect(page.getByRole('heading', { level: 2, name: en('account.tabs.tier'), exact: true })).toBeVisible();
  const programme = page.getByRole('region', { name: en('tiers.merchant.programme'), exact: true });
  await expect(programme.getByText(en('tiers.merchant.none'), { exact: true })).toBeVisible();
  await programme.getByRole('link', { name: en('tiers.merchant.apply'), exact: true }).click();
  await expect(page).toHaveURL('/account/center/merchant');
  await expect(page.getByRole('heading', { level: 2, name: en('tiers.merchant.applyTitle'), exact: true })).toBeVisible();
  await expect(accountNav(page).getByRole('link', { name: en('account.tabs.merchant'), exact: true })).toHaveCount(0);

  // The form's own checks: nothing is sent while a field is empty.
  const form = page.getByRole('form', { name: en('tiers.merchant.formTitle') });
  await form.getByRole('button', { name: en('tiers.merchant.submit'), exact: true }).click();
  await expect(form.getByText(en('tiers.merchant.errors.required'), { exact: true })).toHaveCount(4);

  await formField(page, 'businessName').fill(business);
  await formField(page, 'contact').fill('kiosk@example.com');
  await formField(page, 'business').fill('Phone top-ups and crypto vouchers for walk-in customers.');
  await formField(page, 'countries').fill('Germany, Austria');
  await form.getByRole('button', { name: en('tiers.merchant.submit'), exact: true }).click();
  await expect(page.getByText(en('tiers.merchant.pendingTitle'), { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: en('tiers.merchant.sentTitle'), exact: true }).getByText(business)).toBeVisible();

  // The operator approves it at 12.5 %.
  const operator = await newOperator(browser, baseURL!, request);
  await operator.goto('/admin?queue=merchants');
  await expect(operator.getByRole('heading', { level: 2, name: en('tiers.admin.merchantsTitle'), exact: true })).toBeVisible();
  const card = operator.getByRole('listitem', { name: new RegExp(`^${business}`) });
  await expect(card.getByText('kiosk@example.com')).toBeVisible();
  await card.getByRole('textbox', { name: en('tiers.admin.ratePercent'), exact: true }).fill('12.5');
  await card.getByRole('button', { name: en('tiers.admin.approve'), exact: true }).click();
  await expect(card).toHaveCount(0);
  await operator.getByRole('group', { name: en('tiers.admin.filter') }).getByRole('button', { name: en('tiers.admin.filters.approved'), exact: true }).click();
  await expect(operator.getByRole('listitem', { name: new RegExp(`^${business}`) }).getByText('12.5%', { exact: true })).toBeVisible();
  await operator.context().close();

  // The member reloads: the merchant tab is there and is the merchant tool.
  await page.reload();
  const merchantTab = accountNav(page).getByRole('link', { name: en('account.tabs.merchant'), exact: true });
  await expect(merchantTab).toBeVisible();
  await page.goto('/account/center/tier');
  await expect(page.getByRole('region', { name: en('tiers.merchant.programme'), exact: true }).getByText(en('tiers.merchant.approvedShort'), { exact: true })).toBeVisible();
  await merchantTab.click();
  await expect(page).toHaveURL('/account/center/merchant');
  const profile = page.getByRole('region', { name: en('tiers.merchant.profile'), exact: true });
  await expect(profile.getByText(business)).toBeVisible();
  await expect(profile.getByText(en('tiers.merchant.active'), { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: en('tiers.merchant.rate'), exact: true }).getByText('12.5%', { exact: true })).toBeVisible();
  const invite = page.getByRole('region', { name: en('tiers.merchant.inviteTitle'), exact: true });
  await expect(invite.getByRole('img', { name: en('tiers.merchant.qrLabel'), exact: true })).toBeVisible();
  const link = (await invite.getByText(/\/i&[A-Z0-9]+$/).textContent())!;
  await expect(page.getByText(en('tiers.merchant.empty'), { exact: true })).toBeVisible();

  // A user registering with the merchant's code becomes its customer.
  await registerAccount(request, { inviteCode: link.slice(link.indexOf('&') + 1) });
  await page.reload();
  const customers = page.getByRole('table', { name: en('tiers.merchant.customers'), exact: true });
  await expect(customers.getByRole('row')).toHaveCount(2);
  await expect(customers.getByRole('row').nth(1)).toContainText('***');
  await expect(page.getByText(new RegExp(`^${en('tiers.merchant.customersTotal', { count: 1 })}`))).toBeVisible();
});

test("a rejected application shows the operator's reason and can be sent again", async ({ member: page, memberToken, request, browser, baseURL }) => {
  const business = `E2E Rejected ${Date.now()}`;
  await apiPost(request, '/api/merchant/apply', { businessName: business, contact: '+49 30 1234567', business: 'Second-hand phones', countries: 'Germany' }, memberToken);

  const operator = await newOperator(browser, baseURL!, request);
  await operator.goto('/admin?queue=merchants');
  const card = operator.getByRole('listitem', { name: new RegExp(`^${business}`) });
  await card.getByRole('textbox', { name: en('tiers.admin.reason'), exact: true }).fill('Please add a website or a shop address.');
  await card.getByRole('button', { name: en('tiers.admin.reject'), exact: true }).click();
  await expect(card).toHaveCount(0);
  await operator.context().close();

  await page.goto('/account/center/merchant');
  await expect(page.getByText(en('tiers.merchant.rejectedTitle'), { exact: true })).toBeVisible();
  await expect(page.getByText(en('tiers.merchant.rejectedReason', { reason: 'Please add a website or a shop address.' }), { exact: true })).toBeVisible();
  await expect(formField(page, 'businessName')).toHaveValue(business);
  await formField(page, 'contact').fill('https://shop.example.com');
  await page.getByRole('button', { name: en('tiers.merchant.submit'), exact: true }).click();
  await expect(page.getByText(en('tiers.merchant.pendingTitle'), { exact: true })).toBeVisible();
});

test('a member sees the tier and what the next one takes; an approved deposit moves the tier up', async ({ member: page, memberToken, request, browser, baseURL }) => {
  const table = await apiGet<TierTable>(request, '/api/tiers/table');
  const [basic, starter] = table.accountTiers;
  expect(basic?.tier).toBe('basic');
  const basicName = en('tiers.names.basic');
  const starterName = en('tiers.names.starter');

  await page.goto('/account/center/tier');
  const standing = page.getByRole('region', { name: en('tiers.mine.standing'), exact: true });
  await expect(standing.getByText(basicName, { exact: true }).first()).toBeVisible();
  await expect(standing.getByRole('progressbar', { name: en('tiers.mine.progressTo', { tier: starterName }) })).toBeVisible();
  await expect(standing.getByText(en('tiers.mine.missing', { amount: usd(starter!.minimumDepositUsd), tier: starterName }), { exact: true })).toBeVisible();
  const tiers = page.getByRole('table', { name: en('tiers.table.accountTiers'), exact: true });
  await expect(tiers.getByRole('row').filter({ hasText: en('tiers.table.yours') })).toContainText(basicName);

  // A deposit of exactly the starter minimum, approved by an operator (the tier is recomputed at once).
  const upload = await request.post('/api/common/upload/OSS', {
    headers: { satoken: memberToken },
    multipart: { file: { name: 'payment.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  });
  const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
  const claim = await apiPost<{ id: number }>(request, '/api/recharge/submit', { coin: 'usdt', network: 'TRC20', amount: starter!.minimumDepositUsd, screenshot: String(fileId) }, memberToken);
  const operator = await newOperator(browser, baseURL!, request);
  await apiPost(request, `/api/admin/deposits/${claim.id}/review`, { approve: true }, await tokenOf(operator));
  await operator.context().close();

  await page.reload();
  await expect(tiers.getByRole('row').filter({ hasText: en('tiers.table.yours') })).toContainText(starterName);
  await expect(standing.getByText(`${usd(starter!.minimumDepositUsd)} USD`, { exact: true })).toBeVisible();
  const next = table.accountTiers[2];
  if (next) await expect(standing.getByRole('progressbar', { name: en('tiers.mine.progressTo', { tier: en(`tiers.names.${next.tier}`) }) })).toBeVisible();
});
