/**
 * Login, registration and password reset through the UI, with the codes read from the dev outbox;
 * the logged-in top bar's account menu and the side menu's Exit.
 *
 * @module
 */

import {
  ACCESS_TOKEN_COOKIE,
  TEST_PASSWORD,
  expect,
  lastOutboxId,
  loginToken,
  outboxCode,
  serverText,
  t,
  test,
  uniqueEmail,
} from './fixtures';
import { escapeRegExp } from './i18n';

test('register through the UI, log in, see the account menu, and log out with Exit', async ({
  visitor: page,
  auth,
  shell,
  context,
  request,
}) => {
  const account = uniqueEmail('signup');
  await page.goto('/home/index');
  await shell.registerLink.click();
  await expect(page).toHaveURL('/user/register');
  await expect(auth.heading).toHaveText(t('en', 'screens.userRegister'));

  await auth.account.fill(account);
  const code = await auth.sendCode(request, account);
  await expect(auth.code).toBeFocused();
  await auth.code.fill(code);
  await auth.password.fill(TEST_PASSWORD);
  await auth.confirmPassword.fill(TEST_PASSWORD);
  await auth.registerButton.click();

  await expect(page).toHaveURL('/user/login');
  await expect(auth.toast(t('en', 'auth.register.success'))).toBeVisible();
  await expect(auth.account).toHaveValue(account);
  await expect(auth.password).toBeFocused();
  await auth.password.fill(TEST_PASSWORD);
  await auth.loginButton.click();

  await expect(page).toHaveURL('/home/index');
  await expect(auth.toast(t('en', 'auth.login.success'))).toBeVisible();
  const accountMenu = shell.banner.getByRole('button', { name: t('en', 'nav.accountMenu.labelFor', { account }), exact: true });
  await expect(accountMenu).toBeVisible();
  await expect(shell.loginLink).toHaveCount(0);
  await expect(shell.registerLink).toHaveCount(0);
  const cookie = (await context.cookies()).find((c) => c.name === ACCESS_TOKEN_COOKIE);
  expect(cookie?.sameSite).toBe('Lax');
  expect(cookie?.path).toBe('/');
  // 7 days, give or take the test's own run time.
  expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(604_800 - 600);

  await accountMenu.click();
  await expect(page.getByRole('menuitem', { name: t('en', 'nav.accountMenu.accountCenter'), exact: true })).toHaveAttribute('href', '/account/center');
  await expect(page.getByRole('menuitem', { name: t('en', 'nav.accountMenu.myAssets'), exact: true })).toHaveAttribute(
    'href',
    '/assets/index?key=overview',
  );
  await expect(page.getByRole('menuitem', { name: t('en', 'nav.accountMenu.logout'), exact: true })).toBeVisible();
  // The menu answers Escape once focus is inside it.
  await expect.poll(() => page.getByRole('menu').evaluate((menu) => menu.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();

  await shell.openMenu();
  await shell.sideMenuGroup('menu.account').getByRole('button', { name: t('en', 'menu.exit'), exact: true }).click();
  await expect(page).toHaveURL('/home/index');
  await expect(shell.loginLink).toBeVisible();
  await expect(accountMenu).toHaveCount(0);
  await expect.poll(async () => (await context.cookies()).map((c) => c.name)).not.toContain(ACCESS_TOKEN_COOKIE);

  // The session ended on the server too: its token is refused.
  const info = await request.post('/api/user/getInfo', { headers: { satoken: cookie?.value ?? '' } });
  expect(info.status()).toBe(401);
});

test('a wrong password shows the error in the form and logs nobody in', async ({ visitor: page, auth, shell, memberAccount, context }) => {
  await page.goto('/user/login');
  await auth.logIn(memberAccount.account, 'Wrong-password-1');
  await expect(auth.formError).toHaveText(serverText('invalid_credentials'));
  await expect(page).toHaveURL('/user/login');
  expect((await context.cookies()).map((c) => c.name)).not.toContain(ACCESS_TOKEN_COOKIE);

  // Browser-side checks come first: an address without a domain never reaches the server.
  await auth.account.fill('someone@');
  await auth.loginButton.click();
  await expect(auth.account).toHaveAccessibleDescription(t('en', 'errors.emailFormat'));
  await expect(auth.account).toBeFocused();
  await expect(auth.formError).toHaveCount(0);

  // The same page still logs in with the right password.
  await auth.account.fill(memberAccount.account);
  await auth.password.fill(memberAccount.password);
  await auth.loginButton.click();
  await expect(page).toHaveURL('/home/index');
  await expect(shell.banner.getByRole('button', { name: t('en', 'nav.accountMenu.labelFor', { account: memberAccount.account }) })).toBeVisible();
});

test('registering a taken e-mail says it is registered, and the password rule stays under its error', async ({ visitor: page, auth, memberAccount }) => {
  await page.goto('/user/register');
  await auth.account.fill(memberAccount.account);
  await auth.code.fill('123456');
  // A password that breaks rule A: the error shows and the rule it breaks stays readable.
  await auth.password.fill('short');
  await auth.confirmPassword.fill('short');
  await auth.registerButton.click();
  const rule = t('en', 'auth.field.passwordHint');
  await expect(auth.password).toHaveAccessibleDescription(new RegExp(`${escapeRegExp(rule)}$`));
  await expect(page.getByText(rule, { exact: true })).toBeVisible();

  // With a valid password, the server says the address is registered, under the account field.
  await auth.password.fill(TEST_PASSWORD);
  await auth.confirmPassword.fill(TEST_PASSWORD);
  await auth.registerButton.click();
  await expect(auth.account).toHaveAccessibleDescription(new RegExp(`^${escapeRegExp(serverText('account_already_registered'))}`));
  await expect(page.getByText(serverText('invalid_code'))).toHaveCount(0);
  await expect(page).toHaveURL('/user/register');
});

test('Log out from a members-only screen lands on / (the home page), not on the login', async ({ member: page, memberAccount, shell }) => {
  await page.goto('/assets/index?key=overview');
  await expect(page.getByRole('heading', { name: t('en', 'funds.screens.overview'), exact: true }).first()).toBeVisible();
  await shell.banner.getByRole('button', { name: t('en', 'nav.accountMenu.labelFor', { account: memberAccount.account }), exact: true }).click();
  await page.getByRole('menuitem', { name: t('en', 'nav.accountMenu.logout'), exact: true }).click();
  await expect(page).toHaveURL('/home/index');
  await expect(shell.loginLink).toBeVisible();
});

test('reset the password through the UI: every session ends, the new password logs in', async ({
  visitor: page,
  auth,
  shell,
  memberAccount,
  memberToken,
  request,
}) => {
  const newPassword = 'Renewed2026y';
  await page.goto('/user/login');
  await auth.main.getByRole('link', { name: t('en', 'auth.login.forgot'), exact: true }).click();
  await expect(page).toHaveURL('/user/reset');
  await expect(auth.heading).toHaveText(t('en', 'screens.userReset'));

  // The form is checked in the browser first.
  await auth.account.fill(memberAccount.account);
  await auth.newPassword.fill(newPassword);
  await auth.confirmPassword.fill(`${newPassword}!`);
  await auth.resetButton.click();
  await expect(auth.code).toHaveAccessibleDescription(t('en', 'errors.fieldRequired'));
  await expect(auth.confirmPassword).toHaveAccessibleDescription(t('en', 'errors.passwordMismatch'));

  // Ask for a reset code (the e2e server lets an address have a new code every second; the
  // production limit of one a minute is covered by the backend's tests).
  const after = await lastOutboxId(request, memberAccount.account);
  await auth.sendCodeButton.click();
  await auth.code.fill(await outboxCode(request, memberAccount.account, { after }));
  await auth.confirmPassword.fill(newPassword);
  await auth.confirmPassword.press('Enter');

  await expect(page).toHaveURL('/user/login');
  await expect(auth.toast(t('en', 'auth.reset.success'))).toBeVisible();
  await expect(auth.account).toHaveValue(memberAccount.account);

  // The session the account had is over, and the old password no longer works.
  expect((await request.post('/api/user/getInfo', { headers: { satoken: memberToken } })).status()).toBe(401);
  const old = await request.post('/api/user/login', { data: { account: memberAccount.account, password: memberAccount.password } });
  expect(old.status()).toBe(400);

  await auth.password.fill(newPassword);
  await auth.loginButton.click();
  await expect(page).toHaveURL('/home/index');
  await expect(shell.banner.getByRole('button', { name: t('en', 'nav.accountMenu.labelFor', { account: memberAccount.account }) })).toBeVisible();
  expect(await loginToken(request, { account: memberAccount.account, password: newPassword })).toBeTruthy();
});

test('an invitation link prefills the invitation code, which cannot be edited', async ({ visitor: page, auth }) => {
  await page.goto('/i&KX7P2M9Q');
  await expect(page).toHaveURL('/user/register?invite_code=KX7P2M9Q');
  await expect(auth.inviteCode).toHaveValue('KX7P2M9Q');
  await expect(auth.inviteCode).not.toBeEditable();
  await expect(auth.inviteCode).toHaveAccessibleDescription(t('en', 'auth.register.inviteFromLink'));

  // Without a link the field is empty and editable.
  await page.goto('/user/register');
  await expect(auth.inviteCode).toHaveValue('');
  await expect(auth.inviteCode).toBeEditable();
});

test('a login returns to the page named by ?redirect=, and never to another site', async ({ visitor: page, auth, memberAccount }) => {
  await page.goto('/user/login?redirect=%2Fabout%2Findex');
  await auth.logIn(memberAccount.account, memberAccount.password);
  await expect(page).toHaveURL('/about/index');

  await page.context().clearCookies();
  await page.goto('/user/login?redirect=https%3A%2F%2Fevil.example%2F');
  await auth.logIn(memberAccount.account, memberAccount.password);
  await expect(page).toHaveURL('/home/index');
});
