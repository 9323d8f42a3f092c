/**
 * The order form's figures, every one wasm-core's (the functions the server runs when it fills the
 * order): initial margin (rounded as the engine rounds margins), opening fee at the taker rate,
 * estimated liquidation price, the largest size the available balance opens, and PnL / ROE at the
 * take-profit and stop-loss triggers. Pure: decimal strings in, decimal strings out.
 *
 * A cross position's liquidation price is the server's (`cross_context`): WB the trading wallet, TMM
 * and UPNL the maintenance margin and unrealised PnL of the user's cross positions in OTHER symbols.
 *
 * @module
 */

import { isPositive, sumDecimals } from '../../../lib/decimal-math';
import {
  type MarginTier,
  liquidationPrice,
  marginAdjustment,
  maxOpenSize,
  pnlAtTrigger,
  positionMetrics,
  spotOrderPreview,
  type MarginAdjustment,
} from '../../../lib/wasm';
import type { FuturesPosition } from '../../../api/generated/model';

export type PositionSide = 'long' | 'short';
export type MarginModeValue = 'isolated' | 'cross';

/** What the preview is computed from. */
export interface PreviewInput {
  side: PositionSide;
  /** The fill price: the limit price, or the best level a market order walks first. */
  price: string | null;
  quantity: string;
  leverage: string;
  marginMode: MarginModeValue;
  /**
   * The trading wallet's USDT (`getUserCoin`'s `trading`, `null` for a visitor): the balance the max
   * size is bounded by, and a cross position's WB (the server's wallet is that ledger balance).
   */
  available: string | null;
  /**
   * What new orders may use, as the server counts it ([`availableToOpen`]); bounds the max size.
   * When absent, `available`.
   */
  availableToOpen?: string | null;
  /** Cross only: the user's cross positions in other symbols (TMM, UPNL); none when absent. */
  otherCross?: CrossOthers | null;
  takerFeeRate: string;
  stepSize: string;
  tickSize: string;
  tiers: MarginTier[];
  takeProfit: string;
  stopLoss: string;
}

/** The sums over the user's cross positions in other symbols: TMM and UPNL of the formula. */
export interface CrossOthers {
  maintenanceMargin: string;
  unrealisedPnl: string;
}

/**
 * TMM and UPNL for a cross position in `symbol`: the maintenance margin and unrealised PnL of the
 * user's open cross positions in the other symbols (`positions` as the list gives them).
 */
export function crossOthers(positions: readonly FuturesPosition[] | null | undefined, symbol: string): CrossOthers {
  const others = (positions ?? []).filter((p) => p.marginMode === 'cross' && p.symbol !== symbol);
  return {
    maintenanceMargin: sumDecimals(others.map((p) => p.maintenanceMargin)),
    unrealisedPnl: sumDecimals(others.map((p) => p.unrealisedPnl)),
  };
}

/** `-value` of a decimal string. */
function negated(value: string): string {
  const text = value.trim();
  return text.startsWith('-') ? text.slice(1) : `-${text}`;
}

/**
 * What the server lets new orders use (its available balance): the trading wallet less the initial
 * margin of the user's cross positions in every symbol, plus their unrealised loss (a profit does not
 * count), never below 0; `null` for a visitor.
 */
export function availableToOpen(wallet: string | null, positions: readonly FuturesPosition[] | null | undefined): string | null {
  if (wallet === null) return null;
  const cross = (positions ?? []).filter((p) => p.marginMode === 'cross');
  const unrealised = sumDecimals(cross.map((p) => p.unrealisedPnl));
  const loss = unrealised.startsWith('-') ? unrealised : '0';
  const total = sumDecimals([wallet, ...cross.map((p) => negated(p.positionMargin)), loss]);
  return total.startsWith('-') ? '0' : total;
}

/** A PnL and ROE at a trigger. */
export interface TriggerOutcome {
  pnl: string;
  roePercent: string;
}

/** The figures under the order form; `null` where the inputs do not allow one yet. */
export interface OrderPreview {
  notional: string | null;
  initialMargin: string | null;
  fee: string | null;
  liquidationPrice: string | null;
  maxSize: string | null;
  takeProfit: TriggerOutcome | null;
  stopLoss: TriggerOutcome | null;
}

