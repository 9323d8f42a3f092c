/**
 * Whether a user can subscribe to a product now, and if not why (the subscribe button is disabled
 * with the reason): not started, ended, paused, sold out, Member Zone for VIP members only, the
 * per-user number of subscriptions or the per-user quota reached. Also the amount rules of the
 * subscribe form — the server checks the same ones and refuses with nothing changed — and the most
 * a MAX button may fill in.
 *
 * @module
 */

import { compareDecimal } from '../../../lib/decimal';
import { sumDecimals } from '../../../lib/decimal-math';

/** What the rules need of a product (a subset of the API's `ProductView`). */
export interface ProductRules {
  status: 'scheduled' | 'open' | 'paused' | 'ended';
  vipOnly: boolean;
  particAmount: string;
  particLimitAmount: string;
  particLimitNum: number;
  perUserQuota?: string | null;
  lastAmount: string;
}

/** What the rules need of the user: their tier and what they hold of the product already. */
export interface Holder {
  /** `normal` or `vip`; absent for a visitor (the login prompt speaks instead). */
  userType?: string | null;
  /** Subscriptions they made to this product (any state). */
  subscriptions: number;
  /** The amount they subscribed in all. */
  subscribed: string;
}

/** Why a product cannot be subscribed to now. */
export type BlockReason = 'scheduled' | 'ended' | 'paused' | 'soldOut' | 'vipOnly' | 'subscriptionLimit' | 'userQuota';

/** `a − b`, exactly. */
function minus(a: string, b: string): string {
  return sumDecimals([a, b.startsWith('-') ? b.slice(1) : `-${b}`]);
}

/** What the user may still subscribe under the per-user quota, or `null` without one. */
export function userQuotaLeft(product: ProductRules, holder: Holder): string | null {
  if (!product.perUserQuota) return null;
  const left = minus(product.perUserQuota, holder.subscribed);
  return compareDecimal(left, '0') > 0 ? left : '0';
}

/** The first reason the product cannot be subscribed to now, or `null` when it can. */
export function subscribeBlock(product: ProductRules, holder: Holder): BlockReason | null {
  if (product.status === 'ended') return 'ended';
  if (product.status === 'paused') return 'paused';
  if (product.status === 'scheduled') return 'scheduled';
  // Less left than the smallest subscription is sold out too: nothing can be bought.
  if (compareDecimal(product.lastAmount, '0') <= 0 || compareDecimal(product.lastAmount, product.particAmount) < 0) return 'soldOut';
  if (product.vipOnly && holder.userType && holder.userType !== 'vip') return 'vipOnly';
  if (product.particLimitNum > 0 && holder.subscriptions >= product.particLimitNum) return 'subscriptionLimit';
  const left = userQuotaLeft(product, holder);
  if (left !== null && compareDecimal(left, product.particAmount) < 0) return 'userQuota';
  return null;
}

/** What is wrong with an amount typed in the subscribe form. */
export type AmountProblem =
  | { kind: 'format' }
  | { kind: 'belowMin' | 'aboveMax' | 'aboveQuota' | 'aboveUserQuota' | 'insufficient'; amount: string };

/** A positive decimal with at most 8 decimals. */
const AMOUNT = /^(?:0|[1-9]\d{0,20})(?:\.\d{1,8})?$/;

/**
 * What is wrong with `amount` (trimmed), or `null` when it can be subscribed: the format, the
 * minimum and maximum per subscription, the quota left, the user's quota left, the funding balance
 * (`available`, unknown while loading: `null`). An empty amount is `null` (nothing typed yet).
 */
export function amountProblem(product: ProductRules, holder: Holder, amount: string, available: string | null): AmountProblem | null {
  const value = amount.trim();
  if (value === '') return null;
  if (!AMOUNT.test(value) || compareDecimal(value, '0') <= 0) return { kind: 'format' };
  if (compareDecimal(value, product.particAmount) < 0) return { kind: 'belowMin', amount: product.particAmount };
  if (compareDecimal(value, product.particLimitAmount) > 0) return { kind: 'aboveMax', amount: product.particLimitAmount };
  if (compareDecimal(value, product.lastAmount) > 0) return { kind: 'aboveQuota', amount: product.lastAmount };
  const left = userQuotaLeft(product, holder);
  if (left !== null && compareDecimal(value, left) > 0) return { kind: 'aboveUserQuota', amount: left };
  if (available !== null && compareDecimal(value, available) > 0) return { kind: 'insufficient', amount: available };
  return null;
}

/** The most the MAX button fills in: the smallest of the maximum, the quota left, the user's quota left and the balance. */
export function maxAmount(product: ProductRules, holder: Holder, available: string | null): string {
  const limits = [product.particLimitAmount, product.lastAmount, userQuotaLeft(product, holder), available].filter(
    (v): v is string => v !== null && v !== undefined,
  );
  const smallest = limits.reduce((min, v) => (compareDecimal(v, min) < 0 ? v : min));
  if (compareDecimal(smallest, '0') <= 0) return '0';
  // At most 8 decimals, cut down (never more than what is there).
  const [whole, fraction = ''] = smallest.split('.');
  const cut = fraction.slice(0, 8).replace(/0+$/, '');
  return cut ? `${whole}.${cut}` : (whole ?? '0');
}
