/**
 * The funds screens and where they live: `/assets/index?key=<key>` (spec section 2: overview,
 * finance (finance assets: the earn account), recharge, withdraw, swap, transfer, order centre, records,
 * investment (my investments: earn orders in progress), promotion (referral rebates) — plus contract, the futures wallet) and the account layout's
 * `/account/wallet/<page>` (assets, deposit, withdrawal, history-deposit, history-withdrawal, bills).
 * Both hosts render the same screens; `FundsLinks` says how one screen links to another in each.
 *
 * @module
 */

/** The `key` values of /assets/index, in menu order. */
export const ASSET_KEYS = ['overview', 'finance', 'contract', 'recharge', 'withdraw', 'swap', 'transfer', 'records', 'order', 'investment', 'promotion'] as const;
export type AssetKey = (typeof ASSET_KEYS)[number];

/** The pages of /account/wallet, in menu order. */
export const WALLET_PAGES = ['assets', 'deposit', 'withdrawal', 'history-deposit', 'history-withdrawal', 'bills'] as const;
export type WalletPage = (typeof WALLET_PAGES)[number];

/** The record lists (the records screen's tabs, `?tab=`). */
export const RECORD_TABS = ['deposits', 'withdrawals', 'transfers', 'bills'] as const;
export type RecordTab = (typeof RECORD_TABS)[number];

/** A screen another screen links to; `records` names its tab. */
export type FundsTarget =
  | { screen: 'overview' | 'finance' | 'contract' | 'recharge' | 'withdraw' | 'swap' | 'transfer' | 'order' | 'investment' | 'promotion'; coin?: string }
  | { screen: 'records'; tab: RecordTab };

export const ASSETS_PATH = '/assets/index';
export const WALLET_PATH = '/account/wallet';

/** The promotion screen (referral rebates), narrowed to the statement lines of journal entry `entryId` if given. */
export function promotionHref(entryId?: number): string {
  return entryId != null ? `${ASSETS_PATH}?key=promotion&entry=${entryId}` : `${ASSETS_PATH}?key=promotion`;
}

/** `key` from the URL when it is a known screen, else `null`. */
export function parseAssetKey(value: string | null): AssetKey | null {
  return (ASSET_KEYS as readonly string[]).includes(value ?? '') ? (value as AssetKey) : null;
}

/** `tab` from the URL when it is a known list, else the deposits. */
export function parseRecordTab(value: string | null): RecordTab {
  return (RECORD_TABS as readonly string[]).includes(value ?? '') ? (value as RecordTab) : 'deposits';
}

function withCoin(path: string, coin: string | undefined): string {
  if (!coin) return path;
  return `${path}${path.includes('?') ? '&' : '?'}coin=${encodeURIComponent(coin)}`;
}

/** The /assets/index link of a target. */
export function assetsHref(target: FundsTarget): string {
  if (target.screen === 'records') return `${ASSETS_PATH}?key=records&tab=${target.tab}`;
  return withCoin(`${ASSETS_PATH}?key=${target.screen}`, target.coin);
}

/** The /account/wallet link of a target; screens the wallet has no page for open under /assets/index. */
export function walletHref(target: FundsTarget): string {
  switch (target.screen) {
    case 'overview':
      return withCoin(`${WALLET_PATH}/assets`, target.coin);
    case 'recharge':
      return withCoin(`${WALLET_PATH}/deposit`, target.coin);
    case 'withdraw':
      return withCoin(`${WALLET_PATH}/withdrawal`, target.coin);
    case 'records':
      if (target.tab === 'deposits') return `${WALLET_PATH}/history-deposit`;
      if (target.tab === 'withdrawals') return `${WALLET_PATH}/history-withdrawal`;
      if (target.tab === 'bills') return `${WALLET_PATH}/bills`;
      return assetsHref(target);
    default:
      return assetsHref(target);
  }
}
