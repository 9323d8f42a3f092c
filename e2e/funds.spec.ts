/**
 * Funds end to end, as a member and an operator would click through them: a deposit with a payment
 * screenshot → the operator approves it in /admin → the balance shows → a transfer to the trading
 * account → a conversion at a live quote → a withdrawal sealed in the browser → the operator marks
 * it sent with a transaction hash → the records and bills show every step.
 *
 * Only the fund password is set through the API (the settings screen has its own e2e in
 * account.spec.ts); everything else goes through the screens. The flow asserts lasting states
 * (balances, badges, rows); the short-lived toasts are covered by the webapp's vitest tests.
 *
 * @module
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { apiPost, confirmIdentity, enterSecurityCode, escapeRegExp, expect, t, test } from './fixtures';
import { PNG_1X1, newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

const FUND_PASSWORD = 'Fund#2026';
/** A valid TRON address (base58check, version 0x41). */
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** A TRON transaction id: 64 hex digits, no `0x`. */
const TX_HASH = '9f2c4e7b1a3d5f60718293a4b5c6d7e8f90112233445566778899aabbccddeef';

let fileDir = '';
let screenshotFile = '';

test.beforeAll(async () => {
  fileDir = await mkdtemp(join(tmpdir(), 'kestrel-funds-'));
  screenshotFile = join(fileDir, 'payment.png');
  await writeFile(screenshotFile, PNG_1X1);
});

test.afterAll(async () => {
  await rm(fileDir, { recursive: true, force: true });
});

/** /assets/index?key=… of the member, by role and label. */
class AssetsScreen {
  constructor(readonly page: Page) {}

  async open(key: string, heading: string): Promise<void> {
    await this.page.goto(`/assets/index?key=${key}`);
    await expect(this.page.getByRole('heading', { name: heading, exact: true }).first()).toBeVisible();
  }

  form(name: string): Locator {
    return this.page.getByRole('form', { name, exact: true });
  }

  /** The row of `coin` in the overview's coin table of `bucket`. */
  coinRow(bucket: string, coin: string): Locator {
    return this.page
      .getByRole('table', { name: en('funds.overview.tableLabel', { bucket }), exact: true })
      .getByRole('row', { name: new RegExp(`^${escapeRegExp(coin)} `) });
  }

  /** A tab of the records screen. */
  async records(tab: 'deposits' | 'withdrawals' | 'bills'): Promise<Locator> {
    await this.open('records', en('funds.screens.records'));
    await this.page.getByRole('tab', { name: en(`funds.records.${tab}`), exact: true }).click();
    return this.page.getByRole('table', { name: en(`funds.records.${tab}`), exact: true });
  }
}

/** The operator's money queues in /admin. */
class FundsQueue {
  constructor(
    readonly page: Page,
    readonly kind: 'deposits' | 'withdrawals',
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`/admin?queue=${this.kind}`);
    await expect(this.page.getByRole('table', { name: en(`funds.admin.${this.kind}.table`), exact: true })).toBeVisible();
  }

  row(account: string): Locator {
    return this.page
      .getByRole('table', { name: en(`funds.admin.${this.kind}.table`), exact: true })
      .getByRole('row')
      .filter({ hasText: account });
  }

  /** Opens the review dialog of the member's only pending record. */
  async open(account: string): Promise<Locator> {
    await expect(this.row(account)).toHaveCount(1);
    await this.row(account)
      .getByRole('button', { name: new RegExp(`^${escapeRegExp(en('funds.admin.openFor', { id: '' }))}\\d+$`) })
      .click();
    const dialog = this.page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    return dialog;
  }
}

