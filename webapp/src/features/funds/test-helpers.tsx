// Test helpers of the funds screens: a logged-in user in the query cache and a fake backend
// (`fetch` answered by route) that records every call with its headers and body.
import { vi } from 'vitest';
import type { UserInfo } from '../../api/generated/model';
import { getGetInfoQueryKey } from '../../api/generated/user/user';
import { renderApp } from '../../test/render';

/** A user with e-mail and a fund password set. */
export function makeUser(overrides: { fundPasswordSet?: boolean; role?: string } = {}): UserInfo {
  return {
    user: {
      userId: 1001,
      email: 'ada@example.com',
      inviteCode: 'AB12CD',
      userType: 'normal',
      creditScore: 100,
      role: overrides.role ?? 'user',
      createdAt: Date.UTC(2026, 0, 2, 20, 4, 5),
    },
    avatar: '/avatar-default.svg',
    is_merchant: 1,
    security: {
      fundPasswordSet: overrides.fundPasswordSet ?? true,
      totpEnabled: false,
      antiCodeSet: false,
      emailBound: true,
      phoneBound: false,
    },
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
  /** The parsed JSON body, the FormData of an upload, or `undefined`. */
  body: unknown;
}

type Handler = Answer | Answer[] | ((call: Call) => Answer | 'network-error');

/**
 * Stubs `fetch` with `routes` keyed `"METHOD /path"`; an array answers in turn (its last answer
 * repeats); a function may answer `'network-error'` to make the call fail without an answer.
 * Unknown routes answer an empty success. Returns the recorded calls.
 */
export function fakeBackend(routes: Record<string, Handler>): Call[] {
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

/** Logs in (a session cookie) and renders the app at `path` with `user` in the cache. */
export function renderFunds(path: string, user: UserInfo = makeUser()) {
  document.cookie = 'coin-access-token=tok; path=/';
  const view = renderApp(path);
  view.queryClient.setQueryData(getGetInfoQueryKey(), user);
  return view;
}

/** The calls to `path` (by method). */
export function callsTo(calls: Call[], method: string, path: string): Call[] {
  return calls.filter((call) => call.method === method && call.path === path);
}

/** Balances of getUserCoin: `usdt` 1000 funding, 50 trading; `btc` 0.5 funding; `eth` nothing. */
export const USER_COINS = {
  coins: [
    { coin: 'usdt', funding: '1000', trading: '50', earn: '0', frozen: '25', total: '1075' },
    { coin: 'btc', funding: '0.5', trading: '0', earn: '0', frozen: '0', total: '0.5' },
    { coin: 'eth', funding: '0', trading: '0', earn: '0', frozen: '0', total: '0' },
  ],
};

/** Deposit addresses of the channels below (valid for their networks). */
export const TRC20_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
export const ERC20_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** getRechargeCurrency: USDT on TRC20 and ERC20, BTC on BTC. */
export const CHANNELS = {
  coins: [
    {
      coin: 'usdt',
      networks: [
        { network: 'TRC20', address: TRC20_ADDRESS, minDeposit: '10', withdrawFee: '1', minWithdraw: '10', precision: 6 },
        { network: 'ERC20', address: ERC20_ADDRESS, minDeposit: '20', withdrawFee: '5', minWithdraw: '20', precision: 6 },
      ],
    },
    { coin: 'btc', networks: [{ network: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', minDeposit: '0.0005', withdrawFee: '0.0002', minWithdraw: '0.001', precision: 8 }] },
  ],
};
