/**
 * The chart's data loader against a stand-in chart (the klinecharts data list semantics it relies
 * on), a scripted history API and the market feed over the fake socket, with the real wasm-core.
 *
 * @module
 */

import type { Chart, DataLoaderGetBarsParams, KLineData } from 'klinecharts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KlineCandle, KlinePage, KlineQuery } from '../../api/generated/model';
import { MarketFeed } from '../../lib/live';
import { FakeSocket } from '../../test/fake-socket';
import { ChartLoader, type ChartState, PAGE_SIZE, RESEED_DELAY_MS, upsertTail } from './chart-loader';

const T0 = Date.UTC(2026, 0, 5, 5, 0); // midnight at UTC−05:00
const MIN = 60_000;
const FRAME_MS = 16;

function candle(openTime: number, close: string, volume = '1'): KlineCandle {
  return { openTime, open: close, high: close, low: close, close, baseVolume: volume, quoteVolume: '0', tradeCount: 1 };
}

/** What klinecharts does with the loader's callbacks, reduced to the data list. */
class StandInChart {
  data: KLineData[] = [];
  more = { forward: false };
  resets = 0;
  asChart(): Chart {
    return { getDataList: () => this.data, resetData: () => (this.resets += 1) } as unknown as Chart;
  }
  params(type: DataLoaderGetBarsParams['type'], timestamp: number | null = null): DataLoaderGetBarsParams {
    return {
      type,
      timestamp,
      symbol: { ticker: 'btcusdt', pricePrecision: 2, volumePrecision: 4 },
      period: { type: 'minute', span: 15 },
      callback: (data, more) => {
        if (type === 'init') this.data = data;
        else if (type === 'forward') this.data = [...data, ...this.data];
        if (typeof more === 'object') this.more.forward = more.forward ?? false;
      },
    };
  }
  update = (bar: KLineData) => {
    const last = this.data[this.data.length - 1];
    if (!last || bar.timestamp > last.timestamp) this.data.push(bar);
    else if (bar.timestamp === last.timestamp) this.data[this.data.length - 1] = bar;
  };
}

let now = T0 + 20 * MIN + 10_000;
let pages: Array<(query: KlineQuery) => KlinePage>;
let queries: KlineQuery[];

