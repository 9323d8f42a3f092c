/**
 * The market WebSocket (`/ws/market/{clientId}`): ref-counted subscriptions, a ping every 15 s,
 * reconnect 3 s after an error or close (re-sending every subscription), and a staleness flag when
 * nothing has been heard for 30 s.
 *
 * Channels (docs/api.md, "Market channel"):
 * - `ticker` (every pair): `useTickers()` / `useTicker(symbol)`, handed to React every 250 ms, in
 *   the animation frame after the interval (with whatever else that frame brings);
 * - `depth`: a snapshot, then diffs numbered by `seq`; a diff whose `prevSeq` is not the last `seq`
 *   applied means one was missed, so the feed subscribes again for a fresh snapshot and drops diffs
 *   until it arrives (a reconnect does the same for every book): `useOrderBook(symbol)`;
 * - `trade`: the last 50 trades on subscription, then every trade: `useTrades(symbol)`, and
 *   `onTrades(symbol, listener)` for consumers that want each message as it arrives (the chart);
 * - `kline` per interval (the server's UTC candle): `useLiveKline(symbol, interval)`;
 * - `detail` (mark, index, top of book): `useMarketDetail(symbol)`.
 *
 * Messages are applied to the feed's state as they arrive, but React hears about depth, trades,
 * kline, detail and ticker changes at most once per animation frame, all in the same task (one
 * notification per changed key), so a burst of messages costs one render. Components that need one
 * figure (`useLastPrice`, `useBestPrice`, `useMarketPrice`, `useTicker`) re-render only when it changes. Prices and quantities stay decimal strings throughout. The
 * socket, its ping and its reconnect are `socket-loop.ts`, shared with the user channel.
 *
 * @module
 */

import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { currentLanguage } from '../i18n';
import { wsOrigin } from './platform-config';
import { type SocketLike, SocketLoop } from './socket-loop';

/** Ping interval while connected. */
export const PING_INTERVAL_MS = 15_000;
/** Delay before reconnecting after an error or close. */
export const RECONNECT_DELAY_MS = 3_000;
/** Silence after which data is stale (and the socket is recycled). */
export const STALE_AFTER_MS = 30_000;
/** How often ticker updates are handed to React (the server may push many per second). */
export const FLUSH_INTERVAL_MS = 250;
/** How many recent trades a pair keeps (the server's snapshot size). */
export const MAX_TRADES = 50;
/** A book resync that brought no snapshot within this time is asked for again. */
export const RESYNC_RETRY_MS = 5_000;

/** The latest 24h ticker of one symbol (decimals are strings). */
export interface Ticker {
  symbol: string;
  close: string;
  open: string;
  high: string;
  low: string;
  change: string;
  priceChangePercent: string;
  volume: string;
  quoteVolume: string;
  ts: number;
}

/** One price level, `[price, quantity]` as decimal strings. */
export type BookLevel = [string, string];

/** A pair's order book as the feed holds it. */
export interface OrderBook {
  symbol: string;
  /** `seq` of the last diff applied. */
  seq: number;
  ts: number;
  /** Highest price first. */
  bids: BookLevel[];
  /** Lowest price first. */
  asks: BookLevel[];
  /** A diff was missed or the connection dropped: a fresh snapshot has been asked for. */
  resyncing: boolean;
}

/** One trade; `side` is the taker's. */
export interface Trade {
  id: number;
  price: string;
  quantity: string;
  side: 'buy' | 'sell';
  ts: number;
}

/** Mark and index price and top of book (`DETAIL`). */
export interface MarketDetail {
  symbol: string;
  lastPrice: string;
  indexPrice: string;
  markPrice: string;
  bestBid?: string | null;
  bestAsk?: string | null;
  ts: number;
}

/** A candle of the `kline` channel (UTC calendar); `closed` for a `KLINE` message. */
export interface LiveKline {
  symbol: string;
  interval: string;
  openTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  baseVolume: string;
  quoteVolume: string;
  tradeCount: number;
  closed: boolean;
}

