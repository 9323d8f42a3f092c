/**
 * Identity verification end to end: a member submits basic verification, an operator approves it in
 * /admin, the member sees it passed, uploads three document photos and submits advanced
 * verification, the operator rejects it with a reason, and the member sees the reason and can
 * resubmit. Also: the operators-only notice for members and the login redirect for visitors.
 *
 * The operator is created with the backend's own command (`backend admin create-operator`) against
 * the e2e server's database — the same data folder (and `DATABASE_URL`, if one is set) as the
 * server that playwright.config.ts starts — then logged in through the API in a second browser
 * context. The flow asserts lasting states (badges, rows, reasons); the short-lived success toasts
 * are covered by the webapp's vitest tests.
 *
 * @module
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { TEST_PASSWORD, escapeRegExp, expect, loginToken, t, tPattern, test, uniqueEmail } from './fixtures';
import { PNG_1X1, createOperator, operatorPage } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

/** The identity tab of the account centre, by role and label. */
class KycTab {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto('/account/center/kyc');
    await expect(this.page.getByRole('heading', { level: 2, name: en('kyc.title'), exact: true })).toBeVisible();
  }

  get basic(): Locator {
    return this.page.getByRole('region', { name: en('kyc.basic.title'), exact: true });
  }

  get advanced(): Locator {
    return this.page.getByRole('region', { name: en('kyc.advanced.title'), exact: true });
  }

  /** A step shows `status` (`none`, `review`, `passed`, `failed`) as its badge. */
  async expectStatus(step: Locator, status: 'none' | 'review' | 'passed' | 'failed'): Promise<void> {
    await expect(step.getByText(en(`kyc.status.${status}`), { exact: true }).first()).toBeVisible();
  }

  /** The document photo slot named `slot` (`front`, `back`, `hold`). */
  slot(slot: 'front' | 'back' | 'hold'): Locator {
    return this.advanced.getByRole('group', { name: en(`kyc.advanced.${slot}`), exact: true });
  }

  /** Picks `file` through the slot's file chooser and waits until it is uploaded. */
  async upload(slot: 'front' | 'back' | 'hold', file: string): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.slot(slot)
      .getByRole('button', { name: en('kyc.upload.chooseFor', { slot: en(`kyc.advanced.${slot}`) }), exact: true })
      .click();
    await (await chooser).setFiles(file);
    await expect(this.slot(slot).getByRole('img', { name: en('kyc.upload.preview', { slot: en(`kyc.advanced.${slot}`) }) })).toBeVisible();
    await expect(this.slot(slot).getByText(en('kyc.upload.uploaded'), { exact: true })).toBeVisible();
  }
}

/** The operator's review screen. */
class AdminScreen {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto('/admin');
    await expect(this.page.getByRole('heading', { level: 1, name: en('kyc.admin.title'), exact: true })).toBeVisible();
  }

  get table(): Locator {
    return this.page.getByRole('table', { name: en('kyc.admin.queueLabel'), exact: true });
  }

  /** The table row of `account`'s submission. */
  row(account: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell', { name: account, exact: true }) });
  }

  /** Opens the detail dialog of `account`'s submission: "Review" in the queue, "Details" once decided. */
  async open(account: string, { decided = false } = {}): Promise<Locator> {
    await this.row(account)
      .getByRole('button', { name: tPattern('en', decided ? 'kyc.admin.detailsFor' : 'kyc.admin.openFor') })
      .click();
    const dialog = this.page.getByRole('dialog', { name: tPattern('en', 'kyc.admin.detailTitle') });
    await expect(dialog).toBeVisible();
    // Modal: the page behind it has left the accessibility tree.
    await expect(this.table).toHaveCount(0);
    await expect(dialog.getByText(account, { exact: true })).toBeVisible();
    return dialog;
  }
}

let fileDir = '';
let pngFile = '';

test.beforeAll(async () => {
  fileDir = await mkdtemp(join(tmpdir(), 'kestrel-kyc-'));
  pngFile = join(fileDir, 'document.png');
  await writeFile(pngFile, PNG_1X1);
});

test.afterAll(async () => {
  await rm(fileDir, { recursive: true, force: true });
});

