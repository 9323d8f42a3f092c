import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../test/fake-socket';
import { FLUSH_INTERVAL_MS, MarketFeed, PING_INTERVAL_MS, RECONNECT_DELAY_MS, RESYNC_RETRY_MS, STALE_AFTER_MS, normalizeDecimal } from './live';

/** One animation frame (the tests' frame scheduler is a 16 ms timer). */
const FRAME_MS = 16;

function makeFeed() {
  let n = 0;
  return new MarketFeed({
    url: () => `ws://test/ws/market/client${++n}`,
    createSocket: (url) => new FakeSocket(url),
    now: () => Date.now(),
    frame: (callback) => setTimeout(callback, FRAME_MS),
  });
}

const snapshot = (seq: number, bids: [string, string][], asks: [string, string][]) => ({
  type: 'depth',
  symbol: 'btcusdt',
  data: { kind: 'snapshot', seq, bids, asks, ts: seq },
});

const diff = (seq: number, prevSeq: number, bids: [string, string][], asks: [string, string][] = []) => ({
  type: 'depth',
  symbol: 'btcusdt',
  data: { kind: 'diff', seq, prevSeq, bids, asks, ts: seq },
});

const trade = (id: number, price: string, side: 'buy' | 'sell' = 'buy') => ({ id, price, quantity: '0.01', side, ts: 1_700_000_000_000 + id });

const ticker = (symbol: string, close: string) => ({
  type: 'ticker',
  symbol,
  data: { close, open: '100', high: '1', low: '1', change: '0', priceChangePercent: '0', volume: '0', quoteVolume: '0', ts: 1 },
});

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.created = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe('MarketFeed', () => {
  it('subscribes on open, pings every 15 s and hands tickers over in batches', () => {
    const feed = makeFeed();
    const unsubscribe = feed.subscribe('ticker', '*');
    feed.start();
    const socket = FakeSocket.latest();
    expect(socket.url).toMatch(/^ws:\/\/test\/ws\/market\/client\d+$/);
    expect(feed.getSnapshot().status).toBe('connecting');

    socket.open();
    expect(socket.sent).toEqual([{ op: 'subscribe', channel: 'ticker', symbol: '*' }]);
    expect(feed.getSnapshot().status).toBe('live');

    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(socket.sent.at(-1)).toMatchObject({ op: 'ping' });

    socket.receive(ticker('BTCUSDT', '67000.10'));
    socket.receive(ticker('btcusdt', '67000.20'));
    expect(feed.getSnapshot().tickers.btcusdt).toBeUndefined();
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    // Due, handed over with the next frame.
    expect(feed.getSnapshot().tickers.btcusdt).toBeUndefined();
    vi.advanceTimersByTime(FRAME_MS);
    expect(feed.getSnapshot().tickers.btcusdt?.close).toBe('67000.20');

    unsubscribe();
    expect(socket.sent.at(-1)).toEqual({ op: 'unsubscribe', channel: 'ticker', symbol: '*' });
    feed.stop();
  });

  it('reconnects 3 s after a close and subscribes again', () => {
    const feed = makeFeed();
    feed.subscribe('ticker', '*');
    feed.start();
    const first = FakeSocket.latest();
    first.open();
    first.drop();
    expect(feed.getSnapshot().status).toBe('reconnecting');

    vi.advanceTimersByTime(RECONNECT_DELAY_MS - 1);
    expect(FakeSocket.created).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.created).toHaveLength(2);

    const second = FakeSocket.latest();
    expect(second.url).not.toBe(first.url);
    second.open();
    expect(second.sent).toEqual([{ op: 'subscribe', channel: 'ticker', symbol: '*' }]);
    expect(feed.getSnapshot().status).toBe('live');
    feed.stop();
  });

  it('flags the data stale after 30 s of silence, recycles the socket, and recovers', () => {
    const feed = makeFeed();
    feed.subscribe('ticker', '*');
    feed.start();
    const first = FakeSocket.latest();
    first.open();

    vi.advanceTimersByTime(STALE_AFTER_MS - 1_000);
    first.receive({ type: 'HEARTBEAT', ts: 1 });
    vi.advanceTimersByTime(STALE_AFTER_MS - 1_000);
    expect(feed.getSnapshot().status).toBe('live');

    vi.advanceTimersByTime(2_000);
    expect(feed.getSnapshot().status).toBe('stale');
    expect(first.closed).toBe(true);

    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    const second = FakeSocket.latest();
    expect(second).not.toBe(first);
    second.open();
    expect(feed.getSnapshot().status).toBe('live');
    feed.stop();
  });
});