/** What `onTrades` listeners get per `TRADE` message: trades oldest first. */
export interface TradeBatch {
  trades: Trade[];
  /** The recent trades sent on (re)subscription rather than new ones. */
  snapshot: boolean;
}

/**
 * - `connecting`: the first connection is being made, nothing heard yet;
 * - `live`: connected and heard from within the last 30 s;
 * - `reconnecting`: the connection dropped and is being re-made;
 * - `stale`: nothing heard for more than 30 s.
 */
export type FeedStatus = 'connecting' | 'live' | 'reconnecting' | 'stale';

/** A read-only view of the feed for React. */
export interface FeedSnapshot {
  status: FeedStatus;
  /** Symbol (lower case, e.g. `btcusdt`) → its latest ticker. */
  tickers: Readonly<Record<string, Ticker>>;
}

/** Injectable dependencies. */
export interface FeedOptions {
  /** Builds the socket URL for a fresh client id. */
  url: () => string;
  createSocket?: (url: string) => SocketLike;
  now?: () => number;
  /** Runs `callback` before the next paint (`requestAnimationFrame`; tests pass a timer). */
  frame?: (callback: () => void) => void;
}

function defaultFrame(callback: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => callback());
  else setTimeout(callback, 16);
}

/** A subscription: channel, symbol and (kline only) interval. */
interface Subscription {
  channel: string;
  symbol: string;
  interval?: string;
}

function subscriptionKey({ channel, symbol, interval }: Subscription): string {
  return interval ? `${channel}|${symbol}|${interval}` : `${channel}|${symbol}`;
}

/** One side of a book: normalised price → quantity. */
type Side = Map<string, string>;

interface BookState {
  seq: number;
  ts: number;
  bids: Side;
  asks: Side;
  /** Waiting for a snapshot (none yet, a missed diff, or a reconnect). */
  awaiting: boolean;
  /** When the last resync was asked for. */
  resyncAt: number;
  /** Whether a snapshot was ever applied. */
  loaded: boolean;
}

/** `"66990.10"` → `"66990.1"`, `"5.000"` → `"5"`: one key per price, whatever its scale. */
export function normalizeDecimal(value: string): string {
  const text = value.trim();
  if (!text.includes('.')) return text;
  const trimmed = text.replace(/0+$/, '');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}

/** Whether a decimal string is zero (a removed level). */
function isZero(value: string): boolean {
  return /^[+-]?0*(\.0*)?$/.test(value.trim());
}

/** Compares decimal strings by value without floating point (both non-negative, normalised). */
function comparePrices(a: string, b: string): number {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  const aInt = ai.replace(/^0+/, '');
  const bInt = bi.replace(/^0+/, '');
  if (aInt.length !== bInt.length) return aInt.length - bInt.length;
  if (aInt !== bInt) return aInt < bInt ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const x = af.padEnd(width, '0');
  const y = bf.padEnd(width, '0');
  return x === y ? 0 : x < y ? -1 : 1;
}

function readLevels(value: unknown): BookLevel[] {
  if (!Array.isArray(value)) return [];
  const out: BookLevel[] = [];
  for (const level of value) {
    if (Array.isArray(level) && level.length >= 2) {
      const [price, quantity] = level as unknown[];
      if ((typeof price === 'string' || typeof price === 'number') && (typeof quantity === 'string' || typeof quantity === 'number')) {
        out.push([String(price), String(quantity)]);
      }
    }
  }
  return out;
}

function readTrade(value: unknown): Trade | null {
  if (typeof value !== 'object' || value === null) return null;
  const t = value as Record<string, unknown>;
  if (typeof t.id !== 'number' || typeof t.price !== 'string' || typeof t.quantity !== 'string' || typeof t.ts !== 'number') return null;
  return { id: t.id, price: t.price, quantity: t.quantity, side: t.side === 'sell' ? 'sell' : 'buy', ts: t.ts };
}

