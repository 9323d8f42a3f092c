/**
 * Referral end to end: A invites B (B registers through A's link `/i&CODE`, the register form
 * prefilled), B invites C, C invites D (API registrations with the codes); an operator makes A an
 * agent with rates of its own in /admin; D submits basic identity verification and the operator
 * passes it in /admin's review queue, as for any member; D and C, funded by approved deposits, buy
 * BTC at market (spot fills against the simulated book); the test clock
 * (`POST /api/admin/test/clock/advance`) moves past the next hour and the hourly batch (every 5 s
 * on the shared clock in this suite: `EXCHANGE_REFERRAL_BATCH_EVERY_SECS`) records the fees.
 *
 * D is verified, so each of D's fills pays C (generation 1), B (2) and A (3, A's agent rate)
 * exactly what the programme's arithmetic gives from the fill's fee as D's own trade history shows
 * it, the security fund's percent (`getAllSetting`) and each reader's rates (`referral/summary`):
 * the expected amounts are computed here, not copied from the product. C is not verified, so C's
 * fills pay nothing and B's and A's lines say why (`not_verified`). Every account of the suite
 * logs in from 127.0.0.1, so the e2e server turns the same-address rule off
 * (`EXCHANGE_REFERRAL_WITHHOLD_SAME_ADDRESS=false` in playwright.config.ts; the backend's HTTP tests
 * prove that rule). Each of A, B and C opens the reward centre, sees the total paid, and drills
 * down to a paid line of D's fill (fill, pair, generation, rate, amount, payment entry); A and B
 * also see C's withheld line with its reason.
 *
 * @module
 */

import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { ACCESS_TOKEN_COOKIE, TEST_PASSWORD, apiPost, expect, loginToken, registerAccount, t, test, uniqueEmail } from './fixtures';
import { PNG_1X1, newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

interface Summary {
  inviteCode: string;
  /** The reader's rates, generation 1 first (fractions). */
  rates: string[];
  totalReward: { coin: string; amount: string }[];
}

interface Line {
  fillId: number;
  generation: number;
  symbol: string;
  coin: string;
  fee: string;
  feeAfterFund: string;
  rate: string;
  amount: string;
  status: string;
  withheldReason?: string;
  entryId?: number;
}

/** A spot fill as its owner's trade history shows it. */
interface Fill {
  id: number;
  symbol: string;
  fee: string;
  feeCoin: string;
}

/** Decimals of the fixed-point arithmetic below: more than any fee, rate or percent here has. */
const SCALE = 18n;
const ONE = 10n ** SCALE;

/** A non-negative decimal string as an integer of 10^-18 units. */
function units(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > Number(SCALE)) throw new Error(`too many decimals: ${text}`);
  return BigInt(whole) * ONE + BigInt(fraction.padEnd(Number(SCALE), '0'));
}

/** Rounds down to 8 decimals, as every rebate and the security fund's share are. */
function floor8(value: bigint): bigint {
  const step = 10n ** (SCALE - 8n);
  return (value / step) * step;
}

/** `value` as the plain decimal text the statement shows (no trailing zeros). */
function text(value: bigint): string {
  const whole = (value / ONE).toString();
  const fraction = (value % ONE).toString().padStart(Number(SCALE), '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * The programme's split of one fee: the security fund's `percent` of it rounded down to 8
 * decimals; of what is left, each generation's `rates[g]` share rounded down to 8 decimals and
 * never more than the generations before it left.
 */
function split(fee: string, percent: string, rates: string[]): { feeAfterFund: bigint; amounts: bigint[] } {
  const paid = units(fee);
  const feeAfterFund = paid - floor8((paid * units(percent)) / (100n * ONE));
  let left = feeAfterFund;
  const amounts = rates.map((rate) => {
    const share = (feeAfterFund * units(rate)) / ONE;
    const amount = floor8(share < left ? share : left);
    left -= amount;
    return amount;
  });
  return { feeAfterFund, amounts };
}

async function apiGet<D>(request: APIRequestContext, path: string, token: string): Promise<D> {
  const response = await request.get(path, { headers: { satoken: token } });
  const body = (await response.json()) as { code: number; msg: string; data: D };
  if (body.code !== 200) throw new Error(`${path}: ${body.msg}`);
  return body.data;
}

/** A page of `token`'s session in a fresh context (English, New York time). */
async function memberPage(browser: Browser, baseURL: string, token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'America/New_York' });
  await context.addCookies([{ name: ACCESS_TOKEN_COOKIE, value: token, url: baseURL, sameSite: 'Lax' }]);
  return context.newPage();
}

