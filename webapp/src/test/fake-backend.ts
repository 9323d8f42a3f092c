/**
 * Test helper: a fake backend (`fetch` answered by route, every call recorded with its headers and
 * body) and the member the screens behind the login see.
 *
 * @module
 */

import { vi } from 'vitest';
import type { UserInfo } from '../api/generated/model';

/** What a test may change of `makeUser()`. */
export interface UserOverrides {
  is_merchant?: number;
  kycLevel?: number;
  user?: Partial<UserInfo['user']>;
  security?: Partial<UserInfo['security']>;
}

/** A member with id 1001, e-mail bound and a fund password set. */
export function makeUser(overrides: UserOverrides = {}): UserInfo {
  return {
    user: {
      userId: 1001,
      email: 'ada@example.com',
      inviteCode: 'AB12CD',
      userType: 'normal',
      creditScore: 100,
      role: 'user',
      createdAt: Date.UTC(2026, 0, 2, 20, 4, 5),
      ...overrides.user,
    },
    avatar: '/avatar-default.svg',
    is_merchant: overrides.is_merchant ?? 1,
    security: { fundPasswordSet: true, totpEnabled: false, antiCodeSet: false, emailBound: true, phoneBound: false, ...overrides.security },
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

/** A failure with `reason` (and `field`) and the message `msg`. */
export const fail = (status: number, reason: string, msg: string, field?: string): Answer => ({
  status,
  body: { code: status, msg, data: { reason, ...(field ? { field } : {}) } },
});

/** A recorded call. */
export interface Call {
  method: string;
  /** The path, without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** The parsed JSON body, the FormData of an upload, or `undefined`. */
  body: unknown;
}

/** How a route answers: always the same, in turn, or computed from the call. */
export type Handler = Answer | Answer[] | ((call: Call) => Answer | 'network-error');

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

/** The calls to `path` (by method). */
export function callsTo(calls: Call[], method: string, path: string): Call[] {
  return calls.filter((call) => call.method === method && call.path === path);
}
