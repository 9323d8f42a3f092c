/**
 * A product's rate as the screens show it, honestly both ways: the daily rate and the simple annual
 * rate (daily × 365, not compounded), whichever of the two the product states. Exact decimal
 * arithmetic on strings (BigInt), never floating point.
 *
 * @module
 */

import { fractionToPercent } from '../../../lib/decimal-math';

/** What the rate figures need of a product. */
export interface RateOf {
  /** The rate as the product states it, a fraction. */
  rate: string;
  /** `daily` or `apr`. */
  rateBasis: string;
  /** The daily rate, a fraction (an APR divided by 365). */
  dayRate: string;
}

/** `value × n` for a non-negative decimal string and a whole `n`, exactly. */
export function timesWhole(value: string, n: number): string {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) return '0';
  const fraction = match[2] ?? '';
  const units = BigInt(`${match[1] || '0'}${fraction}`) * BigInt(n);
  if (fraction.length === 0) return units.toString();
  const digits = units.toString().padStart(fraction.length + 1, '0');
  const whole = digits.slice(0, digits.length - fraction.length);
  const frac = digits.slice(digits.length - fraction.length).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** A percent string cut (not rounded up) to at most `decimals` decimals: `"36.50000"` → `"36.5"`. */
export function trimPercent(percent: string, decimals = 4): string {
  const [whole, fraction = ''] = percent.split('.');
  const cut = fraction.slice(0, decimals).replace(/0+$/, '');
  return cut ? `${whole}.${cut}` : (whole ?? '0');
}

/** The daily and annual rates of a product, as percents (`{daily: "0.1", annual: "36.5"}`). */
export function ratePercents(product: RateOf): { daily: string; annual: string } {
  if (product.rateBasis === 'apr') {
    return { daily: trimPercent(fractionToPercent(product.dayRate), 6), annual: trimPercent(fractionToPercent(product.rate)) };
  }
  return { daily: trimPercent(fractionToPercent(product.rate), 6), annual: trimPercent(fractionToPercent(timesWhole(product.rate, 365))) };
}
