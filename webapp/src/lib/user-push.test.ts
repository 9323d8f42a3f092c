import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getGetAllSettingQueryKey, getGetCoinListQueryKey } from '../api/generated/common/common';
import { getGetExchangeQuoteQueryKey } from '../api/generated/exchange/exchange';
import { getListEarnPositionsQueryKey, getListEarnProductsQueryKey } from '../api/generated/earn/earn';
import { getGetUserCoinQueryKey } from '../api/generated/funds/funds';
import { getGetContractRulesQueryKey, getListFuturesPositionsQueryKey } from '../api/generated/futures/futures';
import { getListSecondsOrdersQueryKey } from '../api/generated/seconds-contracts/seconds-contracts';
import { getGetEntrustLogCurrencyQueryKey, getListSpotOrdersQueryKey } from '../api/generated/spot-trading/spot-trading';
import { FakeSocket } from '../test/fake-socket';
import {
  INVALIDATE_DEBOUNCE_MS,
  SESSION_ENDED_CLOSE_CODE,
  USER_PUSH_PING_MS,
  USER_PUSH_RECONNECT_MS,
  UserPushClient,
  acquireUserPush,
  invalidatePushedReads,
  setUserPushFactory,
  userPushUrl,
} from './user-push';
import { setPlatformConfig } from './platform-config';
import { isLoggedIn } from './session';
import { toaster } from './toaster';

function makeClient() {
  return new UserPushClient({ url: () => 'ws://test/ws/user/push/1001', createSocket: (url) => new FakeSocket(url) });
}

const order = { type: 'order', data: { id: 7, symbol: 'btcusdt', status: 'dealTotol' }, ts: 1 };
const fill = { type: 'fill', data: { id: 31, orderId: 7, symbol: 'btcusdt' }, ts: 2 };

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.created = [];
});

afterEach(() => {
  vi.useRealTimers();
  setUserPushFactory(null);
  setPlatformConfig({});
});

