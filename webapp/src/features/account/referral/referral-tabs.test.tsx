/**
 * The reward centre and agent management against a fake backend: the code, link and QR code, the
 * totals, the members, a statement line opened down to its fill, the late bind refused with the
 * server's reason, and agent management's explanation for a non-agent.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../../lib/live';
import { FakeSocket } from '../../../test/fake-socket';
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

const SUMMARY = {
  inviteCode: 'AB12CD',
  promoteLink: '/i&AB12CD',
  bindUntil: Date.now() + 3 * 86_400_000 - 1000,
  isAgent: false,
  rates: ['0.2', '0.1', '0.05'],
  totalReward: [{ coin: 'usdt', amount: '0.036' }],
  todayEarnReward: [{ coin: 'usdt', amount: '0.018' }],
  members: [1, 1, 1],
};

const LINE = {
  id: 7,
  source: 'spot',
  fillId: 4242,
  fillTime: Date.UTC(2026, 10, 29, 3, 15),
  symbol: 'btcusdt',
  member: 'd***@example.com',
  generation: 3,
  coin: 'usdt',
  fee: '0.1',
  feeAfterFund: '0.09',
  rate: '0.05',
  amount: '0.0045',
  status: 'paid',
  entryId: 99,
  createdAt: Date.UTC(2026, 10, 29, 4, 1),
};

function backend() {
  return fakeBackend({
    'POST /api/user/getInfo': ok(makeUser()),
    'GET /api/referral/summary': ok(SUMMARY),
    'GET /api/referral/members': ok({
      total: 1,
      records: [{ userId: 5, generation: 1, account: 'b***@example.com', regisTime: Date.UTC(2026, 10, 28), totolInvestValue: '1234.5', rebateAmount: [{ coin: 'usdt', amount: '0.02' }] }],
    }),
    'GET /api/referral/statement': ok({ total: 1, scale: 8, records: [LINE, { ...LINE, id: 8, status: 'withheld', withheldReason: 'same_address', amount: '0' }] }),
    'POST /api/referral/bind': fail(409, 'invite_after_trade', 'You have already traded: an invitation code can no longer be added.'),
    'POST /api/agentActivityInfo/getAgentInfo': ok({ isAgent: false, rates: ['0.2', '0.1', '0.05'], members: [0, 0, 0], commissions: [], todayCommissions: [] }),
    'POST /api/agentActivityInfo/getAgentList': ok({ total: 0, records: [] }),
  });
}

describe('reward centre', () => {
  it('shows the code, link and QR code, the totals, the members and each line down to its fill', async () => {
    backend();
    renderAccount('/account/center/reward-center', makeUser());
    expect(await screen.findByRole('img', { name: 'QR code of your invitation link' })).toBeTruthy();
    expect(screen.getByText('AB12CD')).toBeTruthy();
    expect(screen.getByText(`${window.location.origin}/i&AB12CD`)).toBeTruthy();
    expect(screen.getByText('0.036 USDT')).toBeTruthy();
    expect(screen.getByText('0.018 USDT')).toBeTruthy();

    const members = await screen.findByRole('table', { name: 'Your members' });
    expect(within(members).getByText('b***@example.com')).toBeTruthy();
    expect(within(members).getByText('1,234.5 USDT')).toBeTruthy();

    const statement = await screen.findByRole('list', { name: 'Rebate statement' });
    expect(within(statement).getByText('The member and you use the same network address')).toBeTruthy();
    fireEvent.click(within(statement).getAllByRole('button', { name: 'Details' })[0]!);
    expect(within(statement).getByText('#4242')).toBeTruthy();
    expect(within(statement).getByText('0.09 USDT')).toBeTruthy();
    expect(within(statement).getByText('5%')).toBeTruthy();
    expect(within(statement).getAllByText('0.0045 USDT').length).toBeGreaterThan(0);
    expect(within(statement).getByText('#99')).toBeTruthy();
  });

  it('adds an inviter code within the window and shows the server reason when refused', async () => {
    const calls = backend();
    renderAccount('/account/center/reward-center', makeUser());
    expect(await screen.findByText(/3 days left/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Inviter's code"), { target: { value: ' ZZ99 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add code' }));
    expect(await screen.findByText('You have already traded: an invitation code can no longer be added.')).toBeTruthy();
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/referral/bind')[0]?.body).toEqual({ inviteCode: 'ZZ99' }));
  });
});

describe('agent management', () => {
  it('explains agents to a member who is not one, with the standard rates', async () => {
    backend();
    renderAccount('/account/center/contractAgents/agentManagement', makeUser());
    expect(await screen.findByText('You are not an agent yet')).toBeTruthy();
    expect(screen.getByText(/\(20%, 10%, 5%\)/)).toBeTruthy();
    expect(await screen.findByText('No members yet. Share your link to invite friends.')).toBeTruthy();
  });
});
