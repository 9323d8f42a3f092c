/**
 * Logging out, everywhere in the app (the side menu's Exit, the account menu's Log out): go to `/`,
 * clear the session in the browser (cookies, stored user info, login flag), drop the cached data of
 * the user, then end the session on the server (`POST /api/user/logout` with the token it ends; a
 * failure is ignored, the token then simply expires). It goes to `/` first, so it lands there from
 * any screen (a members-only one would otherwise send it to the login as soon as the session ends),
 * and the browser forgets the session before the server ends it: the user channel's `USER_STATUS`
 * for this very logout (pushed to every socket of the session at once) then finds the browser
 * signed out already, instead of signing out a second time with a "revoked" warning and the login
 * screen.
 *
 * @module
 */

import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useNavigate } from 'react-router';
import { getGetAllSettingQueryKey, getGetCoinListQueryKey } from '../api/generated/common/common';
import { logout as serverLogout } from '../api/generated/user/user';
import { isQueryOf } from '../lib/query-keys';
import { getAccessToken, logout } from '../lib/session';

/** How long the server gets to end the session before the browser forgets the token anyway. */
const SERVER_LOGOUT_TIMEOUT_MS = 5_000;

/** The public reads (any body) whose data survive a change of user. */
const PUBLIC_READS = [getGetAllSettingQueryKey(), getGetCoinListQueryKey()];

/**
 * Removes every cached query except the public startup data, so nothing of one user is shown to
 * the next one (called when a session ends and when a new one starts).
 */
export function clearUserQueries(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => !isQueryOf(query.queryKey, PUBLIC_READS) });
}

/** Returns `signOut()`: goes to `/`, ends the session in the browser, then on the server. */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const running = useRef(false);

  return useCallback(async () => {
    if (running.current) return;
    running.current = true;
    try {
      // Leave first: a members-only screen that saw the session end would send the browser to the
      // login instead of `/`. Synchronously: in a transition React would keep that screen on show
      // (and subscribed) until the next screen's code has loaded.
      await navigate('/', { flushSync: true });
      const token = getAccessToken();
      logout();
      clearUserQueries(queryClient);
      if (token) {
        await serverLogout({ silent: true, timeoutMs: SERVER_LOGOUT_TIMEOUT_MS, headers: { satoken: token } }).catch(() => undefined);
      }
    } finally {
      running.current = false;
    }
  }, [navigate, queryClient]);
}
