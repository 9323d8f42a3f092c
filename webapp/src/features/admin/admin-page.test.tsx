import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getGetAllSettingQueryKey } from '../../api/generated/common/common';
import type { AdminIdentityRecord } from '../../api/generated/model';
import { getGetInfoQueryKey } from '../../api/generated/user/user';
import { toaster } from '../../lib/toaster';
import { SETTINGS, renderWithProviders } from '../../test/render';
import { AdminPage } from './admin-page';

function record(id: number, extra: Partial<AdminIdentityRecord> = {}): AdminIdentityRecord {
  return {
    id,
    userId: 100 + id,
    account: `user${id}@kestrel.test`,
    level: 'advanced',
    status: 'review',
    name: `Person ${id}`,
    idCard: `X${id}000129`,
    country: 'DE',
    cardType: 'passport',
    frontUrl: `/api/file/content/${id}1?sig=a`,
    backUrl: `/api/file/content/${id}2?sig=a`,
    holdUrl: `/api/file/content/${id}3?sig=a`,
    createdAt: Date.UTC(2026, 10, 21, 9, 30),
    ...extra,
  };
}

function userInfo(role: string) {
  return {
    user: { userId: 1, email: 'someone@kestrel.test', inviteCode: 'KX7P2M9Q', userType: 'normal', creditScore: 100, role, createdAt: 1 },
    avatar: '/avatar-default.svg',
    is_merchant: 1,
    security: { fundPasswordSet: false, totpEnabled: false, antiCodeSet: false, emailBound: true, phoneBound: false },
    kycLevel: 0,
  };
}

interface Call {
  url: string;
  body: unknown;
}

/** The review queue's server: `queue` are the submissions under review (a decision removes one). */
function stubServer(queue: AdminIdentityRecord[], review: (body: Record<string, unknown>) => { code: number; msg: string; data?: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      calls.push({ url, body });
      const parsed = new URL(url, 'http://test');
      if (parsed.pathname === '/api/admin/kyc/list') {
        const status = parsed.searchParams.get('status');
        const pageSize = Number(parsed.searchParams.get('pageSize'));
        const matching = status === 'review' ? queue : [];
        return Response.json({ code: 200, msg: 'ok', data: { total: matching.length, records: matching.slice(0, pageSize) } });
      }
      if (parsed.pathname === '/api/admin/kyc/review') {
        const answer = review(body ?? {});
        if (answer.code === 200) queue.splice(queue.findIndex((r) => r.id === body?.id), 1);
        return Response.json(answer, { status: answer.code });
      }
      throw new TypeError(`fetch failed: ${url}`);
    }),
  );
  return calls;
}

