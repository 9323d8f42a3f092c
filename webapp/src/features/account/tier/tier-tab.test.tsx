/**
 * The tier tab against a fake backend: the account tier with its progress and what is missing in
 * USD, the VIP status and discount, the figures and their time, the published table with the
 * reader's tier marked, the top tier, a never-computed user, a failed load, and the merchant
 * programme's link in each state.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../../lib/live';
import { FakeSocket } from '../../../test/fake-socket';
import { bodyCells } from '../../../test/render';
import { callsTo, fail, fakeBackend, makeUser, ok, renderAccount } from '../test-helpers';

beforeEach(() => {
  localStorage.clear();
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
});

afterEach(() => {
  setMarketFeed(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

const TABLE = {
  vipVolumeUsdt: '1000000',
  vipAssetsUsdt: '100000',
  vipFeeDiscount: '0.2',
  accountTiers: [
    { tier: 'basic', minimumDepositUsd: '0' },
    { tier: 'starter', minimumDepositUsd: '1000' },
    { tier: 'advanced', minimumDepositUsd: '10000' },
    { tier: 'premium', minimumDepositUsd: '100000' },
  ],
  recomputeMinutes: 60,
};

function mine(extra: Record<string, unknown> = {}) {
  return {
    userType: 'normal',
    accountTier: 'starter',
    depositsUsd: '3250.499',
    volumeUsdt: '12000.5',
    assetsUsdt: '3100',
    nextTier: 'advanced',
    nextMinimumUsd: '10000',
    progressPercent: '25.01',
    feeDiscount: '0',
    computedAt: Date.UTC(2026, 10, 29, 3, 0),
    table: TABLE,
    ...extra,
  };
}

function backend(tiers: Parameters<typeof fakeBackend>[0][string], merchant: unknown = { isMerchant: 1 }) {
  return fakeBackend({
    'POST /api/user/getInfo': ok(makeUser()),
    'GET /api/tiers/mine': tiers,
    'GET /api/merchant/mine': ok(merchant),
  });
}

describe('tier tab', () => {
  it('shows the tier, the progress to the next one and what is missing, the figures and the table', async () => {
    backend(ok(mine()));
    renderAccount('/account/center/tier', makeUser());
    const standing = await screen.findByRole('region', { name: 'Your standing' });
    expect(within(standing).getAllByText('Starter').length).toBeGreaterThan(0);
    expect(within(standing).getByText('Normal user')).toBeTruthy();
    expect(within(standing).getByText('Standard trading fees')).toBeTruthy();
    const bar = within(standing).getByRole('progressbar', { name: 'Progress to Advanced' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25.01');
    expect(within(standing).getByText('25.01%')).toBeTruthy();
    // 10,000 − 3,250.499 = 6,749.501, rounded up to the cent.
    expect(within(standing).getByText('Deposit 6,749.51 USD more to reach Advanced.')).toBeTruthy();
    expect(within(standing).getByText('3,250.49 USD')).toBeTruthy();
    expect(within(standing).getByText('12,000.50 USDT')).toBeTruthy();
    expect(within(standing).getByText(/^Figures as of 11\/28\/2026 22:00:00\. They are recomputed every 60 minutes/)).toBeTruthy();

    const table = screen.getByRole('table', { name: 'Account tiers' });
    expect(bodyCells(table)).toEqual([
      ['Basic', '0.00 USD'],
      ['StarterYour tier', '1,000.00 USD'],
      ['Advanced', '10,000.00 USD'],
      ['Premium', '100,000.00 USD'],
    ]);
    const vip = screen.getByRole('group', { name: 'VIP status' });
    expect(within(vip).getByText('1,000,000.00 USDT')).toBeTruthy();
    expect(within(vip).getByText('100,000.00 USDT')).toBeTruthy();
    expect(within(vip).getByText('20%')).toBeTruthy();

    const programme = screen.getByRole('region', { name: 'Merchant programme' });
    await waitFor(() => expect(within(programme).getByText('You have not applied yet.')).toBeTruthy());
    expect(within(programme).getByRole('link', { name: 'Apply to become a merchant' }).getAttribute('href')).toBe('/account/center/merchant');
  });

  it('shows a VIP its discount, the top tier without a bar, and a user never computed yet', async () => {
    backend(
      ok(mine({ userType: 'vip', accountTier: 'premium', feeDiscount: '0.2', nextTier: undefined, nextMinimumUsd: undefined, progressPercent: '100', computedAt: undefined })),
    );
    renderAccount('/account/center/tier', makeUser());
    const standing = await screen.findByRole('region', { name: 'Your standing' });
    expect(within(standing).getByText('VIP user')).toBeTruthy();
    expect(within(standing).getByText('20% off trading fees')).toBeTruthy();
    expect(within(standing).getByText('You are at the highest account tier.')).toBeTruthy();
    expect(within(standing).queryByRole('progressbar')).toBeNull();
    expect(within(standing).getByText(/^Not computed yet\. Your figures appear within 60 minutes/)).toBeTruthy();
  });

  it('says when the deposits reach the next tier before the recompute moved the tier up', async () => {
    backend(ok(mine({ accountTier: 'basic', depositsUsd: '1000', nextTier: 'starter', nextMinimumUsd: '1000', progressPercent: '100' })));
    renderAccount('/account/center/tier', makeUser());
    expect(await screen.findByText('Your deposits reach Starter; your tier moves up at the next recompute.')).toBeTruthy();
  });

  it('offers a retry when the tier cannot be loaded', async () => {
    const calls = backend([fail(500, 'internal', 'Something went wrong'), ok(mine())]);
    renderAccount('/account/center/tier', makeUser());
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Your standing' })).toBeTruthy();
    expect(callsTo(calls, 'GET', '/api/tiers/mine')).toHaveLength(2);
  });

  it.each([
    [{ isMerchant: 1, application: { status: 'pending', createdAt: Date.UTC(2026, 10, 28, 15) } }, 'View application', /being reviewed/],
    [{ isMerchant: 1, application: { status: 'rejected', reason: 'No website', createdAt: 1 } }, 'Apply again', /not approved/],
    [{ isMerchant: 2, application: { status: 'approved', createdAt: 1 } }, 'Open merchant tools', /You are a merchant/],
  ])('links the merchant programme to the merchant screen (%#)', async (merchant, action, text) => {
    backend(ok(mine()), merchant);
    renderAccount('/account/center/tier', makeUser());
    const programme = await screen.findByRole('region', { name: 'Merchant programme' });
    await waitFor(() => expect(within(programme).getByText(text)).toBeTruthy());
    expect(within(programme).getByRole('link', { name: action }).getAttribute('href')).toBe('/account/center/merchant');
  });
});
