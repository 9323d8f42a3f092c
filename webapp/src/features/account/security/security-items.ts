/**
 * The rows of the security tab's settings list, derived from getInfo's `security` block.
 *
 * @module
 */

import type { UserInfo } from '../../../api/generated/model';
import { type SecuritySetting, settingPath } from '../lib/tabs';

/** One security setting: its state, the i18n keys of its texts, and where its action leads. */
export interface SecurityItem {
  id: 'loginPwd' | 'tradePwd' | 'email' | 'phone' | 'google' | 'antiCode';
  setting: SecuritySetting;
  /** Whether the protection is on (green badge) or not (grey). */
  on: boolean;
  /** i18n key of the badge text. */
  statusKey: string;
  /** i18n key of the action button. */
  actionKey: string;
  /** Absolute path of the settings screen. */
  to: string;
  /** Extra detail shown under the description (the bound contact), if any. */
  detail?: string;
}

function item(id: SecurityItem['id'], setting: SecuritySetting, on: boolean, onKeys: [string, string], offKeys: [string, string], detail?: string): SecurityItem {
  const [statusKey, actionKey] = on ? onKeys : offKeys;
  return { id, setting, on, statusKey, actionKey, to: settingPath(setting), detail };
}

/** The six settings in display order. */
export function securityItems(user: UserInfo): SecurityItem[] {
  const s = user.security;
  const status = 'account.status';
  const action = 'account.actions';
  return [
    item('loginPwd', 'login-pwd', true, [`${status}.set`, `${action}.change`], [`${status}.notSet`, `${action}.set`]),
    item('tradePwd', 'trade-pwd', s.fundPasswordSet, [`${status}.set`, `${action}.change`], [`${status}.notSet`, `${action}.set`]),
    item('email', 'email', s.emailBound, [`${status}.bound`, `${action}.change`], [`${status}.notBound`, `${action}.bind`], user.user.email ?? undefined),
    item('phone', 'phone', s.phoneBound, [`${status}.bound`, `${action}.change`], [`${status}.notBound`, `${action}.bind`], user.user.phone ?? undefined),
    item('google', 'google', s.totpEnabled, [`${status}.enabled`, `${action}.unbind`], [`${status}.notEnabled`, `${action}.bind`]),
    item('antiCode', 'anti-code', s.antiCodeSet, [`${status}.set`, `${action}.change`], [`${status}.notSet`, `${action}.set`]),
  ];
}

/** How well the account is protected: `low` (≤ 2 of 6 on), `medium` (3–4) or `high` (5–6). */
export function securityLevel(items: readonly SecurityItem[]): 'low' | 'medium' | 'high' {
  const on = items.filter((i) => i.on).length;
  return on >= 5 ? 'high' : on >= 3 ? 'medium' : 'low';
}
