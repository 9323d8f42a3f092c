/**
 * Refetching the futures reads after an action (the user channel does it too, a moment later).
 *
 * @module
 */

import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { getGetUserCoinQueryKey } from '../api/generated/funds/funds';
import {
  getGetContractRulesQueryKey,
  getGetFuturesFundingInfoQueryKey,
  getListFuturesFundingsQueryKey,
  getListFuturesOrdersQueryKey,
  getListFuturesPositionsQueryKey,
  getListFuturesStopsQueryKey,
  getSetFuturesLeverageQueryKey,
} from '../api/generated/futures/futures';
import { getGetContractCurrencyPriceQueryKey } from '../api/generated/market/market';
import { invalidateOperations } from '../lib/query-keys';

/** The futures reads (every list, the rules and funding, the mark price, the user's setting) and the balances. */
const FUTURES_READS: readonly QueryKey[] = [
  getListFuturesOrdersQueryKey(),
  getListFuturesPositionsQueryKey(),
  getListFuturesStopsQueryKey(),
  getListFuturesFundingsQueryKey(),
  getGetFuturesFundingInfoQueryKey(),
  getGetContractRulesQueryKey(),
  getGetContractCurrencyPriceQueryKey(),
  getSetFuturesLeverageQueryKey(),
  getGetUserCoinQueryKey(),
];

/** Refetches every futures list, the setting and the balances. */
export function useRefreshFutures(): () => void {
  const queryClient = useQueryClient();
  return () => void invalidateOperations(queryClient, FUTURES_READS);
}