/** A market feed connection with ref-counted subscriptions. */
export class MarketFeed {
  private readonly options: Required<FeedOptions>;
  private readonly loop: SocketLoop;
  private readonly subscriptions = new Map<string, { sub: Subscription; count: number }>();
  private readonly listeners = new Set<() => void>();
  private pending: Record<string, Ticker> = {};
  private snapshot: FeedSnapshot = { status: 'connecting', tickers: {} };
  /** When the server was last heard (data freshness). */
  private lastHeard = 0;
  /** When the current socket was created or last heard (silent-socket detection). */
  private socketActivity = 0;
  private everOpened = false;
  private watchdogTimer: ReturnType<typeof setInterval> | undefined;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  // Per-pair state of the depth, trade, detail and kline channels, and their views for React.
  private readonly books = new Map<string, BookState>();
  private readonly bookViews = new Map<string, OrderBook>();
  private readonly trades = new Map<string, Trade[]>();
  private readonly details = new Map<string, MarketDetail>();
  private readonly klines = new Map<string, LiveKline>();
  private readonly keyListeners = new Map<string, Set<() => void>>();
  private readonly tradeListeners = new Map<string, Set<(batch: TradeBatch) => void>>();
  private readonly dirty = new Set<string>();
  private frameScheduled = false;
  /** The ticker interval has passed: the next frame hands the pending tickers over. */
  private tickersDue = false;
  /** How many times a book was resynchronised after a missed diff (for tests and diagnostics). */
  resyncCount = 0;

  constructor(options: FeedOptions) {
    this.options = {
      createSocket: (url) => new WebSocket(url),
      now: () => Date.now(),
      frame: defaultFrame,
      ...options,
    };
    this.loop = new SocketLoop({
      name: 'Market feed',
      url: () => this.options.url(),
      createSocket: (url) => this.options.createSocket(url),
      ping: () => ({ op: 'ping', ts: this.options.now() }),
      pingMs: PING_INTERVAL_MS,
      reconnectMs: RECONNECT_DELAY_MS,
      onSocket: () => {
        this.socketActivity = this.options.now();
      },
      onOpen: () => {
        this.everOpened = true;
        this.heard();
        for (const { sub } of this.subscriptions.values()) this.send({ op: 'subscribe', ...sub });
      },
      onMessage: (data) => {
        this.heard();
        this.handle(data);
      },
      onLost: () => {
        // Diffs sent while away are gone: every book waits for the snapshot the resubscription brings.
        for (const [symbol, book] of this.books) this.markResyncing(symbol, book);
        if (this.snapshot.status !== 'stale') this.setStatus(this.everOpened ? 'reconnecting' : 'connecting');
      },
    });
  }

  /** Connects (idempotent). */
  start(): void {
    if (this.loop.running) return;
    this.lastHeard = this.options.now();
    this.watchdogTimer = setInterval(() => this.checkStaleness(), 1_000);
    this.loop.start();
  }

  /** Disconnects and stops reconnecting. */
  stop(): void {
    clearInterval(this.watchdogTimer);
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.loop.stop();
  }

  /**
   * Subscribes to `channel` for `symbol` (`*` for every pair; `interval` for `kline`); returns the
   * unsubscribe function. Subscriptions are counted: the server hears the first and the last.
   */
  subscribe(channel: string, symbol: string, interval?: string): () => void {
    const sub: Subscription = { channel, symbol: symbol.toLowerCase(), ...(interval ? { interval } : {}) };
    const key = subscriptionKey(sub);
    const entry = this.subscriptions.get(key);
    if (entry) {
      entry.count += 1;
    } else {
      this.subscriptions.set(key, { sub, count: 1 });
      if (channel === 'depth') this.books.set(sub.symbol, this.emptyBook());
      this.send({ op: 'subscribe', ...sub });
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const current = this.subscriptions.get(key);
      if (!current) return;
      current.count -= 1;
      if (current.count > 0) return;
      this.subscriptions.delete(key);
      this.send({ op: 'unsubscribe', ...sub });
      this.forget(sub);
    };
  }

  /** For `useSyncExternalStore`. */
  listen = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The current snapshot (a new object after every change). */
  getSnapshot = (): FeedSnapshot => this.snapshot;