test('deposit → approval → transfer → conversion → withdrawal → sent → bills', async ({ member, memberAccount, memberToken, browser, baseURL, request }) => {
  test.slow();
  await confirmIdentity(request, memberAccount, memberToken);
  await apiPost(request, '/api/coin/coin/member/tradePwd', { password: FUND_PASSWORD, confirmPassword: FUND_PASSWORD }, memberToken);
  const operator = await newOperator(browser, baseURL!, request);
  const assets = new AssetsScreen(member);

  // Deposit 1,000 USDT on TRC20: the address with its QR code, the amount and the screenshot.
  await assets.open('recharge', en('funds.screens.recharge'));
  const deposit = assets.form(en('funds.screens.recharge'));
  await deposit.getByRole('combobox', { name: en('funds.form.coin') }).selectOption({ label: 'USDT' });
  await deposit.getByRole('radio', { name: /^TRC20/ }).click();
  const address = deposit.getByRole('region', { name: en('funds.deposit.address'), exact: true });
  await expect(address.getByRole('img', { name: en('funds.deposit.qrLabel', { coin: 'USDT', network: 'TRC20' }) })).toBeVisible();
  await expect(address.getByRole('button', { name: en('funds.deposit.copyAddress') })).toBeVisible();
  // Submitting without the amount and the screenshot names both, in the user's language.
  await deposit.getByRole('button', { name: en('funds.deposit.submit'), exact: true }).click();
  await expect(deposit.getByText(en('errors.fieldRequired')).first()).toBeVisible();
  await deposit.getByRole('textbox', { name: en('funds.deposit.amount') }).fill('1000');
  await deposit.getByLabel(en('funds.deposit.screenshot'), { exact: true }).setInputFiles(screenshotFile);
  await expect(deposit.getByText(en('funds.deposit.uploaded'), { exact: true })).toBeVisible();
  await deposit.getByRole('button', { name: en('funds.deposit.submit'), exact: true }).click();
  await expect(deposit.getByRole('textbox', { name: en('funds.deposit.amount') })).toHaveValue('');

  const deposits = await assets.records('deposits');
  await expect(deposits.getByRole('row').filter({ hasText: en('funds.status.review') })).toHaveCount(1);

  // The operator approves it.
  const depositQueue = new FundsQueue(operator, 'deposits');
  await depositQueue.goto();
  const depositDialog = await depositQueue.open(memberAccount.account);
  await expect(depositDialog.getByRole('img', { name: /Payment screenshot of deposit/ })).toBeVisible();
  await depositDialog.getByRole('button', { name: en('funds.admin.deposits.approve'), exact: true }).click();
  await expect(depositDialog).toBeHidden();

  // The member's funding account holds it.
  await assets.open('overview', en('funds.screens.overview'));
  await expect(assets.coinRow(en('funds.buckets.funding'), 'USDT')).toContainText('1,000');

  // Move 200 USDT to the trading account.
  await assets.open('transfer', en('funds.screens.transfer'));
  const move = assets.form(en('funds.transfer.buckets'));
  await move.getByRole('combobox', { name: en('funds.transfer.from') }).selectOption({ label: en('funds.buckets.funding') });
  await move.getByRole('combobox', { name: en('funds.transfer.to') }).selectOption({ label: en('funds.buckets.trading') });
  await move.getByRole('combobox', { name: en('funds.form.coin') }).selectOption({ label: 'USDT' });
  await expect(move.getByText(en('funds.form.available', { amount: '1,000', coin: 'USDT' }))).toBeVisible();
  await move.getByRole('textbox', { name: en('funds.form.amount') }).fill('200');
  await move.getByRole('button', { name: en('funds.transfer.submit'), exact: true }).click();
  await expect(move.getByText(en('funds.form.available', { amount: '800', coin: 'USDT' }))).toBeVisible();

  // Convert 100 USDT to BTC at a live quote.
  await assets.open('swap', en('funds.screens.swap'));
  const swap = member.getByRole('region', { name: en('funds.screens.swap'), exact: true });
  await swap.getByRole('combobox', { name: en('funds.swap.from') }).selectOption({ label: 'USDT' });
  await swap.getByRole('combobox', { name: en('funds.swap.to') }).selectOption({ label: 'BTC' });
  await swap.getByRole('textbox', { name: en('funds.swap.amount') }).fill('100');
  const quote = swap.getByRole('region', { name: en('funds.swap.quote'), exact: true });
  await expect(quote.getByText(/^1 USDT ≈ 0\.0000\d+ BTC$/)).toBeVisible();
  await swap.getByRole('button', { name: en('funds.swap.convert'), exact: true }).click();
  await expect(swap.getByRole('textbox', { name: en('funds.swap.amount') })).toHaveValue('');

  // Withdraw 50 USDT on TRC20: fee and amount received live, the body sealed in the browser.
  await assets.open('withdraw', en('funds.screens.withdraw'));
  const withdraw = assets.form(en('funds.screens.withdraw'));
  await withdraw.getByRole('combobox', { name: en('funds.form.coin') }).selectOption({ label: 'USDT' });
  await withdraw.getByRole('radio', { name: /^TRC20/ }).click();
  const addressField = withdraw.getByRole('textbox', { name: en('funds.withdraw.address') });
  // An Ethereum address is not a TRON address: refused before anything is sent.
  await addressField.fill('0x52908400098527886E0F7030069857D2E4169EE7');
  await withdraw.getByRole('textbox', { name: en('funds.form.amount') }).fill('50');
  await withdraw.getByLabel(en('funds.form.fundPassword')).fill(FUND_PASSWORD);
  await withdraw.getByRole('button', { name: en('funds.withdraw.submit'), exact: true }).click();
  await expect(withdraw.getByText(/address/i).filter({ hasText: /TRC20/ }).first()).toBeVisible();
  await addressField.fill(TRON_ADDRESS);
  const summary = withdraw.getByRole('region', { name: en('funds.withdraw.summary'), exact: true });
  await expect(summary).toContainText(/You will receive\s*4\d(\.\d+)? USDT/);
  await withdraw.getByRole('button', { name: en('funds.withdraw.submit'), exact: true }).click();
  // A summary to check, confirmed with a security code e-mailed to the member.
  const confirmation = member.getByRole('dialog', { name: en('funds.withdraw.confirmTitle'), exact: true });
  await expect(confirmation.getByRole('region', { name: en('funds.withdraw.summary'), exact: true })).toContainText(TRON_ADDRESS);
  await enterSecurityCode(request, confirmation, memberAccount.account);
  await confirmation.getByRole('button', { name: en('funds.withdraw.confirm'), exact: true }).click();
  await expect(confirmation).toBeHidden();
  // 50 of the 700 USDT left after the conversion are held for the withdrawal.
  await expect(withdraw.getByText(en('funds.form.available', { amount: '650', coin: 'USDT' }))).toBeVisible();
  await expect(withdraw.getByRole('textbox', { name: en('funds.form.amount') })).toHaveValue('');

  const withdrawals = await assets.records('withdrawals');
  const pending = withdrawals.getByRole('row').filter({ hasText: en('funds.status.review') });
  await expect(pending).toHaveCount(1);
  await expect(pending).toContainText(TRON_ADDRESS.slice(0, 6));

  // The operator sends it and records the transaction hash.
  const withdrawalQueue = new FundsQueue(operator, 'withdrawals');
  await withdrawalQueue.goto();
  const withdrawalDialog = await withdrawalQueue.open(memberAccount.account);
  await withdrawalDialog.getByRole('button', { name: en('funds.admin.withdrawals.approve'), exact: true }).click();
  const confirm = operator.getByRole('alertdialog');
  await confirm.getByRole('textbox', { name: en('funds.admin.txHash') }).fill(TX_HASH);
  await confirm.getByRole('button', { name: en('funds.admin.withdrawals.confirmPass'), exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(withdrawalQueue.row(memberAccount.account)).toHaveCount(0);

  // The member sees it passed with its hash, and every step in the bills.
  const passed = (await assets.records('withdrawals')).getByRole('row').filter({ hasText: en('funds.status.passed') });
  await expect(passed).toHaveCount(1);
  await expect(passed.getByRole('button', { name: en('funds.records.copyTxHash') })).toBeVisible();
  const bills = await assets.records('bills');
  for (const kind of ['deposit', 'bucket_transfer', 'exchange', 'withdrawal', 'fee'] as const) {
    await expect(bills.getByRole('row').filter({ hasText: en(`funds.bills.kinds.${kind}`) }).first()).toBeVisible();
  }
  await operator.context().close();
});
