/**
 * Helpers around the generated API calls of the account centre: the readable parts of a failed call
 * (`ApiError`) as the account forms use them, plus the shared `{head}` segment and silent options.
 *
 * @module
 */

import { ApiError } from '../../../lib/api-client';

export { SILENT, useApiHead } from '../../../lib/api-calls';

/** What a failed call says: the stable `reason`, the `field` at fault, and the message to show. */
export interface ErrorInfo {
  reason?: string;
  field?: string;
  message: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The reason, field and message (`body.msg`) of a failed call; `undefined` for anything else. */
export function errorInfo(error: unknown): ErrorInfo | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const body: unknown = error.body;
  const data = isRecord(body) && isRecord(body.data) ? body.data : undefined;
  return {
    reason: typeof data?.reason === 'string' ? data.reason : undefined,
    field: typeof data?.field === 'string' ? data.field : undefined,
    message: error.message,
  };
}

/** Whether a call failed because the change needs the password or an authenticator code first. */
export function isReauthRequired(error: unknown): boolean {
  return errorInfo(error)?.reason === 'reauth_required';
}

/**
 * Field → message of a failed call for a form with `fields`: the server's `field` when the form has
 * it, else the field `reasonFields` maps the reason to; anything else goes under `form`.
 */
export function serverFieldErrors(
  error: unknown,
  fields: readonly string[],
  reasonFields: Record<string, string> = {},
  fallback: string,
): Record<string, string> {
  const info = errorInfo(error);
  if (!info) return { form: fallback };
  const mapped = info.reason ? reasonFields[info.reason] : undefined;
  const field = info.field && fields.includes(info.field) ? info.field : mapped;
  return { [field ?? 'form']: info.message };
}