  /** Calls `listener` (at most once per frame) when the data under `key` changes. */
  watch(key: string, listener: () => void): () => void {
    let set = this.keyListeners.get(key);
    if (!set) this.keyListeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.keyListeners.delete(key);
    };
  }

  /** The book of `symbol` once a snapshot arrived (the last one held while resyncing), else `null`. */
  getOrderBook(symbol: string): OrderBook | null {
    return this.bookViews.get(symbol.toLowerCase()) ?? null;
  }

  /** The recent trades of `symbol`, newest first (at most 50). */
  getTrades(symbol: string): readonly Trade[] {
    return this.trades.get(symbol.toLowerCase()) ?? NO_TRADES;
  }

  /** The latest `DETAIL` of `symbol`. */
  getDetail(symbol: string): MarketDetail | null {
    return this.details.get(symbol.toLowerCase()) ?? null;
  }

  /** The server's latest candle of `symbol` at `interval`. */
  getKline(symbol: string, interval: string): LiveKline | null {
    return this.klines.get(`${symbol.toLowerCase()}|${interval}`) ?? null;
  }

  /**
   * Calls `listener` synchronously with every `TRADE` message of `symbol` (subscribe to `trade`
   * separately); for consumers that batch on their own, like the chart's live candle.
   */
  onTrades(symbol: string, listener: (batch: TradeBatch) => void): () => void {
    const key = symbol.toLowerCase();
    let set = this.tradeListeners.get(key);
    if (!set) this.tradeListeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.tradeListeners.delete(key);
    };
  }

  private emptyBook(): BookState {
    return { seq: 0, ts: 0, bids: new Map(), asks: new Map(), awaiting: true, resyncAt: this.options.now(), loaded: false };
  }

  /** Drops what an ended subscription kept. */
  private forget(sub: Subscription): void {
    switch (sub.channel) {
      case 'depth':
        this.books.delete(sub.symbol);
        this.bookViews.delete(sub.symbol);
        this.markDirty(`depth|${sub.symbol}`);
        break;
      case 'trade':
        this.trades.delete(sub.symbol);
        this.markDirty(`trade|${sub.symbol}`);
        break;
      case 'detail':
        this.details.delete(sub.symbol);
        this.markDirty(`detail|${sub.symbol}`);
        break;
      case 'kline':
        this.klines.delete(`${sub.symbol}|${sub.interval ?? ''}`);
        this.markDirty(`kline|${sub.symbol}|${sub.interval ?? ''}`);
        break;
    }
  }

  private heard(): void {
    this.lastHeard = this.socketActivity = this.options.now();
    if (this.snapshot.status !== 'live' && this.loop.isOpen) this.setStatus('live');
  }

  private checkStaleness(): void {
    const now = this.options.now();
    if (now - this.lastHeard > STALE_AFTER_MS && this.snapshot.status !== 'stale') this.setStatus('stale');
    // A socket silent for 30 s is as good as a dead one: recycle it (the reconnect follows in 3 s).
    if (this.loop.hasSocket && now - this.socketActivity > STALE_AFTER_MS) this.loop.recycle();
  }

  private handle(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    const { type, symbol, data } = message as { type?: unknown; symbol?: unknown; data?: unknown };
    const pair = typeof symbol === 'string' ? symbol.toLowerCase() : null;
    switch (type) {
      case 'ticker': {
        if (!pair || typeof data !== 'object' || data === null) return;
        const ticker = data as Partial<Ticker>;
        if (typeof ticker.close !== 'string' || typeof ticker.open !== 'string') return;
        this.pending[pair] = { ...(ticker as Ticker), symbol: pair };
        this.scheduleFlush();
        return;
      }
      case 'depth':
        if (pair && typeof data === 'object' && data !== null) this.handleDepth(pair, data as Record<string, unknown>);
        return;
      case 'TRADE':
        if (pair && Array.isArray(data)) this.handleTrades(pair, data, (message as { snapshot?: unknown }).snapshot === true);
        return;
      case 'DETAIL': {
        if (!pair || typeof data !== 'object' || data === null || !this.subscriptions.has(`detail|${pair}`)) return;
        const detail = data as Partial<MarketDetail>;
        if (typeof detail.lastPrice !== 'string') return;
        this.details.set(pair, { ...(detail as MarketDetail), symbol: pair });
        this.markDirty(`detail|${pair}`);
        return;
      }
      case 'kline':
      case 'KLINE': {
        const interval = (message as { interval?: unknown }).interval;
        if (!pair || typeof interval !== 'string' || typeof data !== 'object' || data === null) return;
        if (!this.subscriptions.has(`kline|${pair}|${interval}`)) return;
        const candle = data as Partial<LiveKline>;
        if (typeof candle.openTime !== 'number' || typeof candle.close !== 'string') return;
        this.klines.set(`${pair}|${interval}`, { ...(candle as LiveKline), symbol: pair, interval, closed: type === 'KLINE' });
        this.markDirty(`kline|${pair}|${interval}`);
        return;
      }
      case 'error':
        console.warn('Market feed error', message);
        return;
    }
  }

  private handleDepth(symbol: string, data: Record<string, unknown>): void {
    const book = this.books.get(symbol);
    if (!book) return; // Not (or no longer) subscribed.
    const seq = typeof data.seq === 'number' ? data.seq : null;
    if (seq === null) return;
    if (data.kind === 'snapshot') {
      book.bids = new Map();
      book.asks = new Map();
      for (const [price, quantity] of readLevels(data.bids)) if (!isZero(quantity)) book.bids.set(normalizeDecimal(price), quantity);
      for (const [price, quantity] of readLevels(data.asks)) if (!isZero(quantity)) book.asks.set(normalizeDecimal(price), quantity);
      book.seq = seq;
      book.ts = typeof data.ts === 'number' ? data.ts : book.ts;
      book.awaiting = false;
      book.loaded = true;
      this.markDirty(`depth|${symbol}`);
      return;
    }
    if (data.kind !== 'diff') return;
    if (book.awaiting) {
      // Diffs before the snapshot cannot be applied; ask again if the snapshot is overdue.
      if (this.options.now() - book.resyncAt > RESYNC_RETRY_MS) this.requestSnapshot(symbol, book);
      return;
    }
    if (seq <= book.seq) return; // Already inside the book.
    if (data.prevSeq !== book.seq) {
      // A diff was missed: the book is wrong from here on until a fresh snapshot replaces it.
      this.resyncCount += 1;
      this.markResyncing(symbol, book);
      this.requestSnapshot(symbol, book);
      return;
    }
    for (const [side, levels] of [
      [book.bids, readLevels(data.bids)],
      [book.asks, readLevels(data.asks)],
    ] as const) {
      for (const [price, quantity] of levels) {
        const key = normalizeDecimal(price);
        if (isZero(quantity)) side.delete(key);
        else side.set(key, quantity);
      }
    }
    book.seq = seq;
    book.ts = typeof data.ts === 'number' ? data.ts : book.ts;
    this.markDirty(`depth|${symbol}`);
  }

  /** Flags a book as waiting for a snapshot (its last view stays, marked `resyncing`). */
  private markResyncing(symbol: string, book: BookState): void {
    if (book.awaiting) return;
    book.awaiting = true;
    book.resyncAt = this.options.now();
    if (book.loaded) this.markDirty(`depth|${symbol}`);
  }

  /** Subscribes to `depth` again: the server answers with a fresh snapshot. */
  private requestSnapshot(symbol: string, book: BookState): void {
    book.resyncAt = this.options.now();
    this.send({ op: 'subscribe', channel: 'depth', symbol });
  }

  private handleTrades(symbol: string, data: unknown[], snapshot: boolean): void {
    if (!this.subscriptions.has(`trade|${symbol}`)) return;
    const incoming = data.map(readTrade).filter((t): t is Trade => t !== null);
    // The snapshot lists the newest first, live messages the newest last: oldest first from here.
    incoming.sort((a, b) => a.id - b.id);
    const known = this.trades.get(symbol) ?? [];
    const seen = new Set(known.map((t) => t.id));
    const fresh = incoming.filter((t) => !seen.has(t.id));
    if (fresh.length > 0 || snapshot) {
      const merged = [...fresh.reverse(), ...known].sort((a, b) => b.id - a.id).slice(0, MAX_TRADES);
      this.trades.set(symbol, merged);
      this.markDirty(`trade|${symbol}`);
    }
    const listeners = this.tradeListeners.get(symbol);
    if (listeners && incoming.length > 0) {
      const batch: TradeBatch = { trades: incoming, snapshot };
      for (const listener of listeners) listener(batch);
    }
  }

  private markDirty(key: string): void {
    this.dirty.add(key);
    this.scheduleFrame();
  }

  private scheduleFrame(): void {
    if (this.frameScheduled) return;
    this.frameScheduled = true;
    this.options.frame(() => this.flushFrame());
  }

  /** Builds the views of what changed since the last frame (and the due tickers) and tells their listeners. */
  private flushFrame(): void {
    this.frameScheduled = false;
    if (this.tickersDue) this.flushTickers();
    const keys = [...this.dirty];
    this.dirty.clear();
    for (const key of keys) {
      if (key.startsWith('depth|')) this.refreshBookView(key.slice(6));
    }
    for (const key of keys) {
      const listeners = this.keyListeners.get(key);
      if (listeners) for (const listener of [...listeners]) listener();
    }
  }

  private refreshBookView(symbol: string): void {
    const book = this.books.get(symbol);
    if (!book || !book.loaded) {
      this.bookViews.delete(symbol);
      return;
    }
    const bids = [...book.bids].sort((a, b) => comparePrices(b[0], a[0]));
    const asks = [...book.asks].sort((a, b) => comparePrices(a[0], b[0]));
    this.bookViews.set(symbol, { symbol, seq: book.seq, ts: book.ts, bids, asks, resyncing: book.awaiting });
  }

  /**
   * Tickers wait 250 ms, then join the next animation frame's flush: React hears them in the same
   * task as the book, trades and detail of that frame, so the frame costs one render, not two.
   */
  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => {
      this.tickersDue = true;
      this.scheduleFrame();
    }, FLUSH_INTERVAL_MS);
  }

  /** Merges the pending tickers into the snapshot (a new object) and tells its listeners. */
  private flushTickers(): void {
    this.flushTimer = undefined;
    this.tickersDue = false;
    const updates = this.pending;
    this.pending = {};
    this.snapshot = { ...this.snapshot, tickers: { ...this.snapshot.tickers, ...updates } };
    this.emit();
  }

  private setStatus(status: FeedStatus): void {
    this.snapshot = { ...this.snapshot, status };
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  private send(message: object): void {
    this.loop.send(message);
  }
}