describe('MarketFeed depth', () => {
  it('applies diffs to the snapshot and tells React once per frame', () => {
    const feed = makeFeed();
    feed.subscribe('depth', 'BTCUSDT');
    feed.start();
    const socket = FakeSocket.latest();
    socket.open();
    expect(socket.sent).toEqual([{ op: 'subscribe', channel: 'depth', symbol: 'btcusdt' }]);

    const heard = vi.fn();
    feed.watch('depth|btcusdt', heard);
    socket.receive(snapshot(10, [['100.00', '1'], ['99.50', '2']], [['100.50', '3'], ['101.00', '4']]));
    // Until the frame, React sees nothing.
    expect(feed.getOrderBook('btcusdt')).toBeNull();
    socket.receive(diff(11, 10, [['99.5', '0'], ['99.90', '5']], [['100.50', '2.5']]));
    socket.receive(diff(12, 11, [['100.1', '0.7']], [['101', '0']]));
    vi.advanceTimersByTime(FRAME_MS);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(feed.getOrderBook('btcusdt')).toEqual({
      symbol: 'btcusdt',
      seq: 12,
      ts: 12,
      bids: [
        ['100.1', '0.7'],
        ['100', '1'],
        ['99.9', '5'],
      ],
      asks: [['100.5', '2.5']],
      resyncing: false,
    });

    // A diff already inside the book changes nothing.
    socket.receive(diff(12, 11, [['1', '1']]));
    vi.advanceTimersByTime(FRAME_MS);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(socket.sent).toHaveLength(1);
    feed.stop();
  });

  it('resubscribes for a fresh snapshot when a diff was missed, dropping diffs until it arrives', () => {
    const feed = makeFeed();
    feed.subscribe('depth', 'btcusdt');
    feed.start();
    const socket = FakeSocket.latest();
    socket.open();
    socket.receive(snapshot(20, [['100', '1']], [['101', '1']]));
    socket.receive(diff(21, 20, [['100', '2']]));

    // 22 never came: 23 does not follow 21.
    socket.receive(diff(23, 22, [['100', '9']]));
    expect(socket.sent.at(-1)).toEqual({ op: 'subscribe', channel: 'depth', symbol: 'btcusdt' });
    expect(feed.resyncCount).toBe(1);
    vi.advanceTimersByTime(FRAME_MS);
    // The last good book stays on screen, marked as resyncing.
    expect(feed.getOrderBook('btcusdt')).toMatchObject({ seq: 21, bids: [['100', '2']], resyncing: true });

    // Diffs before the new snapshot are dropped.
    socket.receive(diff(24, 23, [['100', '7']]));
    vi.advanceTimersByTime(FRAME_MS);
    expect(feed.getOrderBook('btcusdt')).toMatchObject({ seq: 21, bids: [['100', '2']], resyncing: true });

    socket.receive(snapshot(24, [['100', '7'], ['99', '1']], [['101', '1']]));
    socket.receive(diff(25, 24, [['99', '0']]));
    vi.advanceTimersByTime(FRAME_MS);
    expect(feed.getOrderBook('btcusdt')).toMatchObject({ seq: 25, bids: [['100', '7']], resyncing: false });
    expect(feed.resyncCount).toBe(1);
    feed.stop();
  });

  it('asks again when the resync snapshot is overdue', () => {
    const feed = makeFeed();
    feed.subscribe('depth', 'btcusdt');
    feed.start();
    const socket = FakeSocket.latest();
    socket.open();
    socket.receive(snapshot(1, [['100', '1']], []));
    socket.receive(diff(3, 2, []));
    const requests = () => socket.sent.filter((m) => (m as { channel?: string }).channel === 'depth').length;
    expect(requests()).toBe(2);
    socket.receive(diff(4, 3, []));
    expect(requests()).toBe(2);
    vi.advanceTimersByTime(RESYNC_RETRY_MS + 1);
    socket.receive({ type: 'HEARTBEAT', ts: 1 });
    socket.receive(diff(5, 4, []));
    expect(requests()).toBe(3);
    feed.stop();
  });

  it('resubscribes every channel after a reconnect and resyncs the books from the new snapshot', () => {
    const feed = makeFeed();
    feed.subscribe('ticker', '*');
    feed.subscribe('depth', 'btcusdt');
    feed.subscribe('trade', 'btcusdt');
    feed.subscribe('kline', 'btcusdt', '15m');
    feed.start();
    const first = FakeSocket.latest();
    first.open();
    first.receive(snapshot(5, [['100', '1']], [['101', '1']]));
    first.receive(diff(6, 5, [['100', '3']]));
    first.drop();
    vi.advanceTimersByTime(FRAME_MS);
    expect(feed.getOrderBook('btcusdt')).toMatchObject({ seq: 6, resyncing: true });

    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    const second = FakeSocket.latest();
    expect(second).not.toBe(first);
    second.open();
    expect(second.sent).toEqual([
      { op: 'subscribe', channel: 'ticker', symbol: '*' },
      { op: 'subscribe', channel: 'depth', symbol: 'btcusdt' },
      { op: 'subscribe', channel: 'trade', symbol: 'btcusdt' },
      { op: 'subscribe', channel: 'kline', symbol: 'btcusdt', interval: '15m' },
    ]);
    // A diff that raced ahead of the snapshot is not applied on the old book.
    second.receive(diff(40, 39, [['100', '9']]));
    second.receive(snapshot(40, [['100', '4']], [['101', '2']]));
    second.receive(diff(41, 40, [['100.5', '1']]));
    vi.advanceTimersByTime(FRAME_MS);
    expect(feed.getOrderBook('btcusdt')).toEqual({
      symbol: 'btcusdt',
      seq: 41,
      ts: 41,
      bids: [
        ['100.5', '1'],
        ['100', '4'],
      ],
      asks: [['101', '2']],
      resyncing: false,
    });
    feed.stop();
  });

  it('forgets a book when its last subscriber leaves', () => {
    const feed = makeFeed();
    const a = feed.subscribe('depth', 'btcusdt');
    const b = feed.subscribe('depth', 'btcusdt');
    feed.start();
    const socket = FakeSocket.latest();
    socket.open();
    socket.receive(snapshot(1, [['100', '1']], []));
    vi.advanceTimersByTime(FRAME_MS);
    a();
    expect(feed.getOrderBook('btcusdt')).not.toBeNull();
    b();
    expect(socket.sent.at(-1)).toEqual({ op: 'unsubscribe', channel: 'depth', symbol: 'btcusdt' });
    vi.advanceTimersByTime(FRAME_MS);
    expect(feed.getOrderBook('btcusdt')).toBeNull();
    // Late diffs of an ended subscription are ignored.
    socket.receive(diff(2, 1, [['100', '2']]));
    vi.advanceTimersByTime(FRAME_MS);
    expect(feed.getOrderBook('btcusdt')).toBeNull();
    feed.stop();
  });
});

