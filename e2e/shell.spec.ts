/**
 * The shell: side menu (visitor and logged-in entries, Exit), the top bar's account buttons and
 * account menu, the theme switch, and the footer's statements.
 *
 * @module
 */

import { ACCESS_TOKEN_COOKIE, SITE_NAME, type Shell, expect, t, test } from './fixtures';

const GROUPS = ['menu.resource', 'menu.features', 'menu.account'] as const;

/** Links of the side menu that only logged-in users see. */
const MEMBER_LINKS = [
  { key: 'menu.overview', href: '/user/index?key=all' },
  { key: 'menu.myAssets', href: '/assets/index?key=overview' },
  { key: 'menu.help', href: '/user/index?key=helper' },
] as const;

function menuLink(shell: Shell, key: string) {
  return shell.sideMenu.getByRole('link', { name: t('en', key), exact: true });
}

function exitButton(shell: Shell) {
  return shell.sideMenuGroup('menu.account').getByRole('button', { name: t('en', 'menu.exit'), exact: true });
}

test('the side menu opens from its button and shows its three groups', async ({ visitor, shell }) => {
  await visitor.goto('/home/index');
  await expect(shell.sideMenu).toHaveCount(0);
  await shell.openMenu();
  // The dialog is named by its purpose ("Main menu"); the site name is still shown at its top.
  await expect(shell.sideMenuDialog).toBeVisible();
  await expect(shell.sideMenuDialog.getByText(SITE_NAME, { exact: true })).toBeVisible();
  for (const key of GROUPS) {
    await expect(shell.sideMenuGroup(key).getByRole('heading', { name: t('en', key), exact: true })).toBeVisible();
  }
  await expect(shell.sideMenuGroup('menu.resource').getByRole('link', { name: t('en', 'menu.notice'), exact: true })).toBeVisible();
  await expect(shell.sideMenuGroup('menu.resource').getByRole('button', { name: t('en', 'menu.onlineCustomer'), exact: true })).toBeVisible();
  await expect(shell.sideMenuGroup('menu.features').getByRole('link', { name: t('en', 'nav.markets'), exact: true })).toHaveAttribute(
    'href',
    '/quotes/index',
  );
  await expect(shell.sideMenuGroup('menu.features').getByRole('link', { name: t('en', 'nav.spot'), exact: true })).toHaveAttribute(
    'href',
    '/trade/index?type=bb',
  );
  await expect(shell.sideMenuGroup('menu.features').getByRole('link', { name: t('en', 'nav.futures'), exact: true })).toHaveAttribute(
    'href',
    '/trade/index?type=usta',
  );

  await shell.sideMenuDialog.getByRole('button', { name: t('en', 'nav.closeMenu'), exact: true }).click();
  await expect(shell.sideMenuDialog).toBeHidden();
});

test('a visitor’s side menu offers Sign in and Sign up, not the account entries', async ({ visitor, shell }) => {
  await visitor.goto('/home/index');
  await shell.openMenu();
  await expect(menuLink(shell, 'menu.signIn')).toHaveAttribute('href', '/user/login');
  await expect(menuLink(shell, 'menu.signUp')).toHaveAttribute('href', '/user/register');
  for (const { key } of MEMBER_LINKS) {
    await expect(menuLink(shell, key)).toHaveCount(0);
  }
  await expect(exitButton(shell)).toHaveCount(0);

  await menuLink(shell, 'menu.signIn').click();
  await expect(visitor).toHaveURL('/user/login');
  await expect(shell.pageHeading).toHaveText(t('en', 'screens.userLogin'));
});

test('a logged-in side menu offers Overview, My Assets, Help and Exit, not Sign in / Sign up', async ({ member, shell }) => {
  await member.goto('/home/index');
  await shell.openMenu();
  for (const { key, href } of MEMBER_LINKS) {
    await expect(menuLink(shell, key)).toHaveAttribute('href', href);
  }
  await expect(exitButton(shell)).toBeVisible();
  await expect(menuLink(shell, 'menu.signIn')).toHaveCount(0);
  await expect(menuLink(shell, 'menu.signUp')).toHaveCount(0);
});

