/**
 * The funds reads shared by several screens, over the generated hooks: the user's balances per
 * coin and bucket (getUserCoin), and a refresh of every funds read after money moved.
 *
 * @module
 */

import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import {
  getGetRechargeChannelsQueryKey,
  getGetRechargeCurrencyQueryKey,
  getGetRechargeLogQueryKey,
  getListRechargesQueryKey,
} from '../../../api/generated/deposits/deposits';
import { getGetUserCoinQueryKey, getListTransfersQueryKey, useGetUserCoin } from '../../../api/generated/funds/funds';
import { getGetCurrencyPriceQueryKey } from '../../../api/generated/market/market';
import type { UserCoin } from '../../../api/generated/model';
import {
  getExportMyBillQueryKey,
  getGetCoinRateQueryKey,
  getGetCurrencyAccountQueryKey,
  getGetMyBalanceQueryKey,
  getGetMyBillQueryKey,
  getGetWalletAccountQueryKey,
  getGetWalletTransfersQueryKey,
} from '../../../api/generated/reports/reports';
import {
  getGetWithdrawalKeyQueryKey,
  getGetWithdrawalLogQueryKey,
  getListWithdrawalsQueryKey,
} from '../../../api/generated/withdrawals/withdrawals';
import { cachedApiHead } from '../../../lib/api-calls';
import { invalidateOperations } from '../../../lib/query-keys';
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

/**
 * The reads that change when money moves (any page or filter): balances and account values, deposit
 * and withdrawal records and their settings, transfers, bills, the swap's prices. The exchange quote
 * is not one of them.
 */
function fundsReads(head: string): QueryKey[] {
  return [
    getGetUserCoinQueryKey(),
    getListTransfersQueryKey(),
    getGetRechargeCurrencyQueryKey(head),
    getGetRechargeChannelsQueryKey(),
    getListRechargesQueryKey(),
    getGetRechargeLogQueryKey(head),
    getGetMyBillQueryKey(head),
    getExportMyBillQueryKey(head),
    getGetWalletAccountQueryKey(head),
    getGetMyBalanceQueryKey(head),
    getGetCurrencyAccountQueryKey(head),
    getGetCoinRateQueryKey(head),
    getGetWalletTransfersQueryKey(head),
    getGetWithdrawalKeyQueryKey(head),
    getListWithdrawalsQueryKey(),
    getGetWithdrawalLogQueryKey(head),
    getGetCurrencyPriceQueryKey(),
  ];
}

/** Refetches every funds read (balances, values, records, bills) after money moved. */
export function useRefreshFunds(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => void invalidateOperations(queryClient, fundsReads(cachedApiHead(queryClient))), [queryClient]);
}
