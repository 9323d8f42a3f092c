/**
 * The review screen's calls: the generated hooks of the Admin tag.
 *
 * @module
 */

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { getAdminListIdentityQueryKey, useAdminListIdentity, useAdminReviewIdentity } from '../../api/generated/admin/admin';
import type { AdminIdentityRecord } from '../../api/generated/model';
import type { ReviewStatus } from './admin-format';

export type { AdminIdentityRecord };

/** Submissions per page. */
export const PAGE_SIZE = 10;

/**
 * How often an open list is refetched: its photo links are signed for five minutes, so the open
 * detail dialog always has working ones.
 */
const REFRESH_MS = 4 * 60 * 1000;

/** One page of submissions with `status`. */
export function useSubmissions(status: ReviewStatus, page: number) {
  return useAdminListIdentity(
    { status, page, pageSize: PAGE_SIZE },
    { query: { refetchInterval: REFRESH_MS, placeholderData: (previous) => previous } },
  );
}

/** How many submissions each status has (one single-row page per status). */
export function useStatusCounts(): Partial<Record<ReviewStatus, number>> {
  const options = { query: { refetchInterval: REFRESH_MS } };
  const review = useAdminListIdentity({ status: 'review', page: 1, pageSize: 1 }, options).data?.total;
  const passed = useAdminListIdentity({ status: 'passed', page: 1, pageSize: 1 }, options).data?.total;
  const failed = useAdminListIdentity({ status: 'failed', page: 1, pageSize: 1 }, options).data?.total;
  return { review, passed, failed };
}

/** Refetches every page of every filter (after a decision). */
export function useRefreshSubmissions(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: getAdminListIdentityQueryKey() }), [queryClient]);
}

/** Approve or reject; `mutateAsync({ data: { id, approve, reason } })`; errors shown by the caller. */
export function useReview() {
  return useAdminReviewIdentity({ request: { silent: true } });
}
