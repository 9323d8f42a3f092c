/**
 * Logging out, everywhere in the app (the side menu's Exit, the account menu's Log out): end the
 * session on the server (`POST /api/user/logout`; a failure is ignored, the token then simply
 * expires), clear it in the browser (cookies, stored user info, login flag), drop the cached
 * data of the user. It goes to `/` first, so it lands there from any screen (a members-only one would
 * otherwise send it to the login as soon as the session ends).
 *
 * @module
 */

import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useNavigate } from 'react-router';
import { getGetAllSettingQueryKey, getGetCoinListQueryKey } from '../api/generated/common/common';
import { useLogout } from '../api/generated/user/user';
import { isQueryOf } from '../lib/query-keys';
import { logout } from '../lib/session';

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

/** Returns `signOut()`: ends the session on the server and in the browser, then goes to `/`. */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const serverLogout = useLogout({ request: { silent: true, timeoutMs: SERVER_LOGOUT_TIMEOUT_MS } });
  const { mutateAsync } = serverLogout;
  const running = useRef(false);

  return useCallback(async () => {
    if (running.current) return;
    running.current = true;
    try {
      // Leave first: a members-only screen that saw the session end (here, or by a 401 of its own
      // refetch once the server ended it) would send the browser to the login instead of `/`.
      await navigate('/');
      // While the cookie is still there, so the call carries the token it ends.
      await mutateAsync().catch(() => undefined);
      logout();
      clearUserQueries(queryClient);
    } finally {
      running.current = false;
    }
  }, [mutateAsync, navigate, queryClient]);
}
