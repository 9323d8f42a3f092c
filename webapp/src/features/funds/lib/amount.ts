/**
 * The amount rules shared by the transfer and conversion forms: the number-input rule of wasm-core
 * (digits, one point, no leading zero, at most 8 decimals), above zero, within the balance and not
 * under a minimum — each message the core's own i18n key, so it reads like the core's violations.
 *
 * @module
 */

import type { TFunction } from 'i18next';
import { compareDecimal } from '../../../lib/decimal';
import { coreErrorText, sanitizeNumberInput, validateNumberInput } from '../../../lib/wasm';

/** Amounts the server accepts have at most this many decimals. */
export const AMOUNT_DECIMALS = 8;

/** What a typed amount is checked against. */
export interface AmountLimits {
  /** The balance it may not exceed. */
  available?: string;
  /** The least accepted amount. */
  min?: string;
}

/** The message of the first rule `amount` breaks, or `undefined`. */
export function amountError(t: TFunction, amount: string, limits: AmountLimits = {}): string | undefined {
  if (amount.trim() === '') return t('errors.fieldRequired');
  const violation = validateNumberInput(amount.trim(), AMOUNT_DECIMALS);
  if (violation) return coreErrorText(t, violation);
  if (compareDecimal(amount, '0') <= 0) return t('errors.aboveZero');
  if (limits.min && compareDecimal(amount, limits.min) < 0) return t('errors.belowMinimum', { min: limits.min });
  if (limits.available !== undefined && compareDecimal(amount, limits.available) > 0) {
    return t('errors.insufficientBalance', { available: limits.available });
  }
  return undefined;
}

/** What a keystroke leaves of an amount (digits and one point, at most 8 decimals). */
export function cleanAmount(value: string): string {
  try {
    return sanitizeNumberInput(value, AMOUNT_DECIMALS);
  } catch {
    return value;
  }
}
