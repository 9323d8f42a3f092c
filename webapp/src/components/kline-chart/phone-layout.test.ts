import { describe, expect, it } from 'vitest';
import { CHART_INTERVALS } from './intervals';
import { BOTTOM_GAP, MORE_INTERVALS, PHONE_INTERVALS, candlePaneTopGap, subPaneTopGap } from './phone-layout';

describe('the chart on a phone', () => {
  it('offers every interval once, as a button or in the select', () => {
    expect([...PHONE_INTERVALS, ...MORE_INTERVALS].sort()).toEqual([...CHART_INTERVALS].sort());
    expect(MORE_INTERVALS).toContain('1w');
    expect(MORE_INTERVALS).toContain('1M');
  });

  it('keeps klinecharts’ share on wider screens', () => {
    expect(candlePaneTopGap(false, 1, 520)).toBe(0.2);
  });

  /** The pixels above the highest candle that a top gap leaves in a pane of `pane` px. */
  const clearPx = (top: number, pane: number) => (pane * top) / (1 + top + BOTTOM_GAP);

  it('keeps the legends and the high label clear of the candles on a phone', () => {
    // One legend (MA): two lines and the high label, more than the default 20 % would leave (≈ 36 px).
    expect(clearPx(candlePaneTopGap(true, 1, 260), 232)).toBeCloseTo(56, 6);
    expect(clearPx(0.2, 232)).toBeLessThan(40);
    expect(clearPx(candlePaneTopGap(true, 2, 360), 332)).toBeCloseTo(96, 6);
    // No price-pane indicator: the same room, so the candles do not jump when MA is switched on.
    expect(candlePaneTopGap(true, 0, 260)).toBe(candlePaneTopGap(true, 1, 260));
  });

  it('never gives more than 45 % of the pane to the legends', () => {
    expect(clearPx(candlePaneTopGap(true, 3, 260), 232)).toBeCloseTo(0.45 * 232, 6);
    // Below 1, so klinecharts reads it as a share and not as pixels.
    expect(candlePaneTopGap(true, 3, 260)).toBeLessThan(1);
  });

  it('keeps an indicator pane’s two-line legend clear of its bars on a phone', () => {
    expect(clearPx(subPaneTopGap(true, 100), 100)).toBeCloseTo(40, 6);
    expect(subPaneTopGap(false, 100)).toBe(0.2);
  });
});
