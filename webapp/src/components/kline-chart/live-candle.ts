/**
 * The chart's live candle, built in the browser from the market channel's trades by wasm-core
 * (`applyTrade`), in the user's time zone.
 *
 * The kline history ends with the last closed minute: the minute in progress when it was read (the
 * "cut") is not in it. So the live candle starts from the history's newest candle when that one is
 * still the current interval, and every trade from the cut on is applied to it. Trades are kept for
 * a few minutes (the subscription's snapshot of the last 50 included), so the candle can be rebuilt
 * when the history is read again: after the minute of the cut has closed the chart reads the newest
 * candles once more (`reseed`), which brings in the trades of that minute made before the
 * subscription, and from then on the live candle is exact. Duplicate trades (a snapshot after a
 * reconnect repeats recent ones) are recognised by id.
 *
 * @module
 */

import { applyTrade, type Candle, intervalBucket, type KlineInterval } from '../../lib/wasm';
import type { Trade } from '../../lib/live';

/** How long trades are kept for rebuilding the live candle. */
export const KEEP_TRADES_MS = 5 * 60_000;
/** The most trades kept. */
export const MAX_KEPT_TRADES = 20_000;
const MINUTE_MS = 60_000;

/** What changed since the last `take()`: candles that closed, oldest first, and the live one. */
export interface LiveChanges {
  closed: Candle[];
  live: Candle | null;
}

/** The live candle of one pair at one interval and time zone. */
export class LiveCandle {
  private interval: KlineInterval;
  private offsetMinutes: number;
  /** Recent trades, ascending by id. */
  private trades: Trade[] = [];
  private live: Candle | null = null;
  /** First millisecond the history does not cover; `null` until seeded. */
  private cut: number | null = null;
  private lastApplied = 0;
  private closed: Candle[] = [];
  private changed = false;
  /** Server clock minus ours, from trade times (the largest seen: delivery only makes it smaller). */
  private skew: number | null = null;

  constructor(
    interval: KlineInterval,
    offsetMinutes: number,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.interval = interval;
    this.offsetMinutes = offsetMinutes;
  }

  /** The candle being built, if any. */
  get current(): Candle | null {
    return this.live;
  }

  /** The server's clock, estimated from trade times. */
  serverNow(): number {
    return this.now() + (this.skew ?? 0);
  }

  /** The start of the server's minute in progress: what a history read now leaves out. */
  minuteInProgress(): number {
    return Math.floor(this.serverNow() / MINUTE_MS) * MINUTE_MS;
  }

  /** Starts over at another interval or time zone (until `seed`, trades are only kept). */
  reset(interval: KlineInterval, offsetMinutes: number): void {
    this.interval = interval;
    this.offsetMinutes = offsetMinutes;
    this.live = null;
    this.cut = null;
    this.lastApplied = 0;
    this.closed = [];
    this.changed = false;
  }

  /**
   * Starts the live candle from the history: `newest` is its newest candle (or `null`) and `cut` the
   * first millisecond it does not cover. Every kept trade from `cut` on is applied again.
   */
  seed(newest: Candle | null, cut: number): void {
    this.cut = cut;
    const bucket = intervalBucket(cut, this.interval, this.offsetMinutes);
    this.live = newest && newest.openTime === bucket.openTime ? newest : null;
    this.lastApplied = 0;
    this.closed = [];
    for (const trade of this.trades) if (trade.ts >= cut) this.apply(trade);
    this.changed = true;
  }

  /** Keeps `trades` (any order; known ids are skipped) and applies the new ones past the cut. */
  add(trades: readonly Trade[]): void {
    if (trades.length === 0) return;
    const receivedAt = this.now();
    const known = new Set(this.trades.map((t) => t.id));
    const fresh = trades.filter((t) => !known.has(t.id)).sort((a, b) => a.id - b.id);
    if (fresh.length === 0) return;
    const latest = fresh[fresh.length - 1]!;
    const skew = latest.ts - receivedAt;
    if (this.skew === null || skew > this.skew) this.skew = skew;
    const lastKept = this.trades[this.trades.length - 1];
    if (!lastKept || fresh[0]!.id > lastKept.id) this.trades.push(...fresh);
    else this.trades = [...this.trades, ...fresh].sort((a, b) => a.id - b.id);
    this.prune();
    if (this.cut === null) return;
    for (const trade of fresh) {
      if (trade.ts >= this.cut && trade.id > this.lastApplied) this.apply(trade);
    }
  }

  /** The changes since the last call (`null` when nothing changed). */
  take(): LiveChanges | null {
    if (!this.changed) return null;
    const changes = { closed: this.closed, live: this.live };
    this.closed = [];
    this.changed = false;
    return changes;
  }

  private apply(trade: Trade): void {
    try {
      const update = applyTrade(this.live, { price: trade.price, qty: trade.quantity, time: trade.ts }, this.interval, this.offsetMinutes);
      if (update.closed) this.closed.push(update.closed);
      this.live = update.live;
      this.lastApplied = trade.id;
      this.changed = true;
    } catch (error) {
      // A trade older than the live candle (clock trouble): leave it out rather than break the chart.
      console.warn('Live candle: trade not applied', error);
    }
  }

  private prune(): void {
    const horizon = this.serverNow() - KEEP_TRADES_MS;
    let drop = 0;
    while (drop < this.trades.length && this.trades[drop]!.ts < horizon) drop += 1;
    drop = Math.max(drop, this.trades.length - MAX_KEPT_TRADES);
    if (drop > 0) this.trades.splice(0, drop);
  }
}
