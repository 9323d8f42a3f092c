/**
 * The live candle through the real wasm-core (Node.js build): seeding from the history, trades past
 * the cut, duplicates, interval rollover and rebuilding from kept trades.
 *
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { Trade } from '../../lib/live';
import type { Candle } from '../../lib/wasm';
import { LiveCandle } from './live-candle';

/** Midnight in New York (UTC−05:00 in the offset table): a 15m, 1h and 1d boundary there. */
const T0 = Date.UTC(2026, 0, 5, 5, 0);
const OFFSET = -300;
const MIN = 60_000;

const newest: Candle = {
  openTime: T0,
  open: '100',
  high: '110',
  low: '90',
  close: '105',
  baseVolume: '1',
  quoteVolume: '100',
  tradeCount: 10,
};

const trade = (id: number, ts: number, price: string, quantity = '0.5'): Trade => ({ id, ts, price, quantity, side: 'buy' });

function builder(now = T0 + 5 * MIN + 30_000) {
  let clock = now;
  const live = new LiveCandle('15m', OFFSET, () => clock);
  return { live, setNow: (t: number) => (clock = t) };
}

describe('LiveCandle', () => {
  it('continues the newest history candle with the trades from the cut on', () => {
    const { live } = builder();
    const cut = T0 + 5 * MIN;
    // Kept before the history arrived (the subscription's snapshot): one is inside the history.
    live.add([trade(1, cut - 1_000, '200'), trade(2, cut + 1_000, '120')]);
    expect(live.take()).toBeNull();

    live.seed(newest, cut);
    expect(live.take()).toEqual({
      closed: [],
      live: { ...newest, high: '120', close: '120', baseVolume: '1.5', quoteVolume: '160', tradeCount: 11 },
    });

    // The same trade again (a snapshot after a reconnect) changes nothing.
    live.add([trade(2, cut + 1_000, '120'), trade(3, cut + 2_000, '80', '0.25')]);
    expect(live.take()?.live).toEqual({
      ...newest,
      high: '120',
      low: '80',
      close: '80',
      baseVolume: '1.75',
      quoteVolume: '180',
      tradeCount: 12,
    });
    live.add([trade(3, cut + 2_000, '80', '0.25')]);
    expect(live.take()).toBeNull();
  });

  it('starts a new candle when the history ends before the current interval, and rolls over', () => {
    const { live } = builder(T0 + 20 * MIN);
    const cut = T0 + 20 * MIN;
    live.seed(newest, cut); // `newest` is the previous 15 minutes: the live candle starts afresh.
    expect(live.take()).toEqual({ closed: [], live: null });

    live.add([trade(5, cut + 5_000, '101', '2')]);
    expect(live.take()?.live).toMatchObject({ openTime: T0 + 15 * MIN, open: '101', close: '101', baseVolume: '2', tradeCount: 1 });

    live.add([trade(6, T0 + 30 * MIN + 1, '99', '1'), trade(7, T0 + 30 * MIN + 2, '98', '1')]);
    const changes = live.take();
    expect(changes?.closed).toEqual([expect.objectContaining({ openTime: T0 + 15 * MIN, close: '101' })]);
    expect(changes?.live).toMatchObject({ openTime: T0 + 30 * MIN, open: '99', low: '98', close: '98', tradeCount: 2 });
  });

  it('rebuilds from the kept trades when the history is read again', () => {
    const { live } = builder();
    const cut = T0 + 5 * MIN;
    live.seed(newest, cut);
    live.add([trade(10, cut + 10_000, '106'), trade(11, cut + MIN + 10_000, '107')]);
    live.take();

    // The re-read covers the cut minute, including trades made before the subscription.
    const reread: Candle = { ...newest, high: '111', close: '106', baseVolume: '3', quoteVolume: '310', tradeCount: 20 };
    live.seed(reread, cut + MIN);
    expect(live.take()?.live).toEqual({ ...reread, high: '111', close: '107', baseVolume: '3.5', quoteVolume: '363.5', tradeCount: 21 });
  });

  it('estimates the server clock from trade times to find the minute in progress', () => {
    const { live } = builder(T0 + 5 * MIN + 59_000);
    expect(live.minuteInProgress()).toBe(T0 + 5 * MIN);
    // The server is 2 s ahead: its minute has already turned.
    live.add([trade(1, T0 + 6 * MIN + 1_000, '100')]);
    expect(live.minuteInProgress()).toBe(T0 + 6 * MIN);
  });
});
