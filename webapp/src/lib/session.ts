//! The session: "logged in" means the `coin-access-token` cookie is present. Logout (or a 401 from
//! the API) removes the token cookies, the stored user info and the login flag.

import { useSyncExternalStore } from 'react';
import { removeStored } from './storage';

/** Cookie holding the `satoken` sent with every API call. */
export const ACCESS_TOKEN_COOKIE = 'coin-access-token';
/** Cookie holding the refresh token. */
export const REFRESH_TOKEN_COOKIE = 'coin-refresh-token';
/** Local storage keys (under the `coin_web-` prefix) that describe the logged-in user. */
export const USER_INFO_KEY = 'userInfo';
export const LOGIN_FLAG_KEY = 'isLogin';

const listeners = new Set<() => void>();

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

/** Clears the session: token cookies, user info and login flag; notifies subscribers. */
export function logout(): void {
  deleteCookie(ACCESS_TOKEN_COOKIE);
  deleteCookie(REFRESH_TOKEN_COOKIE);
  removeStored(USER_INFO_KEY);
  removeStored(LOGIN_FLAG_KEY);
  for (const listener of listeners) listener();
}

/** Tells subscribers that the session may have changed (for example after a login). */
export function notifySessionChanged(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** React hook: whether the user is logged in, updated on logout and session changes. */
export function useIsLoggedIn(): boolean {
  return useSyncExternalStore(subscribe, isLoggedIn, () => false);
}