const NO_TRADES: readonly Trade[] = Object.freeze([]);

function randomClientId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID().replace(/-/g, '');
  }
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}

/** The market channel URL for a fresh random client id. */
export function marketChannelUrl(): string {
  const lang = encodeURIComponent(currentLanguage());
  return `${wsOrigin()}/ws/market/${randomClientId()}?lang=${lang}`;
}

let shared: MarketFeed | null = null;

/** The app's market feed (created on first use, connected by the first subscriber). */
export function marketFeed(): MarketFeed {
  shared ??= new MarketFeed({ url: marketChannelUrl });
  return shared;
}

/** Replaces the shared feed (tests seed it with a double or a disconnected instance). */
export function setMarketFeed(feed: MarketFeed | null): void {
  shared?.stop();
  shared = feed;
}

/** React hook: every symbol's latest ticker plus the feed's freshness. */
export function useTickers(): FeedSnapshot & { isStale: boolean } {
  const feed = marketFeed();
  useEffect(() => {
    feed.start();
    return feed.subscribe('ticker', '*');
  }, [feed]);
  const snapshot = useSyncExternalStore(feed.listen, feed.getSnapshot, feed.getSnapshot);
  return { ...snapshot, isStale: snapshot.status === 'stale' };
}

/**
 * React hook: the latest ticker of `symbol` only. Tickers reach React every 250 ms, but a
 * component using this re-renders only when this pair's ticker changed (each message is a new
 * object; the others are kept as they were).
 */
