import { describe, expect, it } from 'vitest';
import {
  HIDDEN_RELOAD_AFTER_MS,
  inviteRedirect,
  isFooterVisible,
  isMobileUserAgent,
  mobileTradeRedirect,
  shouldReloadAfterHidden,
} from './route-helpers';

describe('isFooterVisible', () => {
  it('shows the footer on ordinary pages and on /user/index', () => {
    for (const path of ['/home/index', '/quotes/index', '/about/index', '/user/index', '/user/index/', '/pledge', '/finance/investment']) {
      expect(isFooterVisible(path), path).toBe(true);
    }
  });

  it('hides it under /user except /user/index, and on /pledge/, /finance/detail and /trade paths', () => {
    for (const path of ['/user/login', '/user/register', '/user/reset', '/user', '/pledge/index', '/pledge/add', '/finance/detail', '/trade/index', '/trade']) {
      expect(isFooterVisible(path), path).toBe(false);
    }
  });
});

describe('inviteRedirect', () => {
  it('turns /i&CODE into the registration page with the code', () => {
    expect(inviteRedirect('/i&AB12CD')).toBe('/user/register?invite_code=AB12CD');
    expect(inviteRedirect('/home/i&XYZ')).toBe('/user/register?invite_code=XYZ');
    expect(inviteRedirect('/i%26Q9')).toBe('/user/register?invite_code=Q9');
  });

  it('encodes the code and ignores ordinary paths', () => {
    expect(inviteRedirect('/i&a%20b')).toBe('/user/register?invite_code=a+b');
    expect(inviteRedirect('/home/index')).toBeNull();
    expect(inviteRedirect('/i&')).toBeNull();
    expect(inviteRedirect('/info')).toBeNull();
  });
});

describe('mobile detection', () => {
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
  const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
  const desktop = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

  it('recognises phones and not desktops', () => {
    expect(isMobileUserAgent(iphone)).toBe(true);
    expect(isMobileUserAgent(android)).toBe(true);
    expect(isMobileUserAgent(desktop)).toBe(false);
  });

  it('redirects only the trade page, only on mobile, only when a mobile site is configured', () => {
    expect(mobileTradeRedirect('/trade/index', iphone, 'https://m.example.com')).toBe('https://m.example.com');
    expect(mobileTradeRedirect('/trade/index', desktop, 'https://m.example.com')).toBeNull();
    expect(mobileTradeRedirect('/trade/index', iphone, '')).toBeNull();
    expect(mobileTradeRedirect('/home/index', iphone, 'https://m.example.com')).toBeNull();
  });
});

describe('shouldReloadAfterHidden', () => {
  it('reloads only after more than 300 s hidden', () => {
    expect(HIDDEN_RELOAD_AFTER_MS).toBe(300_000);
    expect(shouldReloadAfterHidden(1_000, 1_000 + 300_000)).toBe(false);
    expect(shouldReloadAfterHidden(1_000, 1_000 + 300_001)).toBe(true);
    expect(shouldReloadAfterHidden(null, 10_000_000)).toBe(false);
  });
});