const EMPTY: OrderPreview = {
  notional: null,
  initialMargin: null,
  fee: null,
  liquidationPrice: null,
  maxSize: null,
  takeProfit: null,
  stopLoss: null,
};

function attempt<T>(run: () => T): T | null {
  try {
    return run();
  } catch {
    return null;
  }
}

/** The order form's preview (see the module doc). */
export function orderPreview(input: PreviewInput): OrderPreview {
  const { side, price, quantity, leverage, marginMode, available, tiers, tickSize } = input;
  // Nothing until the contract's rules (tiers and fee rate, from the server) have loaded.
  if (!price || !isPositive(price) || !isPositive(leverage) || !input.takerFeeRate || tiers.length === 0) return EMPTY;
  const usable = input.availableToOpen === undefined ? available : input.availableToOpen;
  const maxSize =
    usable !== null
      ? attempt(
          () => maxOpenSize({ price, leverage, availableBalance: usable, takerFeeRate: input.takerFeeRate, stepSize: input.stepSize, tiers }).size,
        )
      : null;
  if (!isPositive(quantity)) return { ...EMPTY, maxSize };
  // Notional and the taker fee: a sale's proceeds and its fee are exactly price × quantity and its rate.
  const notional = attempt(() =>
    spotOrderPreview({ side: 'sell', orderType: 'limit', price, quantity, feeRate: input.takerFeeRate, baseBalance: quantity, quoteBalance: '0' }),
  );
  const position = { side, size: quantity, entryPrice: price, leverage, marginMode, walletBalance: '0' };
  const initialMargin = attempt(() => positionMetrics({ position, markPrice: price, tiers, tickSize }).initialMargin);
  // Isolated: the position's margin is its initial margin; cross: the trading wallet backs it, less
  // the maintenance margin and plus the unrealised PnL of the other cross positions (as the server).
  const walletBalance = marginMode === 'isolated' ? initialMargin : available;
  const others =
    marginMode === 'cross' && input.otherCross
      ? { otherMaintenanceMargin: input.otherCross.maintenanceMargin, otherUnrealizedPnl: input.otherCross.unrealisedPnl }
      : {};
  const liquidation =
    walletBalance !== null ? attempt(() => liquidationPrice({ position: { ...position, walletBalance, ...others }, tiers, tickSize })) : null;
  const trigger = (triggerPrice: string): TriggerOutcome | null =>
    isPositive(triggerPrice) ? attempt(() => pnlAtTrigger({ side, size: quantity, entryPrice: price, leverage, triggerPrice })) : null;
  return {
    notional: notional?.amount ?? null,
    initialMargin,
    fee: notional?.fee ?? null,
    liquidationPrice: liquidation,
    maxSize,
    takeProfit: trigger(input.takeProfit),
    stopLoss: trigger(input.stopLoss),
  };
}

/** The margin adjustment dialog's figures: the new margin and liquidation price, the most removable. */
export function adjustmentPreview(
  position: FuturesPosition,
  direction: 'add' | 'remove',
  amount: string,
  available: string | null,
  tiers: MarginTier[],
  tickSize: string,
): MarginAdjustment | null {
  return attempt(() =>
    marginAdjustment({
      position: {
        side: position.side,
        size: position.openInterest,
        entryPrice: position.averOpenPrice,
        leverage: position.leverage,
        marginMode: position.marginMode,
        walletBalance: position.holdCollateralAssets,
      },
      markPrice: position.markPrice,
      direction,
      amount: isPositive(amount) ? amount : '0',
      availableBalance: available,
      tiers,
      tickSize,
    }),
  );
}

/** Whether a take-profit or stop-loss trigger is on the wrong side of the mark for `side`. */
export function wrongSide(kind: 'takeProfit' | 'stopLoss', side: PositionSide, trigger: string, mark: string, compare: (a: string, b: string) => number): boolean {
  if (!isPositive(trigger) || !isPositive(mark)) return false;
  const above = compare(trigger, mark) > 0;
  const below = compare(trigger, mark) < 0;
  if (kind === 'takeProfit') return side === 'long' ? !above : !below;
  return side === 'long' ? !below : !above;
}
