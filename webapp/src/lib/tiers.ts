/**
 * The user tiers' arithmetic, free of React (`GET /api/tiers/mine`, `/api/tiers/table`): the
 * account tiers in order, how much deposit is still missing to the next tier — rounded UP to the
 * cent, so that a user who deposits the amount shown does reach the tier — the progress bar's
 * value and a fee discount as a percent. Decimal strings throughout: no floating point touches the
 * amounts (the bar's width is the only number).
 *
 * @module
 */

import { compareDecimal } from './decimal';
import { fractionToPercent, percentToFraction, sumDecimals } from './decimal-math';

/** The account tiers, lowest first (the backend's `ACCOUNT_TIERS`). */
export const ACCOUNT_TIERS = ['basic', 'starter', 'advanced', 'premium'] as const;

/** One account tier. */
export type AccountTier = (typeof ACCOUNT_TIERS)[number];

/** Whether `value` is one of the account tiers. */
export function isAccountTier(value: string | null | undefined): value is AccountTier {
  return (ACCOUNT_TIERS as readonly string[]).includes(value ?? '');
}

/** A non-negative decimal string rounded up to 2 decimals (`"12.341"` → `"12.35"`, `"5"` → `"5.00"`). */
export function ceilCents(value: string): string {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return '0.00';
  const fraction = match[2] ?? '';
  let cents = BigInt(`${match[1] || '0'}${fraction.padEnd(2, '0').slice(0, 2)}`);
  if (/[1-9]/.test(fraction.slice(2))) cents += 1n;
  const digits = cents.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * The deposits in USD still missing to the next tier's minimum, rounded up to the cent: `null`
 * without a next tier (the top), `"0.00"` once it is reached (the figures wait for the next
 * recompute).
 */
export function missingToNext(depositsUsd: string, nextMinimumUsd: string | null | undefined): string | null {
  if (nextMinimumUsd === null || nextMinimumUsd === undefined) return null;
  const deposits = depositsUsd.trim();
  const negated = deposits.startsWith('-') ? deposits.slice(1) : `-${deposits}`;
  const missing = sumDecimals([nextMinimumUsd, negated]);
  return missing.startsWith('-') ? '0.00' : ceilCents(missing);
}

/** The progress bar's value, 0 to 100, from the server's `progressPercent` (0 when unreadable). */
export function progressValue(progressPercent: string | null | undefined): number {
  const value = Number(progressPercent);
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

/** A fraction as a percent with its sign (`"0.2"` → `"20%"`, `"0.125"` → `"12.5%"`). */
export function fractionPercent(fraction: string): string {
  return `${fractionToPercent(fraction)}%`;
}

/**
 * A rate an operator typed in percent as the fraction the server takes (`"30"` → `"0.3"`), or
 * `null` unless it is a number from 0 to below 100 (a merchant rate is below 1).
 */
export function rateFromPercent(percent: string): string | null {
  const text = percent.trim();
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(text) || compareDecimal(text, '100') >= 0) return null;
  return percentToFraction(text);
}
