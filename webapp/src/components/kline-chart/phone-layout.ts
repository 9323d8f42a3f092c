/**
 * How the chart fits a phone (below 768 px): the interval bar keeps the most used intervals as
 * buttons and moves the others into a compact select, and the price pane keeps room at its top for
 * the indicator legends klinecharts draws there, so they never cover the highest candle's label.
 *
 * @module
 */

import { CHART_INTERVALS, type ChartInterval } from './intervals';

/** The intervals shown as buttons on a phone; the rest are in the "more" select. */
export const PHONE_INTERVALS = ['15m', '1h', '4h', '1d'] as const satisfies readonly ChartInterval[];

/** The intervals of the phone's "more" select, shortest first. */
export const MORE_INTERVALS: readonly ChartInterval[] = CHART_INTERVALS.filter((i) => !(PHONE_INTERVALS as readonly string[]).includes(i));

/**
 * Height of one price-pane indicator's legend on a phone: its name and values wrap to two lines of
 * klinecharts' 12 px tooltip text (with its 4 px margins) at 360 px.
 */
const LEGEND_PX = 40;
/** Room under the legends for the highest candle's label (12 px text, centred on the wick). */
const HIGH_LABEL_PX = 16;
/** The x-axis under the price pane (klinecharts' axis with its tick labels). */
const X_AXIS_PX = 28;
/** The gap never takes more than this share of the price pane (the candles keep the rest). */
const MAX_SHARE = 0.45;
/** klinecharts' gap under the lowest candle, a share of the price range. */
export const BOTTOM_GAP = 0.1;

/**
 * The price pane's top gap as klinecharts takes it: a share of the candles' price range added
 * above the highest price (with {@link BOTTOM_GAP} of it added below the lowest). On a phone it is
 * chosen so that the top `16 + 40 × legends` pixels of a `chartHeight`-pixel plot (x-axis included)
 * stay clear of candles — at most 45 % of the pane; on wider screens it is klinecharts' default 0.2,
 * where each legend fits on one line.
 */
export function candlePaneTopGap(phone: boolean, mainIndicators: number, chartHeight: number): number {
  if (!phone) return 0.2;
  const pane = Math.max(1, chartHeight - X_AXIS_PX);
  return gapFor(HIGH_LABEL_PX + Math.max(1, mainIndicators) * LEGEND_PX, pane);
}

/**
 * The top gap of an indicator's own pane (VOL, MACD, RSI: `paneHeight` px): on a phone, room for
 * its two-line legend above the bars; on wider screens klinecharts' default 0.2.
 */
export function subPaneTopGap(phone: boolean, paneHeight: number): number {
  return phone ? gapFor(LEGEND_PX, paneHeight) : 0.2;
}

/** The top gap (a share of the price range) that leaves `px` of a `pane`-pixel pane clear. */
function gapFor(px: number, pane: number): number {
  // The gap's share of the pane's height, f, is top / (1 + top + bottom) in klinecharts' terms.
  const share = Math.min(px / pane, MAX_SHARE);
  return (share * (1 + BOTTOM_GAP)) / (1 - share);
}
