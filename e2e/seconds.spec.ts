/**
 * Flash (seconds) contracts end to end, as a member clicks through them: a member whose 1,000 USDT
 * deposit an operator approved (through the API) opens /trade/index?type=seconds, sees a stake that
 * is not a whole number refused in their language, picks the 5-second period (the e2e server's
 * `EXCHANGE_SECONDS_PERIODS` puts it first), bets Up with 20 USDT, sees the countdown of the open
 * bet, and then the bet settled under History with its settlement price, result and the rule's
 * ticks — and the balance moved by the stake and the payout. A German member sees the same refusal
 * in German. Every wait is an auto-retrying assertion; nothing sleeps.
 *
 * @module
 */

import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { apiPost, escapeRegExp, expect, t, test } from './fixtures';
import { PNG_1X1, newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

/** Credits `amount` USDT to the member: a deposit claim with a screenshot, approved by an operator (API). */
async function fundMember(request: APIRequestContext, browser: Browser, baseURL: string, token: string, amount: string): Promise<void> {
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
}

async function openScreen(page: Page): Promise<void> {
  await page.goto('/trade/index?type=seconds&symbol=btcusdt');
  await expect(page.getByRole('heading', { level: 1, name: 'BTC/USDT', exact: true })).toBeVisible();
}

test('a member bets Up on a 5-second period and sees it settle with its settlement price', async ({ member: page, memberToken, browser, baseURL, request }) => {
  await fundMember(request, browser, baseURL!, memberToken, '1000');
  await openScreen(page);
  const form = page.getByRole('form', { name: en('seconds.form.title') });
  await expect(form.getByRole('status')).toHaveText('1,000.00 USDT');

  // A stake that is not a whole number is refused before anything is sent.
  const stake = form.getByLabel(en('seconds.form.stake'));
  await stake.fill('10.5');
  await expect(form.getByText(en('errors.wholeNumber'), { exact: true })).toBeVisible();

  const period = form.getByRole('radio', { name: en('seconds.form.periodOption', { seconds: 5, percent: '85' }) });
  await period.click();
  await expect(period).toHaveAttribute('aria-checked', 'true');
  await stake.fill('20');
  const preview = form.getByRole('group', { name: en('seconds.preview.title') });
  await expect(preview.getByText('+17.00 USDT')).toBeVisible();
  await expect(preview.getByText('37.00 USDT')).toBeVisible();
  await form.getByRole('button', { name: en('seconds.form.upLabel', { pair: 'BTC/USDT', seconds: 5 }) }).click();

  // The open bet counts down.
  const open = page.getByRole('table', { name: en('seconds.orders.openTable') });
  const row = open.getByRole('row').filter({ hasText: 'BTC/USDT' });
  await expect(row.getByRole('timer')).toHaveText(/^[1-5] s$/);
  await expect(form.getByRole('status')).toHaveText('980.00 USDT');

  // It settles: under History with its settlement price, result and the ticks the rule used.
  await page.getByRole('tab', { name: en('seconds.orders.history') }).click();
  const history = page.getByRole('table', { name: en('seconds.orders.historyTable') });
  const settled = history.getByRole('row').filter({ hasText: 'BTC/USDT' });
  const result = new RegExp(`^(${['win', 'loss', 'tie'].map((r) => escapeRegExp(en(`seconds.result.${r}`))).join('|')})$`);
  await expect(settled.getByText(result)).toBeVisible({ timeout: 20_000 });
  const cells = settled.getByRole('cell');
  await expect(cells.nth(4)).toHaveText(/^\d{1,3}(,\d{3})*\.\d+$/);
  await expect(cells.nth(8)).toHaveText(/^#\d+ → #\d+$/);
  const outcome = (await settled.getByText(result).textContent())!;
  const expected = outcome === en('seconds.result.win') ? '1,017.00 USDT' : outcome === en('seconds.result.tie') ? '1,000.00 USDT' : '980.00 USDT';
  await expect(form.getByRole('status')).toHaveText(expected);
  await expect(page.getByRole('tab', { name: en('seconds.orders.open', { count: 0 }) })).toBeVisible();
});

test('a German member sees a stake below the minimum refused in German', async ({ member: page, shell }) => {
  await page.goto('/home/index');
  await shell.switchLanguage('de');
  await openScreen(page);
  const form = page.getByRole('form', { name: t('de', 'seconds.form.title') });
  await form.getByLabel(t('de', 'seconds.form.stake')).fill('5');
  await expect(form.getByText(t('de', 'errors.belowMinimum', { min: '10' }), { exact: true })).toBeVisible();
  await expect(form.getByRole('button', { name: t('de', 'seconds.form.upLabel', { pair: 'BTC/USDT', seconds: 5 }) })).toBeVisible();
});
