import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getGetAllSettingQueryKey } from '../../api/generated/common/common';
import type { AdminDepositRecord, AdminWithdrawalRecord } from '../../api/generated/model';
import { getGetInfoQueryKey } from '../../api/generated/user/user';
import { setLanguage } from '../../i18n';
import { toaster } from '../../lib/toaster';
import { SETTINGS, renderWithProviders } from '../../test/render';
import { AdminPage } from './admin-page';

const ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

function deposit(id: number, extra: Partial<AdminDepositRecord> = {}): AdminDepositRecord {
  return {
    id,
    userId: 200 + id,
    account: `payer${id}@kestrel.test`,
    coin: 'usdt',
    network: 'TRC20',
    address: ADDRESS,
    amount: '150.5',
    screenshot: String(70 + id),
    screenshotUrl: `/api/file/content/${70 + id}?sig=list`,
    status: 'review',
    createdAt: Date.UTC(2026, 10, 21, 9, 30),
    ...extra,
  };
}

function withdrawal(id: number, extra: Partial<AdminWithdrawalRecord> = {}): AdminWithdrawalRecord {
  return {
    id,
    userId: 300 + id,
    account: `sender${id}@kestrel.test`,
    coin: 'usdt',
    network: 'TRC20',
    address: ADDRESS,
    amount: '101',
    fee: '1',
    received: '100',
    status: 'review',
    createdAt: Date.UTC(2026, 10, 21, 9, 30),
    ...extra,
  } as AdminWithdrawalRecord;
}

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
}

type Answer = { status?: number; code?: number; msg?: string; data?: unknown };

/** The operator's server: the queues under review, and the answer of a review call. */
function stubServer(queues: { deposits: AdminDepositRecord[]; withdrawals: AdminWithdrawalRecord[] }, review: (call: Call) => Answer = () => ({})) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const parsed = new URL(url, 'http://test');
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      const call = { method: init?.method ?? 'GET', path: parsed.pathname, query: parsed.searchParams, body };
      calls.push(call);
      const json = (data: unknown, status = 200, msg = 'ok') => Response.json({ code: status, msg, data }, { status });
      const list = (records: { status: string }[]) => {
        const matching = records.filter((r) => r.status === (body?.status ?? r.status));
        return json({ total: matching.length, page: 1, pageSize: Number(body?.pageSize ?? 20), records: matching.slice(0, Number(body?.pageSize ?? 20)) });
      };
      if (call.path === '/api/admin/deposits') return list(queues.deposits);
      if (call.path === '/api/admin/withdrawals') return list(queues.withdrawals);
      if (call.path === '/api/file/getSignedUrl') return json({ url: `/api/file/content/${parsed.searchParams.get('fileId')}?sig=fresh`, expiresAt: Date.now() + 300_000 });
      const match = /^\/api\/admin\/(deposits|withdrawals)\/(\d+)\/review$/.exec(call.path);
      if (match) {
        const answer = review(call);
        const status = answer.status ?? 200;
        if (status === 200) {
          const records = queues[match[1] as 'deposits' | 'withdrawals'] as { id: number }[];
          records.splice(records.findIndex((r) => r.id === Number(match[2])), 1);
        }
        return json(answer.data ?? null, status, answer.msg ?? 'Reviewed');
      }
      throw new TypeError(`fetch failed: ${url}`);
    }),
  );
  return calls;
}

function renderAdmin(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(getGetAllSettingQueryKey(), SETTINGS);
  document.cookie = 'coin-access-token=test-token; path=/';
  queryClient.setQueryData(getGetInfoQueryKey(), {
    user: { userId: 1, email: 'operator@kestrel.test', inviteCode: 'KX7P2M9Q', userType: 'normal', creditScore: 100, role: 'operator', createdAt: 1 },
    avatar: '/avatar-default.svg',
    is_merchant: 1,
    security: { fundPasswordSet: false, totpEnabled: false, antiCodeSet: false, emailBound: true, phoneBound: false },
    kycLevel: 0,
  });
  const router = createMemoryRouter([{ path: '/admin/*', element: <AdminPage /> }], { initialEntries: [path] });
  renderWithProviders(<RouterProvider router={router} />, queryClient);
  return router;
}

/** Modal: the page behind it leaves the accessibility tree a frame after it opens (then a prompt can open on top). */
const settled = () => waitFor(() => expect(screen.queryByRole('table')).toBeNull());

const reviewCalls = (calls: Call[], kind: string) => calls.filter((c) => c.path.startsWith(`/api/admin/${kind}/`) && c.path.endsWith('/review'));

beforeEach(() => {
  vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  await setLanguage('en', { persist: false });
});

