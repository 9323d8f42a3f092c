import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  getAccessToken,
  isLoggedIn,
  loginPath,
  logout,
  readUserInfo,
  safeRedirect,
  saveUserInfo,
  sessionCookie,
  startSession,
  subscribeSession,
  useIsLoggedIn,
} from './session';

function clearCookies() {
  for (const name of ['coin-access-token', 'coin-refresh-token']) document.cookie = `${name}=; Max-Age=0; path=/`;
}

beforeEach(() => {
  clearCookies();
  localStorage.clear();
});

afterEach(() => {
  clearCookies();
});

describe('session lifecycle', () => {
  it('builds a 7-day, site-wide, SameSite=Lax token cookie, Secure only on https', () => {
    expect(sessionCookie('tok', false)).toBe('coin-access-token=tok; path=/; max-age=604800; SameSite=Lax');
    expect(sessionCookie('a b;c', true)).toBe('coin-access-token=a%20b%3Bc; path=/; max-age=604800; SameSite=Lax; Secure');
  });

  it('starts a session, stores the user and the flag, and ends it again, telling subscribers each time', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeSession(listener);
    expect(isLoggedIn()).toBe(false);

    startSession('token-1');
    expect(getAccessToken()).toBe('token-1');
    expect(isLoggedIn()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);

    saveUserInfo({ user: { userId: 7, email: 'a@b.co' } });
    expect(readUserInfo()).toEqual({ user: { userId: 7, email: 'a@b.co' } });
    expect(localStorage.getItem('coin_web-userInfo')).toBe('{"user":{"userId":7,"email":"a@b.co"}}');
    expect(localStorage.getItem('coin_web-isLogin')).toBe('true');
    expect(listener).toHaveBeenCalledTimes(2);

    document.cookie = 'coin-refresh-token=r; path=/';
    logout();
    expect(isLoggedIn()).toBe(false);
    expect(document.cookie).not.toContain('coin-refresh-token');
    expect(readUserInfo()).toBeNull();
    expect(localStorage.getItem('coin_web-isLogin')).toBeNull();
    expect(listener).toHaveBeenCalledTimes(3);

    unsubscribe();
    startSession('token-2');
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('reads unreadable stored user info as none', () => {
    localStorage.setItem('coin_web-userInfo', '{not json');
    expect(readUserInfo()).toBeNull();
  });
});

describe('useIsLoggedIn', () => {
  it('reads the cookie once per session event, not on every render', () => {
    const reads = vi.spyOn(Document.prototype, 'cookie', 'get');
    const { result, rerender } = renderHook(() => useIsLoggedIn());
    for (let i = 0; i < 20; i += 1) rerender();
    expect(result.current).toBe(false);
    expect(reads.mock.calls.length).toBeLessThanOrEqual(1);

    act(() => startSession('token-1'));
    expect(result.current).toBe(true);
    for (let i = 0; i < 20; i += 1) rerender();
    expect(reads.mock.calls.length).toBeLessThanOrEqual(2);

    act(() => logout());
    expect(result.current).toBe(false);
    reads.mockRestore();
  });

  it('follows another tab logging in or out, and the cookie as it is when the tab comes back', () => {
    const { result } = renderHook(() => useIsLoggedIn());
    expect(result.current).toBe(false);
    // Another tab logged in: it set the cookie and the login flag.
    document.cookie = 'coin-access-token=other-tab; path=/';
    expect(result.current).toBe(false);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'coin_web-isLogin', newValue: 'true' }));
    });
    expect(result.current).toBe(true);
    // The cookie went away while the tab was hidden (it expired): seen when the tab is shown again.
    clearCookies();
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(result.current).toBe(false);
  });
});

describe('safeRedirect', () => {
  it('keeps paths of this site with their query and hash', () => {
    expect(safeRedirect('/account/center')).toBe('/account/center');
    expect(safeRedirect('/trade/index?type=bb&symbol=btcusdt')).toBe('/trade/index?type=bb&symbol=btcusdt');
    expect(safeRedirect('/assets/index?key=overview#top')).toBe('/assets/index?key=overview#top');
    expect(safeRedirect('/a/../account/center')).toBe('/account/center');
  });

  it('sends everything else home', () => {
    for (const raw of [
      null,
      undefined,
      '',
      'account/center',
      'https://evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      '/\n/evil',
      '/\t/evil.example',
      ' /account/center',
      'http:/evil.example',
      '/user/login',
      '/user/login?redirect=/x',
      '/user/register/',
      '/user/reset',
    ]) {
      expect(safeRedirect(raw), String(raw)).toBe('/home/index');
    }
  });

  it('builds the login path that returns to a page', () => {
    expect(loginPath()).toBe('/user/login');
    expect(loginPath('/home/index')).toBe('/user/login');
    expect(loginPath('/account/center?tab=security')).toBe('/user/login?redirect=%2Faccount%2Fcenter%3Ftab%3Dsecurity');
    expect(loginPath('https://evil.example/')).toBe('/user/login');
  });
});
