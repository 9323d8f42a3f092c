/**
 * The react-query client: calls rejected by the API (envelope codes) are not retried.
 *
 * @module
 */

import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';

/** A fresh query client with the app's defaults. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => !(error instanceof ApiError && error.kind === 'api') && failures < 2,
      },
    },
  });
}