export function useTicker(symbol: string | null): Ticker | undefined {
  const feed = marketFeed();
  const pair = symbol?.toLowerCase() ?? null;
  useEffect(() => {
    if (!pair) return;
    feed.start();
    return feed.subscribe('ticker', '*');
  }, [feed, pair]);
  const get = useCallback(() => (pair ? feed.getSnapshot().tickers[pair] : undefined), [feed, pair]);
  return useSyncExternalStore(feed.listen, get, get);
}

/**
 * React hook: the last price of `symbol` — its newest trade, else the `DETAIL` last price, else
 * (with `tickerClose`) its ticker's close, else `fallback`. A string, so the component re-renders
 * only when the price itself changes, not on every trade, book or ticker message. While `enabled`
 * is false it subscribes to nothing and answers `null` (an order form needs the price once, to
 * prefill its limit price).
 */
export function useLastPrice(symbol: string, fallback: string | null, tickerClose = false, enabled = true): string | null {
  const feed = marketFeed();
  const pair = symbol.toLowerCase();
  useEffect(() => {
    if (!enabled) return;
    feed.start();
    const releases = [feed.subscribe('trade', pair), feed.subscribe('detail', pair)];
    if (tickerClose) releases.push(feed.subscribe('ticker', '*'));
    return () => releases.forEach((release) => release());
  }, [feed, pair, tickerClose, enabled]);
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!enabled) return () => {};
      const stops = [feed.watch(`trade|${pair}`, listener), feed.watch(`detail|${pair}`, listener)];
      if (tickerClose) stops.push(feed.listen(listener));
      return () => stops.forEach((stop) => stop());
    },
    [feed, pair, tickerClose, enabled],
  );
  const get = useCallback(() => (enabled ? lastPriceOf(feed, pair, tickerClose) ?? fallback : null), [feed, pair, tickerClose, fallback, enabled]);
  return useSyncExternalStore(subscribe, get, get);
}

