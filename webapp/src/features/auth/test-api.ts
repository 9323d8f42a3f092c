/**
 * Test helper of the auth screens: a fetch double answering by path, recording each call.
 *
 * @module
 */

import { vi } from 'vitest';

/** One recorded call. */
export interface Call {
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

/** An answer: `data` of a 200 envelope, or a failure with `reason` / `field`. */
export type Answer = { data: unknown } | { status: number; msg: string; reason?: string; field?: string };

/** A handler of one path, given the parsed body and the calls so far to that path. */
export type Handler = (body: Record<string, unknown>, calls: Call[]) => Answer;

/** Stubs `fetch`: each path answers by its handler; unknown paths fail like a network error. */
export function stubApi(handlers: Record<string, Handler>): { calls: Call[]; callsTo: (path: string) => Call[] } {
  const calls: Call[] = [];
  const callsTo = (path: string) => calls.filter((call) => call.path === path);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.split('?')[0] ?? url;
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
      const handler = handlers[path];
      const previous = callsTo(path);
      calls.push({ path, body, headers: (init?.headers ?? {}) as Record<string, string> });
      if (!handler) throw new TypeError(`fetch failed: ${path}`);
      const answer = handler(body, previous);
      const envelope =
        'data' in answer
          ? { code: 200, msg: 'ok', data: answer.data }
          : { code: answer.status, msg: answer.msg, data: { reason: answer.reason ?? 'invalid_field', field: answer.field } };
      return new Response(JSON.stringify(envelope), { status: 'data' in answer ? 200 : answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return { calls, callsTo };
}

/** A getInfo answer for `email`. */
export function userInfo(email: string, userId = 42) {
  return {
    user: { userId, email, inviteCode: 'KX7P2M9Q', userType: 'normal', creditScore: 100, role: 'user', createdAt: 1 },
    avatar: '/avatar-default.svg',
    is_merchant: 1,
    security: { fundPasswordSet: false, totpEnabled: false, antiCodeSet: false, emailBound: true, phoneBound: false },
    kycLevel: 0,
  };
}

/** The text of the elements describing `element` (hint or error under a field). */
export function descriptionOf(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => (id ? document.getElementById(id)?.textContent ?? '' : ''))
    .filter(Boolean)
    .join(' ');
}
