/**
 * The refetch of every spot read after an order changed, shared by the trade page and the order
 * centre.
 *
 * @module
 */

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { invalidatePushedReads } from '../../lib/user-push';

/** Refetches the user's orders, fills and balances (after a submit or a cancel). */
export function useRefreshSpot(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => void invalidatePushedReads(queryClient), [queryClient]);
}
