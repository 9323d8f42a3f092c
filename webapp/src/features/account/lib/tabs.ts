/**
 * The account centre's tabs and security settings (spec section 2), as paths relative to
 * /account/center.
 *
 * @module
 */

/** A tab: its path under /account/center and the i18n key of its name. */
export interface AccountTab {
  path: string;
  labelKey: string;
}

/**
 * Every tab in display order; `merchant` only for merchants (`is_merchant === 2`). `tier` (the
 * account tier, VIP status and the merchant programme) is a designed extra of issue 26.
 */
export const ACCOUNT_TABS = [
  { path: 'info', labelKey: 'account.tabs.info' },
  { path: 'security', labelKey: 'account.tabs.security' },
  { path: 'device-management', labelKey: 'account.tabs.devices' },
  { path: 'kyc', labelKey: 'account.tabs.kyc' },
  { path: 'tier', labelKey: 'account.tabs.tier' },
  { path: 'reward-center', labelKey: 'account.tabs.rewards' },
  { path: 'contractAgents/agentManagement', labelKey: 'account.tabs.agents' },
  { path: 'merchant', labelKey: 'account.tabs.merchant' },
] as const satisfies readonly AccountTab[];

export type AccountTabPath = (typeof ACCOUNT_TABS)[number]['path'];

/** The `is_merchant` value of merchants. */
export const MERCHANT = 2;

/** The tabs a user sees: all but `merchant`, which only merchants get. */
export function visibleTabs(isMerchant: number | undefined): readonly AccountTab[] {
  return ACCOUNT_TABS.filter((tab) => tab.path !== 'merchant' || isMerchant === MERCHANT);
}

/** The security settings screens (children of the security tab, where the tab bar is hidden). */
export const SECURITY_SETTINGS = ['login-pwd', 'trade-pwd', 'email', 'phone', 'google', 'anti-code'] as const;
export type SecuritySetting = (typeof SECURITY_SETTINGS)[number];

/** Absolute path of the account centre. */
export const ACCOUNT_CENTER_PATH = '/account/center';

/** Absolute path of a tab. */
export function tabPath(tab: AccountTabPath | (string & {})): string {
  return `${ACCOUNT_CENTER_PATH}/${tab}`;
}

/** Absolute path of a security settings screen. */
export function settingPath(setting: SecuritySetting): string {
  return `${ACCOUNT_CENTER_PATH}/security/setting/${setting}`;
}