async function tokenOf(page: Page): Promise<string> {
  return (await page.context().cookies()).find((c) => c.name === ACCESS_TOKEN_COOKIE)!.value;
}

/** Credits `amount` USDT to the member's funding account: a deposit claim approved by `operatorToken`. */
async function fund(request: APIRequestContext, token: string, operatorToken: string, amount: string): Promise<void> {
  const upload = await request.post('/api/common/upload/OSS', {
    headers: { satoken: token },
    multipart: { file: { name: 'payment.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  });
  const fileId = ((await upload.json()) as { data: { fileId: number } }).data.fileId;
  const claim = await apiPost<{ id: number }>(request, '/api/recharge/submit', { coin: 'usdt', network: 'TRC20', amount, screenshot: String(fileId) }, token);
  await apiPost(request, `/api/admin/deposits/${claim.id}/review`, { approve: true }, operatorToken);
}

test('A invites B invites C invites D; D trades; A, B and C see their paid rebates and drill down to the fill', async ({ visitor: page, auth, request, browser, baseURL }) => {
  test.setTimeout(240_000);
  const a = await registerAccount(request);
  const aToken = await loginToken(request, a);
  const aCode = (await apiGet<Summary>(request, '/api/referral/summary', aToken)).inviteCode;

  // B follows A's link: the register form carries A's code.
  await page.goto(`/i&${aCode}`);
  await expect(page).toHaveURL(`/user/register?invite_code=${aCode}`);
  await expect(auth.inviteCode).toHaveValue(aCode);
  const b = { account: uniqueEmail('referral-b'), password: TEST_PASSWORD };
  await auth.account.fill(b.account);
  await auth.code.fill(await auth.sendCode(request, b.account));
  await auth.password.fill(TEST_PASSWORD);
  await auth.confirmPassword.fill(TEST_PASSWORD);
  await auth.registerButton.click();
  await expect(page).toHaveURL('/user/login');
  const bToken = await loginToken(request, b);
  const bSummary = await apiGet<Summary & { invitedBy?: number }>(request, '/api/referral/summary', bToken);
  expect(bSummary.invitedBy).toBe(a.userId);

  const c = await registerAccount(request, { inviteCode: bSummary.inviteCode });
  const cToken = await loginToken(request, c);
  const d = await registerAccount(request, { account: uniqueEmail('referral-d'), inviteCode: (await apiGet<Summary>(request, '/api/referral/summary', cToken)).inviteCode });
  const dToken = await loginToken(request, d);

  // The operator makes A an agent at 30 / 15 / 7.5 % in /admin.
  const operator = await newOperator(browser, baseURL!, request);
  const operatorToken = await tokenOf(operator);
  await operator.goto('/admin?queue=agents');
  const form = operator.getByRole('form', { name: en('referral.admin.add') });
  await form.getByLabel(en('referral.admin.userId')).fill(String(a.userId));
  await form.getByLabel(en('referral.admin.rateN', { n: 1 })).fill('30');
  await form.getByLabel(en('referral.admin.rateN', { n: 2 })).fill('15');
  await form.getByLabel(en('referral.admin.rateN', { n: 3 })).fill('7.5');
  await form.getByRole('button', { name: en('referral.admin.save') }).click();
  await expect(operator.getByRole('table', { name: en('referral.admin.title') }).getByText('30% / 15% / 7.5%')).toBeVisible();

  // D passes basic identity verification: submitted as a member does, passed in /admin's review queue.
  const submission = await apiPost<{ id: number }>(
    request,
    '/api/coin/coin/member/verified',
    { name: 'Dora Referral', idCard: 'D20261129', country: 'DE', cardType: 'idCard' },
    dToken,
  );
  await operator.goto('/admin');
  await operator.getByRole('button', { name: en('kyc.admin.openFor', { id: submission.id }) }).click();
  const review = operator.getByRole('dialog', { name: en('kyc.admin.detailTitle', { id: submission.id }) });
  await expect(review.getByText(d.account, { exact: true })).toBeVisible();
  await review.getByRole('button', { name: en('kyc.admin.approve'), exact: true }).click();
  await expect(review).toBeHidden();

  // D (verified) and C (not verified) buy BTC at market; their fills, as their trade history shows
  // them, once every fill of the order is stored (the fills' fees add up to the order's).
  await fund(request, dToken, operatorToken, '3000');
  await fund(request, cToken, operatorToken, '500');
  const buy = async (token: string, quoteAmount: string): Promise<Fill[]> => {
    const order = await apiPost<{ id: number; serviceCharge: string }>(
      request,
      '/api/currency/order/submit',
      { symbol: 'btcusdt', side: 'buy', orderType: 'market', quoteAmount },
      token,
    );
    let fills: Fill[] = [];
    await expect
      .poll(async () => {
        const history = await apiPost<{ records: (Fill & { orderId: number })[] }>(request, '/api/coin/coin/entrust/getEntrustLogCurrency', { pageSize: 100 }, token);
        fills = history.records.filter((f) => f.orderId === order.id);
        return text(fills.reduce((sum, f) => sum + units(f.fee), 0n));
      })
      .toBe(text(units(order.serviceCharge)));
    expect(fills.length).toBeGreaterThan(0);
    return fills;
  };
  const dFills = await buy(dToken, '2000');
  const cFills = await buy(cToken, '150');

  // Past the next hour; the batch pays every fill before it.
  await apiPost(request, '/api/admin/test/clock/advance', { ms: 2 * 3_600_000 }, operatorToken);
  await operator.context().close();
  const linesOf = async (token: string) => (await apiGet<{ records: Line[] }>(request, '/api/referral/statement?pageSize=100', token)).records;
  await expect
    .poll(async () => (await linesOf(aToken)).length, { timeout: 150_000, intervals: [2_000] })
    .toBe(dFills.length + cFills.length);

  // What each fill must pay, from the fill's fee, the fund's percent and each reader's rates.
  const settings = await apiPost<{ platform: { securityFundPercent: string } }>(request, '/api/common/getAllSetting');
  const percent = settings.platform.securityFundPercent;
  const readers = [
    { name: 'C', token: cToken, dGeneration: 1, cGeneration: undefined },
    { name: 'B', token: bToken, dGeneration: 2, cGeneration: 1 },
    { name: 'A', token: aToken, dGeneration: 3, cGeneration: 2 },
  ] as const;
  const rates: string[] = [];
  for (const reader of readers) {
    rates.push((await apiGet<Summary>(request, '/api/referral/summary', reader.token)).rates[reader.dGeneration - 1]!);
  }
  // A's generation-3 rate is the agent rate the operator set above.
  expect(units(rates[2]!)).toBe(units('0.075'));

  for (const [index, reader] of readers.entries()) {
    const lines = await linesOf(reader.token);
    let total = 0n;
    let newestPaid: { line: Line; amount: bigint } | undefined;
    for (const fill of dFills) {
      const expected = split(fill.fee, percent, rates);
      const amount = expected.amounts[index]!;
      const line = lines.find((l) => l.fillId === fill.id && l.generation === reader.dGeneration);
      expect(line, `${reader.name}: the line of D's fill #${fill.id}`).toBeDefined();
      expect(line!.symbol).toBe(fill.symbol);
      expect(line!.coin.toLowerCase()).toBe(fill.feeCoin.toLowerCase());
      expect(units(line!.fee)).toBe(units(fill.fee));
      expect(units(line!.feeAfterFund)).toBe(expected.feeAfterFund);
      expect(units(line!.rate)).toBe(units(rates[index]!));
      if (units(fill.fee) === 0n) {
        expect(line).toMatchObject({ status: 'withheld', withheldReason: 'zero_fee' });
        continue;
      }
      expect(line!.status, `${reader.name}: D's fill #${fill.id}`).toBe('paid');
      expect(units(line!.amount), `${reader.name}: D's fill #${fill.id}`).toBe(amount);
      expect(line!.entryId).toEqual(expect.any(Number));
      total += amount;
      if (amount > 0n && (!newestPaid || line!.fillId > newestPaid.line.fillId)) newestPaid = { line: line!, amount };
    }
    expect(newestPaid, `${reader.name}: a paid line above zero`).toBeDefined();
    for (const fill of reader.cGeneration ? cFills : []) {
      const line = lines.find((l) => l.fillId === fill.id && l.generation === reader.cGeneration);
      expect(line, `${reader.name}: the line of C's fill #${fill.id}`).toMatchObject({
        status: 'withheld',
        withheldReason: units(fill.fee) === 0n ? 'zero_fee' : 'not_verified',
      });
      expect(units(line!.amount)).toBe(0n);
    }
    const summary = await apiGet<Summary>(request, '/api/referral/summary', reader.token);
    const coin = dFills[0]!.feeCoin.toLowerCase();
    expect(units(summary.totalReward.find((r) => r.coin.toLowerCase() === coin)?.amount ?? '0')).toBe(total);

    // The reader's reward centre: the total, then D's newest paid line drilled down to its fill.
    const member = await memberPage(browser, baseURL!, reader.token);
    await member.goto('/account/center/reward-center');
    await expect(member.getByText(`${text(total)} ${coin.toUpperCase()}`).first()).toBeVisible();
    const section = member.getByRole('region', { name: en('referral.statement.title') });
    const filter = section.getByRole('group', { name: en('referral.filterLabel') });
    await filter.getByRole('button', { name: en('referral.generationN', { n: reader.dGeneration }) }).click();
    const statement = section.getByRole('list', { name: en('referral.statement.title') });
    const item = statement.getByRole('listitem').filter({ hasText: `${text(newestPaid!.amount)} ${coin.toUpperCase()}` }).first();
    await item.getByRole('button', { name: en('referral.statement.details') }).click();
    const paid = newestPaid!.line;
    // (`.first()`: the payment entry's `#id` may by chance be the same number.)
    await expect(item.getByText(`#${paid.fillId}`, { exact: true }).first()).toBeVisible();
    await expect(item.getByText(paid.symbol.toUpperCase(), { exact: true }).first()).toBeVisible();
    await expect(item.getByText(en('referral.generationN', { n: reader.dGeneration }), { exact: true }).first()).toBeVisible();
    await expect(item.getByText(`${text(units(rates[index]!) * 100n)}%`, { exact: true })).toBeVisible();
    await expect(item.getByText(`${text(units(paid.fee))} ${coin.toUpperCase()}`, { exact: true })).toBeVisible();
    await expect(item.getByText(`#${paid.entryId}`, { exact: true }).first()).toBeVisible();
    if (reader.cGeneration) {
      // C's fill: withheld, and why.
      await filter.getByRole('button', { name: en('referral.generationN', { n: reader.cGeneration }) }).click();
      await expect(statement.getByText(en('referral.withheld.not_verified')).first()).toBeVisible();
    }
    await member.context().close();
  }
});
