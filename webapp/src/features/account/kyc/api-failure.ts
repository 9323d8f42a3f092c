/**
 * Reads a failed call of the identity API: the server's `data.reason` (a stable key), the field at
 * fault (`data.field`) and its message, already in the user's language.
 *
 * @module
 */

import { ApiError } from '../../../lib/api-client';

/** What the tab needs to know about a failed call. */
export interface ApiFailure {
  /** `kyc_under_review`, `file_too_large`, … ; `undefined` for network failures. */
  reason?: string;
  /** The request field at fault (`name`, `idCard`, `country`, `cardType`, …). */
  field?: string;
  /** The message to show. */
  message: string;
}

/** The reason, field and message of anything a call rejected with. */
export function apiFailure(error: unknown, fallback: string): ApiFailure {
  if (!(error instanceof ApiError)) return { message: fallback };
  const body: unknown = error.body;
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  const detail = typeof data === 'object' && data !== null ? (data as { reason?: unknown; field?: unknown }) : {};
  const reason = typeof detail.reason === 'string' ? detail.reason : undefined;
  // `items[2].price` → `items`: the form fields are top-level names.
  const field = typeof detail.field === 'string' && detail.field ? detail.field.split(/[.[]/)[0] : undefined;
  return { ...(reason ? { reason } : {}), ...(field ? { field } : {}), message: error.message || fallback };
}
