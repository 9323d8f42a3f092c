/**
 * The account centre (/account/center): its tabs, the security settings screens (which hide the
 * tabs), step-up re-authentication, the fund password, Google Authenticator (codes computed here
 * from the setup key shown, RFC 6238), the anti-phishing code, API keys, devices and the login
 * password — against the real backend, as a freshly registered member.
 *
 * @module
 */

import { createHmac } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { type TestAccount, enterSecurityCode, expect, lastOutboxId, loginToken, outbox, t, test } from './fixtures';

/** An English text of the account centre (`account.<key>`). */
function a(key: string, params?: Record<string, string | number>): string {
  return t('en', `account.${key}`, params);
}

// ---------------------------------------------------------------------------------------------
// RFC 6238 TOTP (HMAC-SHA1, 30-second steps, 6 digits), as an authenticator app computes it.

/** Decodes RFC 4648 base32 (upper case, padding and spaces ignored). */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`Not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The 6-digit code of `secret` (base32) for the 30-second step containing `timeMs`. */
function totp(secret: string, timeMs: number = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 1000 / 30)));
  const hmac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const binary = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(binary).padStart(6, '0');
}

test('totp matches the RFC 6238 test vector', () => {
  // RFC 6238 appendix B, SHA-1: secret "12345678901234567890", T = 59 s → 94287082 (8 digits).
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
  expect(totp(secret, 59_000)).toBe('287082');
  expect(totp(secret, 1_111_111_109_000)).toBe('081804');
});

// ---------------------------------------------------------------------------------------------
// Page objects of the account centre, by role and label.

class AccountCenter {
  constructor(readonly page: Page) {}

  get tabs(): Locator {
    return this.page.getByRole('navigation', { name: a('nav'), exact: true });
  }

  tab(labelKey: string): Locator {
    return this.tabs.getByRole('link', { name: a(labelKey), exact: true });
  }

  get heading(): Locator {
    return this.page.getByRole('main').getByRole('heading', { level: 2 }).first();
  }

  /** A row of the security tab's settings list, named by its title. */
  securityRow(titleKey: string): Locator {
    return this.page.getByRole('listitem', { name: a(`security.items.${titleKey}.title`), exact: true });
  }

  field(label: string): Locator {
    // By role and accessible name: a required field's label also holds the (aria-hidden) `*`.
    return this.page.getByRole('main').getByRole('textbox', { name: label, exact: true });
  }

  get reauthDialog(): Locator {
    return this.page.getByRole('dialog', { name: a('reauth.title'), exact: true });
  }

  /** Answers the step-up dialog with the login password and a security code from the outbox. */
  async confirmIdentity(request: APIRequestContext, { account, password }: Pick<TestAccount, 'account' | 'password'>): Promise<void> {
    await expect(this.reauthDialog).toBeVisible();
    await this.reauthDialog.getByRole('textbox', { name: a('fields.loginPassword'), exact: true }).fill(password);
    await enterSecurityCode(request, this.reauthDialog, account);
    await this.reauthDialog.getByRole('button', { name: a('reauth.confirm'), exact: true }).click();
    await expect(this.reauthDialog).toBeHidden();
  }

  async expectSecurityTab(): Promise<void> {
    await expect(this.page).toHaveURL('/account/center/security');
    await expect(this.tabs).toBeVisible();
  }
}

/** The envelope code of getInfo with `token` (200 while the session lives, 401 after). */
async function sessionCode(request: APIRequestContext, token: string): Promise<number> {
  const response = await request.post('/api/user/getInfo', { headers: { satoken: token } });
  return ((await response.json()) as { code: number }).code;
}

test('visitors are sent to the login screen and come back after it', async ({ visitor: page }) => {
  await page.goto('/account/center/security');
  await expect(page).toHaveURL(`/user/login?redirect=${encodeURIComponent('/account/center/security')}`);
});

test('the tabs are listed and navigable; security settings screens hide them', async ({ member: page }) => {
  const center = new AccountCenter(page);
  await page.goto('/account/center');
  await expect(page).toHaveURL('/account/center/info');
  await expect(page.getByRole('heading', { level: 1, name: a('title'), exact: true })).toBeVisible();

  const names = ['tabs.info', 'tabs.security', 'tabs.devices', 'tabs.kyc', 'tabs.tier', 'tabs.rewards', 'tabs.agents'].map((key) => a(key));
  await expect(center.tabs.getByRole('link')).toHaveText(names);
  // The merchant tab is for merchants only (is_merchant 2); a fresh account is not one.
  await expect(center.tab('tabs.merchant')).toHaveCount(0);
  await expect(center.tab('tabs.info')).toHaveAttribute('aria-current', 'page');

  const info = page.getByRole('region', { name: a('info.profile'), exact: true });
  await expect(info.getByText(a('info.normalUser'), { exact: true })).toBeVisible();
  const invite = page.getByRole('region', { name: a('invite.title'), exact: true });
  await expect(invite.getByText(/\/i&[A-Z0-9]+$/)).toBeVisible();

  const visits: [string, string, string][] = [
    ['tabs.security', '/account/center/security', a('tabs.security')],
    ['tabs.devices', '/account/center/device-management', a('tabs.devices')],
    ['tabs.rewards', '/account/center/reward-center', a('tabs.rewards')],
    ['tabs.agents', '/account/center/contractAgents/agentManagement', a('tabs.agents')],
    ['tabs.info', '/account/center/info', a('tabs.info')],
  ];
  for (const [key, path, heading] of visits) {
    await center.tab(key).click();
    await expect(page).toHaveURL(path);
    await expect(center.tab(key)).toHaveAttribute('aria-current', 'page');
    await expect(center.heading).toHaveText(heading);
  }
  await expect(page.getByText(t('en', 'referral.members.empty'), { exact: true })).toHaveCount(0);
  await center.tab('tabs.rewards').click();
  await expect(page.getByText(t('en', 'referral.members.empty'), { exact: true })).toBeVisible();
  await center.tab('tabs.agents').click();
  await expect(page.getByText(t('en', 'referral.agent.notAgent'), { exact: true })).toBeVisible();
  await center.tab('tabs.kyc').click();
  await expect(page).toHaveURL('/account/center/kyc');

  // A security settings screen: no tabs, a way back.
  await center.tab('tabs.security').click();
  await center.securityRow('tradePwd').getByRole('link', { name: a('actions.set'), exact: true }).click();
  await expect(page).toHaveURL('/account/center/security/setting/trade-pwd');
  await expect(center.heading).toHaveText(a('tradePwd.setTitle'));
  await expect(center.tabs).toHaveCount(0);
  await page.getByRole('link', { name: a('settings.back'), exact: true }).click();
  await center.expectSecurityTab();
});

test('sets the fund password after confirming the login password and an e-mailed code', async ({ member: page, memberAccount, request }) => {
  const center = new AccountCenter(page);
  await page.goto('/account/center/security');
  const row = center.securityRow('tradePwd');
  await expect(row.getByText(a('status.notSet'), { exact: true })).toBeVisible();
  await row.getByRole('link', { name: a('actions.set'), exact: true }).click();

  // The browser checks rule B before anything is sent.
  await center.field(a('fields.newFundPassword')).fill('abc');
  await center.field(a('fields.confirmFundPassword')).fill('abc');
  await page.getByRole('button', { name: a('actions.save'), exact: true }).click();
  await expect(page.getByText(t('en', 'errors.passwordFormat'), { exact: true })).toBeVisible();
  await expect(center.reauthDialog).toHaveCount(0);

  await center.field(a('fields.newFundPassword')).fill('Fund#2026');
  await center.field(a('fields.confirmFundPassword')).fill('Fund#2026');
  await page.getByRole('button', { name: a('actions.save'), exact: true }).click();
  // The change needs a fresh confirmation; once given, it goes through by itself.
  await center.confirmIdentity(request, memberAccount);

  await center.expectSecurityTab();
  await expect(row.getByText(a('status.set'), { exact: true })).toBeVisible();
  await row.getByRole('link', { name: a('actions.change'), exact: true }).click();
  await expect(center.heading).toHaveText(a('tradePwd.changeTitle'));
  await expect(center.field(a('fields.currentFundPassword'))).toBeVisible();
});

test('binds Google Authenticator with a code computed from the setup key', async ({ member: page, memberAccount, request }) => {
  const center = new AccountCenter(page);
  await page.goto('/account/center/security');
  const row = center.securityRow('google');
  await expect(row.getByText(a('status.notEnabled'), { exact: true })).toBeVisible();
  await row.getByRole('link', { name: a('actions.bind'), exact: true }).click();
  await expect(page).toHaveURL('/account/center/security/setting/google');

  // A new secret needs a confirmation first.
  await center.confirmIdentity(request, memberAccount);
  await expect(page.getByRole('img', { name: a('google.qrAlt'), exact: true })).toBeVisible();
  const key = center.field(a('google.manualKey'));
  await expect(key).toHaveValue(/^[A-Z2-7 ]{16,}$/);
  const secret = (await key.inputValue()).replace(/\s/g, '');

  await center.field(a('fields.totpCode')).fill(totp(secret));
  await page.getByRole('button', { name: a('google.enable'), exact: true }).click();

  await center.expectSecurityTab();
  await expect(row.getByText(a('status.enabled'), { exact: true })).toBeVisible();
  await expect(row.getByRole('link', { name: a('actions.unbind'), exact: true })).toBeVisible();
  // From now on a login needs the authenticator code as well.
  const login = await request.post('/api/user/login', { data: { account: memberAccount.account, password: memberAccount.password } });
  expect(((await login.json()) as { data: { reason: string } }).data.reason).toBe('totp_required');
});

test('sets the anti-phishing code, which the next e-mail shows', async ({ member: page, memberAccount, request }) => {
  const center = new AccountCenter(page);
  await page.goto('/account/center/security');
  const row = center.securityRow('antiCode');
  await row.getByRole('link', { name: a('actions.set'), exact: true }).click();
  await expect(center.heading).toHaveText(a('antiCode.setTitle'));

  await center.field(a('antiCode.label')).fill('Kestrel42');
  await expect(page.getByText(a('antiCode.previewLine', { code: 'Kestrel42' }), { exact: true })).toBeVisible();
  await page.getByRole('button', { name: a('actions.save'), exact: true }).click();
  await center.confirmIdentity(request, memberAccount);

  await center.expectSecurityTab();
  await expect(row.getByText(a('status.set'), { exact: true })).toBeVisible();

  // Every e-mail of the platform carries it: bind a new address and read the code message it gets.
  await center.securityRow('email').getByRole('link', { name: a('actions.change'), exact: true }).click();
  await expect(center.heading).toHaveText(a('contact.email.changeTitle'));
  const fresh = `anti-${Date.now()}@kestrel.test`;
  await center.field(a('contact.email.newLabel')).fill(fresh);
  const after = await lastOutboxId(request, fresh);
  // (The e2e server's one-second resend window is too short to assert the countdown; vitest does.)
  await page.getByRole('button', { name: t('en', 'verify.send'), exact: true }).click();
  let body = '';
  await expect
    .poll(async () => {
      body = (await outbox(request, fresh)).find((message) => message.id > after)?.body ?? '';
      return body;
    })
    .toContain('Kestrel42');
  const code = /\b(\d{6})\b/.exec(body)?.[1] ?? '';
  await center.field(a('fields.verificationCode')).fill(code);
  await page.getByRole('button', { name: a('contact.submitChange'), exact: true }).click();
  await center.expectSecurityTab();
  // The list shows the new address masked.
  await expect(center.securityRow('email').getByText(/^an\*\*\*@kestrel\.test$/)).toBeVisible();
});

test('creates an API key whose secret is shown once, and deletes it', async ({ member: page, memberAccount, request }) => {
  const center = new AccountCenter(page);
  await page.goto('/account/center/security');
  const keys = page.getByRole('region', { name: a('apiKeys.title'), exact: true });
  await expect(keys.getByText(a('apiKeys.empty'), { exact: true })).toBeVisible();
  await keys.getByRole('button', { name: a('apiKeys.create'), exact: true }).click();

  const form = page.getByRole('dialog', { name: a('apiKeys.createTitle'), exact: true });
  await form.getByRole('textbox', { name: a('apiKeys.label'), exact: true }).fill('Grid bot');
  // The checkbox input is visually hidden behind its styled box: click its label.
  await form.getByText(a('apiKeys.permission.trade'), { exact: true }).click();
  await expect(form.getByRole('checkbox', { name: a('apiKeys.permission.trade') })).toBeChecked();
  await form.getByRole('textbox', { name: a('apiKeys.ipWhitelist'), exact: true }).fill('203.0.113.7');
  await form.getByRole('button', { name: a('apiKeys.create'), exact: true }).click();
  await center.confirmIdentity(request, memberAccount);

  const secret = page.getByRole('dialog', { name: a('apiKeys.secretTitle'), exact: true });
  await expect(secret.getByText(a('apiKeys.secretOnce'), { exact: true })).toBeVisible();
  await expect(secret.getByRole('button', { name: a('apiKeys.copySecret'), exact: true })).toBeVisible();
  await secret.getByRole('button', { name: a('apiKeys.savedIt'), exact: true }).click();
  await expect(secret).toBeHidden();

  const table = keys.getByRole('table', { name: a('apiKeys.title'), exact: true });
  const keyRow = table.getByRole('row').filter({ hasText: 'Grid bot' });
  await expect(keyRow).toContainText('203.0.113.7');
  await expect(keyRow).toContainText(a('apiKeys.permission.trade'));

  await keyRow.getByRole('button', { name: a('apiKeys.deleteNamed', { label: 'Grid bot' }), exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: a('apiKeys.deleteTitle', { label: 'Grid bot' }), exact: true });
  await confirm.getByRole('button', { name: a('actions.delete'), exact: true }).click();
  await expect(keys.getByText(a('apiKeys.empty'), { exact: true })).toBeVisible();
});

test('renames and logs out another device; logging out this device ends the session', async ({
  member: page,
  memberAccount,
  memberToken,
  request,
}) => {
  // A second session of the same account, as another device would have.
  const other = await loginToken(request, memberAccount);
  const center = new AccountCenter(page);
  await page.goto('/account/center/device-management');
  await expect(center.heading).toHaveText(a('tabs.devices'));

  const list = page.getByRole('list', { name: a('devices.listLabel'), exact: true });
  const devices = list.getByRole('listitem');
  await expect(devices).toHaveCount(2);
  const thisDevice = devices.filter({ has: page.getByText(a('devices.thisDevice'), { exact: true }) });
  await expect(thisDevice).toHaveCount(1);
  const otherDevice = devices.filter({ hasNot: page.getByText(a('devices.thisDevice'), { exact: true }) });

  await otherDevice.getByRole('button', { name: a('devices.rename'), exact: true }).click();
  const rename = page.getByRole('dialog', { name: a('devices.renameTitle'), exact: true });
  await rename.getByRole('textbox', { name: a('devices.name'), exact: true }).fill('Trading bot');
  await rename.getByRole('button', { name: a('actions.save'), exact: true }).click();
  const bot = list.getByRole('listitem', { name: 'Trading bot', exact: true });
  await expect(bot).toBeVisible();

  await bot.getByRole('button', { name: a('devices.revoke'), exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: a('devices.revokeTitle', { name: 'Trading bot' }), exact: true });
  await expect(confirm.getByText(a('devices.revokeBody'), { exact: true })).toBeVisible();
  await confirm.getByRole('button', { name: a('devices.revoke'), exact: true }).click();
  await expect(bot).toHaveCount(0);
  await expect(devices).toHaveCount(1);
  expect(await sessionCode(request, other)).toBe(401);
  expect(await sessionCode(request, memberToken)).toBe(200);

  // Logging out the device in use is a logout: the login screen, and the token is dead.
  await thisDevice.getByRole('button', { name: a('devices.revoke'), exact: true }).click();
  const confirmSelf = page.getByRole('alertdialog', { name: /.+/ });
  await expect(confirmSelf.getByText(a('devices.revokeCurrentBody'), { exact: true })).toBeVisible();
  await confirmSelf.getByRole('button', { name: a('devices.revoke'), exact: true }).click();
  await expect(page).toHaveURL(/\/user\/login/);
  expect(await sessionCode(request, memberToken)).toBe(401);
});

test('changes the login password; other sessions end, this one stays', async ({ member: page, memberAccount, memberToken, request }) => {
  const other = await loginToken(request, memberAccount);
  const center = new AccountCenter(page);
  await page.goto('/account/center/security');
  await center.securityRow('loginPwd').getByRole('link', { name: a('actions.change'), exact: true }).click();
  await expect(center.heading).toHaveText(a('loginPwd.title'));

  // The new password must differ from the current one (checked in the browser by wasm-core).
  await center.field(a('fields.currentPassword')).fill(memberAccount.password);
  await center.field(a('fields.newPassword')).fill(memberAccount.password);
  await center.field(a('fields.confirmPassword')).fill(memberAccount.password);
  await page.getByRole('button', { name: a('loginPwd.submit'), exact: true }).click();
  await expect(page.getByText(t('en', 'errors.passwordUnchanged'), { exact: true })).toBeVisible();

  // A security change: the session is confirmed first (password and e-mailed code), then a wrong
  // current password is the server's to say, under its field.
  const next = 'Kestrel2027y';
  await center.field(a('fields.currentPassword')).fill('Wrong-password-1');
  await center.field(a('fields.newPassword')).fill(next);
  await center.field(a('fields.confirmPassword')).fill(next);
  await page.getByRole('button', { name: a('loginPwd.submit'), exact: true }).click();
  await center.confirmIdentity(request, memberAccount);
  await expect(center.field(a('fields.currentPassword'))).toHaveAttribute('aria-invalid', 'true');

  await center.field(a('fields.currentPassword')).fill(memberAccount.password);
  await page.getByRole('button', { name: a('loginPwd.submit'), exact: true }).click();
  await center.expectSecurityTab();

  expect(await sessionCode(request, other)).toBe(401);
  expect(await sessionCode(request, memberToken)).toBe(200);
  const changed: TestAccount = { ...memberAccount, password: next };
  expect(await loginToken(request, changed)).toMatch(/.+/);
});