function renderAdmin(role: string | null, path = '/admin') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(getGetAllSettingQueryKey(), SETTINGS);
  if (role) {
    document.cookie = 'coin-access-token=test-token; path=/';
    queryClient.setQueryData(getGetInfoQueryKey(), userInfo(role));
  }
  const router = createMemoryRouter(
    [
      { path: '/admin/*', element: <AdminPage /> },
      { path: '/user/login', element: <p>login screen</p> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />, queryClient);
  return router;
}

beforeEach(() => {
  vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

describe('admin review screen', () => {
  it('sends visitors to the login, returning to /admin', async () => {
    const router = renderAdmin(null);
    await screen.findByText('login screen');
    expect(router.state.location.pathname + router.state.location.search).toBe('/user/login?redirect=/admin');
  });

  it('tells users without the operator role that it is for operators only', async () => {
    const calls = stubServer([], () => ({ code: 200, msg: 'ok' }));
    renderAdmin('user');
    expect(await screen.findByRole('heading', { level: 1, name: 'Operators only' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('lists the queue, approves a submission and refreshes', async () => {
    const queue = [record(1), record(2, { level: 'basic', frontUrl: undefined, backUrl: undefined, holdUrl: undefined, cardType: 'idCard' })];
    const calls = stubServer(queue, () => ({ code: 200, msg: 'Reviewed', data: record(2, { status: 'passed' }) }));
    const router = renderAdmin('operator');
    expect(await screen.findByRole('heading', { level: 1, name: 'Identity review' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Submissions' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const row = within(table).getByRole('row', { name: /Person 2/ });
    const cells = within(row).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 7)).toEqual(['#102', 'user2@kestrel.test', 'Basic', 'Person 2', 'X2000129', 'Germany', 'ID card']);
    // Formatted by the wasm core, in the browser's time zone.
    expect(cells[7]).toMatch(/^11\/21\/2026 \d{2}:30:00$/);
    expect(cells[8]).toBe('Review');
    expect(screen.getByRole('tab', { name: /^Under review/, selected: true }).textContent).toBe('Under review2');
    expect(calls.some((c) => c.url.includes('status=review') && c.url.includes('pageSize=10'))).toBe(true);

    fireEvent.click(within(row).getByRole('button', { name: 'Review submission 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Submission #2' });
    expect(within(dialog).getByText('Basic verification has no documents.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Submission approved.' }));
    expect(calls.find((c) => c.url === '/api/admin/kyc/review')?.body).toEqual({ id: 2, approve: true });
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Submissions' })).getAllByRole('row')).toHaveLength(2));
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: /^Failed/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=failed&page=1'));
    expect(await screen.findByText('There are no submissions with this status.')).toBeTruthy();
  });

  it('shows the photos and rejects only with a reason', async () => {
    const queue = [record(1)];
    const calls = stubServer(queue, (body) =>
      body.reason ? { code: 200, msg: 'Reviewed', data: record(1, { status: 'failed' }) } : { code: 400, msg: 'Please give a reason', data: { reason: 'kyc_reason_required' } },
    );
    renderAdmin('operator');
    fireEvent.click(await screen.findByRole('button', { name: 'Review submission 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Submission #1' });
    // Modal: the page behind it leaves the accessibility tree (a frame after it opens).
    await waitFor(() => expect(screen.queryByRole('table')).toBeNull());
    const front = within(dialog).getByRole('img', { name: 'Front of the document' });
    expect(front.getAttribute('src')).toBe('/api/file/content/11?sig=a');
    expect(within(dialog).getByRole('img', { name: 'Selfie holding the document' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Open original: Back of the document' }).getAttribute('target')).toBe('_blank');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    const reject = await screen.findByRole('alertdialog', { name: 'Reject submission #1' });
    fireEvent.click(within(reject).getByRole('button', { name: 'Reject submission' }));
    expect(await within(reject).findByText('Please enter a reason.')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/admin/kyc/review')).toBe(false);

    // Blank is no reason either.
    const reason = within(reject).getByRole('textbox', { name: 'Reason' });
    fireEvent.change(reason, { target: { value: '   ' } });
    fireEvent.click(within(reject).getByRole('button', { name: 'Reject submission' }));
    expect(await within(reject).findByText('Please enter a reason.')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/admin/kyc/review')).toBe(false);

    fireEvent.change(reason, { target: { value: ' Blurred photo ' } });
    fireEvent.click(within(reject).getByRole('button', { name: 'Reject submission' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Submission rejected.' }));
    expect(calls.find((c) => c.url === '/api/admin/kyc/review')?.body).toEqual({ id: 1, approve: false, reason: 'Blurred photo' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await screen.findByText('There are no submissions with this status.')).toBeTruthy();
  });
});

describe('content editor', () => {
  it('prompts "Please enter content" instead of saving an entry without a title or body', async () => {
    const calls = stubServer([], () => ({ code: 200, msg: 'ok' }));
    renderAdmin('operator', '/admin?queue=content');
    fireEvent.click(await screen.findByRole('button', { name: 'New entry' }));
    const editor = await screen.findByRole('region', { name: /^New entry:/ });
    expect(within(editor).getByPlaceholderText('Please enter content')).toBeTruthy();
    fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));
    expect((await within(editor).findByRole('alert')).textContent).toBe('Please enter content');
    expect(calls.some((call) => call.url.includes('/api/admin/content/save'))).toBe(false);
  });
});

describe('account freezing', () => {
  it('finds an account, freezes it after a confirmation and unfreezes it', async () => {
    const calls: Call[] = [];
    let frozenAt: number | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, body: init?.body });
        const parsed = new URL(url, 'http://test');
        const account = () => ({ userId: 42, account: 'jane@kestrel.test', frozen: frozenAt !== undefined, ...(frozenAt !== undefined ? { frozenAt } : {}) });
        if (parsed.pathname === '/api/admin/users/find') {
          if (parsed.searchParams.get('account') !== 'jane@kestrel.test') return Response.json({ code: 404, msg: 'No such account', data: { reason: 'account_not_found' } }, { status: 404 });
          return Response.json({ code: 200, msg: 'ok', data: account() });
        }
        if (parsed.pathname === '/api/admin/users/42/freeze') {
          frozenAt = 1_763_700_000_000;
          return Response.json({ code: 200, msg: 'The account has been frozen', data: account() });
        }
        if (parsed.pathname === '/api/admin/users/42/unfreeze') {
          frozenAt = undefined;
          return Response.json({ code: 200, msg: 'The account has been unfrozen', data: account() });
        }
        throw new TypeError(`fetch failed: ${url}`);
      }),
    );
    renderAdmin('operator', '/admin?queue=accounts');
    const field = await screen.findByLabelText('E-mail or phone');
    fireEvent.change(field, { target: { value: 'nobody@kestrel.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No such account');

    fireEvent.change(field, { target: { value: ' jane@kestrel.test ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find' }));
    const card = await screen.findByRole('article', { name: 'Account #42' });
    expect(within(card).getByText('Active')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Freeze account' }));
    expect(calls.some((call) => call.url.endsWith('/freeze'))).toBe(false);
    fireEvent.click(within(card).getByRole('button', { name: 'Yes, freeze it' }));
    await waitFor(() => expect(within(card).getByText('Frozen')).toBeTruthy());
    expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Account frozen.' });
    expect(within(card).getByText(/^Frozen since /)).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Unfreeze' }));
    await waitFor(() => expect(within(card).getByText('Active')).toBeTruthy());
    expect(calls.map((call) => new URL(call.url, 'http://test').pathname).filter((path) => path.includes('freeze'))).toEqual(['/api/admin/users/42/freeze', '/api/admin/users/42/unfreeze']);
  });
});
