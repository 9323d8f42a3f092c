/**
 * The identity tab's calls: the generated hooks of the Kyc tag with the `{head}` path segment
 * filled in from the platform settings, and errors left to the tab (`silent`) where it shows them
 * itself.
 *
 * @module
 */

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useGetAllSetting } from '../../../api/generated/common/common';
import {
  getGetIdentityStatusQueryKey,
  useGetCountryCode,
  useGetIdentityStatus,
  useSubmitBasicIdentity,
  useUploadFile,
  useUploadKYC,
} from '../../../api/generated/kyc/kyc';
import type { CountryCode, IdentityStatus, Submission } from '../../../api/generated/model';
import { getGetInfoQueryKey } from '../../../api/generated/user/user';
import { getPlatformConfig } from '../../../lib/platform-config';
import { useIsLoggedIn } from '../../../lib/session';

export type { CountryCode, IdentityStatus, Submission };

const SILENT = { request: { silent: true } } as const;

/** The countries change only with a deployment. */
const COUNTRIES_STALE_MS = 24 * 60 * 60 * 1000;

/** The `{head}` segment of member-area paths: getAllSetting's `platform.apiHead`, else the config's. */
export function useApiHead(): string {
  const { data } = useGetAllSetting();
  return data?.platform.apiHead || getPlatformConfig().apiHead || 'coin';
}

/** How often the status is refetched while a submission is under review (the decision shows up by itself). */
const REVIEW_POLL_MS = 30_000;

/** The user's level and newest basic and advanced submission. */
export function useIdentityStatus() {
  const head = useApiHead();
  const loggedIn = useIsLoggedIn();
  return useGetIdentityStatus(head, {
    query: {
      enabled: loggedIn,
      refetchInterval: (query) => {
        const data = query.state.data;
        return data?.basic?.status === 'review' || data?.advanced?.status === 'review' ? REVIEW_POLL_MS : false;
      },
    },
  });
}

/** Refetches the identity status and the user record (whose `kycLevel` may have changed). */
export function useRefreshIdentity(): () => void {
  const queryClient = useQueryClient();
  const head = useApiHead();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: getGetIdentityStatusQueryKey(head) });
    void queryClient.invalidateQueries({ queryKey: getGetInfoQueryKey() });
  }, [queryClient, head]);
}

/** The country list (code, dial code, English name). */
export function useCountries(): { countries: CountryCode[]; isLoading: boolean } {
  const query = useGetCountryCode({ query: { staleTime: COUNTRIES_STALE_MS } });
  return { countries: query.data ?? [], isLoading: query.isLoading };
}

/** Basic verification; `mutateAsync({ data })`. */
export function useSubmitBasic() {
  const head = useApiHead();
  const mutation = useSubmitBasicIdentity(SILENT);
  const { mutateAsync } = mutation;
  return {
    isPending: mutation.isPending,
    mutateAsync: useCallback(
      ({ data }: { data: Parameters<typeof mutateAsync>[0]['data'] }) => mutateAsync({ head, data }),
      [mutateAsync, head],
    ),
  };
}

/** One document upload (multipart `file`); `mutateAsync({ data: { file } })`. */
export function useUploadDocument() {
  return useUploadFile(SILENT);
}

/** Advanced verification with three uploaded file ids; `mutateAsync({ data })`. */
export function useSubmitAdvanced() {
  return useUploadKYC(SILENT);
}
