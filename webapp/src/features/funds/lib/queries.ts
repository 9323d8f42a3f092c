//! The funds reads shared by several screens, over the generated hooks: the user's balances per
//! coin and bucket (getUserCoin), and a refresh of every funds read after money moved.

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useGetUserCoin } from '../../../api/generated/funds/funds';
import type { UserCoin } from '../../../api/generated/model';
import { useIsLoggedIn } from '../../../lib/session';

export type { UserCoin };

/** The buckets a user holds money in and moves it between. */
export const BUCKETS = ['funding', 'trading', 'earn'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** Balances are refetched this often while a screen shows them. */
const BALANCE_REFRESH_MS = 30_000;

/** Every asset of the platform with the user's balance per bucket (zeros included). */
export function useBalances(): { coins: UserCoin[]; isLoading: boolean; isError: boolean; refetch: () => void; balance: (coin: string) => UserCoin | undefined } {
  const loggedIn = useIsLoggedIn();
  const query = useGetUserCoin({ query: { enabled: loggedIn, refetchInterval: BALANCE_REFRESH_MS } });
  const coins = useMemo(() => query.data?.coins ?? [], [query.data]);
  const balance = useCallback((coin: string) => coins.find((c) => c.coin.toLowerCase() === coin.toLowerCase()), [coins]);
  return { coins, isLoading: query.isLoading, isError: query.isError && !query.data, refetch: () => void query.refetch(), balance };
}

/** The balance of `coin` in `bucket` (`'0'` when the user holds none). */
export function bucketBalance(coin: UserCoin | undefined, bucket: Bucket): string {
  return coin ? coin[bucket] : '0';
}

/** The paths whose reads change when money moves. */
const FUNDS_PATHS = /\/(userCoin|coin\/assets|coin\/wallet|transfer|recharge|withdraw|texchange)\//;

/** Refetches every funds read (balances, values, records, bills) after money moved. */
export function useRefreshFunds(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({
      predicate: (query) => query.queryKey.some((part) => typeof part === 'string' && FUNDS_PATHS.test(part) && !part.includes('getExchangeQuote')),
    });
  }, [queryClient]);
}