describe('user channel', () => {
  it('hands order, fill and account messages to listeners and pings while connected', () => {
    const client = makeClient();
    const heard: unknown[] = [];
    client.listen((message) => heard.push(message.type));
    client.start();
    const socket = FakeSocket.latest();
    socket.open();
    socket.receive(order);
    socket.receive(fill);
    socket.receive({ type: 'au', data: { allMargin: '1', price: '2', userEar: '0' }, ts: 3 });
    socket.receive({ type: 'HEARTBEAT', ts: 4 });
    socket.onmessage?.(new MessageEvent('message', { data: 'not json' }));
    expect(heard).toEqual(['order', 'fill', 'au']);
    vi.advanceTimersByTime(USER_PUSH_PING_MS);
    expect(socket.sent).toEqual([{ op: 'ping', ts: expect.any(Number) }]);
    client.stop();
    expect(socket.closed).toBe(true);
  });

  it('reconnects 3 s after the connection drops, but not after the session ended', () => {
    const client = makeClient();
    client.start();
    FakeSocket.latest().open();
    FakeSocket.latest().drop();
    vi.advanceTimersByTime(USER_PUSH_RECONNECT_MS - 1);
    expect(FakeSocket.created).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.created).toHaveLength(2);

    const socket = FakeSocket.latest();
    socket.open();
    socket.onclose?.(new CloseEvent('close', { code: SESSION_ENDED_CLOSE_CODE }));
    vi.advanceTimersByTime(USER_PUSH_RECONNECT_MS * 3);
    expect(FakeSocket.created).toHaveLength(2);
    expect(client.sessionEnded).toBe(true);
  });

  it('signs out on USER_STATUS and says why: frozen, revoked (User Revoked Authorization), expired (Authorization Failed)', () => {
    const toast = vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
    const cases = [
      ['frozen', 'Your account has been frozen'],
      ['session_revoked', 'User Revoked Authorization'],
      ['session_expired', 'Authorization Failed'],
    ] as const;
    for (const [status, title] of cases) {
      document.cookie = 'coin-access-token=tok; path=/';
      const client = makeClient();
      const heard: string[] = [];
      client.listen((message) => heard.push(message.type));
      client.start();
      const socket = FakeSocket.latest();
      socket.open();
      socket.receive({ type: 'USER_STATUS', data: { status }, ts: 5 });
      expect(heard).toEqual(['USER_STATUS']);
      expect(isLoggedIn()).toBe(false);
      expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ type: 'error', title: expect.stringContaining(title) }));
      expect(client.sessionEnded).toBe(true);
      expect(socket.closed).toBe(true);
      const created = FakeSocket.created.length;
      vi.advanceTimersByTime(USER_PUSH_RECONNECT_MS * 3);
      expect(FakeSocket.created).toHaveLength(created);
    }
    // Signed out in this browser already (Exit, here or in another tab): nothing more to say.
    const calls = toast.mock.calls.length;
    const after = makeClient();
    after.start();
    FakeSocket.latest().open();
    FakeSocket.latest().receive({ type: 'USER_STATUS', data: { status: 'session_revoked' }, ts: 6 });
    expect(toast.mock.calls.length).toBe(calls);
    expect(after.sessionEnded).toBe(true);

    // An unknown status is no message: nobody is signed out by it.
    document.cookie = 'coin-access-token=tok; path=/';
    const client = makeClient();
    client.start();
    FakeSocket.latest().open();
    FakeSocket.latest().receive({ type: 'USER_STATUS', data: { status: 'sleepy' }, ts: 6 });
    expect(isLoggedIn()).toBe(true);
    client.stop();
    document.cookie = 'coin-access-token=; Max-Age=0; path=/';
    toast.mockRestore();
  });

  it('shares one connection per user and closes it with the last user', () => {
    setUserPushFactory(() => makeClient());
    const a = acquireUserPush(1001);
    const b = acquireUserPush(1001);
    expect(a.client).toBe(b.client);
    expect(FakeSocket.created).toHaveLength(1);
    a.release();
    a.release();
    expect(FakeSocket.latest().closed).toBe(false);
    b.release();
    expect(FakeSocket.latest().closed).toBe(true);
  });

  it('refetches the user’s orders, fills, seconds contracts, positions and balances only', async () => {
    const queryClient = new QueryClient();
    const keys = [
      getListSpotOrdersQueryKey({ scope: 'current' }),
      getGetEntrustLogCurrencyQueryKey('coin', { page: 1 }),
      getGetUserCoinQueryKey(),
      getListSecondsOrdersQueryKey({ scope: 'open' }),
      getListFuturesPositionsQueryKey(),
      getGetCoinListQueryKey(),
      getGetExchangeQuoteQueryKey({ from: 'usdt', to: 'btc', amount: '1' }),
      getGetContractRulesQueryKey({ symbol: 'btcusdt' }),
    ];
    for (const key of keys) queryClient.setQueryData(key, { ok: true });
    await invalidatePushedReads(queryClient);
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([true, true, true, true, true, false, false, false]);
    expect(INVALIDATE_DEBOUNCE_MS).toBeLessThan(1000);
  });

  it('hands loan changes and notices to listeners and drops malformed ones', () => {
    const client = makeClient();
    const heard: string[] = [];
    client.listen((message) => heard.push(message.type === 'loan' ? `loan:${message.data.status}` : message.type === 'loan_notice' ? `notice:${message.data.kind}` : message.type));
    client.start();
    const socket = FakeSocket.latest();
    socket.open();
    socket.receive({ type: 'loan', data: { applicationId: 7, status: 'active' }, ts: 1 });
    socket.receive({ type: 'loan', data: { applicationId: '7' }, ts: 2 });
    socket.receive({ type: 'loan_notice', data: { loanId: 7, kind: 'overdue', instalment: 1, amount: '10', coin: 'usdt', dueTime: 5 }, ts: 3 });
    socket.receive({ type: 'loan_notice', data: { kind: 'overdue' }, ts: 4 });
    expect(heard).toEqual(['loan:active', 'notice:overdue']);
    client.stop();
  });

  it('hands earn payouts and order changes to listeners and refetches the earn reads', async () => {
    const client = makeClient();
    const heard: unknown[] = [];
    client.listen((message) => heard.push(message.type === 'earnPayout' ? `${message.type}:${message.data.reward}` : message.type));
    client.start();
    const socket = FakeSocket.latest();
    socket.open();
    socket.receive({ type: 'earnPayout', data: { positionId: 4, productId: 2, coin: 'usdt', reward: '1.5', paidDays: 1, status: 'in_progress' }, ts: 1 });
    socket.receive({ type: 'earnPayout', data: { positionId: 'x' }, ts: 2 });
    socket.receive({ type: 'earnOrder', data: { id: 4, productId: 2, status: 'redeemed' }, ts: 3 });
    expect(heard).toEqual(['earnPayout:1.5', 'earnOrder']);
    client.stop();

    const queryClient = new QueryClient();
    const keys = [getListEarnPositionsQueryKey({ status: 'in_progress' }), getListEarnProductsQueryKey('pledge', { pageSize: 100 }), getGetCoinListQueryKey()];
    for (const key of keys) queryClient.setQueryData(key, { ok: true });
    await invalidatePushedReads(queryClient);
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([true, true, false]);
  });

  it('refetches the fills under the `{head}` the settings give', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(getGetAllSettingQueryKey(), { platform: { apiHead: 'v1' } });
    const keys = [getGetEntrustLogCurrencyQueryKey('v1', { page: 2 }), getGetEntrustLogCurrencyQueryKey('coin', { page: 2 })];
    for (const key of keys) queryClient.setQueryData(key, { ok: true });
    await invalidatePushedReads(queryClient);
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([true, false]);
  });

  it('authenticates with the cookie on its own origin and with the token elsewhere', () => {
    document.cookie = 'coin-access-token=tok; path=/';
    expect(userPushUrl(1001)).toBe(`ws://${window.location.host}/ws/user/push/1001?lang=en`);
    setPlatformConfig({ wsBaseUrl: 'wss://ws.example.com' });
    expect(userPushUrl(1001)).toBe('wss://ws.example.com/ws/user/push/1001?lang=en&satoken=tok');
    document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  });
});
