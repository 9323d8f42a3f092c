/**
 * Account status live: an operator freezes a member's account in `/admin` (Accounts) while the
 * member has a page open; the member's page signs out at once with a message saying the account is
 * frozen (the user channel's `USER_STATUS`), and logging in again is refused until the operator
 * unfreezes the account.
 *
 * The member's page is the contract assets screen: its equity figure comes from the user channel,
 * so once it shows, the channel is open and the freeze reaches it.
 *
 * @module
 */

import { expect, serverText, t, test } from './fixtures';
import { newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

test('an operator freezes an account and the member’s open page signs out saying so', async ({ member: page, memberAccount, auth, browser, baseURL, request }) => {
  await page.goto('/assets/index?key=contract');
  await expect(page.getByRole('region', { name: en('funds.contract.equity'), exact: true })).toContainText('USDT');

  const operator = await newOperator(browser, baseURL!, request);
  await operator.goto('/admin?queue=accounts');
  await operator.getByRole('textbox', { name: en('kyc.admin.freeze.account') }).fill(memberAccount.account);
  await operator.getByRole('button', { name: en('kyc.admin.freeze.find'), exact: true }).click();
  const card = operator.getByRole('article', { name: /^Account #\d+$/ });
  await expect(card.getByText(en('kyc.admin.freeze.active'), { exact: true })).toBeVisible();
  await card.getByRole('button', { name: en('kyc.admin.freeze.freeze'), exact: true }).click();
  await card.getByRole('button', { name: en('kyc.admin.freeze.confirm'), exact: true }).click();
  await expect(card.getByText(en('kyc.admin.freeze.frozen'), { exact: true })).toBeVisible();

  // The member's page: the toast says why, and the member-only screen gives way to the login form.
  await expect(page.getByRole('status').filter({ hasText: en('errors.accountFrozen') })).toBeVisible();
  await expect(auth.loginButton).toBeVisible();
  await expect(page).toHaveURL(/\/user\/login/);

  await page.goto('/user/login');
  await auth.account.fill(memberAccount.account);
  await auth.password.fill(memberAccount.password);
  await auth.loginButton.click();
  await expect(auth.formError).toHaveText(serverText('account_frozen'));

  await card.getByRole('button', { name: en('kyc.admin.freeze.unfreeze'), exact: true }).click();
  await expect(card.getByText(en('kyc.admin.freeze.active'), { exact: true })).toBeVisible();
  await auth.password.fill(memberAccount.password);
  await auth.loginButton.click();
  await expect(page).not.toHaveURL(/\/user\/login/);
  await operator.context().close();
});
