/**
 * /admin's merchants queue and tiers view against a fake backend: the pending applications,
 * an approval with a rate typed in percent, a rejection that needs a reason, a decision another
 * operator made first (the server's message, the list refreshed), an approved merchant's rate
 * changed, the status filter, and the read-only tier table.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { toaster } from '../../lib/toaster';
import { type Call, type Handler, callsTo, fail, fakeBackend, makeUser, ok } from '../../test/fake-backend';
import { FakeSocket } from '../../test/fake-socket';
import { bodyCells, renderSignedIn } from '../../test/render';

beforeEach(() => {
  localStorage.clear();
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
  vi.spyOn(toaster, 'create');
});

afterEach(() => {
  setMarketFeed(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

const operator = makeUser({ user: { role: 'operator' } });

function application(userId: number, extra: Record<string, unknown> = {}) {
  return {
    userId,
    businessName: `Shop ${userId}`,
    contact: `shop${userId}@example.com`,
    business: 'Phones and repairs',
    countries: 'DE',
    status: 'pending',
    createdAt: Date.UTC(2026, 10, 28, 15, 30),
    ...extra,
  };
}

function server(routes: Record<string, Handler>): Call[] {
  return fakeBackend({ 'POST /api/user/getInfo': ok(operator), ...routes });
}

const card = (name: RegExp) => screen.findByRole('listitem', { name });

describe('admin merchants', () => {
  it('approves a pending application with a rate in percent, and needs a reason to reject', async () => {
    let decided = false;
    const calls = server({
      'GET /api/admin/merchants': () => ok({ total: decided ? 1 : 2, records: decided ? [application(8)] : [application(7), application(8)] }),
      'POST /api/admin/merchants/decide': () => {
        decided = true;
        return ok(application(7, { status: 'approved', rebateRate: '0.25' }));
      },
    });
    renderSignedIn('/admin?queue=merchants', operator);
    expect(await screen.findByRole('heading', { level: 2, name: 'Merchant applications' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Merchants' }).getAttribute('aria-current')).toBe('page');

    // The heading renders before the list is asked for; the first card proves the call was made.
    const seven = await card(/^Shop 7/);
    expect(callsTo(calls, 'GET', '/api/admin/merchants')[0]?.query.get('status')).toBe('pending');
    expect(within(seven).getByText('shop7@example.com')).toBeTruthy();
    expect(within(seven).getByText(/applied 11\/28\/2026 10:30:00/)).toBeTruthy();

    // A rejection without a reason is not sent.
    fireEvent.click(within(seven).getByRole('button', { name: 'Reject' }));
    expect(await within(seven).findByText('Enter a reason to reject the application.')).toBeTruthy();
    // A rate of 100 % or more is not either.
    fireEvent.change(within(seven).getByRole('textbox', { name: 'Rate (%)' }), { target: { value: '100' } });
    fireEvent.click(within(seven).getByRole('button', { name: 'Approve' }));
    expect(await within(seven).findByText('Enter a rate from 0 to below 100 %.')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/admin/merchants/decide')).toHaveLength(0);

    fireEvent.change(within(seven).getByRole('textbox', { name: 'Rate (%)' }), { target: { value: '25' } });
    fireEvent.click(within(seven).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Application approved' }));
    expect(callsTo(calls, 'POST', '/api/admin/merchants/decide')[0]?.body).toEqual({ userId: 7, approve: true, rebateRate: '0.25' });
    await waitFor(() => expect(screen.queryByRole('listitem', { name: /^Shop 7/ })).toBeNull());
  });

  it('rejects with the reason the applicant reads, and approves with the default rate when none is typed', async () => {
    const calls = server({
      'GET /api/admin/merchants': ok({ total: 2, records: [application(7), application(8)] }),
      'POST /api/admin/merchants/decide': ok(application(7, { status: 'rejected', reason: 'No website' })),
    });
    renderSignedIn('/admin?queue=merchants', operator);
    const seven = await card(/^Shop 7/);
    fireEvent.change(within(seven).getByRole('textbox', { name: 'Reason for a rejection' }), { target: { value: '  No website ' } });
    fireEvent.click(within(seven).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/admin/merchants/decide')).toHaveLength(1));
    expect(callsTo(calls, 'POST', '/api/admin/merchants/decide')[0]?.body).toEqual({ userId: 7, approve: false, reason: 'No website' });

    fireEvent.click(within(await card(/^Shop 8/)).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/admin/merchants/decide')).toHaveLength(2));
    expect(callsTo(calls, 'POST', '/api/admin/merchants/decide')[1]?.body).toEqual({ userId: 8, approve: true });
  });

  it("shows the server's message when another operator decided first, and refreshes the list", async () => {
    const calls = server({
      'GET /api/admin/merchants': ok({ total: 1, records: [application(7)] }),
      'POST /api/admin/merchants/decide': fail(409, 'merchant_decided', 'This application was decided already.'),
    });
    renderSignedIn('/admin?queue=merchants', operator);
    const seven = await card(/^Shop 7/);
    fireEvent.click(within(seven).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('This application was decided already.')).toBeTruthy();
    await waitFor(() => expect(callsTo(calls, 'GET', '/api/admin/merchants').length).toBeGreaterThan(1));
  });

  it("filters by status and changes an approved merchant's rate", async () => {
    const calls = server({
      'GET /api/admin/merchants': (call) =>
        ok(
          call.query.get('status') === 'approved'
            ? { total: 1, records: [application(9, { status: 'approved', rebateRate: '0.3', decidedAt: Date.UTC(2026, 10, 28, 16) })] }
            : { total: 0, records: [] },
        ),
      'POST /api/admin/merchants/rate': ok(application(9, { status: 'approved', rebateRate: '0.35' })),
    });
    renderSignedIn('/admin?queue=merchants', operator);
    expect(await screen.findByText('No applications.')).toBeTruthy();
    const filter = screen.getByRole('group', { name: 'Status' });
    fireEvent.click(within(filter).getByRole('button', { name: 'Approved' }));
    const nine = await card(/^Shop 9/);
    expect(within(nine).getByText('30%')).toBeTruthy();
    const form = within(nine).getByRole('form', { name: 'Change the rate of merchant #9' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'New rate (%)' }), { target: { value: '35' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save rate' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/admin/merchants/rate')[0]?.body).toEqual({ userId: 9, rebateRate: '0.35' }));
    expect(within(filter).getByRole('button', { name: 'Approved' }).getAttribute('aria-pressed')).toBe('true');
  });
});

describe('admin tiers', () => {
  it('shows the published table read-only', async () => {
    server({
      'GET /api/tiers/table': ok({
        vipVolumeUsdt: '1000000',
        vipAssetsUsdt: '100000',
        vipFeeDiscount: '0.2',
        accountTiers: [
          { tier: 'basic', minimumDepositUsd: '0' },
          { tier: 'starter', minimumDepositUsd: '1000' },
          { tier: 'advanced', minimumDepositUsd: '10000' },
          { tier: 'premium', minimumDepositUsd: '100000' },
        ],
        recomputeMinutes: 30,
      }),
    });
    renderSignedIn('/admin?queue=tiers', operator);
    const table = await screen.findByRole('table', { name: 'Account tiers' });
    expect(bodyCells(table)).toEqual([
      ['Basic', '0.00 USD'],
      ['Starter', '1,000.00 USD'],
      ['Advanced', '10,000.00 USD'],
      ['Premium', '100,000.00 USD'],
    ]);
    expect(within(screen.getByRole('group', { name: 'VIP status' })).getByText('20%')).toBeTruthy();
    expect(screen.getByText(/recomputed every 30 minutes/)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