function setup() {
  const chart = new StandInChart();
  const feed = new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url), now: () => now, frame: (cb) => setTimeout(cb, FRAME_MS) });
  const states: ChartState[] = [];
  const loader = new ChartLoader(
    {
      fetchPage: async (query) => {
        queries.push(query);
        const next = pages.shift();
        if (!next) throw new Error('no page');
        return next(query);
      },
      feed,
      chart: () => chart.asChart(),
      onState: (state) => states.push(state),
      frame: (cb) => setTimeout(cb, FRAME_MS),
      now: () => now,
    },
    -300,
  );
  return { chart, feed, loader, states };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.created = [];
  now = T0 + 20 * MIN + 10_000;
  pages = [];
  queries = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ChartLoader', () => {
  it('loads the newest page, then older pages by the first bar, and extends the live candle from trades', async () => {
    const { chart, feed, loader, states } = setup();
    pages.push(() => ({ symbol: 'btcusdt', interval: '15m', candles: [candle(T0, '100'), candle(T0 + 15 * MIN, '101')], hasMore: true }));
    await loader.getBars(chart.params('init'));
    expect(queries[0]).toEqual({ symbol: 'btcusdt', interval: '15m', limit: PAGE_SIZE, offsetMinutes: -300 });
    // Numbers for drawing, the exact candle alongside.
    expect(chart.data.map((bar) => [bar.timestamp, bar.close])).toEqual([
      [T0, 100],
      [T0 + 15 * MIN, 101],
    ]);
    expect(chart.more.forward).toBe(true);
    expect(states.at(-1)).toMatchObject({ loading: false, count: 2, firstTime: T0, last: expect.objectContaining({ close: '101' }) });

    // The chart's trade subscription went out; klinecharts subscribes to bars after the first page.
    const socket = FakeSocket.latest();
    socket.open();
    expect(socket.sent).toContainEqual({ op: 'subscribe', channel: 'trade', symbol: 'btcusdt' });
    loader.subscribeBar({ symbol: { ticker: 'btcusdt', pricePrecision: 2, volumePrecision: 4 }, period: { type: 'minute', span: 15 }, callback: (bar) => chart.update(bar) });

    // Two messages within one frame: one update of the live bar.
    const update = vi.spyOn(chart, 'update');
    socket.receive({ type: 'TRADE', symbol: 'btcusdt', snapshot: false, data: [{ id: 1, price: '102.5', quantity: '2', side: 'buy', ts: now }] });
    socket.receive({ type: 'TRADE', symbol: 'btcusdt', snapshot: false, data: [{ id: 2, price: '99', quantity: '1', side: 'sell', ts: now + 100 }] });
    vi.advanceTimersByTime(FRAME_MS);
    expect(update).toHaveBeenCalledTimes(1);
    expect(chart.data.at(-1)).toMatchObject({ timestamp: T0 + 15 * MIN, high: 102.5, low: 99, close: 99, volume: 4 });
    expect(states.at(-1)?.last).toMatchObject({ close: '99', baseVolume: '4', tradeCount: 3 });

    // Scrolling back: the page before the first bar.
    pages.push(() => ({ symbol: 'btcusdt', interval: '15m', candles: [candle(T0 - 15 * MIN, '98')], hasMore: false }));
    await loader.getBars(chart.params('forward', T0));
    expect(queries[1]).toEqual({ symbol: 'btcusdt', interval: '15m', endTime: T0, limit: PAGE_SIZE, offsetMinutes: -300 });
    expect(chart.data.map((bar) => bar.timestamp)).toEqual([T0 - 15 * MIN, T0, T0 + 15 * MIN]);
    expect(chart.more.forward).toBe(false);
    loader.dispose();
    feed.stop();
  });

  it('reads the newest candles again once the cut minute has closed', async () => {
    const { chart, feed, loader } = setup();
    pages.push(() => ({ symbol: 'btcusdt', interval: '15m', candles: [candle(T0 + 15 * MIN, '101')], hasMore: false }));
    await loader.getBars(chart.params('init'));
    loader.subscribeBar({ symbol: { ticker: 'btcusdt', pricePrecision: 2, volumePrecision: 4 }, period: { type: 'minute', span: 15 }, callback: chart.update });
    const socket = FakeSocket.latest();
    socket.open();
    socket.receive({ type: 'TRADE', symbol: 'btcusdt', snapshot: false, data: [{ id: 1, price: '103', quantity: '1', side: 'buy', ts: now }] });
    vi.advanceTimersByTime(FRAME_MS);
    expect(chart.data.at(-1)).toMatchObject({ close: 103, volume: 2 });

    // Minute 20 held trades from before the subscription: the re-read has them.
    pages.push(() => ({ symbol: 'btcusdt', interval: '15m', candles: [candle(T0 + 15 * MIN, '103', '5')], hasMore: false }));
    now = T0 + 21 * MIN + RESEED_DELAY_MS;
    await vi.advanceTimersByTimeAsync(MIN);
    expect(queries.at(-1)).toEqual({ symbol: 'btcusdt', interval: '15m', limit: 3, offsetMinutes: -300 });
    expect(chart.data.at(-1)).toMatchObject({ timestamp: T0 + 15 * MIN, close: 103, volume: 5 });
    loader.dispose();
    feed.stop();
  });

  it('ignores a page that arrives after the chart moved on, and reports a failed first page', async () => {
    const { chart, feed, loader, states } = setup();
    pages.push(() => {
      throw new Error('down');
    });
    await loader.getBars(chart.params('init'));
    expect(states.at(-1)).toMatchObject({ loading: false, error: expect.any(Error) });

    pages.push(() => ({ symbol: 'btcusdt', interval: '15m', candles: [candle(T0, '1')], hasMore: false }));
    const stale = loader.getBars(chart.params('init'));
    pages.push(() => ({ symbol: 'btcusdt', interval: '15m', candles: [candle(T0, '2')], hasMore: false }));
    const fresh = loader.getBars(chart.params('init'));
    await Promise.all([stale, fresh]);
    expect(chart.data.map((bar) => bar.close)).toEqual([2]);
    loader.dispose();
    feed.stop();
  });

  it('reloads when the time zone changes', () => {
    const { chart, feed, loader } = setup();
    loader.setOffsetMinutes(-300);
    expect(chart.resets).toBe(0);
    loader.setOffsetMinutes(60);
    expect(chart.resets).toBe(1);
    loader.dispose();
    feed.stop();
  });
});

describe('upsertTail', () => {
  it('replaces the bar of the same time or inserts in order', () => {
    const list = [candle(1, '1'), candle(3, '3')];
    upsertTail(list, candle(3, '3b'));
    upsertTail(list, candle(4, '4'));
    upsertTail(list, candle(2, '2'));
    expect(list.map((c) => [c.openTime, c.close])).toEqual([
      [1, '1'],
      [2, '2'],
      [3, '3b'],
      [4, '4'],
    ]);
  });
});
