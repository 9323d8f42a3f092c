/**
 * The operator's loan product form as text fields, and the `LoanProductForm` it sends: cycles typed
 * as `7, 30, 90`, rates as percents per day (`0.05` → `0.0005`), the English name required. The
 * server checks every rule again and names the field at fault.
 *
 * @module
 */

import type { AdminLoanProduct, LoanProductForm } from '../../api/generated/model';

/** The form's fields, as typed. */
export interface LoanDraft {
  coin: string;
  scale: string;
  minAmount: string;
  maxAmount: string;
  cycles: string;
  dayRatePercent: string;
  repayWays: string[];
  institution: string;
  penaltyRatePercent: string;
  graceDays: string;
  minCreditScore: string;
  kycLevel: string;
  name: string;
  enabled: boolean;
}

/** A new product's form. */
export function emptyLoanDraft(): LoanDraft {
  return {
    coin: 'usdt',
    scale: '2',
    minAmount: '',
    maxAmount: '',
    cycles: '7, 30',
    dayRatePercent: '0.05',
    repayWays: ['maturity'],
    institution: '',
    penaltyRatePercent: '0.1',
    graceDays: '3',
    minCreditScore: '50',
    kycLevel: '2',
    name: '',
    enabled: true,
  };
}

/** Moves a decimal string's point by `places` (positive: right). */
function shift(value: string, places: number): string {
  const text = value.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return text;
  const [whole = '', fraction = ''] = text.split('.');
  const digits = whole + fraction;
  const point = whole.length + places;
  const padded = point <= 0 ? '0'.repeat(1 - point) + digits : digits.padEnd(point, '0');
  const at = Math.max(point, 1);
  const result = `${padded.slice(0, at)}.${padded.slice(at)}`.replace(/^0+(?=\d)/, '').replace(/\.?0*$/, '');
  return result === '' ? '0' : result;
}

/** A percent as a fraction (`0.05` → `0.0005`). */
export function percentToFraction(percent: string): string {
  return shift(percent, -2);
}

/** A fraction as a percent (`0.0005` → `0.05`). */
export function fractionToPercentText(fraction: string): string {
  return shift(fraction, 2);
}

/** The form of an existing product. */
export function loanDraftOf(product: AdminLoanProduct): LoanDraft {
  const s = product.settings;
  return {
    coin: s.coin,
    scale: String(s.scale),
    minAmount: s.minAmount,
    maxAmount: s.maxAmount,
    cycles: s.cycles.join(', '),
    dayRatePercent: fractionToPercentText(s.dayRate),
    repayWays: [...s.repayWays],
    institution: s.institution,
    penaltyRatePercent: fractionToPercentText(s.penaltyDayRate),
    graceDays: String(s.graceDays),
    minCreditScore: String(s.minCreditScore),
    kycLevel: String(s.kycLevel),
    name: s.names.en ?? '',
    enabled: s.enabled,
  };
}

/** The request of `draft` (`names` keeps the other languages of `names`). */
export function loanFormOf(draft: LoanDraft, names: Record<string, string> = {}): LoanProductForm {
  const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);
  return {
    coin: draft.coin.trim().toLowerCase(),
    scale: whole(draft.scale),
    minAmount: draft.minAmount.trim(),
    maxAmount: draft.maxAmount.trim(),
    cycles: draft.cycles
      .split(/[\s,;]+/)
      .filter(Boolean)
      .map(whole),
    dayRate: percentToFraction(draft.dayRatePercent),
    repayWays: draft.repayWays,
    institution: draft.institution.trim(),
    penaltyDayRate: percentToFraction(draft.penaltyRatePercent),
    graceDays: whole(draft.graceDays),
    minCreditScore: whole(draft.minCreditScore),
    kycLevel: whole(draft.kycLevel),
    names: { ...names, en: draft.name.trim() },
    enabled: draft.enabled,
  };
}
