/**
 * Test helpers of the spot screens: the shared fake backend (with the member logged in), spot orders
 * and fills, the live channels (market feed and user channel) on fake sockets, and the lifecycle
 * every spot screen test shares.
 *
 * @module
 */

import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { SpotFill, SpotOrder } from '../../api/generated/model';
import { setLanguage } from '../../i18n';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { toaster } from '../../lib/toaster';
import { UserPushClient, setUserPushFactory } from '../../lib/user-push';
import { type Call, type Handler, makeUser, ok, fakeBackend as sharedFakeBackend } from '../../test/fake-backend';
import { FakeSocket } from '../../test/fake-socket';
import { bodyCells, coin, logoutCookie, renderApp, renderSignedIn } from '../../test/render';

export { type Answer, type Call, callsTo, fail, makeUser, ok } from '../../test/fake-backend';
export { bodyCells, logoutCookie } from '../../test/render';

/** `fakeBackend` of `src/test` with getInfo answering `makeUser()` unless `given` says otherwise. */
export function fakeBackend(given: Record<string, Handler>): Call[] {
  return sharedFakeBackend({ 'POST /api/user/getInfo': ok(makeUser()), ...given });
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
export function fakeLive(): void {
  FakeSocket.created = [];
  setMarketFeed(new MarketFeed({ url: () => MARKET_URL, createSocket: (url) => new FakeSocket(url), frame: (cb) => setTimeout(cb, 0) }));
  setUserPushFactory((userId) => new UserPushClient({ url: () => `ws://test/ws/user/push/${userId}`, createSocket: (url) => new FakeSocket(url) }));
}

const MARKET_URL = 'ws://test/market';

/** Undoes `fakeLive`. */
export function resetLive(): void {
  setMarketFeed(null);
  setUserPushFactory(null);
}

/** The market feed's socket. */
export function marketSocket(): FakeSocket {
  const socket = FakeSocket.created.find((s) => s.url === MARKET_URL);
  if (!socket) throw new Error('no market socket');
  return socket;
}

/** The user channel's latest socket (any socket but the market feed's). */
export function userSocket(): FakeSocket {
  const socket = FakeSocket.created.filter((s) => s.url !== MARKET_URL).at(-1);
  if (!socket) throw new Error('no user channel socket');
  return socket;
}

/** Renders the app at `path`, logged in as `makeUser()` (or as a visitor). */
export function renderSpot(path: string, { visitor = false }: { visitor?: boolean } = {}) {
  return visitor ? renderApp(path, COINS) : renderSignedIn(path, makeUser(), COINS);
}

/**
 * The lifecycle of a spot screen test, registered by calling this at the top of the file: before
 * each test a clean `localStorage`, the live channels on fake sockets and a silenced toaster; after
 * it all undone, the session ended and the language back to English.
 */
export function spotTestLifecycle(): void {
  beforeEach(() => {
    localStorage.clear();
    fakeLive();
    vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
  });
  afterEach(async () => {
    resetLive();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    logoutCookie();
    await setLanguage('en', { persist: false });
  });
}

/**
 * Renders `path` logged in with one open order (orderList answers it once, then nothing: the order
 * filled) and waits for its row; returns the recorded calls, the open orders table and the user
 * channel's socket.
 */
export async function renderOneOpenOrder(path: string): Promise<{ calls: Call[]; table: HTMLElement; socket: FakeSocket }> {
  const calls = fakeBackend({
    [`POST ${USER_COIN}`]: ok(USER_COINS),
    [`POST ${ORDER_LIST}`]: [ok(page([spotOrder()])), ok(page([]))],
  });
  renderSpot(path);
  const table = await screen.findByRole('table', { name: 'Open orders' });
  await waitFor(() => expect(bodyCells(table)).toHaveLength(1));
  return { calls, table, socket: userSocket() };
}
