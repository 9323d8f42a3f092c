/**
 * The chart's intervals (spec section 7) and their klinecharts periods.
 *
 * @module
 */

import type { Period } from 'klinecharts';
import type { KlineInterval } from '../../lib/wasm';

/** The intervals of the toolbar, shortest first. */
export const CHART_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '2h', '4h', '1d', '1w', '1M'] as const satisfies readonly KlineInterval[];

/** One interval of the toolbar. */
export type ChartInterval = (typeof CHART_INTERVALS)[number];

/** The interval a chart opens with. */
export const DEFAULT_INTERVAL: ChartInterval = '15m';

const PERIODS: Record<ChartInterval, Period> = {
  '1m': { type: 'minute', span: 1 },
  '5m': { type: 'minute', span: 5 },
  '15m': { type: 'minute', span: 15 },
  '30m': { type: 'minute', span: 30 },
  '1h': { type: 'hour', span: 1 },
  '2h': { type: 'hour', span: 2 },
  '4h': { type: 'hour', span: 4 },
  '1d': { type: 'day', span: 1 },
  '1w': { type: 'week', span: 1 },
  '1M': { type: 'month', span: 1 },
};

/** The klinecharts period of `interval`. */
export function periodOf(interval: ChartInterval): Period {
  return PERIODS[interval];
}

/** The interval of a klinecharts period, if it is one of ours. */
export function intervalOf(period: Period | null | undefined): ChartInterval | null {
  if (!period) return null;
  return CHART_INTERVALS.find((i) => PERIODS[i].type === period.type && PERIODS[i].span === period.span) ?? null;
}

/** Whether `value` names an interval of the toolbar (`1month` reads as `1M`). */
export function toChartInterval(value: string | null | undefined): ChartInterval | null {
  if (value === '1month') return '1M';
  return (CHART_INTERVALS as readonly string[]).includes(value ?? '') ? (value as ChartInterval) : null;
}
