// Test helpers of the spot screens: a logged-in user, a fake backend (`fetch` answered by route,
// every call recorded with its headers and body), spot orders and fills, and the live channels
// (market feed and user channel) on fake sockets.
import { vi } from 'vitest';
import type { SpotFill, SpotOrder, UserInfo } from '../../api/generated/model';
import { getGetInfoQueryKey } from '../../api/generated/user/user';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { UserPushClient, setUserPushFactory } from '../../lib/user-push';
import { FakeSocket } from '../../test/fake-socket';
import { coin, renderApp } from '../../test/render';

/** A member with id 1001. */
export function makeUser(): UserInfo {
  return {
    user: {
      userId: 1001,
      email: 'ada@example.com',
      inviteCode: 'AB12CD',
      userType: 'normal',
      creditScore: 100,
      role: 'user',
      createdAt: Date.UTC(2026, 0, 2, 20, 4, 5),
    },
    avatar: '/avatar-default.svg',
    is_merchant: 1,
    security: { fundPasswordSet: true, totpEnabled: false, antiCodeSet: false, emailBound: true, phoneBound: false },
    kycLevel: 0,
  };
}

/** One answer of the fake backend: the HTTP status and the envelope. */
export interface Answer {
  status?: number;
  body: unknown;
}

/** The success envelope of `data`. */
export const ok = (data: unknown): Answer => ({ body: { code: 200, msg: 'ok', data } });

/** A failure with `reason` (and `field`) and the message `msg`. */
export const fail = (status: number, reason: string, msg: string, field?: string): Answer => ({
  status,
  body: { code: status, msg, data: { reason, ...(field ? { field } : {}) } },
});

/** A recorded call. */
export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = Answer | Answer[] | ((call: Call) => Answer | 'network-error');

/**
 * Stubs `fetch` with `routes` keyed `"METHOD /path"` (getInfo answers `makeUser()` unless given);
 * an array answers in turn (its last answer repeats); a function may answer `'network-error'`.
 * Unknown routes answer an empty success.
 */
export function fakeBackend(given: Record<string, Handler>): Call[] {
  const routes: Record<string, Handler> = { 'POST /api/user/getInfo': ok(makeUser()), ...given };
  const calls: Call[] = [];
  const served = new Map<string, number>();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const body = init?.body;
      const call: Call = {
        method: (init?.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        query: url.searchParams,
        headers: { ...(init?.headers as Record<string, string> | undefined) },
        body: typeof body === 'string' ? JSON.parse(body) : body,
      };
      calls.push(call);
      const key = `${call.method} ${call.path}`;
      const handler = routes[key];
      let answer: Answer | 'network-error';
      if (handler === undefined) answer = ok(null);
      else if (typeof handler === 'function') answer = handler(call);
      else if (Array.isArray(handler)) {
        const n = served.get(key) ?? 0;
        served.set(key, n + 1);
        answer = handler[Math.min(n, handler.length - 1)]!;
      } else answer = handler;
      if (answer === 'network-error') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

/** The calls to `path` (by method). */
export function callsTo(calls: Call[], method: string, path: string): Call[] {
  return calls.filter((call) => call.method === method && call.path === path);
}

/** Paths of the spot calls. */
export const SUBMIT = '/api/currency/order/submit';
export const ORDER_LIST = '/api/currency/order/orderList';
export const CANCEL = '/api/currency/order/cancelOrder';
export const FILLS = '/api/coin/coin/entrust/getEntrustLogCurrency';
export const USER_COIN = '/api/userCoin/getUserCoin';

/** BTC/USDT (last 67,000, tick 0.01, step 0.0001, minimum 5 USDT, 0.1% fees) and ETH/USDT. */
export const COINS = {
  currencyList: [
    coin('btcusdt', '67000', '66000', { sort: 1, makerFeeRate: '0.001', takerFeeRate: '0.001' }),
    coin('ethusdt', '3100', '3200', { sort: 2, makerFeeRate: '0.001', takerFeeRate: '0.002' }),
  ],
  contractList: [],
};

/** Balances: 1,000 USDT and 0.5 BTC in the funding bucket. */
export const USER_COINS = {
  coins: [
    { coin: 'usdt', funding: '1000', trading: '0', earn: '0', frozen: '0', total: '1000' },
    { coin: 'btc', funding: '0.5', trading: '0', earn: '0', frozen: '0', total: '0.5' },
    { coin: 'eth', funding: '0', trading: '0', earn: '0', frozen: '0', total: '0' },
  ],
};

/** A spot order with sensible defaults (an open limit buy of 0.01 BTC at 60,000). */
export function spotOrder(overrides: Partial<SpotOrder> = {}): SpotOrder {
  return {
    id: 7,
    symbol: 'btcusdt',
    side: 'buy',
    commissType: 'limit',
    timeInForce: 'gtc',
    postOnly: false,
    commissPrice: '60000',
    commissNum: '0.01',
    haveDealNum: '0',
    dealAmount: '0',
    serviceCharge: '0',
    feeCoin: 'btc',
    entrustedValue: '600',
    status: 'waitDeal',
    commissTime: Date.UTC(2026, 0, 5, 15, 4, 5),
    updateTime: Date.UTC(2026, 0, 5, 15, 4, 5),
    ...overrides,
  };
}

/** A fill of the user's order 7 (a taker buy of 0.01 BTC at 67,010). */
export function spotFill(overrides: Partial<SpotFill> = {}): SpotFill {
  return {
    id: 31,
    orderId: 7,
    symbol: 'btcusdt',
    side: 'buy',
    role: 'taker',
    price: '67010',
    quantity: '0.01',
    amount: '670.1',
    fee: '0.00001',
    feeCoin: 'btc',
    time: Date.UTC(2026, 0, 5, 15, 4, 6),
    ...overrides,
  };
}

/** A page of records. */
export function page<T>(records: T[]): { total: number; page: number; pageSize: number; records: T[] } {
  return { total: records.length, page: 1, pageSize: 20, records };
}

/** The market feed and the user channel on fake sockets (`FakeSocket.created` lists both). */
export function fakeLive(): { userSockets: FakeSocket[] } {
  FakeSocket.created = [];
  setMarketFeed(new MarketFeed({ url: () => 'ws://test/market', createSocket: (url) => new FakeSocket(url), frame: (cb) => setTimeout(cb, 0) }));
  const userSockets: FakeSocket[] = [];
  setUserPushFactory(
    (userId) =>
      new UserPushClient({
        url: () => `ws://test/ws/user/push/${userId}`,
        createSocket: (url) => {
          const socket = new FakeSocket(url);
          userSockets.push(socket);
          return socket;
        },
      }),
  );
  return { userSockets };
}

/** Undoes `fakeLive`. */
export function resetLive(): void {
  setMarketFeed(null);
  setUserPushFactory(null);
}

/** The market feed's socket. */
export function marketSocket(): FakeSocket {
  const socket = FakeSocket.created.find((s) => s.url === 'ws://test/market');
  if (!socket) throw new Error('no market socket');
  return socket;
}

/** Renders the app at `path`, logged in as `makeUser()` (or as a visitor). */
export function renderSpot(path: string, { visitor = false }: { visitor?: boolean } = {}) {
  if (!visitor) document.cookie = 'coin-access-token=tok; path=/';
  const view = renderApp(path, COINS);
  if (!visitor) view.queryClient.setQueryData(getGetInfoQueryKey(), makeUser());
  return view;
}

/** Ends the test's session. */
export function logoutCookie(): void {
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
}
