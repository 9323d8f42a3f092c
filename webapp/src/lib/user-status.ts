/**
 * The `USER_STATUS` message of the user channel (docs/api.md, "User channel"): the server ended the
 * session — an operator froze the account (`frozen`), the session was revoked (`session_revoked`:
 * logged out elsewhere, removed from the device list, ended by a password change) or it expired
 * (`session_expired`) — just before it closes the socket with code 4401. The page signs out at once
 * and says why in a toast, rather than waiting for the next call's 401:
 *
 * - `frozen`: "Your account has been frozen…" (the login screen then refuses with `account_frozen`);
 * - `session_revoked`: the spec's 'User Revoked Authorization', with what it means;
 * - `session_expired`: the spec's 'Authorization Failed', asking to log in again.
 *
 * @module
 */

import { i18n } from '../i18n';
import { isLoggedIn, logout } from './session';
import { toaster } from './toaster';

/** Every `status` of a `USER_STATUS` message. */
export const USER_STATUSES = ['frozen', 'session_revoked', 'session_expired'] as const;
/** Why the server ended the session. */
export type UserStatus = (typeof USER_STATUSES)[number];

/** Whether `value` is a known {@link UserStatus}. */
export function isUserStatus(value: unknown): value is UserStatus {
  return typeof value === 'string' && (USER_STATUSES as readonly string[]).includes(value);
}

/** The i18n keys of the toast of each status. */
export const USER_STATUS_TEXTS: Record<UserStatus, { title: string; description: string }> = {
  frozen: { title: 'errors.accountFrozen', description: 'errors.accountFrozenDetail' },
  session_revoked: { title: 'errors.userRevokedAuthorization', description: 'errors.sessionRevokedDetail' },
  session_expired: { title: 'errors.authorizationFailed', description: 'errors.sessionExpiredDetail' },
};

/** The toast id: several tabs' or channels' messages show once. */
export const USER_STATUS_TOAST_ID = 'user-status';

/**
 * Signs out (token cookies, user info, login flag) and tells the user why — unless this browser has
 * signed out already (Exit in this or another tab ends the session too): nothing to tell then.
 */
export function signOutFor(status: UserStatus): void {
  if (!isLoggedIn()) return;
  logout();
  const texts = USER_STATUS_TEXTS[status];
  toaster.create({
    id: USER_STATUS_TOAST_ID,
    type: 'error',
    title: i18n.t(texts.title),
    description: i18n.t(texts.description),
    // A frozen account must be read, not missed.
    duration: status === 'frozen' ? 15_000 : 8_000,
  });
}