function lastPriceOf(feed: MarketFeed, pair: string, tickerClose: boolean): string | undefined {
  return (
    feed.getTrades(pair)[0]?.price ??
    feed.getDetail(pair)?.lastPrice ??
    (tickerClose ? feed.getSnapshot().tickers[pair]?.close : undefined)
  );
}

function bestPriceOf(feed: MarketFeed, pair: string, side: 'bid' | 'ask', detailFallback: boolean): string | null {
  const book = feed.getOrderBook(pair);
  const top = (side === 'bid' ? book?.bids[0] : book?.asks[0])?.[0];
  if (top !== undefined) return top;
  if (!detailFallback) return null;
  const detail = feed.getDetail(pair);
  return (side === 'bid' ? detail?.bestBid : detail?.bestAsk) ?? null;
}

/**
 * React hook: the price a market order taking `side` of `symbol`'s book is expected to fill at —
 * the best price of that side ({@link useBestPrice}), else the last price ({@link useLastPrice}),
 * else `fallback`. While `enabled` is false (the form is not on a market order) it subscribes to
 * nothing and answers `null`: a limit order's form does not re-render as the market moves.
 */
export function useMarketPrice(
  symbol: string,
  side: 'bid' | 'ask',
  { fallback = null, detailFallback = false, tickerClose = false, enabled = true }: { fallback?: string | null; detailFallback?: boolean; tickerClose?: boolean; enabled?: boolean } = {},
): string | null {
  const feed = marketFeed();
  const pair = symbol.toLowerCase();
  useEffect(() => {
    if (!enabled) return;
    feed.start();
    const releases = [feed.subscribe('depth', pair), feed.subscribe('trade', pair), feed.subscribe('detail', pair)];
    if (tickerClose) releases.push(feed.subscribe('ticker', '*'));
    return () => releases.forEach((release) => release());
  }, [feed, pair, tickerClose, enabled]);
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!enabled) return () => {};
      const stops = [feed.watch(`depth|${pair}`, listener), feed.watch(`trade|${pair}`, listener), feed.watch(`detail|${pair}`, listener)];
      if (tickerClose) stops.push(feed.listen(listener));
      return () => stops.forEach((stop) => stop());
    },
    [feed, pair, tickerClose, enabled],
  );
  const get = useCallback(
    () => (enabled ? (bestPriceOf(feed, pair, side, detailFallback) ?? lastPriceOf(feed, pair, tickerClose) ?? fallback) : null),
    [feed, pair, side, detailFallback, tickerClose, fallback, enabled],
  );
  return useSyncExternalStore(subscribe, get, get);
}

