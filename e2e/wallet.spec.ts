/**
 * Sign-In with Ethereum through the UI against the real backend, with a wallet injected into the
 * page (`./wallet.ts`): a member links the wallet in the security centre (confirming the identity
 * first), logs out, and signs in with the wallet on the login screen; the screens at 360 px in
 * the dark theme.
 *
 * @module
 */

import type { Page } from '@playwright/test';
import { enterSecurityCode, expect, t, test } from './fixtures';
import { WALLET_KEY, addressOf, injectWallet, personalSign } from './wallet';

/** An English text of the account centre. */
const a = (key: string): string => t('en', `account.${key}`);

test('the wallet signer matches the published vector', () => {
  // web3.js's documented account and its `personal_sign` of "Some data".
  const key = Uint8Array.from(Buffer.from('4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318', 'hex'));
  expect(addressOf(key)).toBe('0x2c7536E3605D9C16a7a3D7b1898e529396a65c23');
  expect(personalSign(key, new TextEncoder().encode('Some data'))).toBe(
    '0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c',
  );
});

/** The security tab's wallet card. */
const walletCard = (page: Page) => page.getByRole('region', { name: a('wallet.title'), exact: true });

test('links a wallet, logs out, and signs in with it', async ({ member: page, memberAccount, request, shell }) => {
  const log = await injectWallet(page);
  const address = addressOf(WALLET_KEY);
  await page.goto('/account/center/security');
  const card = walletCard(page);
  await expect(card.getByText(a('wallet.statusNotLinked'), { exact: true })).toBeVisible();

  // Linking confirms the identity first, then the wallet signs the server's message once.
  await card.getByRole('button', { name: a('wallet.link'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: a('reauth.title'), exact: true });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: a('fields.loginPassword'), exact: true }).fill(memberAccount.password);
  await enterSecurityCode(request, dialog, memberAccount.account);
  await dialog.getByRole('button', { name: a('reauth.confirm'), exact: true }).click();
  await expect(card.getByText(a('wallet.statusLinked'), { exact: true })).toBeVisible();
  await expect(card.getByText(address, { exact: true })).toBeVisible();
  const signs = log.filter((entry) => entry.method === 'personal_sign');
  expect(signs).toHaveLength(1);

  // Log out, then sign in with the wallet alone.
  await shell.banner.getByRole('button', { name: t('en', 'nav.accountMenu.labelFor', { account: memberAccount.account }), exact: true }).click();
  await page.getByRole('menuitem', { name: t('en', 'nav.accountMenu.logout'), exact: true }).click();
  await expect(shell.loginLink).toBeVisible();
  await page.goto('/user/login');
  await page.getByRole('button', { name: t('en', 'auth.wallet.signIn'), exact: true }).click();
  await expect(page).toHaveURL('/home/index');
  await expect(shell.banner.getByRole('button', { name: t('en', 'nav.accountMenu.labelFor', { account: memberAccount.account }), exact: true })).toBeVisible();
  // The message signed names this site and the wallet, EIP-4361.
  const [data] = log.filter((entry) => entry.method === 'personal_sign').at(-1)!.params as [string];
  const message = Buffer.from(data.slice(2), 'hex').toString('utf8');
  expect(message).toMatch(new RegExp(`^127\\.0\\.0\\.1:\\d+ wants you to sign in with your Ethereum account:\\n${address}\\n`));
});

test('without a wallet in the browser the login screen says so', async ({ visitor: page }) => {
  await page.goto('/user/login');
  await page.getByRole('button', { name: t('en', 'auth.wallet.signIn'), exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(t('en', 'auth.wallet.noWallet'));
});

test.describe('at 360 px in the dark theme', () => {
  test.use({ viewport: { width: 360, height: 780 }, colorScheme: 'dark' });

  const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  test('the wallet card fits and is shot for review', async ({ member: page }, testInfo) => {
    await page.addInitScript(() => localStorage.setItem('coin_web-theme', 'dark'));
    await page.goto('/account/center/security');
    await walletCard(page).scrollIntoViewIfNeeded();
    await expect(walletCard(page).getByRole('button', { name: a('wallet.link'), exact: true })).toBeVisible();
    expect(await fits(page)).toBe(true);
    await walletCard(page).screenshot({ path: testInfo.outputPath('wallet-card-360-dark.png') });
  });

  test('the login screen fits and is shot for review', async ({ visitor: page }, testInfo) => {
    await page.addInitScript(() => localStorage.setItem('coin_web-theme', 'dark'));
    await page.goto('/user/login');
    await expect(page.getByRole('button', { name: t('en', 'auth.wallet.signIn'), exact: true })).toBeVisible();
    expect(await fits(page)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath('login-360-dark.png'), fullPage: true });
  });
});
