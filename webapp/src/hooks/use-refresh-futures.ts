//! Refetching the futures reads after an action (the user channel does it too, a moment later).

import { useQueryClient } from '@tanstack/react-query';

/** Whether a query key is a futures read (`/api/contract/...`) or the balances. */
export function isFuturesRead(queryKey: readonly unknown[]): boolean {
  return queryKey.some((part) => typeof part === 'string' && /\/api\/contract\/|\/api\/userCoin\/getUserCoin$/.test(part));
}

/** Refetches every futures list, the setting and the balances. */
export function useRefreshFutures(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ predicate: (query) => isFuturesRead(query.queryKey) });
}