test('basic verification, approval, document upload, rejection with a reason', async ({ member, memberAccount, browser, baseURL, request }) => {
  test.slow();
  const operatorEmail = uniqueEmail('operator');
  await createOperator(operatorEmail, TEST_PASSWORD);
  const operator = await operatorPage(browser, baseURL!, await loginToken(request, { account: operatorEmail, password: TEST_PASSWORD }));
  const admin = new AdminScreen(operator);
  const kyc = new KycTab(member);

  // A new member: nothing submitted, advanced verification locked until basic has passed.
  await kyc.goto();
  await kyc.expectStatus(kyc.basic, 'none');
  await kyc.expectStatus(kyc.advanced, 'none');
  await expect(kyc.advanced.getByText(en('kyc.advanced.lockedTitle'), { exact: true })).toBeVisible();

  // Required fields are checked before the call.
  const submitBasic = kyc.basic.getByRole('button', { name: en('kyc.basic.submit'), exact: true });
  await submitBasic.click();
  await expect(kyc.basic.getByRole('alert').filter({ hasText: en('errors.requiredFields') })).toBeVisible();

  await kyc.basic.getByRole('textbox', { name: en('kyc.basic.name'), exact: true }).fill('Erika Mustermann');
  const country = kyc.basic.getByRole('combobox', { name: en('kyc.basic.country'), exact: true });
  await country.fill('Germ');
  await member.getByRole('option', { name: 'Germany', exact: true }).click();
  await expect(country).toHaveValue('Germany');
  await kyc.basic.getByText(en('kyc.cardType.idCard'), { exact: true }).click();
  await expect(kyc.basic.getByRole('radio', { name: en('kyc.cardType.idCard'), exact: true })).toBeChecked();
  await kyc.basic.getByRole('textbox', { name: en('kyc.basic.idCard'), exact: true }).fill('T22000129');
  await submitBasic.click();
  await kyc.expectStatus(kyc.basic, 'review');
  await expect(kyc.basic.getByText('*****0129', { exact: true })).toBeVisible();
  await expect(kyc.advanced.getByText(en('kyc.advanced.lockedReview'), { exact: true })).toBeVisible();

  // The operator approves it; the queue no longer lists it.
  await admin.goto();
  await expect(admin.row(memberAccount.account)).toHaveCount(1);
  await expect(admin.row(memberAccount.account).getByRole('cell', { name: 'T22000129', exact: true })).toBeVisible();
  const basicDialog = await admin.open(memberAccount.account);
  await expect(basicDialog.getByText(en('kyc.admin.noDocuments'), { exact: true })).toBeVisible();
  await basicDialog.getByRole('button', { name: en('kyc.admin.approve'), exact: true }).click();
  await expect(basicDialog).toBeHidden();
  await expect(admin.row(memberAccount.account)).toHaveCount(0);

  // The member sees basic passed and advanced verification open.
  await kyc.goto();
  await kyc.expectStatus(kyc.basic, 'passed');
  await expect(member.getByText(en('kyc.level.basic'), { exact: true }).first()).toBeVisible();
  await kyc.expectStatus(kyc.advanced, 'none');

  // Submitting before every photo is there is refused in the browser.
  const submitAdvanced = kyc.advanced.getByRole('button', { name: en('kyc.advanced.submit'), exact: true });
  await submitAdvanced.click();
  await expect(kyc.advanced.getByRole('alert').filter({ hasText: en('kyc.advanced.missing') })).toBeVisible();

  await kyc.upload('front', pngFile);
  await kyc.upload('back', pngFile);
  await kyc.upload('hold', pngFile);
  await submitAdvanced.click();
  await kyc.expectStatus(kyc.advanced, 'review');

  // The operator sees the three photos (signed links that load) and rejects with a reason.
  await admin.goto();
  const advancedDialog = await admin.open(memberAccount.account);
  for (const slot of ['front', 'back', 'hold'] as const) {
    const image = advancedDialog.getByRole('img', { name: en(`kyc.advanced.${slot}`), exact: true });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  }
  await advancedDialog.getByRole('button', { name: en('kyc.admin.reject'), exact: true }).click();
  const rejectDialog = operator.getByRole('alertdialog', { name: tPattern('en', 'kyc.admin.rejectTitle') });
  await expect(rejectDialog).toBeVisible();
  const confirmReject = rejectDialog.getByRole('button', { name: en('kyc.admin.confirmReject'), exact: true });
  await confirmReject.click();
  await expect(rejectDialog.getByText(en('kyc.admin.reasonRequired'), { exact: true })).toBeVisible();
  const reason = 'The selfie is too dark: please retake it in daylight.';
  await rejectDialog.getByRole('textbox', { name: en('kyc.admin.reasonLabel'), exact: true }).fill(reason);
  await confirmReject.click();
  await expect(rejectDialog).toBeHidden();
  await expect(advancedDialog).toBeHidden();
  await expect(admin.row(memberAccount.account)).toHaveCount(0);

  // It is listed under "Failed" with its reason.
  const failedTab = operator.getByRole('tab', { name: new RegExp(`^${escapeRegExp(en('kyc.status.failed'))}`) });
  await failedTab.click();
  await expect(failedTab).toHaveAttribute('aria-selected', 'true');
  await expect(operator).toHaveURL(/status=failed/);
  const failedDialog = await admin.open(memberAccount.account, { decided: true });
  await expect(failedDialog.getByText(en('kyc.reason', { reason }), { exact: true })).toBeVisible();
  await expect(failedDialog.getByRole('button', { name: en('kyc.admin.approve'), exact: true })).toHaveCount(0);
  await operator.context().close();

  // The member sees the reason and can resubmit.
  await kyc.goto();
  await kyc.expectStatus(kyc.advanced, 'failed');
  await expect(kyc.advanced.getByText(en('kyc.reason', { reason }), { exact: true })).toBeVisible();
  await kyc.advanced.getByRole('button', { name: en('kyc.resubmit'), exact: true }).click();
  await expect(kyc.slot('front').getByRole('button', { name: en('kyc.upload.chooseFor', { slot: en('kyc.advanced.front') }) })).toBeVisible();
});

test('a member sees the operators-only notice at /admin', async ({ member }) => {
  await member.goto('/admin');
  await expect(member.getByRole('heading', { level: 1, name: en('kyc.admin.operatorsOnlyTitle'), exact: true })).toBeVisible();
  await expect(member.getByRole('alert').filter({ hasText: en('kyc.admin.operatorsOnly') })).toBeVisible();
  await expect(member.getByRole('table')).toHaveCount(0);
});

test('a visitor opening /admin is sent to the login, with a way back', async ({ visitor }) => {
  await visitor.goto('/admin');
  await expect(visitor).toHaveURL('/user/login?redirect=/admin');
});
