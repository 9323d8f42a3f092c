/**
 * The chart's colours in the app's light and dark themes (the exchange's up/down colours, the
 * surfaces and borders of src/app/theme.ts), on top of klinecharts' own `light` / `dark` styles.
 *
 * @module
 */

import type { DeepPartial, Styles } from 'klinecharts';
import type { ColorMode } from '../../hooks/use-color-mode';

interface Palette {
  up: string;
  down: string;
  flat: string;
  grid: string;
  axis: string;
  text: string;
  crosshair: string;
  crosshairLabel: string;
  lines: string[];
}

const PALETTES: Record<ColorMode, Palette> = {
  light: {
    up: '#03875a',
    down: '#d9304f',
    flat: '#76808f',
    grid: '#eef0f3',
    axis: '#e6e8ec',
    text: '#5b6472',
    crosshair: '#9aa3b0',
    crosshairLabel: '#3b4350',
    lines: ['#f76c15', '#7c5cff', '#1f8ef1', '#d63384', '#0fa3a3'],
  },
  dark: {
    up: '#2ebd85',
    down: '#f6465d',
    flat: '#929aa5',
    grid: '#181e29',
    axis: '#1f2633',
    text: '#929aa5',
    crosshair: '#5b6472',
    crosshairLabel: '#2a3140',
    lines: ['#ff8a3d', '#a48bff', '#4ea8ff', '#ff6fae', '#3fd0c9'],
  },
};

/** The app's font (klinecharts defaults to Helvetica Neue, absent on many systems). */
const FONT = 'Inter, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

function alpha(hex: string, opacity: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${opacity})`;
}

/** klinecharts styles for `mode`: apply `chart.setStyles(mode)` first, then these. */
export function chartStyles(mode: ColorMode): DeepPartial<Styles> {
  const p = PALETTES[mode];
  const axis = {
    axisLine: { color: p.axis },
    tickLine: { color: p.axis },
    tickText: { color: p.text, family: FONT },
  };
  const crosshairLine = {
    line: { color: p.crosshair },
    text: { backgroundColor: p.crosshairLabel, borderColor: p.crosshairLabel, family: FONT },
  };
  return {
    grid: { horizontal: { color: p.grid }, vertical: { color: p.grid } },
    candle: {
      bar: {
        upColor: p.up,
        downColor: p.down,
        noChangeColor: p.flat,
        upBorderColor: p.up,
        downBorderColor: p.down,
        noChangeBorderColor: p.flat,
        upWickColor: p.up,
        downWickColor: p.down,
        noChangeWickColor: p.flat,
      },
      priceMark: {
        high: { color: p.text, textFamily: FONT },
        low: { color: p.text, textFamily: FONT },
        last: { upColor: p.up, downColor: p.down, noChangeColor: p.flat, text: { family: FONT } },
      },
      // The legend above the chart shows the candle's values (translated, exact decimals).
      tooltip: { showRule: 'none' },
    },
    indicator: {
      ohlc: { upColor: alpha(p.up, 0.7), downColor: alpha(p.down, 0.7), noChangeColor: p.flat },
      bars: [{ upColor: alpha(p.up, 0.6), downColor: alpha(p.down, 0.6), noChangeColor: p.flat }],
      circles: [{ upColor: alpha(p.up, 0.7), downColor: alpha(p.down, 0.7), noChangeColor: p.flat }],
      lines: p.lines.map((color) => ({ color })),
      tooltip: { title: { color: p.text, family: FONT }, legend: { color: p.text, family: FONT } },
      lastValueMark: { text: { family: FONT } },
    },
    xAxis: axis,
    yAxis: axis,
    separator: { color: p.axis },
    crosshair: { horizontal: crosshairLine, vertical: crosshairLine },
  };
}
