/**
 * The deposit and withdrawal review queues' calls: the generated hooks of the AdminFunds tag, one
 * shape for both kinds so the queue and its dialogs are written once.
 *
 * @module
 */

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  getAdminListDepositsQueryKey,
  getAdminListWithdrawalsQueryKey,
  useAdminListDeposits,
  useAdminListWithdrawals,
  useAdminReviewDeposit,
  useAdminReviewWithdrawal,
} from '../../api/generated/admin-funds/admin-funds';
import type { AdminDepositRecord, AdminWithdrawalRecord } from '../../api/generated/model';
import { useGetSignedUrl } from '../../api/generated/kyc/kyc';
import { invalidateOperations } from '../../lib/query-keys';
import type { ReviewStatus } from './admin-format';

export type { AdminDepositRecord, AdminWithdrawalRecord };

/** The two money queues. */
export type FundsQueueKind = 'deposits' | 'withdrawals';

/** Records per page. */
export const FUNDS_PAGE_SIZE = 10;

/**
 * How often an open list is refetched: a deposit's screenshot link is signed for five minutes, so
 * the open dialog always has a working one.
 */
const REFRESH_MS = 4 * 60 * 1000;

const SILENT = { request: { silent: true } } as const;

/** One page of deposits with `status`. */
export function useDepositQueue(status: ReviewStatus, page: number, enabled = true) {
  return useAdminListDeposits(
    { status, page, pageSize: FUNDS_PAGE_SIZE },
    { query: { enabled, refetchInterval: REFRESH_MS, placeholderData: (previous) => previous } },
  );
}

/** One page of withdrawals with `status`. */
export function useWithdrawalQueue(status: ReviewStatus, page: number, enabled = true) {
  return useAdminListWithdrawals(
    { status, page, pageSize: FUNDS_PAGE_SIZE },
    { query: { enabled, refetchInterval: REFRESH_MS, placeholderData: (previous) => previous } },
  );
}

/** How many records of `kind` each status has (one single-row page per status). */
export function useFundsStatusCounts(kind: FundsQueueKind): Partial<Record<ReviewStatus, number>> {
  const deposits = { query: { enabled: kind === 'deposits', refetchInterval: REFRESH_MS } };
  const withdrawals = { query: { enabled: kind === 'withdrawals', refetchInterval: REFRESH_MS } };
  const counts = {
    deposits: {
      review: useAdminListDeposits({ status: 'review', page: 1, pageSize: 1 }, deposits).data?.total,
      passed: useAdminListDeposits({ status: 'passed', page: 1, pageSize: 1 }, deposits).data?.total,
      failed: useAdminListDeposits({ status: 'failed', page: 1, pageSize: 1 }, deposits).data?.total,
    },
    withdrawals: {
      review: useAdminListWithdrawals({ status: 'review', page: 1, pageSize: 1 }, withdrawals).data?.total,
      passed: useAdminListWithdrawals({ status: 'passed', page: 1, pageSize: 1 }, withdrawals).data?.total,
      failed: useAdminListWithdrawals({ status: 'failed', page: 1, pageSize: 1 }, withdrawals).data?.total,
    },
  };
  return counts[kind];
}

/** Refetches every page of the queue of `kind` (after a decision). */
export function useRefreshFundsQueue(kind: FundsQueueKind): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => {
    const key = kind === 'deposits' ? getAdminListDepositsQueryKey() : getAdminListWithdrawalsQueryKey();
    return invalidateOperations(queryClient, [key]);
  }, [queryClient, kind]);
}

/** Pass or fail a deposit; `mutateAsync({ id, data: { approve, reason } })`; errors shown by the caller. */
export function useDepositReview() {
  return useAdminReviewDeposit(SILENT);
}

/** Pass (with the tx hash) or fail a withdrawal; `mutateAsync({ id, data: { approve, txHash, reason } })`. */
export function useWithdrawalReview() {
  return useAdminReviewWithdrawal(SILENT);
}

/**
 * A working link to a deposit's screenshot: a fresh signed link from getSignedUrl (the hook the
 * identity screens use), refreshed before it expires; the list's own link until it has arrived.
 */
export function useScreenshotUrl(record: AdminDepositRecord): string | undefined {
  const fileId = Number(record.screenshot);
  const signed = useGetSignedUrl(
    { fileId },
    { query: { enabled: Number.isInteger(fileId) && fileId > 0, refetchInterval: REFRESH_MS, staleTime: REFRESH_MS }, request: { silent: true } },
  );
  return signed.data?.url ?? (record.screenshotUrl || undefined);
}