describe('operator queues', () => {
  it('switches between the identity, deposit and withdrawal queues, keeping the queue in the URL', async () => {
    stubServer({ deposits: [deposit(1)], withdrawals: [] });
    const router = renderAdmin('/admin?queue=deposits');
    expect(await screen.findByRole('heading', { level: 1, name: 'Deposit review' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Review queues' });
    expect(within(nav).getByRole('link', { name: 'Deposits' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Identity' }).getAttribute('href')).toBe('/admin');
    fireEvent.click(within(nav).getByRole('link', { name: 'Withdrawals' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Withdrawal review' })).toBeTruthy();
    expect(router.state.location.search).toBe('?queue=withdrawals');
    expect(await screen.findByText('There is nothing with this status.')).toBeTruthy();
  });

  it('shows a deposit with its screenshot (a fresh signed link) and approves it', async () => {
    const queues = { deposits: [deposit(1), deposit(2, { amount: '1200' })], withdrawals: [] };
    const calls = stubServer(queues);
    renderAdmin('/admin?queue=deposits');
    const table = await screen.findByRole('table', { name: 'Deposits' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(screen.getByRole('tab', { name: /^Under review/, selected: true }).textContent).toBe('Under review2');
    const row = within(table).getByRole('row', { name: /#2 / });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent).slice(0, 5)).toEqual(['#2', '#202', 'payer2@kestrel.test', 'USDTTRC20', '1,200 USDT']);
    expect(calls.find((c) => c.path === '/api/admin/deposits')?.body).toEqual({ status: 'review', page: 1, pageSize: 10 });

    fireEvent.click(within(row).getByRole('button', { name: 'Review record 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deposit #2' });
    const image = await within(dialog).findByRole('img', { name: 'Payment screenshot of deposit 2' });
    await waitFor(() => expect(image.getAttribute('src')).toBe('/api/file/content/72?sig=fresh'));
    expect(calls.find((c) => c.path === '/api/file/getSignedUrl')?.query.get('fileId')).toBe('72');
    expect(within(dialog).getByText(ADDRESS)).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve and credit' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Deposit approved and credited.' }));
    expect(reviewCalls(calls, 'deposits')).toMatchObject([{ path: '/api/admin/deposits/2/review', body: { approve: true } }]);
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Deposits' })).getAllByRole('row')).toHaveLength(2));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('rejects a deposit only with a reason', async () => {
    const calls = stubServer({ deposits: [deposit(1)], withdrawals: [] });
    renderAdmin('/admin?queue=deposits');
    const table = await screen.findByRole('table', { name: 'Deposits' });
    fireEvent.click(await within(table).findByRole('button', { name: 'Review record 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deposit #1' });
    await settled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    const prompt = await screen.findByRole('alertdialog', { name: 'Reject record #1' });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Reject' }));
    expect(await within(prompt).findByText('Enter a reason.')).toBeTruthy();
    expect(reviewCalls(calls, 'deposits')).toHaveLength(0);

    fireEvent.change(within(prompt).getByRole('textbox', { name: /Reason/ }), { target: { value: '  The amount does not match  ' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Deposit rejected.' }));
    expect(reviewCalls(calls, 'deposits')[0]?.body).toEqual({ approve: false, reason: 'The amount does not match' });
  });

  it('passes a withdrawal only with the transaction hash', async () => {
    const calls = stubServer({ deposits: [], withdrawals: [withdrawal(5)] });
    renderAdmin('/admin?queue=withdrawals');
    const table = await screen.findByRole('table', { name: 'Withdrawals' });
    const row = await within(table).findByRole('row', { name: /#5 / });
    expect(within(row).getByText('100 USDT')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Review record 5' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdrawal #5' });
    expect(within(dialog).getByText(/Send 100 USDT on TRC20 to the address above first/)).toBeTruthy();
    await settled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark as sent' }));
    const prompt = await screen.findByRole('alertdialog', { name: 'Mark withdrawal #5 as sent' });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Confirm sent' }));
    expect(await within(prompt).findByText('Enter the transaction hash.')).toBeTruthy();
    fireEvent.change(within(prompt).getByRole('textbox', { name: /Transaction hash/ }), { target: { value: '0xabc123' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Confirm sent' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Withdrawal marked as sent.' }));
    expect(reviewCalls(calls, 'withdrawals')).toMatchObject([{ path: '/api/admin/withdrawals/5/review', body: { approve: true, txHash: '0xabc123' } }]);
  });

  it('closes and refreshes when someone else reviewed the record meanwhile (409)', async () => {
    stubServer({ deposits: [], withdrawals: [withdrawal(6)] }, () => ({ status: 409, msg: 'Already reviewed' }));
    renderAdmin('/admin?queue=withdrawals');
    const table = await screen.findByRole('table', { name: 'Withdrawals' });
    fireEvent.click(await within(table).findByRole('button', { name: 'Review record 6' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdrawal #6' });
    await settled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    const prompt = await screen.findByRole('alertdialog', { name: 'Reject record #6' });
    fireEvent.change(within(prompt).getByRole('textbox', { name: /Reason/ }), { target: { value: 'Address on a sanctions list' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect(toaster.create).toHaveBeenCalledWith({ type: 'info', title: 'Someone else has reviewed this record already. The queue was refreshed.' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('speaks the operator’s language', async () => {
    stubServer({ deposits: [deposit(1, { status: 'failed', reason: 'Falscher Betrag' })], withdrawals: [] });
    await setLanguage('de', { persist: false });
    renderAdmin('/admin?queue=deposits&status=failed');
    expect(await screen.findByRole('heading', { level: 1, name: 'Einzahlungsprüfung' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Einzahlungen' });
    fireEvent.click(await within(table).findByRole('button', { name: 'Details zu Eintrag 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Einzahlung #1' });
    expect(within(dialog).getByText('Grund: Falscher Betrag')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Ablehnen' })).toBeNull();
  });
});
