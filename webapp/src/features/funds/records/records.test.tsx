import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../i18n';
import { toaster } from '../../../lib/toaster';
import { TRC20_ADDRESS, USER_COINS, callsTo, fakeBackend, ok, renderFunds } from '../test-helpers';
import { dayStart } from './bills';

const TIME = Date.UTC(2026, 10, 21, 14, 30, 0);
const TX_HASH = 'a3f1c0ffee5e0d9b7a6c4e2f1b3d5a7c9e0f2b4d6a8c0e1f3b5d7a9c1e3f5b7d9';

const DEPOSITS = {
  total: 3,
  page: 1,
  pageSize: 20,
  records: [
    { id: 3, coin: 'usdt', network: 'TRC20', address: TRC20_ADDRESS, amount: '150', screenshot: '7', screenshotUrl: '/x', status: 'review', createdAt: TIME },
    { id: 2, coin: 'usdt', network: 'TRC20', address: TRC20_ADDRESS, amount: '90', screenshot: '6', screenshotUrl: '/x', status: 'failed', reason: 'The amount does not match', createdAt: TIME, reviewedAt: TIME },
    { id: 1, coin: 'btc', network: 'BTC', address: 'bc1q', amount: '0.01', screenshot: '5', screenshotUrl: '/x', status: 'passed', createdAt: TIME, reviewedAt: TIME },
  ],
};

const WITHDRAWALS = {
  total: 1,
  page: 1,
  pageSize: 20,
  records: [{ id: 8, coin: 'usdt', network: 'TRC20', address: TRC20_ADDRESS, amount: '101', fee: '1', received: '100', status: 'passed', txHash: TX_HASH, createdAt: TIME, reviewedAt: TIME }],
};

const CONVERSION = { fromCoin: 'usdt', fromAmount: '100', toCoin: 'btc', toAmount: '0.00149' };
const BILLS = {
  total: 45,
  page: 1,
  pageSize: 20,
  records: [
    { id: 11, entryId: 5, kind: 'exchange', coin: 'usdt', bucket: 'funding', amount: '-100', balance: '900', memo: 'usdt → btc', detail: CONVERSION, createdAt: TIME },
    { id: 12, entryId: 5, kind: 'exchange', coin: 'btc', bucket: 'funding', amount: '0.00149', balance: '0.50149', memo: 'usdt → btc', detail: CONVERSION, createdAt: TIME },
  ],
};

beforeEach(() => {
  vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  Reflect.deleteProperty(navigator, 'clipboard');
  // jsdom has no object URLs: the export test adds them.
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
  await setLanguage('en', { persist: false });
});

describe('deposit and withdrawal histories', () => {
  it('lists deposits with their state and the reason of a failed one, filtered by status', async () => {
    const calls = fakeBackend({ 'POST /api/recharge/list': ok(DEPOSITS) });
    renderFunds('/assets/index?key=records');
    const table = await screen.findByRole('table', { name: 'Deposits' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Under review')).toBeTruthy();
    expect(within(rows[1]!).getByText('Failed')).toBeTruthy();
    expect(within(rows[1]!).getByText('Reason: The amount does not match')).toBeTruthy();
    expect(within(rows[2]!).getByText('Passed')).toBeTruthy();
    expect(within(rows[2]!).getByText('0.01')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/recharge/list')[0]?.body).toEqual({ page: 1, pageSize: 20 });

    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'failed' } });
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/recharge/list').at(-1)?.body).toEqual({ page: 1, pageSize: 20, status: 'failed' }));
  });

  it('shows a withdrawal’s fee, amount received and transaction hash, which copies', async () => {
    fakeBackend({ 'POST /api/withdraw/list': ok(WITHDRAWALS) });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { router } = renderFunds('/assets/index?key=records&tab=withdrawals');
    const table = await screen.findByRole('table', { name: 'Withdrawals' });
    const row = await within(table).findByRole('row', { name: /TRC20/ });
    const cells = within(row).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells.slice(3, 7)).toEqual(['101', '1', '100', 'Passed']);
    fireEvent.click(within(row).getByRole('button', { name: 'Copy transaction hash' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(TX_HASH));

    fireEvent.click(screen.getByRole('tab', { name: 'Bills' }));
    await waitFor(() => expect(router.state.location.search).toBe('?key=records&tab=bills'));
  });

  it('has its own pages in the wallet', async () => {
    fakeBackend({ 'POST /api/withdraw/list': ok(WITHDRAWALS), 'POST /api/recharge/list': ok(DEPOSITS) });
    renderFunds('/account/wallet/history-withdrawal');
    expect(await screen.findByRole('heading', { level: 2, name: 'Withdrawal history' })).toBeTruthy();
    expect(await screen.findByRole('table', { name: 'Withdrawals' })).toBeTruthy();
  });
});

describe('transfer records', () => {
  it('lists moves between accounts and transfers with other users', async () => {
    fakeBackend({
      'GET /api/coin/coin/wallet/trans': ok({ total: 1, page: 1, pageSize: 20, records: [{ entryId: 3, coin: 'usdt', amount: '250', from: 'funding', to: 'trading', createdAt: TIME }] }),
      'GET /api/transfer/list': ok({ total: 1, page: 1, pageSize: 20, records: [{ id: 1, direction: 'in', counterpartId: 1002, coin: 'usdt', amount: '30', createdAt: TIME }] }),
    });
    renderFunds('/assets/index?key=records&tab=transfers');
    const moves = await screen.findByRole('table', { name: 'Between my accounts' });
    const row = await within(moves).findByRole('row', { name: /250/ });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent).slice(1)).toEqual(['USDT', 'Funding', 'Trading', '250']);

    fireEvent.click(screen.getByRole('tab', { name: 'With other users' }));
    const users = await screen.findByRole('table', { name: 'With other users' });
    const received = await within(users).findByRole('row', { name: /1002/ });
    expect(within(received).getByText('Received')).toBeTruthy();
    expect(within(received).getByText('+30')).toBeTruthy();
  });
});

