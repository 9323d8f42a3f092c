/**
 * How the webapp is delivered, in a real browser: each page downloads its own screen's code only
 * (no chart library on the home page), compressed and cached for a year; a screen whose code
 * cannot be downloaded shows a message with a reload button instead of a blank page, and the
 * reload brings the screen.
 *
 * @module
 */

import type { Response } from '@playwright/test';
import { expect, t, test } from './fixtures';

test('the home page downloads its own code only, compressed and cached for a year', async ({ visitor }) => {
  const scripts: Response[] = [];
  visitor.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  await visitor.goto('/home/index');
  await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
  await visitor.waitForLoadState('networkidle');
  const names = scripts.map((response) => new URL(response.url()).pathname);
  expect(names.some((name) => /\/assets\/home-page-[\w-]+\.js$/.test(name)), names.join('\n')).toBe(true);
  // The chart library and the other screens stay on the server.
  // (Chunks shared by several screens are named after all of them: only a screen's own chunk starts with its name.)
  for (const other of ['klinecharts', 'trade-page', 'futures-page', 'account-center-page', 'admin-page']) {
    expect(names.filter((name) => name.startsWith(`/assets/${other}-`)), other).toEqual([]);
  }
  for (const response of scripts) {
    const headers = await response.allHeaders();
    if (headers['content-length'] !== undefined && Number(headers['content-length']) < 1024) continue;
    expect(headers['content-encoding'], response.url()).toBe('br');
    expect(headers['cache-control'], response.url()).toBe('public, max-age=31536000, immutable');
  }
});

test('a screen whose code fails to download offers a reload that brings it', async ({ visitor }) => {
  // A deploy replaced the files, or the network dropped: the trade screen's chunk does not arrive.
  await visitor.route(/\/assets\/trade-page-[\w-]+\.js$/, (route) => route.abort('internetdisconnected'));
  await visitor.goto('/trade/index?type=bb');
  const alert = visitor.getByRole('alert').filter({ hasText: t('en', 'chunkError.title') });
  await expect(alert).toBeVisible();
  await expect(alert.getByText(t('en', 'chunkError.body'))).toBeVisible();
  // The top bar is still there: the page is not blank.
  await expect(visitor.getByRole('banner')).toBeVisible();

  await visitor.unroute(/\/assets\/trade-page-[\w-]+\.js$/);
  await alert.getByRole('button', { name: t('en', 'chunkError.reload') }).click();
  await expect(visitor.getByRole('heading', { name: 'BTC/USDT' })).toBeVisible();
  await expect(visitor.getByRole('alert').filter({ hasText: t('en', 'chunkError.title') })).toHaveCount(0);
});
