/**
 * The security headers in a real browser: the webapp runs under its Content-Security-Policy — its
 * scripts, the WebAssembly core, Chakra's styles and the live channel — with no violation (the
 * fixtures fail every test of every spec on one), the answers carry the headers, and the Swagger UI
 * renders under its own policy.
 *
 * @module
 */

import { expect, test } from './fixtures';

test('the trade page runs its WebAssembly core and live channel under the policy', async ({ visitor }) => {
  const socket = visitor.waitForEvent('websocket');
  const response = await visitor.goto('/trade/index?type=bb');
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('same-origin');
  await expect(visitor.getByRole('heading', { name: 'BTC/USDT' })).toBeVisible();
  // The core was compiled and the market channel delivers frames.
  await expect
    .poll(() => visitor.evaluate(() => performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('.wasm'))))
    .toBe(true);
  const channel = await socket;
  await channel.waitForEvent('framereceived');
});

test('the API reference renders under its own policy', async ({ visitor }) => {
  const response = await visitor.goto('/api/docs/');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
  expect(response?.headers()['x-frame-options']).toBe('DENY');
  await expect(visitor.getByRole('heading', { name: /Kestrel Exchange API/ })).toBeVisible();
});
