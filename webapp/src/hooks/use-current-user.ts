/**
 * The logged-in user (`POST /api/user/getInfo`), shared by the shell and the account pages.
 * Visitors get `undefined` without a call; a 401 logs out through the API client.
 *
 * @module
 */

import { useGetInfo } from '../api/generated/user/user';
import type { UserInfo } from '../api/generated/model';
import { useIsLoggedIn } from '../lib/session';

/** How long a fetched user record is fresh before a refetch on focus or mount. */
const USER_INFO_STALE_MS = 30_000;

/** The current user's record and the query state; `user` is `undefined` for visitors and while loading. */
export function useCurrentUser(): { user: UserInfo | undefined; isLoading: boolean; refetch: () => void } {
  const loggedIn = useIsLoggedIn();
  const query = useGetInfo({ query: { enabled: loggedIn, staleTime: USER_INFO_STALE_MS } });
  return {
    user: loggedIn ? query.data : undefined,
    isLoading: loggedIn && query.isLoading,
    refetch: () => void query.refetch(),
  };
}
