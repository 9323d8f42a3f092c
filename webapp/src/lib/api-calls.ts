/**
 * What the screens share around the generated API calls: the `{head}` segment of member-area
 * paths, the options of calls whose errors a screen shows itself, and the readable parts of a failed
 * call.
 *
 * @module
 */

import type { QueryClient } from '@tanstack/react-query';
import { getGetAllSettingQueryKey, useGetAllSetting } from '../api/generated/common/common';
import type { AllSetting } from '../api/generated/model';
import { ApiError, type RequestOptions } from './api-client';
import { getPlatformConfig } from './platform-config';

/** Request options of calls whose errors the screen shows itself (no toast from the client). */
export const SILENT: RequestOptions = { silent: true };

function apiHeadOf(settings: AllSetting | undefined): string {
  return settings?.platform.apiHead || getPlatformConfig().apiHead || 'coin';
}

/** The `{head}` segment of `/api/{head}/coin/…`: getAllSetting's `platform.apiHead`, else the platform config. */
export function useApiHead(): string {
  const { data } = useGetAllSetting();
  return apiHeadOf(data);
}

/** The `{head}` segment as `useApiHead` gives it, from the settings in `queryClient`'s cache (outside React). */
export function cachedApiHead(queryClient: QueryClient): string {
  return apiHeadOf(queryClient.getQueryData<AllSetting>(getGetAllSettingQueryKey()));
}

/** What a failed call says: the stable `reason`, the `field` at fault, the message to show. */
export interface Failure {
  reason?: string;
  field?: string;
  message: string;
  /** The call never got an answer (network, timeout): a retry with the same key is safe. */
  unanswered: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The reason, field and message of anything a call rejected with. */
export function failure(error: unknown, fallback: string): Failure {
  if (!(error instanceof ApiError)) return { message: fallback, unanswered: false };
  const body: unknown = error.body;
  const data = isRecord(body) && isRecord(body.data) ? body.data : undefined;
  const reason = typeof data?.reason === 'string' ? data.reason : undefined;
  // `items[2].price` → `items`: the form fields are top-level names.
  const field = typeof data?.field === 'string' && data.field ? data.field.split(/[.[]/)[0] : undefined;
  return {
    ...(reason ? { reason } : {}),
    ...(field ? { field } : {}),
    message: error.message || fallback,
    unanswered: error.kind !== 'api',
  };
}
