/**
 * Pure routing rules of the shell (unit-tested in route-helpers.test.ts).
 *
 * @module
 */

/** Where `/` and unknown paths go. */
export const HOME_PATH = '/home/index';

/** Reload when the page was hidden for longer than this and becomes visible again. */
export const HIDDEN_RELOAD_AFTER_MS = 300_000;

/**
 * Whether the footer shows on `pathname`: not under /user (except /user/index), nor on paths
 * starting /pledge/, /finance/detail or /trade.
 */
export function isFooterVisible(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/user' || path.startsWith('/user/')) return path === '/user/index';
  if (path.startsWith('/pledge/') || path.startsWith('/finance/detail') || path.startsWith('/trade')) return false;
  return true;
}

/**
 * The registration URL for an invitation link: a path containing `/i&CODE` goes to
 * `/user/register?invite_code=CODE`. `null` when the path is not an invitation.
 */
export function inviteRedirect(pathname: string): string | null {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // Keep the raw path when it is not valid percent-encoding.
  }
  const code = /\/i&([^/?#&]+)/.exec(path)?.[1];
  if (!code) return null;
  return `/user/register?${new URLSearchParams({ invite_code: code }).toString()}`;
}

/** Whether a user agent is a phone or tablet browser. */
export function isMobileUserAgent(userAgent: string): boolean {
  return /Android|iPhone|iPad|iPod|Windows Phone|IEMobile|BlackBerry|BB10|webOS|Opera Mini|Mobile Safari|\bMobile\b/i.test(
    userAgent,
  );
}

/** Where the trade page sends a mobile device: the mobile site, or `null` to stay. */
export function mobileTradeRedirect(pathname: string, userAgent: string, mobileSiteUrl: string): string | null {
  const path = pathname.replace(/\/+$/, '');
  if (path !== '/trade/index' || mobileSiteUrl.trim() === '') return null;
  return isMobileUserAgent(userAgent) ? mobileSiteUrl.trim() : null;
}

/** Whether a page hidden at `hiddenAt` should reload on becoming visible at `visibleAt`. */
export function shouldReloadAfterHidden(
  hiddenAt: number | null,
  visibleAt: number,
  limitMs: number = HIDDEN_RELOAD_AFTER_MS,
): boolean {
  return hiddenAt !== null && visibleAt - hiddenAt > limitMs;
}
