// Test helpers of the account centre: a logged-in user in the query cache and a fake backend
// (`fetch` answered by route) that records every call.
import type { UserInfo } from '../../api/generated/model';
import { getGetInfoQueryKey } from '../../api/generated/user/user';
import { renderApp } from '../../test/render';
import { vi } from 'vitest';

/** A user with e-mail bound and nothing else set up. */
export function makeUser(overrides: { is_merchant?: number; security?: Partial<UserInfo['security']>; user?: Partial<UserInfo['user']>; kycLevel?: number } = {}): UserInfo {
  return {
    user: {
      userId: 1001,
      email: 'ada@example.com',
      phone: undefined,
      inviteCode: 'AB12CD',
      userType: 'normal',
      creditScore: 100,
      role: 'user',
      createdAt: Date.UTC(2026, 0, 2, 20, 4, 5),
      ...overrides.user,
    },
    avatar: '/avatar-default.svg',
    is_merchant: overrides.is_merchant ?? 1,
    security: { fundPasswordSet: false, totpEnabled: false, antiCodeSet: false, emailBound: true, phoneBound: false, ...overrides.security },
    kycLevel: overrides.kycLevel ?? 0,
  };
}

/** One answer of the fake backend: the HTTP status and the envelope. */
export interface Answer {
  status?: number;
  body: unknown;
}

/** The success envelope of `data`. */
export const ok = (data: unknown): Answer => ({ body: { code: 200, msg: 'ok', data } });

/** A 400 failure with `reason` (and `field`) and the message `msg`. */
export const fail = (reason: string, msg: string, field?: string, status = 400): Answer => ({
  status,
  body: { code: status, msg, data: { reason, ...(field ? { field } : {}) } },
});

/** A recorded call: method, path (without the query), query and parsed body. */
export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Handler = Answer | Answer[] | ((call: Call) => Answer);

/**
 * Stubs `fetch` with `routes` keyed `"METHOD /path"`; an array answers in turn (its last answer
 * repeats). Unknown routes answer an empty success. Returns the recorded calls.
 */
export function fakeBackend(routes: Record<string, Handler>): Call[] {
  const calls: Call[] = [];
  const served = new Map<string, number>();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const call: Call = {
        method: (init?.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        query: url.searchParams,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const key = `${call.method} ${call.path}`;
      const handler = routes[key];
      let answer: Answer;
      if (handler === undefined) answer = ok(null);
      else if (typeof handler === 'function') answer = handler(call);
      else if (Array.isArray(handler)) {
        const n = served.get(key) ?? 0;
        served.set(key, n + 1);
        answer = handler[Math.min(n, handler.length - 1)]!;
      } else answer = handler;
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

/** Logs in (a session cookie) and renders the app at `path` with `user` in the cache. */
export function renderAccount(path: string, user: UserInfo) {
  document.cookie = 'coin-access-token=tok; path=/';
  const view = renderApp(path);
  view.queryClient.setQueryData(getGetInfoQueryKey(), user);
  return view;
}

/** The calls to `path` (by method). */
export function callsTo(calls: Call[], method: string, path: string): Call[] {
  return calls.filter((call) => call.method === method && call.path === path);
}
