/**
 * Language switching: visible texts follow the chosen language (compared with the webapp's own
 * translation files), `<html lang>` follows, the choice survives a reload, and English comes back.
 *
 * @module
 */

import { type Lang, type Shell, HomePage, expect, t, test } from './fixtures';

/** Texts of the home page and shell that must be shown in `lang`. */
async function expectHomeIn(shell: Shell, lang: Lang): Promise<void> {
  const home = new HomePage(shell.page, lang);
  await expect(shell.loginLink).toBeVisible();
  await expect(shell.registerLink).toBeVisible();
  await expect(shell.featuresButton).toBeVisible();
  await shell.expectDarkTheme(false);
  await expect(shell.main.getByRole('heading', { level: 2, name: t(lang, 'home.marketsTitle'), exact: true })).toBeVisible();
  await expect(home.table.getByRole('columnheader')).toHaveText([
    t(lang, 'home.colPair'),
    t(lang, 'home.colPrice'),
    t(lang, 'home.colChange'),
    t(lang, 'home.colAction'),
  ]);
  await expect(home.hotCoins).toBeVisible();
  await expect(home.search).toHaveAttribute('placeholder', t(lang, 'home.searchPlaceholder'));
  await expect(shell.main.getByText(t(lang, 'home.tagline'), { exact: true })).toBeVisible();
  await expect(shell.footer.getByText(t(lang, 'footer.riskNotice'), { exact: true })).toBeVisible();
  await expect(shell.footer.getByRole('heading', { name: t(lang, 'footer.products'), exact: true })).toBeVisible();
  await expect(shell.btcTicker).toBeVisible();
  await expect.poll(() => shell.htmlLang()).toBe(lang);
}

for (const lang of ['de', 'ja'] as const) {
  test(`switches to ${lang}, keeps it after a reload, and back to English`, async ({ visitor, shell }) => {
    await visitor.goto('/home/index');
    await expectHomeIn(shell, 'en');
    // Sanity: the two languages differ on the texts the test compares.
    expect(t(lang, 'home.marketsTitle')).not.toBe(t('en', 'home.marketsTitle'));

    const switched = await shell.switchLanguage(lang);
    await expectHomeIn(switched, lang);
    await expect(shell.main.getByRole('heading', { name: t('en', 'home.marketsTitle'), exact: true })).toHaveCount(0);

    await visitor.reload();
    await switched.expectLanguage();
    await expectHomeIn(switched, lang);

    // The language also follows the user across screens.
    await switched.openMenu();
    await expect(switched.sideMenuGroup('menu.account').getByRole('link', { name: t(lang, 'menu.signUp'), exact: true })).toBeVisible();
    await visitor.keyboard.press('Escape');
    await expect(switched.sideMenu).toBeHidden();

    const english = await switched.switchLanguage('en');
    await expectHomeIn(english, 'en');
    await visitor.reload();
    await expectHomeIn(english, 'en');
  });
}