/**
 * React hook: the best price of one side of `symbol`'s book (the top level of the live book, else
 * `DETAIL`'s top of book when `detailFallback`, else `null`). A string, so an order form using it
 * re-renders when the best price moves, not on every book update.
 */
export function useBestPrice(symbol: string, side: 'bid' | 'ask', detailFallback = false): string | null {
  const feed = marketFeed();
  const pair = symbol.toLowerCase();
  useEffect(() => {
    feed.start();
    const releases = [feed.subscribe('depth', pair)];
    if (detailFallback) releases.push(feed.subscribe('detail', pair));
    return () => releases.forEach((release) => release());
  }, [feed, pair, detailFallback]);
  const subscribe = useCallback(
    (listener: () => void) => {
      const stops = [feed.watch(`depth|${pair}`, listener)];
      if (detailFallback) stops.push(feed.watch(`detail|${pair}`, listener));
      return () => stops.forEach((stop) => stop());
    },
    [feed, pair, detailFallback],
  );
  const get = useCallback(() => bestPriceOf(feed, pair, side, detailFallback), [feed, pair, side, detailFallback]);
  return useSyncExternalStore(subscribe, get, get);
}

/** React hook: the feed's connection status only. */
export function useFeedStatus(): FeedStatus {
  const feed = marketFeed();
  useEffect(() => feed.start(), [feed]);
  const get = useCallback(() => feed.getSnapshot().status, [feed]);
  return useSyncExternalStore(feed.listen, get, get);
}

/**
 * Subscribes to `channel` of `symbol` while mounted and reads `read()` whenever the data under
 * `key` changes (at most once per animation frame).
 */
function useChannel<T>(channel: string, symbol: string | null, interval: string | undefined, key: string, read: (feed: MarketFeed) => T): T {
  const feed = marketFeed();
  useEffect(() => {
    if (!symbol) return;
    feed.start();
    return feed.subscribe(channel, symbol, interval);
  }, [feed, channel, symbol, interval]);
  const subscribe = useCallback((listener: () => void) => feed.watch(key, listener), [feed, key]);
  // `read` may be a new closure on every render; what it reads depends only on the feed and key.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const get = useCallback(() => read(feed), [feed, key]);
  return useSyncExternalStore(subscribe, get, get);
}

/** React hook: the live order book of `symbol` (`null` until its snapshot arrived). */
export function useOrderBook(symbol: string | null): OrderBook | null {
  const pair = symbol?.toLowerCase() ?? null;
  return useChannel('depth', pair, undefined, `depth|${pair}`, (feed) => (pair ? feed.getOrderBook(pair) : null));
}

/** React hook: the recent trades of `symbol`, newest first. */
export function useTrades(symbol: string | null): readonly Trade[] {
  const pair = symbol?.toLowerCase() ?? null;
  return useChannel('trade', pair, undefined, `trade|${pair}`, (feed) => (pair ? feed.getTrades(pair) : NO_TRADES));
}

/** React hook: mark, index and top of book of `symbol`. */
export function useMarketDetail(symbol: string | null): MarketDetail | null {
  const pair = symbol?.toLowerCase() ?? null;
  return useChannel('detail', pair, undefined, `detail|${pair}`, (feed) => (pair ? feed.getDetail(pair) : null));
}

/** React hook: the server's live candle of `symbol` at `interval` (UTC calendar). */
export function useLiveKline(symbol: string | null, interval: string): LiveKline | null {
  const pair = symbol?.toLowerCase() ?? null;
  return useChannel('kline', pair, interval, `kline|${pair}|${interval}`, (feed) => (pair ? feed.getKline(pair, interval) : null));
}