describe('MarketFeed trades, detail and klines', () => {
  it('keeps the newest 50 trades, newest first, and hands each message to onTrades oldest first', () => {
    const feed = makeFeed();
    feed.subscribe('trade', 'btcusdt');
    feed.start();
    const socket = FakeSocket.latest();
    socket.open();
    const batches: unknown[] = [];
    feed.onTrades('btcusdt', (batch) => batches.push(batch));

    socket.receive({ type: 'TRADE', symbol: 'btcusdt', snapshot: true, data: [trade(3, '101'), trade(2, '100'), trade(1, '99')] });
    socket.receive({ type: 'TRADE', symbol: 'btcusdt', snapshot: false, data: [trade(4, '102', 'sell'), trade(5, '103')] });
    vi.advanceTimersByTime(FRAME_MS);
    expect(feed.getTrades('btcusdt').map((t) => t.id)).toEqual([5, 4, 3, 2, 1]);
    expect(feed.getTrades('btcusdt')[1]).toEqual(trade(4, '102', 'sell'));
    expect(batches).toEqual([
      { snapshot: true, trades: [trade(1, '99'), trade(2, '100'), trade(3, '101')] },
      { snapshot: false, trades: [trade(4, '102', 'sell'), trade(5, '103')] },
    ]);

    // A snapshot after a reconnect overlaps what is known: no duplicates.
    socket.receive({ type: 'TRADE', symbol: 'btcusdt', snapshot: true, data: Array.from({ length: 60 }, (_, i) => trade(64 - i, '100')) });
    vi.advanceTimersByTime(FRAME_MS);
    const ids = feed.getTrades('btcusdt').map((t) => t.id);
    expect(ids).toHaveLength(50);
    expect(ids[0]).toBe(64);
    expect(new Set(ids).size).toBe(50);
    feed.stop();
  });

  it('keeps the latest DETAIL and kline of subscribed pairs', () => {
    const feed = makeFeed();
    feed.subscribe('detail', 'btcusdt');
    feed.subscribe('kline', 'btcusdt', '1h');
    feed.start();
    const socket = FakeSocket.latest();
    socket.open();
    const detail = { lastPrice: '100', indexPrice: '100.1', markPrice: '100.2', bestBid: '99', bestAsk: '101', ts: 5 };
    socket.receive({ type: 'DETAIL', symbol: 'btcusdt', data: detail });
    socket.receive({ type: 'DETAIL', symbol: 'ethusdt', data: detail });
    const candle = { openTime: 0, open: '1', high: '2', low: '0.5', close: '1.5', baseVolume: '3', quoteVolume: '4', tradeCount: 2 };
    socket.receive({ type: 'kline', symbol: 'btcusdt', interval: '1h', data: candle });
    socket.receive({ type: 'kline', symbol: 'btcusdt', interval: '1m', data: candle });
    vi.advanceTimersByTime(FRAME_MS);
    expect(feed.getDetail('btcusdt')).toEqual({ ...detail, symbol: 'btcusdt' });
    expect(feed.getDetail('ethusdt')).toBeNull();
    expect(feed.getKline('btcusdt', '1h')).toEqual({ ...candle, symbol: 'btcusdt', interval: '1h', closed: false });
    expect(feed.getKline('btcusdt', '1m')).toBeNull();
    socket.receive({ type: 'KLINE', symbol: 'btcusdt', interval: '1h', data: candle });
    expect(feed.getKline('btcusdt', '1h')?.closed).toBe(true);
    feed.stop();
  });
});

describe('normalizeDecimal', () => {
  it('gives one key per price whatever its scale', () => {
    expect(normalizeDecimal('66990.10')).toBe('66990.1');
    expect(normalizeDecimal('5.000')).toBe('5');
    expect(normalizeDecimal('120')).toBe('120');
    expect(normalizeDecimal('0.00001230')).toBe('0.0000123');
  });
});
