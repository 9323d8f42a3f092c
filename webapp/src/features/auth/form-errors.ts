/**
 * Form errors of the auth screens: the browser-side account check, and a failed call turned into
 * a message under its field (`data.field`) or, without a known field, one for the whole form.
 *
 * @module
 */

import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api-client';
import { coreErrorText, validateEmail } from '../../lib/wasm';

/** Messages by field name (`account`, `password`, …); absent means valid. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** A phone number as typed: an optional `+`, digits, spaces, dashes, dots and parentheses. */
const PHONE_LIKE = /^\+?[\d\s\-.()]+$/;

/**
 * The browser-side check of an account (e-mail or phone with country code): required, and an
 * e-mail address must pass wasm-core's `validateEmail`. Anything that is not phone-like is read as
 * an e-mail address; phone numbers are checked by the server (digit count per country).
 */
export function accountError(t: TFunction, account: string): string | undefined {
  const value = account.trim();
  if (value === '') return t('errors.fieldRequired');
  if (!value.includes('@') && PHONE_LIKE.test(value)) return undefined;
  const violation = validateEmail(value);
  return violation ? coreErrorText(t, violation) : undefined;
}

/** `errors.fieldRequired` when `value` is blank. */
export function requiredError(t: TFunction, value: string): string | undefined {
  return value.trim() === '' ? t('errors.fieldRequired') : undefined;
}

/** The stable reason of a failed call (`invalid_credentials`, `totp_required`, …), if any. */
export function errorReason(error: unknown): string | undefined {
  const data = error instanceof ApiError ? (error.body as { data?: { reason?: unknown } } | undefined)?.data : undefined;
  return typeof data?.reason === 'string' ? data.reason : undefined;
}

/** The field a failed call names (`data.field`), if any. */
export function errorField(error: unknown): string | undefined {
  const data = error instanceof ApiError ? (error.body as { data?: { field?: unknown } } | undefined)?.data : undefined;
  return typeof data?.field === 'string' ? data.field : undefined;
}

/** Where a failed call's message goes: under one of `fields`, else above the form's button. */
export interface CallErrors<F extends string> {
  fields: FieldErrors<F>;
  form?: string;
}

/**
 * Splits a failed call into a field message (when the server names one of `fields`) or a form
 * message. The server's `msg` is already in the user's language; network failures and timeouts
 * carry the app's own text.
 */
export function callErrors<F extends string>(t: TFunction, error: unknown, fields: readonly F[]): CallErrors<F> {
  const message = error instanceof Error && error.message ? error.message : t('errors.unknown');
  const field = errorField(error);
  if (field && (fields as readonly string[]).includes(field)) {
    return { fields: { [field]: message } as FieldErrors<F> };
  }
  return { fields: {}, form: message };
}

/** Whether `errors` holds at least one message. */
export function hasErrors(errors: Partial<Record<string, string | undefined>>): boolean {
  return Object.values(errors).some(Boolean);
}
