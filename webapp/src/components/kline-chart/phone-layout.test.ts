import { describe, expect, it } from 'vitest';
import { CHART_INTERVALS } from './intervals';
import { MORE_INTERVALS, PHONE_INTERVALS, candlePaneTopGap } from './phone-layout';

describe('the chart on a phone', () => {
  it('offers every interval once, as a button or in the select', () => {
    expect([...PHONE_INTERVALS, ...MORE_INTERVALS].sort()).toEqual([...CHART_INTERVALS].sort());
    expect(MORE_INTERVALS).toContain('1w');
    expect(MORE_INTERVALS).toContain('1M');
  });

  it('keeps klinecharts’ share on wider screens', () => {
    expect(candlePaneTopGap(false, 1, 520)).toBe(0.2);
  });

  it('reserves pixels above the highest candle for each legend on a phone', () => {
    // One legend (MA): two lines and the high label, more than the default 20 % of 260 px (52 px).
    expect(candlePaneTopGap(true, 1, 260)).toBe(56);
    expect(candlePaneTopGap(true, 2, 360)).toBe(96);
    // No price-pane indicator: the same room, so the candles do not jump when MA is switched on.
    expect(candlePaneTopGap(true, 0, 260)).toBe(56);
  });

  it('never gives more than 45 % of the pane to the legends', () => {
    expect(candlePaneTopGap(true, 3, 260)).toBe(117);
  });
});
