/**
 * The route table: redirects, invitation links, where the footer shows, "coming soon" screens and
 * the Features menu.
 *
 * @module
 */

import { expect, t, test } from './fixtures';

test('/ goes to /home/index', async ({ visitor: page, shell }) => {
  await page.goto('/');
  await expect(page).toHaveURL('/home/index');
  await expect(shell.main.getByRole('heading', { name: t('en', 'home.marketsTitle'), exact: true })).toBeVisible();
});

test('an unknown path goes to /home/index', async ({ visitor: page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL('/home/index');
});

test('an invitation link opens registration with the code', async ({ visitor: page, shell }) => {
  await page.goto('/i&ABC123');
  await expect(page).toHaveURL('/user/register?invite_code=ABC123');
  await expect(shell.pageHeading).toHaveText(t('en', 'screens.userRegister'));
  await expect(shell.main.getByRole('textbox', { name: t('en', 'auth.field.inviteCode'), exact: true })).toHaveValue('ABC123');
});

const FOOTER_VISIBILITY: { path: string; screen: string; heading?: string; footer: boolean }[] = [
  { path: '/home/index', screen: '', footer: true },
  { path: '/trade/index?type=bb', screen: '', heading: 'BTC/USDT', footer: false },
  { path: '/user/login', screen: 'userLogin', footer: false },
  { path: '/pledge/index', screen: '', heading: t('en', 'earn.titles.pledge'), footer: false },
  { path: '/finance/detail', screen: '', heading: t('en', 'earn.titles.detail'), footer: false },
  { path: '/user/index', screen: 'userIndex', footer: true },
];

for (const { path, screen, heading, footer } of FOOTER_VISIBILITY) {
  test(`the footer is ${footer ? 'shown' : 'hidden'} on ${path}`, async ({ visitor: page, shell }) => {
    await page.goto(path);
    await expect(page).toHaveURL(path);
    // The screen has rendered before the footer is judged.
    if (heading) {
      await expect(shell.pageHeading).toHaveText(heading);
    } else if (screen) {
      await expect(shell.pageHeading).toHaveText(t('en', `screens.${screen}`));
    } else {
      await expect(shell.main.getByRole('heading', { name: t('en', 'home.marketsTitle'), exact: true })).toBeVisible();
    }
    if (footer) {
      await expect(shell.footer).toBeVisible();
    } else {
      await expect(shell.footer).toHaveCount(0);
    }
  });
}

test('login is a full page without the shell’s navigation, price, account buttons or footer', async ({ visitor: page, shell }) => {
  await page.goto('/user/login');
  await expect(shell.pageHeading).toHaveText(t('en', 'screens.userLogin'));
  await expect(shell.footer).toHaveCount(0);
  await expect(shell.banner.getByRole('navigation', { name: t('en', 'nav.primary'), exact: true })).toHaveCount(0);
  await expect(shell.btcTicker).toHaveCount(0);
  await expect(shell.loginLink).toHaveCount(0);
  await expect(shell.registerLink).toHaveCount(0);
  await expect(shell.homeLink).toHaveAttribute('href', '/home/index');
  // The logo in the bar is the way home; the page itself is the login form.
  await expect(shell.main.getByRole('button', { name: t('en', 'auth.login.submit'), exact: true })).toBeVisible();
});

test('a visitor can read the login page in their language and pick the theme', async ({ visitor: page, shell }) => {
  await page.goto('/user/login');
  await expect(shell.pageHeading).toHaveText(t('en', 'screens.userLogin'));

  const german = await shell.switchLanguage('de');
  await expect(german.pageHeading).toHaveText(t('de', 'screens.userLogin'));
  await expect(german.main.getByRole('textbox', { name: t('de', 'auth.field.account'), exact: true })).toBeVisible();
  await expect(german.main.getByRole('button', { name: t('de', 'auth.login.submit'), exact: true })).toBeVisible();

  await german.expectDarkTheme(false);
  await german.themeSwitch.click();
  await german.expectDarkTheme(true);
  await expect.poll(() => german.colorMode()).toEqual({ className: 'dark', colorScheme: 'dark' });
});

for (const { key, type, heading } of [
  { key: 'nav.spot', type: 'bb', heading: 'BTC/USDT' },
  { key: 'nav.futures', type: 'usta', heading: 'BTC/USDT' },
  { key: 'nav.seconds', type: 'seconds', heading: 'BTC/USDT' },
]) {
  test(`the Features menu leads to /trade/index?type=${type}`, async ({ visitor: page, shell }) => {
    await page.goto('/home/index');
    await shell.featuresButton.click();
    const item = page.getByRole('menuitem', { name: t('en', key), exact: true });
    await expect(item).toBeVisible();
    await item.click();
    await expect(page).toHaveURL(`/trade/index?type=${type}`);
    await expect(shell.pageHeading).toHaveText(heading);
  });
}
