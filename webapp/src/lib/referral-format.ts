/**
 * The reward centre's wording helpers, free of React: per-coin amounts as one line, rates as
 * percents, what a statement line says about its rebate (paid, or withheld with the reason), how
 * long the late-bind window stays open, and the admin form's rates read back as fractions.
 *
 * @module
 */

import type { TFunction } from 'i18next';
import type { CoinAmount, RebateLine } from '../api/generated/model';
import { fractionToPercent, isZero, percentToFraction } from './decimal-math';
import { formatQuantity } from './wasm';

/** The generations of the programme, nearest first. */
export const GENERATIONS = [1, 2, 3] as const;

/** `12.5 USDT · 0.001 BTC`, or `0` when nothing was earned. */
export function coinAmountsText(amounts: readonly CoinAmount[] | undefined): string {
  const shown = (amounts ?? []).filter((a) => !isZero(a.amount));
  if (shown.length === 0) return '0';
  return shown.map((a) => `${formatQuantity(a.amount)} ${a.coin.toUpperCase()}`).join(' · ');
}

/** A fraction as `20%` (`"0.2"` → `"20%"`). */
export function ratePercent(rate: string): string {
  return `${fractionToPercent(rate)}%`;
}

/** The rebate of a statement line in words: `12.5 USDT`, or the reason it was withheld. */
export function rebateOutcome(t: TFunction, line: Pick<RebateLine, 'status' | 'withheldReason' | 'amount' | 'coin'>): string {
  if (line.status === 'withheld') return t(`referral.withheld.${line.withheldReason ?? 'other'}`);
  return `${formatQuantity(line.amount)} ${line.coin.toUpperCase()}`;
}

/** Whole days (rounded up) from `now` until `until`, at least 0. */
export function daysLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 86_400_000));
}

/** Three percents typed by an operator as fractions, or `null` when one is not a number or they reach 100 %. */
export function ratesFromPercents(percents: readonly string[]): string[] | null {
  const fractions = percents.map((p) => percentToFraction(p));
  if (fractions.some((f) => f === null)) return null;
  const total = percents.reduce((sum, p) => sum + Number(p), 0);
  if (!(total < 100)) return null;
  return fractions as string[];
}
