/**
 * The order form's data, as pure functions: what the user typed (a draft, all strings), the input of
 * wasm-core's `validateSpotOrder` and `spotOrderPreview`, the percentage buttons and the body of
 * `submitSpotOrder`. Amounts stay decimal strings; the only arithmetic is the exact, rounded-down
 * share of a balance (`decimal-math.ts`).
 *
 * @module
 */

import type { SpotOrderRequest } from '../../../api/generated/model';
import { decimalsOfStep, floorToStep, isPositive, percentOf, quantityFor } from '../../../lib/decimal-math';

export const SIDES = ['buy', 'sell'] as const;
export type Side = (typeof SIDES)[number];
export const ORDER_TYPES = ['limit', 'market', 'stop_limit'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
export const TIME_IN_FORCE = ['gtc', 'ioc', 'fok'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];
/** How a market buy is sized: a base quantity, or the quote amount to spend. */
export type MarketMode = 'quantity' | 'amount';
/** The percentage buttons. */
export const PERCENTS = [25, 50, 75, 100] as const;

/** The form's fields that carry errors, in the order they are shown. */
export const FORM_FIELDS = ['triggerPrice', 'price', 'quantity', 'quoteAmount'] as const;
export type FormField = (typeof FORM_FIELDS)[number];

/** What the user typed and chose. */
export interface OrderDraft {
  side: Side;
  orderType: OrderType;
  price: string;
  triggerPrice: string;
  quantity: string;
  quoteAmount: string;
  marketMode: MarketMode;
  timeInForce: TimeInForce;
  postOnly: boolean;
}

export const EMPTY_DRAFT: OrderDraft = {
  side: 'buy',
  orderType: 'limit',
  price: '',
  triggerPrice: '',
  quantity: '',
  quoteAmount: '',
  marketMode: 'quantity',
  timeInForce: 'gtc',
  postOnly: false,
};

/** The pair's trading rules (from the coin list). */
export interface PairRules {
  symbol: string;
  tickSize: string;
  stepSize: string;
  minNotional: string;
  pricePrecision: number;
  /** The taker fee as a fraction (`"0.001"`); the preview assumes the order takes liquidity. */
  takerFeeRate: string;
}

/** What the form knows about the market and the user's money. */
export interface Context {
  /** The price a market order is expected to fill at (best ask for a buy, best bid for a sell, else last). */
  marketPrice: string | null;
  /** The funding balances; `null` for a visitor (no balance check). */
  availableBase: string | null;
  availableQuote: string | null;
}

/** Whether the order has a limit price (limit and stop-limit). */
export function hasPrice(draft: OrderDraft): boolean {
  return draft.orderType !== 'market';
}

/** Whether a market buy is sized by the quote amount to spend. */
export function usesQuoteAmount(draft: OrderDraft): boolean {
  return draft.side === 'buy' && draft.orderType === 'market' && draft.marketMode === 'amount';
}

/** The decimals a field accepts: the tick's for prices, the step's for quantities, the price precision for quote amounts. */
export function fieldDecimals(field: FormField, rules: PairRules): number {
  switch (field) {
    case 'price':
    case 'triggerPrice':
      return decimalsOfStep(rules.tickSize);
    case 'quantity':
      return decimalsOfStep(rules.stepSize);
    case 'quoteAmount':
      return rules.pricePrecision;
  }
}

/** The fields the current order type shows. */
export function visibleFields(draft: OrderDraft): FormField[] {
  const fields: FormField[] = [];
  if (draft.orderType === 'stop_limit') fields.push('triggerPrice');
  if (hasPrice(draft)) fields.push('price');
  fields.push(usesQuoteAmount(draft) ? 'quoteAmount' : 'quantity');
  return fields;
}

/** The input of wasm-core's `validateSpotOrder` (fields the order type does not use are left out). */
export function validationInput(draft: OrderDraft, rules: PairRules, context: Context) {
  const byQuote = usesQuoteAmount(draft);
  return {
    side: draft.side,
    orderType: draft.orderType,
    ...(hasPrice(draft) ? { price: draft.price } : {}),
    ...(draft.orderType === 'stop_limit' ? { triggerPrice: draft.triggerPrice } : {}),
    ...(byQuote ? { quoteAmount: draft.quoteAmount } : { quantity: draft.quantity }),
    tickSize: rules.tickSize,
    stepSize: rules.stepSize,
    minNotional: rules.minNotional,
    ...(context.marketPrice ? { lastPrice: context.marketPrice } : {}),
    ...(context.availableBase !== null ? { availableBase: context.availableBase } : {}),
    ...(context.availableQuote !== null ? { availableQuote: context.availableQuote } : {}),
  };
}

/**
 * The input of wasm-core's `spotOrderPreview`, or `null` while the order cannot be previewed yet (no
 * price, no quantity). A stop-limit order is previewed as the limit order it becomes.
 */
export function previewInput(draft: OrderDraft, rules: PairRules, context: Context) {
  const price = hasPrice(draft) ? draft.price : context.marketPrice;
  if (!price || !isPositive(price)) return null;
  const byQuote = usesQuoteAmount(draft);
  const size = byQuote ? draft.quoteAmount : draft.quantity;
  if (!isPositive(size)) return null;
  return {
    side: draft.side,
    orderType: draft.orderType === 'market' ? ('market' as const) : ('limit' as const),
    price,
    ...(byQuote ? { quoteAmount: size } : { quantity: size }),
    feeRate: rules.takerFeeRate,
    baseBalance: context.availableBase ?? '0',
    quoteBalance: context.availableQuote ?? '0',
  };
}

/**
 * What a percentage button fills in: a sell sells that share of the base balance; a buy spends that
 * share of the quote balance — as a quote amount for a market buy by amount, else as the quantity it
 * buys at the limit price (the expected price for a market order). Quantities are rounded DOWN to the
 * step, quote amounts down to the pair's price decimals, so the order never exceeds the balance.
 * `null` when there is nothing to compute from (no balance, no price).
 */
export function percentFill(draft: OrderDraft, percent: number, rules: PairRules, context: Context): Partial<OrderDraft> | null {
  if (draft.side === 'sell') {
    if (context.availableBase === null) return null;
    return { quantity: floorToStep(percentOf(context.availableBase, percent), rules.stepSize) };
  }
  if (context.availableQuote === null) return null;
  const spend = percentOf(context.availableQuote, percent);
  if (usesQuoteAmount(draft)) {
    return { quoteAmount: floorToStep(spend, rules.pricePrecision > 0 ? `0.${'0'.repeat(rules.pricePrecision - 1)}1` : '1') };
  }
  const price = hasPrice(draft) ? draft.price : context.marketPrice;
  if (!price || !isPositive(price)) return null;
  return { quantity: quantityFor(spend, price, rules.stepSize) };
}

/** The body of `submitSpotOrder` (only the fields the order type uses). */
export function orderBody(draft: OrderDraft, symbol: string): SpotOrderRequest {
  const byQuote = usesQuoteAmount(draft);
  return {
    symbol,
    side: draft.side,
    orderType: draft.orderType,
    ...(hasPrice(draft) ? { price: draft.price } : {}),
    ...(draft.orderType === 'stop_limit' ? { triggerPrice: draft.triggerPrice } : {}),
    ...(byQuote ? { quoteAmount: draft.quoteAmount } : { quantity: draft.quantity }),
    ...(draft.orderType === 'limit' ? { timeInForce: draft.timeInForce } : {}),
    ...(draft.orderType === 'limit' && draft.timeInForce === 'gtc' && draft.postOnly ? { postOnly: true } : {}),
  };
}
