/**
 * Operators for the review flows: an operator account is created with the backend's own command
 * (`backend admin create-operator`) against the e2e server's database — the same data folder (and
 * `DATABASE_URL`, if one is set) as the server that playwright.config.ts starts — and used in a
 * second browser context, logged in through the API.
 *
 * @module
 */

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { TEST_PASSWORD, apiPost, loginToken, uniqueEmail } from './fixtures';

const run = promisify(execFile);

/** The e2e folder: playwright.config.ts starts the server here with `EXCHANGE_DATA_DIR=.tmp/data`. */
const E2E_DIR = fileURLToPath(new URL('.', import.meta.url));
const BACKEND = join(E2E_DIR, '../target/debug/backend');
const DATA_DIR = join(E2E_DIR, '.tmp/data');

/** A 1×1 PNG (a grey pixel). */
export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** Creates an operator account with the backend command, against the e2e server's database. */
export async function createOperator(email: string, password: string): Promise<void> {
  await run(BACKEND, ['admin', 'create-operator', '--email', email, '--password', password], {
    cwd: E2E_DIR,
    env: { ...process.env, EXCHANGE_DATA_DIR: DATA_DIR, EXCHANGE_LOG: 'warn' },
  });
}

/** A page in a second browser context, logged in as the operator (session cookie from an API login). */
export async function operatorPage(browser: Browser, baseURL: string, token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'America/New_York' });
  await context.addCookies([{ name: 'coin-access-token', value: token, url: baseURL, sameSite: 'Lax' }]);
  return context.newPage();
}

/** A new operator, logged in on a page of its own. */
export async function newOperator(browser: Browser, baseURL: string, request: APIRequestContext): Promise<Page> {
  const email = uniqueEmail('operator');
  await createOperator(email, TEST_PASSWORD);
  return operatorPage(browser, baseURL, await loginToken(request, { account: email, password: TEST_PASSWORD }));
}

/**
 * Credits `amount` USDT to a member's trading (futures) wallet: a deposit claim with a screenshot,
 * approved by a new operator, then moved from the funding wallet with `asset/transferFunds` (API).
 */
export async function fundTradingWallet(request: APIRequestContext, browser: Browser, baseURL: string, token: string, amount: string): Promise<void> {
  const upload = await request.post('/api/common/upload/OSS', {
    headers: { satoken: token },
    multipart: { file: { name: 'payment.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  });
  const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
  const claim = await apiPost<{ id: number }>(request, '/api/recharge/submit', { coin: 'usdt', network: 'TRC20', amount, screenshot: String(fileId) }, token);
  const operator = await newOperator(browser, baseURL, request);
  const operatorToken = (await operator.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
  await apiPost(request, `/api/admin/deposits/${claim.id}/review`, { approve: true }, operatorToken);
  await operator.context().close();
  const moved = await request.post('/api/asset/transferFunds', {
    headers: { satoken: token, 'Idempotency-Key': crypto.randomUUID() },
    data: { coin: 'usdt', amount, from: 'funding', to: 'trading' },
  });
  const body = (await moved.json()) as { code: number; msg: string };
  if (body.code !== 200) throw new Error(`transferFunds: ${body.msg}`);
}

/**
 * A 30-day USDT staking product (0.12 % a day, 10 to 5,000 a subscription, open from an hour ago
 * for 20 days) created by the operator of `operatorToken`; its id.
 */
export async function createStakingProduct(request: APIRequestContext, operatorToken: string): Promise<{ id: number }> {
  const now = Date.now();
  return apiPost<{ id: number }>(
    request,
    '/api/admin/earn/product/create',
    {
      kind: 'pledge',
      asset: 'usdt',
      names: { en: 'USDT staking, 30 days', de: 'USDT-Staking mit 30 Tagen Laufzeit' },
      rate: '0.0012',
      rateBasis: 'daily',
      lockDays: 30,
      earlyRedemption: 'deduct',
      minAmount: '10',
      maxAmount: '5000',
      totalQuota: '200000',
      perUserQuota: '10000',
      maxSubscriptions: 5,
      startAt: now - 3_600_000,
      endAt: now + 20 * 86_400_000,
    },
    operatorToken,
  );
}
