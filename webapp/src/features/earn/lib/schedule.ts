/**
 * The subscribe form's schedule preview: wasm-core's `earnSchedule` (the function the server posts
 * with) for the amount typed, mapped to what the screen shows — subscription date, value date (D+1),
 * first payout (D+2) and its amount, the daily reward, the total at maturity (or over the shown days
 * of a flexible product), the last day of interest, the delivery date, and the product's early
 * redemption rule. Days are UTC days, shown as `YYYY-MM-DD`.
 *
 * @module
 */

import { type EarnSchedule, loadEarnLoanCore } from '../../../lib/wasm';

// wasm-core's earn and loan module: the earn screens render once it has arrived.
const { earnSchedule } = await loadEarnLoanCore();

/** What the preview needs of a product (a subset of the API's `ProductView`). */
export interface ScheduleProduct {
  rate: string;
  rateBasis: string;
  lockDays: number;
  flexible: boolean;
  earlyRedemption: 'forbidden' | 'deduct' | 'keep';
}

/** The early-redemption rule in the words the screen uses (`earn.rule.*`). */
export type RuleKey = 'forbidden' | 'deduct' | 'keep' | 'flexible';

/** The rule a product applies to early redemption. */
export function ruleOf(product: Pick<ScheduleProduct, 'flexible' | 'earlyRedemption'>): RuleKey {
  return product.flexible ? 'flexible' : product.earlyRedemption;
}

/** The preview the form shows. */
export interface SchedulePreview {
  subscribedAt: number;
  valueDate: number;
  firstPayoutDate: number;
  firstPayout: string;
  daily: string;
  total: string;
  days: number;
  lastAccrualDate: number;
  /** Absent for a flexible product. */
  deliveryDate: number | null;
  rule: RuleKey;
}

/** `YYYY-MM-DD` of the UTC day of `ms`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The preview of subscribing `amount` (a valid amount) to `product` at `now`; `null` if the core refuses it. */
export function schedulePreview(product: ScheduleProduct, amount: string, now: number): SchedulePreview | null {
  let schedule: EarnSchedule;
  try {
    schedule = earnSchedule({
      principal: amount,
      rate: product.rate,
      rateBasis: product.rateBasis === 'apr' ? 'apr' : 'daily',
      subscribedAt: now,
      days: product.lockDays,
      flexible: product.flexible,
      keepRewardsOnEarlyRedemption: product.earlyRedemption === 'keep',
    });
  } catch {
    return null;
  }
  return {
    subscribedAt: now,
    valueDate: schedule.valueDate,
    firstPayoutDate: schedule.firstPayoutDate,
    firstPayout: schedule.days[0]?.reward ?? '0',
    daily: schedule.estimatedDaily,
    total: schedule.totalReward,
    days: schedule.days.length,
    lastAccrualDate: schedule.lastAccrualDate,
    deliveryDate: schedule.deliveryDate,
    rule: ruleOf(product),
  };
}
