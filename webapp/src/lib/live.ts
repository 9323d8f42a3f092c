//! The market WebSocket (`/ws/market/{clientId}`): subscriptions, a ping every 15 s, reconnect 3 s
//! after an error or close (re-sending every subscription), and a staleness flag when nothing has
//! been heard for 30 s. React reads it through `useTickers()` / `useFeedStatus()`.

import { useEffect, useSyncExternalStore } from 'react';
import { currentLanguage } from '../i18n';
import { wsOrigin } from './platform-config';

/** Ping interval while connected. */
export const PING_INTERVAL_MS = 15_000;
/** Delay before reconnecting after an error or close. */
export const RECONNECT_DELAY_MS = 3_000;
/** Silence after which data is stale (and the socket is recycled). */
export const STALE_AFTER_MS = 30_000;
/** How often ticker updates are handed to React (the server may push many per second). */
export const FLUSH_INTERVAL_MS = 250;

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

/** The WebSocket surface the feed uses (the DOM one, or a test double). */
export interface SocketLike {
  readyState: number;
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  send(data: string): void;
  close(): void;
}

/** Injectable dependencies. */
export interface FeedOptions {
  /** Builds the socket URL for a fresh client id. */
  url: () => string;
  createSocket?: (url: string) => SocketLike;
  now?: () => number;
}

const OPEN = 1;

type Key = `${string}|${string}`;

/** A market feed connection with ref-counted subscriptions. */
export class MarketFeed {
  private readonly options: Required<FeedOptions>;
  private socket: SocketLike | null = null;
  private readonly subscriptions = new Map<Key, number>();
  private readonly listeners = new Set<() => void>();
  private pending: Record<string, Ticker> = {};
  private snapshot: FeedSnapshot = { status: 'connecting', tickers: {} };
  /** When the server was last heard (data freshness). */
  private lastHeard = 0;
  /** When the current socket was created or last heard (silent-socket detection). */
  private socketActivity = 0;
  private everOpened = false;
  private started = false;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private watchdogTimer: ReturnType<typeof setInterval> | undefined;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: FeedOptions) {
    this.options = {
      createSocket: (url) => new WebSocket(url),
      now: () => Date.now(),
      ...options,
    };
  }

  /** Connects (idempotent). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.lastHeard = this.options.now();
    this.watchdogTimer = setInterval(() => this.checkStaleness(), 1_000);
    this.connect();
  }

  /** Disconnects and stops reconnecting. */
  stop(): void {
    this.started = false;
    clearInterval(this.watchdogTimer);
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.dropSocket();
  }

  /** Subscribes to `channel` for `symbol` (`*` for all); returns the unsubscribe function. */
  subscribe(channel: string, symbol: string): () => void {
    const key: Key = `${channel}|${symbol}`;
    const count = this.subscriptions.get(key) ?? 0;
    this.subscriptions.set(key, count + 1);
    if (count === 0) this.send({ op: 'subscribe', channel, symbol });
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const left = (this.subscriptions.get(key) ?? 1) - 1;
      if (left > 0) {
        this.subscriptions.set(key, left);
      } else {
        this.subscriptions.delete(key);
        this.send({ op: 'unsubscribe', channel, symbol });
      }
    };
  }

  /** For `useSyncExternalStore`. */
  listen = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The current snapshot (a new object after every change). */
  getSnapshot = (): FeedSnapshot => this.snapshot;

  private connect(): void {
    if (!this.started) return;
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url());
    } catch (error) {
      console.error('Market feed: cannot open the socket', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.socketActivity = this.options.now();
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.everOpened = true;
      this.heard();
      for (const key of this.subscriptions.keys()) {
        const [channel, symbol] = key.split('|');
        this.send({ op: 'subscribe', channel, symbol });
      }
      this.pingTimer = setInterval(() => this.send({ op: 'ping', ts: this.options.now() }), PING_INTERVAL_MS);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.heard();
      this.handle(event.data);
    };
    socket.onerror = () => {
      if (socket !== this.socket) return;
      this.lost();
    };
    socket.onclose = () => {
      if (socket !== this.socket) return;
      this.lost();
    };
  }

  private lost(): void {
    this.dropSocket();
    if (this.snapshot.status !== 'stale') this.setStatus(this.everOpened ? 'reconnecting' : 'connecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.started || this.reconnectTimer !== undefined) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect();
    }, RECONNECT_DELAY_MS);
  }

  private dropSocket(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      try {
        socket.close();
      } catch {
        // Already closed.
      }
    }
  }

  private heard(): void {
    this.lastHeard = this.socketActivity = this.options.now();
    if (this.snapshot.status !== 'live' && this.socket?.readyState === OPEN) this.setStatus('live');
  }

  private checkStaleness(): void {
    const now = this.options.now();
    if (now - this.lastHeard > STALE_AFTER_MS && this.snapshot.status !== 'stale') this.setStatus('stale');
    // A socket silent for 30 s is as good as a dead one: recycle it (the reconnect follows in 3 s).
    if (this.socket && now - this.socketActivity > STALE_AFTER_MS) this.lost();
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
    if (type === 'ticker' && typeof symbol === 'string' && typeof data === 'object' && data !== null) {
      const ticker = data as Partial<Ticker>;
      if (typeof ticker.close !== 'string' || typeof ticker.open !== 'string') return;
      const key = symbol.toLowerCase();
      this.pending[key] = { ...(ticker as Ticker), symbol: key };
      this.scheduleFlush();
    } else if (type === 'error') {
      console.warn('Market feed error', message);
    }
  }

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      const updates = this.pending;
      this.pending = {};
      this.snapshot = { ...this.snapshot, tickers: { ...this.snapshot.tickers, ...updates } };
      this.emit();
    }, FLUSH_INTERVAL_MS);
  }

  private setStatus(status: FeedStatus): void {
    this.snapshot = { ...this.snapshot, status };
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  private send(message: object): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }
}

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
