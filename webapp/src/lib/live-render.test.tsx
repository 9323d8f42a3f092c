import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../test/fake-socket';
import { FLUSH_INTERVAL_MS, MarketFeed, setMarketFeed, useBestPrice, useLastPrice, useOrderBook, useTicker, useTrades } from './live';

// How React hears the market feed: a burst of messages inside one frame is one render showing the
// last state, and a component that needs one figure renders only when that figure changes.

/** One animation frame (the feed's frame scheduler is a 16 ms timer here). */
const FRAME_MS = 16;

let socket: FakeSocket;

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.created = [];
  let n = 0;
  setMarketFeed(
    new MarketFeed({
      url: () => `ws://test/ws/market/client${++n}`,
      createSocket: (url) => new FakeSocket(url),
      now: () => Date.now(),
      frame: (callback) => setTimeout(callback, FRAME_MS),
    }),
  );
});

afterEach(() => {
  setMarketFeed(null);
  vi.useRealTimers();
});

/** Renders `Probe` and opens the socket it started. */
function mount(Probe: () => ReactElement) {
  const view = render(<Probe />);
  socket = FakeSocket.latest();
  act(() => socket.open());
  return view;
}

const send = (message: unknown) => act(() => socket.receive(message));
const frame = () => act(() => vi.advanceTimersByTime(FRAME_MS));

const trade = (id: number, price: string) => ({ id, price, quantity: '0.001', side: 'buy', ts: 1_700_000_000_000 + id });
const trades = (...list: ReturnType<typeof trade>[]) => ({ type: 'TRADE', symbol: 'btcusdt', data: list });
const depth = (kind: 'snapshot' | 'diff', seq: number, bids: [string, string][], asks: [string, string][] = []) => ({
  type: 'depth',
  symbol: 'btcusdt',
  data: { kind, seq, prevSeq: seq - 1, bids, asks, ts: seq },
});
const ticker = (symbol: string, close: string) => ({
  type: 'ticker',
  symbol,
  data: { close, open: '100', high: '1', low: '1', change: '0', priceChangePercent: '0', volume: '0', quoteVolume: '0', ts: 1 },
});

