/**
 * The figures the screens show before money moves, from wasm-core (`LoanCalculator`,
 * `loanOverduePenalty`), the functions the server charges with: an application's schedule (each
 * instalment's due date and amount, the total interest) and the overdue rule's example (what one
 * penalty day costs on an instalment once the grace days are over).
 *
 * @module
 */

import type { LoanProductView } from '../../../api/generated/model';
import { fractionToPercent } from '../../../lib/decimal-math';
import { type LoanRepayWay, type LoanSchedule, loadEarnLoanCore } from '../../../lib/wasm';

// wasm-core's earn and loan module: the loan screens render once it has arrived.
const core = await loadEarnLoanCore();

/** A loan's schedule and early repayment (wasm-core's `LoanCalculator`; see `lib/wasm`). */
export const { loanPreview } = core;
const { loanOverduePenalty } = core;

/** The repayment ways the calculator knows (the `t_repay_type` values). */
export const REPAY_WAYS: readonly LoanRepayWay[] = ['maturity', 'interest_daily', 'equal_instalments'];

/** Whether `way` is a repayment way the calculator knows. */
export function isRepayWay(way: string): way is LoanRepayWay {
  return (REPAY_WAYS as readonly string[]).includes(way);
}

const DAY_MS = 86_400_000;

/** An application's schedule if it were approved at `startTime`, or `null` when the terms are incomplete or refused. */
export function applySchedule(product: LoanProductView, amount: string, cycleDays: number | null, repayWay: string | null, startTime: number): LoanSchedule | null {
  if (cycleDays == null || repayWay == null || !isRepayWay(repayWay)) return null;
  try {
    return loanPreview({ principal: amount.trim(), dayRate: product.dayRate, cycleDays, repayWay, startTime, scale: product.scale }).schedule;
  } catch {
    return null;
  }
}

/** The overdue rule in figures: the daily penalty rate in percent, the grace days, and one penalty day's cost on `amount`. */
export interface PenaltyRule {
  ratePercent: string;
  graceDays: number;
  perDay: string;
}

/** The product's overdue rule applied to `amount` (an instalment): what the first penalty day after the grace days costs. */
export function penaltyRule(product: Pick<LoanProductView, 'penaltyDayRate' | 'graceDays' | 'scale'>, amount: string): PenaltyRule {
  let perDay: string;
  try {
    // One day past the grace days: the first day begun that is charged.
    perDay = loanOverduePenalty(amount, product.penaltyDayRate, product.graceDays, 0, (product.graceDays + 1) * DAY_MS, product.scale).penalty;
  } catch {
    perDay = '0';
  }
  return { ratePercent: fractionToPercent(product.penaltyDayRate), graceDays: product.graceDays, perDay };
}
