/**
 * The tabs of /account/entrust (spec section 2): spot, margin-all, margin-fixed, future/u and
 * future/coin, each a path of its own under /account/entrust; spot is the default.
 *
 * @module
 */

/** The base path of the orders pages. */
export const ENTRUST_PATH = '/account/entrust';

/** One tab: its path under /account/entrust and the i18n key (under `entrust.tabs.`) of its name. */
export interface EntrustTab {
  path: string;
  key: 'spot' | 'marginAll' | 'marginFixed' | 'futureU' | 'futureCoin';
}

/** Every tab, in display order. */
export const ENTRUST_TABS: readonly EntrustTab[] = [
  { path: 'spot', key: 'spot' },
  { path: 'margin-all', key: 'marginAll' },
  { path: 'margin-fixed', key: 'marginFixed' },
  { path: 'future/u', key: 'futureU' },
  { path: 'future/coin', key: 'futureCoin' },
];

/** The tabs whose orders arrive with USDT-M futures. */
export type FuturesTabKey = Exclude<EntrustTab['key'], 'spot'>;

/** The full path of a tab. */
export function entrustPath(tab: EntrustTab): string {
  return `${ENTRUST_PATH}/${tab.path}`;
}

/** The tab a pathname shows, if any (`/account/entrust/future/u` → future/u). */
export function tabOf(pathname: string): EntrustTab | undefined {
  const rest = pathname.startsWith(`${ENTRUST_PATH}/`) ? pathname.slice(ENTRUST_PATH.length + 1).replace(/\/+$/, '') : '';
  return ENTRUST_TABS.find((tab) => tab.path === rest);
}
