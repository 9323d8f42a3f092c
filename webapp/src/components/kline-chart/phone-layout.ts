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
/** The gap never takes more than this share of the price pane (the candles keep the rest). */
const MAX_SHARE = 0.45;

/**
 * The price pane's top gap in klinecharts' terms (a number ≥ 1 is pixels, below 1 a share of the
 * pane): on a phone, room for `mainIndicators` legends and the high label within `paneHeight`; on
 * wider screens klinecharts' default share (0.2), where each legend fits on one line.
 */
export function candlePaneTopGap(phone: boolean, mainIndicators: number, paneHeight: number): number {
  if (!phone) return 0.2;
  const wanted = HIGH_LABEL_PX + Math.max(1, mainIndicators) * LEGEND_PX;
  return Math.max(1, Math.min(wanted, Math.floor(paneHeight * MAX_SHARE)));
}