describe('live data in React', () => {
  it('renders a burst of book diffs and trades once per frame, with the last state', () => {
    const renders = vi.fn();
    function Probe() {
      const book = useOrderBook('BTCUSDT');
      const recent = useTrades('BTCUSDT');
      renders();
      return (
        <p>
          {book ? `${book.seq} ${book.bids[0]?.join('@')}` : 'no book'} | {recent.map((t) => `${t.id}:${t.price}`).join(',')}
        </p>
      );
    }
    const { container } = mount(Probe);
    send(depth('snapshot', 1, [['100', '1']], [['101', '1']]));
    frame();
    const before = renders.mock.calls.length;

    // 40 messages inside one frame: nothing renders until the frame, then exactly one render.
    for (let seq = 2; seq <= 21; seq++) {
      send(depth('diff', seq, [['100', String(seq)]]));
      send(trades(trade(seq, `100.${seq}`)));
    }
    expect(renders.mock.calls.length).toBe(before);
    frame();
    expect(renders.mock.calls.length).toBe(before + 1);
    expect(container.textContent).toMatch(/^21 100@21 \| 21:100\.21,20:100\.20,/);

    // Nothing new: no render.
    frame();
    expect(renders.mock.calls.length).toBe(before + 1);
  });

  it('renders the last price only when it changes, at most once per frame', () => {
    const renders = vi.fn();
    function Probe() {
      const price = useLastPrice('btcusdt', '99');
      renders();
      return <p>{price}</p>;
    }
    const { container } = mount(Probe);
    expect(container.textContent).toBe('99');
    send(trades(trade(1, '100.5')));
    frame();
    expect(container.textContent).toBe('100.5');
    const before = renders.mock.calls.length;

    // Trades at the same price, book updates and other pairs' trades: no render.
    send(trades(trade(2, '100.5')));
    send(trades(trade(3, '100.5')));
    send(depth('snapshot', 1, [['100', '1']]));
    send({ type: 'TRADE', symbol: 'ethusdt', data: [trade(4, '3000')] });
    frame();
    expect(renders.mock.calls.length).toBe(before);

    // Ten new prices in one frame: one render, the last price.
    for (let id = 5; id < 15; id++) send(trades(trade(id, `101.${id}`)));
    frame();
    expect(renders.mock.calls.length).toBe(before + 1);
    expect(container.textContent).toBe('101.14');
  });

  it("renders a pair's ticker only when that pair's ticker changed", () => {
    const renders = vi.fn();
    function Probe() {
      const t = useTicker('BTCUSDT');
      renders();
      return <p>{t?.close ?? '--'}</p>;
    }
    const { container } = mount(Probe);
    send(ticker('btcusdt', '67000.1'));
    act(() => vi.advanceTimersByTime(FLUSH_INTERVAL_MS + FRAME_MS));
    expect(container.textContent).toBe('67000.1');
    const before = renders.mock.calls.length;

    // Every other pair's tickers: no render.
    send(ticker('ethusdt', '3000'));
    send(ticker('solusdt', '150'));
    act(() => vi.advanceTimersByTime(FLUSH_INTERVAL_MS + FRAME_MS));
    expect(renders.mock.calls.length).toBe(before);

    // Several of its own inside one flush: one render, the last one.
    send(ticker('btcusdt', '67000.2'));
    send(ticker('btcusdt', '67000.3'));
    act(() => vi.advanceTimersByTime(FLUSH_INTERVAL_MS + FRAME_MS));
    expect(renders.mock.calls.length).toBe(before + 1);
    expect(container.textContent).toBe('67000.3');
  });

  it('hands tickers over in the same frame as the book and trades: one render', () => {
    const renders = vi.fn();
    function Probe() {
      const t = useTicker('btcusdt');
      const book = useOrderBook('btcusdt');
      const recent = useTrades('btcusdt');
      renders();
      return <p>{`${t?.close ?? '--'} ${book?.seq ?? '-'} ${recent[0]?.id ?? '-'}`}</p>;
    }
    const { container } = mount(Probe);
    const before = renders.mock.calls.length;
    send(ticker('btcusdt', '67000.1'));
    act(() => vi.advanceTimersByTime(FLUSH_INTERVAL_MS - 10));
    // Book and trades arrive 10 ms before the ticker interval ends, so their frame comes 6 ms after
    // it: that frame brings all three (each timer runs in its own act, as in its own task).
    send(depth('snapshot', 7, [['100', '1']]));
    send(trades(trade(9, '100')));
    act(() => vi.advanceTimersByTime(10));
    act(() => vi.advanceTimersByTime(FRAME_MS - 10));
    expect(container.textContent).toBe('67000.1 7 9');
    expect(renders.mock.calls.length).toBe(before + 1);
  });

  it('renders the best price only when the top of the book moves', () => {
    const renders = vi.fn();
    function Probe() {
      const bid = useBestPrice('btcusdt', 'bid');
      const ask = useBestPrice('btcusdt', 'ask');
      renders();
      return (
        <p>
          {bid ?? '--'}/{ask ?? '--'}
        </p>
      );
    }
    const { container } = mount(Probe);
    send(depth('snapshot', 1, [['100', '1'], ['99', '1']], [['101', '1']]));
    frame();
    expect(container.textContent).toBe('100/101');
    const before = renders.mock.calls.length;

    // Levels below the top change: no render.
    send(depth('diff', 2, [['99', '5'], ['98', '1']]));
    send(depth('diff', 3, [['100', '2']]));
    frame();
    expect(renders.mock.calls.length).toBe(before);

    // The best bid leaves, then a better ask arrives, in one frame: one render with both.
    send(depth('diff', 4, [['100', '0']]));
    send(depth('diff', 5, [], [['100.5', '1']]));
    frame();
    expect(renders.mock.calls.length).toBe(before + 1);
    expect(container.textContent).toBe('99/100.5');
  });
});
