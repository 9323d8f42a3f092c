/**
 * The session: "logged in" means the `coin-access-token` cookie is present.
 *
 * - `startSession(token)` after a successful login: the cookie (7 days, path /, SameSite=Lax,
 *   Secure on https), then `saveUserInfo(info)` once getInfo answered: the user info and the
 *   login flag in local storage. Both tell subscribers.
 * - `logout()` (Exit, Log out, or a 401 from the API) removes the token cookies, the stored user
 *   info and the login flag and tells subscribers. Ending the session on the server as well is
 *   `useSignOut()` (src/hooks/use-sign-out.ts).
 * - `safeRedirect` / `loginPath`: where a login returns to (`?redirect=`, same-origin paths only).
 *
 * @module
 */

import { useSyncExternalStore } from 'react';
import { STORAGE_PREFIX, readStored, removeStored, writeStored } from './storage';

/** Cookie holding the `satoken` sent with every API call. */
export const ACCESS_TOKEN_COOKIE = 'coin-access-token';
/** Cookie holding the refresh token. */
export const REFRESH_TOKEN_COOKIE = 'coin-refresh-token';
/** Local storage keys (under the `coin_web-` prefix) that describe the logged-in user. */
export const USER_INFO_KEY = 'userInfo';
export const LOGIN_FLAG_KEY = 'isLogin';
/** Lifetime of the session cookie in seconds (7 days, the token's lifetime). */
export const SESSION_MAX_AGE_SECS = 604_800;
/** Where a login goes when no (acceptable) `redirect` was asked for. */
export const AFTER_LOGIN_PATH = '/home/index';
/** The login screen. */
export const LOGIN_PATH = '/user/login';

const listeners = new Set<() => void>();

/**
 * Whether the token cookie was there when last read: `useIsLoggedIn` runs on every render of every
 * component using it, and reading `document.cookie` is not free (it was ~3 ms a second of a
 * streaming trade page). Forgotten on every session event below.
 */
let cachedLoggedIn: boolean | null = null;

function notify(): void {
  cachedLoggedIn = null;
  for (const listener of listeners) listener();
}

// Another tab logging in or out changes the login flag in local storage (a `storage` event here);
// back on the tab, the cookie may also have changed or expired: read it again, tell subscribers.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === STORAGE_PREFIX + LOGIN_FLAG_KEY || event.key === STORAGE_PREFIX + USER_INFO_KEY) notify();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') notify();
  });
}

/** Reads a cookie by name, or `null`. */
export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [rawKey, ...rest] = part.split('=');
    if (rawKey?.trim() === name) {
      const value = rest.join('=').trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return null;
}

function deleteCookie(name: string): void {
  document.cookie = `${name}=; Max-Age=0; path=/`;
}

/** The session token, or `null` for a visitor. */
export function getAccessToken(): string | null {
  const token = readCookie(ACCESS_TOKEN_COOKIE);
  return token ? token : null;
}

/** Whether a session token is present. */
export function isLoggedIn(): boolean {
  return getAccessToken() !== null;
}

/** {@link isLoggedIn}, read once per session event (see `cachedLoggedIn`). */
function isLoggedInCached(): boolean {
  cachedLoggedIn ??= isLoggedIn();
  return cachedLoggedIn;
}

/** The `document.cookie` assignment that stores `token`: 7 days, path /, SameSite=Lax, Secure on https. */
export function sessionCookie(token: string, secure: boolean): string {
  const attributes = ['path=/', `max-age=${SESSION_MAX_AGE_SECS}`, 'SameSite=Lax'];
  if (secure) attributes.push('Secure');
  return `${ACCESS_TOKEN_COOKIE}=${encodeURIComponent(token)}; ${attributes.join('; ')}`;
}

/**
 * Starts a session with the `satoken` of a login: sets `coin-access-token` (`sessionCookie`, Secure
 * when the page is served over https) and tells subscribers.
 */
export function startSession(token: string): void {
  document.cookie = sessionCookie(token, window.location.protocol === 'https:');
  notify();
}

/** Stores the logged-in user's record (getInfo's answer) and sets the login flag. */
export function saveUserInfo(info: unknown): void {
  writeStored(USER_INFO_KEY, JSON.stringify(info));
  writeStored(LOGIN_FLAG_KEY, 'true');
  notify();
}

/** The user record stored at login, or `null` (visitor, or unreadable storage). */
export function readUserInfo<T = unknown>(): T | null {
  const raw = readStored(USER_INFO_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** Clears the session: token cookies, user info and login flag; notifies subscribers. */
export function logout(): void {
  deleteCookie(ACCESS_TOKEN_COOKIE);
  deleteCookie(REFRESH_TOKEN_COOKIE);
  removeStored(USER_INFO_KEY);
  removeStored(LOGIN_FLAG_KEY);
  notify();
}

/** Tells subscribers that the session may have changed. */
export function notifySessionChanged(): void {
  notify();
}

/** Calls `listener` whenever the session may have changed; returns the unsubscribe function. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * React hook: whether the user is logged in, updated on login, logout and session changes (this
 * tab's, another tab's, or the tab coming back into view). The cookie is read once per change, not
 * per render.
 */
export function useIsLoggedIn(): boolean {
  return useSyncExternalStore(subscribeSession, isLoggedInCached, () => false);
}

/** The auth screens, which a login never returns to. */
const AUTH_PATHS = ['/user/login', '/user/register', '/user/reset'];

/**
 * Where a login may go for `?redirect=<raw>`: a same-origin path (`/trade/index?type=bb`) is kept
 * with its query and hash; anything else — absolute or protocol-relative URLs, `javascript:`,
 * backslash tricks, control characters, the auth screens themselves — gives `/home/index`.
 */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw) return AFTER_LOGIN_PATH;
  // Must be a path: one leading slash, no second slash or backslash right after it (`//evil`,
  // `/\evil` are other hosts to a browser), no control characters or whitespace browsers strip.
  // eslint-disable-next-line no-control-regex
  if (!raw.startsWith('/') || /^\/[/\\]/.test(raw) || /[\u0000-\u001f\u007f\s\\]/.test(raw)) return AFTER_LOGIN_PATH;
  const base = 'https://kestrel.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return AFTER_LOGIN_PATH;
  }
  if (url.origin !== base) return AFTER_LOGIN_PATH;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (AUTH_PATHS.includes(path)) return AFTER_LOGIN_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login screen, returning to `returnTo` (a path with query) after the login. */
export function loginPath(returnTo?: string): string {
  const target = returnTo ? safeRedirect(returnTo) : AFTER_LOGIN_PATH;
  if (target === AFTER_LOGIN_PATH) return LOGIN_PATH;
  return `${LOGIN_PATH}?${new URLSearchParams({ redirect: target }).toString()}`;
}
