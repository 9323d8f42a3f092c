import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../test/fake-socket';
import { FLUSH_INTERVAL_MS, MarketFeed, PING_INTERVAL_MS, RECONNECT_DELAY_MS, STALE_AFTER_MS } from './live';

function makeFeed() {
  let n = 0;
  return new MarketFeed({ url: () => `ws://test/ws/market/client${++n}`, createSocket: (url) => new FakeSocket(url), now: () => Date.now() });
}

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