test('Exit clears the session cookie and lands on /home/index', async ({ member, shell, context }) => {
  await member.goto('/about/index');
  // The company page's title is the content store's.
  await expect(shell.pageHeading).toHaveText(/\S/);
  expect((await context.cookies()).map((cookie) => cookie.name)).toContain(ACCESS_TOKEN_COOKIE);

  await shell.openMenu();
  await exitButton(shell).click();
  await expect(member).toHaveURL('/home/index');
  await expect.poll(async () => (await context.cookies()).map((cookie) => cookie.name)).not.toContain(ACCESS_TOKEN_COOKIE);
  await expect(shell.loginLink).toBeVisible();
  await expect(shell.registerLink).toBeVisible();

  // Still logged out after a reload.
  await member.reload();
  await expect(shell.loginLink).toBeVisible();
});

test('the top bar offers Log in and Register to visitors only', async ({ visitor, shell }) => {
  await visitor.goto('/home/index');
  await expect(shell.loginLink).toHaveAttribute('href', '/user/login');
  await expect(shell.registerLink).toHaveAttribute('href', '/user/register');
  await expect(shell.banner.getByRole('link', { name: t('en', 'menu.myAssets'), exact: true })).toHaveCount(0);

  await shell.registerLink.click();
  await expect(visitor).toHaveURL('/user/register');
  await expect(shell.pageHeading).toHaveText(t('en', 'screens.userRegister'));
});

test('the top bar shows the account menu instead of Log in / Register when logged in', async ({ member, memberAccount, shell }) => {
  await member.goto('/home/index');
  const accountMenu = shell.banner.getByRole('button', { name: t('en', 'nav.accountMenu.labelFor', { account: memberAccount.account }), exact: true });
  await expect(accountMenu).toBeVisible();
  await expect(shell.loginLink).toHaveCount(0);
  await expect(shell.registerLink).toHaveCount(0);
  await accountMenu.click();
  await expect(member.getByRole('menuitem', { name: t('en', 'nav.accountMenu.myAssets'), exact: true })).toHaveAttribute(
    'href',
    '/assets/index?key=overview',
  );
});

test('the theme switch toggles dark mode and the choice survives a reload', async ({ visitor, shell }) => {
  await visitor.goto('/home/index');
  // A toggle button: its name stays "Dark theme", its pressed state follows the theme.
  await shell.expectDarkTheme(false);
  expect(await shell.colorMode()).toEqual({ className: 'light', colorScheme: 'light' });

  await shell.themeSwitch.click();
  await shell.expectDarkTheme(true);
  await expect.poll(() => shell.colorMode()).toEqual({ className: 'dark', colorScheme: 'dark' });

  await visitor.reload();
  await shell.expectDarkTheme(true);
  await expect.poll(() => shell.colorMode()).toEqual({ className: 'dark', colorScheme: 'dark' });

  await shell.themeSwitch.click();
  await shell.expectDarkTheme(false);
  await expect.poll(() => shell.colorMode()).toEqual({ className: 'light', colorScheme: 'light' });
  await visitor.reload();
  await shell.expectDarkTheme(false);
  await expect.poll(() => shell.colorMode()).toEqual({ className: 'light', colorScheme: 'light' });
});

test('the footer carries the risk notice and the 10% security fund statement', async ({ visitor, shell }) => {
  await visitor.goto('/home/index');
  await expect(shell.footer).toBeVisible();
  await expect(shell.footer.getByText(t('en', 'footer.riskNotice'), { exact: true })).toBeVisible();
  await expect(shell.footer.getByText(t('en', 'footer.securityFund', { percent: 10 }), { exact: true })).toBeVisible();
  await expect(shell.footer.getByText('10% of all trading fees go to the asset security fund.')).toBeVisible();
});

test('the footer links the spot pairs and the support chat opens from it', async ({ visitor, shell }) => {
  await visitor.goto('/home/index');
  const pairs = shell.footer.getByRole('region', { name: t('en', 'footer.spotPairs'), exact: true });
  await expect(pairs.getByRole('link', { name: 'SOL/USDT', exact: true })).toHaveAttribute('href', '/trade/index?type=bb&symbol=solusdt');

  const chat = visitor.getByRole('dialog', { name: t('en', 'chat.title'), exact: true });
  await expect(chat).toHaveCount(0);
  await shell.footer.getByRole('button', { name: t('en', 'menu.onlineCustomer'), exact: true }).click();
  await expect(chat).toBeVisible();
  // A visitor is asked for an e-mail address before the conversation starts.
  await expect(chat.getByRole('textbox', { name: t('en', 'support.email') })).toBeVisible();
  await expect(chat.getByRole('button', { name: t('en', 'support.start'), exact: true })).toBeVisible();
  await chat.getByRole('button', { name: t('en', 'chat.close'), exact: true }).click();
  await expect(chat).toHaveCount(0);
});