describe('bills', () => {
  it('filters by kind, coin and dates in the user’s time zone, and pages', async () => {
    const calls = fakeBackend({ 'POST /api/coin/coin/assets/getMyBill': ok(BILLS), 'POST /api/userCoin/getUserCoin': ok(USER_COINS) });
    renderFunds('/assets/index?key=records&tab=bills');
    const table = await screen.findByRole('table', { name: 'Bills' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const debit = within(table).getAllByRole('row')[1]!;
    expect(within(debit).getByText('Conversion')).toBeTruthy();
    expect(within(debit).getByText('Converted 100 USDT to 0.00149 BTC')).toBeTruthy();
    expect(within(table).queryByText('usdt → btc')).toBeNull();
    expect(within(debit).getByText('-100')).toBeTruthy();
    expect(within(table).getByText('+0.00149')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/coin/coin/assets/getMyBill')[0]?.body).toEqual({ page: 1, pageSize: 20 });

    fireEvent.change(screen.getByRole('combobox', { name: 'Type' }), { target: { value: 'withdrawal' } });
    await waitFor(() => expect(screen.getByRole('option', { name: 'USDT' })).toBeTruthy());
    fireEvent.change(screen.getByRole('combobox', { name: 'Coin' }), { target: { value: 'usdt' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-21' } });
    // New York (UTC−5:00, the default zone when the user chose none): the days start at 05:00 UTC.
    const start = Date.UTC(2026, 10, 1, 5);
    const end = Date.UTC(2026, 10, 22, 5);
    await waitFor(() =>
      expect(callsTo(calls, 'POST', '/api/coin/coin/assets/getMyBill').at(-1)?.body).toEqual({ kind: 'withdrawal', coin: 'usdt', startTime: start, endTime: end, page: 1, pageSize: 20 }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Page 2 of 3' }));
    await waitFor(() => expect((callsTo(calls, 'POST', '/api/coin/coin/assets/getMyBill').at(-1)?.body as { page: number }).page).toBe(2));
  });

  it('refuses a range that ends before it starts', async () => {
    fakeBackend({ 'POST /api/coin/coin/assets/getMyBill': ok(BILLS) });
    await setLanguage('de', { persist: false });
    renderFunds('/account/wallet/bills');
    await screen.findByRole('table', { name: 'Kontoauszug' });
    fireEvent.change(screen.getByLabelText('Von'), { target: { value: '2026-11-21' } });
    fireEvent.change(screen.getByLabelText('Bis'), { target: { value: '2026-11-01' } });
    expect(await screen.findByText('Das Startdatum darf nicht nach dem Enddatum liegen.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Als CSV exportieren' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('exports the filtered bills as a CSV file worded like the list', async () => {
    const exported = {
      id: 9,
      entryId: 4,
      kind: 'exchange',
      coin: 'usdt',
      bucket: 'funding',
      amount: '-25',
      balance: '75',
      memo: '25 USDT → 0.00025 BTC',
      detail: { fromCoin: 'usdt', fromAmount: '25', toCoin: 'btc', toAmount: '0.00025' },
      createdAt: Date.UTC(2026, 10, 21, 14, 30),
    };
    const calls = fakeBackend({
      'POST /api/coin/coin/assets/getMyBill': ok(BILLS),
      'GET /api/coin/coin/assets/getMyBillCsv': ok({
        fileName: 'bills-20261121.csv',
        csv: 'time,type\r\n11/21/2026 09:30:00,exchange\r\n',
        rows: 1,
        records: [exported],
      }),
    });
    const files: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      expect(blob.type).toBe('text/csv;charset=utf-8');
      files.push(blob);
      return 'blob:bills';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.download} ${this.href}`);
    });
    renderFunds('/assets/index?key=records&tab=bills');
    await screen.findByRole('table', { name: 'Bills' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Type' }), { target: { value: 'exchange' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toEqual(['bills-20261121.csv blob:bills']));
    const [call] = callsTo(calls, 'GET', '/api/coin/coin/assets/getMyBillCsv');
    expect(Object.fromEntries(call!.query)).toEqual({ kind: 'exchange', offsetMinutes: '-300' });
    expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Rows exported: 1' });
    const [header, row] = (await files[0]!.text()).split('\r\n');
    expect(header).toBe('Time,Type,Coin,Account,Amount,Balance,Details');
    expect(row).toMatch(/^.+,Conversion,USDT,Funding,-25,75,Converted 25 USDT to 0\.00025 BTC$/);
    expect(row).not.toContain('→');
  });

  it('says why an export failed in a toast', async () => {
    fakeBackend({
      'POST /api/coin/coin/assets/getMyBill': ok(BILLS),
      'GET /api/coin/coin/assets/getMyBillCsv': { status: 429, body: { code: 429, msg: 'Too many requests. Please wait a moment.' } },
    });
    renderFunds('/assets/index?key=records&tab=bills');
    await screen.findByRole('table', { name: 'Bills' });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'error', title: 'Too many requests. Please wait a moment.' }));
    // Shown once: the API client stays silent for this call.
    expect(vi.mocked(toaster.create).mock.calls.filter(([toast]) => toast.type === 'error')).toHaveLength(1);
  });

  it('reads dates as days of the user’s time zone', () => {
    expect(dayStart('2026-11-21', 0)).toBe(Date.UTC(2026, 10, 21));
    expect(dayStart('2026-11-21', 480)).toBe(Date.UTC(2026, 10, 20, 16));
    expect(dayStart('21.11.2026', 0)).toBeUndefined();
  });
});
