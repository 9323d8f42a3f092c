/**
 * The one place where prices become JavaScript numbers.
 *
 * Candles arrive from the API and from wasm-core with every price and volume as a decimal string,
 * and stay strings everywhere money is shown or computed (the legend formats the strings through
 * wasm-core). klinecharts draws on a canvas and needs numbers to place pixels and to compute its
 * indicators (MA, EMA, BOLL, VOL, MACD, RSI), so `toKLineData` converts each candle right before it
 * is handed to the chart. A double carries about 15 significant digits, more than any listed price
 * needs to be drawn to the pixel; nothing converted here ever flows back into an amount, an order or
 * a displayed price.
 *
 * @module
 */

import type { KLineData } from 'klinecharts';
import type { Candle } from '../../lib/wasm';

/** The key under which each bar keeps its source candle (exact strings for the legend). */
export const SOURCE = 'source';

/** A chart bar: the candle's numbers for drawing, plus the candle itself under `source`. */
export interface ChartBar extends KLineData {
  [SOURCE]: Candle;
}

/** Converts a candle for drawing (see the module comment: drawing only, never money maths). */
export function toKLineData(candle: Candle): ChartBar {
  return {
    timestamp: candle.openTime,
    open: Number(candle.open),
    high: Number(candle.high),
    low: Number(candle.low),
    close: Number(candle.close),
    volume: Number(candle.baseVolume),
    turnover: Number(candle.quoteVolume),
    [SOURCE]: candle,
  };
}

/** The source candle of a chart bar, if it carries one. */
export function sourceOf(bar: KLineData | null | undefined): Candle | null {
  const source = bar?.[SOURCE];
  return source && typeof source === 'object' ? (source as Candle) : null;
}

/** A candle of the kline API (`KlineCandle`, decimals as strings) as wasm-core's `Candle`. */
export function fromApiCandle(candle: {
  openTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  baseVolume: string;
  quoteVolume: string;
  tradeCount: number;
}): Candle {
  return {
    openTime: candle.openTime,
    open: candle.open,
    high: candle.high,
    low: candle.low,
    close: candle.close,
    baseVolume: candle.baseVolume,
    quoteVolume: candle.quoteVolume,
    tradeCount: candle.tradeCount,
  };
}
