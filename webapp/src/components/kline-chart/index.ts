/**
 * The candlestick chart shared by the market and trade screens.
 *
 * @module
 */

export { KlineChart, type KlineChartProps } from './kline-chart';
export { CHART_INTERVALS, type ChartInterval } from './intervals';
