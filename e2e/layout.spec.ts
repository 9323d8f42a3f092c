/**
 * The layout fits the screen: from a phone to a wide desktop, in English and in German (among the
 * longest languages), /home/index never scrolls sideways and the top bar keeps Log in, the language
 * select and the theme switch. What the top bar leaves out at a width is in the side menu.
 *
 * @module
 */

import type { Page } from '@playwright/test';
import { HomePage, type Shell, expect, t, test } from './fixtures';

const WIDTHS = [360, 800, 1024, 1440] as const;
const LANGS = ['en', 'de'] as const;

/** Below this width Register is left to the side menu's Sign up. */
const REGISTER_FROM = 480;
/** From this width the top bar shows Markets and Features (below, the side menu has them). */
const PRIMARY_NAV_FROM = 1024;

/** The document's scroll width and the viewport's width, read in the page. */
function widths(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(async () => {
    await document.fonts.ready;
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth };
  });
}

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await widths(page);
  expect(scrollWidth, `page ${scrollWidth} px wide in a ${innerWidth} px viewport`).toBeLessThanOrEqual(innerWidth);
}

/** What the side menu must offer at `width` for the entries the top bar leaves out. */
async function expectSideMenuCovers(shell: Shell, width: number): Promise<void> {
  await shell.openMenu();
  if (width < REGISTER_FROM) {
    await expect(shell.sideMenuGroup('menu.account').getByRole('link', { name: shell.t('menu.signUp'), exact: true })).toHaveAttribute(
      'href',
      '/user/register',
    );
  }
  if (width < PRIMARY_NAV_FROM) {
    const features = shell.sideMenuGroup('menu.features');
    await expect(features.getByRole('link', { name: shell.t('nav.markets'), exact: true })).toHaveAttribute('href', '/quotes/index');
    await expect(features.getByRole('link', { name: shell.t('nav.spot'), exact: true })).toBeVisible();
  }
  await shell.page.keyboard.press('Escape');
  await expect(shell.sideMenuDialog).toBeHidden();
}

for (const lang of LANGS) {
  for (const width of WIDTHS) {
    test(`/home/index fits ${width} px in ${lang} without horizontal scrolling`, async ({ visitor: page, shell }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/home/index');
      const current = lang === 'en' ? shell : await shell.switchLanguage(lang);
      const home = new HomePage(page, lang);
      await expect(home.table).toBeVisible();
      await home.waitForPrices();
      await expect(home.hotCoins).toBeVisible();

      await expect(current.loginLink).toBeVisible();
      await expect(current.languageSwitcher).toBeVisible();
      await expect(current.themeSwitch).toBeVisible();
      if (width >= REGISTER_FROM) {
        await expect(current.registerLink).toBeVisible();
      } else {
        await expect(current.registerLink).toBeHidden();
      }
      if (width >= PRIMARY_NAV_FROM) {
        await expect(current.featuresButton).toBeVisible();
      } else {
        await expect(current.banner.getByRole('navigation', { name: t(lang, 'nav.primary'), exact: true })).toBeHidden();
      }
      await expectNoHorizontalScroll(page);

      await expectSideMenuCovers(current, width);
    });
  }
}

for (const width of [360, 1440] as const) {
  test(`the logo stays in place between the shell and the full-page login at ${width} px`, async ({ visitor: page, shell }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/home/index');
    await expect(shell.homeLink).toBeVisible();
    const inShell = await shell.homeLink.boundingBox();

    await shell.loginLink.click();
    await expect(page).toHaveURL('/user/login');
    await expect(shell.pageHeading).toHaveText(t('en', 'screens.userLogin'));
    await expect(shell.homeLink).toBeVisible();
    const onLogin = await shell.homeLink.boundingBox();

    expect(onLogin?.x).toBe(inShell?.x);
    expect(onLogin?.y).toBe(inShell?.y);
    await expectNoHorizontalScroll(page);
  });
}
