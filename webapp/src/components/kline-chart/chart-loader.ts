/**
 * klinecharts' data loader for one chart: history pages from `POST /api/market/kline` (the newest
 * page first, older pages as the user scrolls back: klinecharts 10 asks with type `forward` and the
 * first bar's timestamp), and the live candle from the market channel's trades (`LiveCandle`),
 * handed to the chart at most once per animation frame.
 *
 * @module
 */

import type { Chart, DataLoader, DataLoaderGetBarsParams, DataLoaderSubscribeBarParams, KLineData } from 'klinecharts';
import type { KlinePage, KlineQuery } from '../../api/generated/model';
import type { MarketFeed, TradeBatch } from '../../lib/live';
import type { Candle } from '../../lib/wasm';
import { fromApiCandle, sourceOf, toKLineData } from './candles';
import { type ChartInterval, intervalOf } from './intervals';
import { LiveCandle } from './live-candle';

/** Candles per history page. */
export const PAGE_SIZE = 500;
/** How long after the cut minute closes the newest candles are read again (its candle is stored by then). */
export const RESEED_DELAY_MS = 3_000;
/** Candles read when re-reading the newest ones. */
const RESEED_PAGE = 3;

/** What the chart shows around the canvas. */
export interface ChartState {
  /** The first page is loading. */
  loading: boolean;
  /** The first page failed (the chart offers a retry). */
  error: unknown;
  /** How many bars the chart holds. */
  count: number;
  /** Open time of the oldest bar. */
  firstTime: number | null;
  /** The newest bar's candle (exact strings), for the legend. */
  last: Candle | null;
}

/** The loader's collaborators (injected for tests). */
export interface ChartLoaderDeps {
  /** Reads a page of kline history (the generated `getKline`). */
  fetchPage: (query: KlineQuery, signal: AbortSignal) => Promise<KlinePage>;
  feed: MarketFeed;
  /** The chart the loader feeds (for the bars it already holds). */
  chart: () => Chart | null;
  /** Tells React what changed. */
  onState: (state: ChartState) => void;
  frame?: (callback: () => void) => void;
  now?: () => number;
}

function defaultFrame(callback: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => callback());
  else setTimeout(callback, 16);
}

/** The loader (pass it to `chart.setDataLoader`). */
export class ChartLoader implements DataLoader {
  private offsetMinutes: number;
  private generation = 0;
  private abort: AbortController | null = null;
  private symbol: string | null = null;
  private interval: ChartInterval | null = null;
  private live: LiveCandle | null = null;
  private seeded = false;
  private releaseTrades: (() => void) | null = null;
  private barCallback: ((bar: KLineData) => void) | null = null;
  private frameScheduled = false;
  private reseedTimer: ReturnType<typeof setTimeout> | undefined;
  private state: ChartState = { loading: true, error: null, count: 0, firstTime: null, last: null };
  private readonly frame: (callback: () => void) => void;
  private readonly now: () => number;

  constructor(
    private readonly deps: ChartLoaderDeps,
    offsetMinutes: number,
  ) {
    this.offsetMinutes = offsetMinutes;
    this.frame = deps.frame ?? defaultFrame;
    this.now = deps.now ?? (() => Date.now());
  }

  /** The UTC offset the candles follow; a change reloads the chart. */
  setOffsetMinutes(offsetMinutes: number): void {
    if (offsetMinutes === this.offsetMinutes) return;
    this.offsetMinutes = offsetMinutes;
    this.deps.chart()?.resetData();
  }

  /** Stops everything (the chart is going away). */
  dispose(): void {
    this.generation += 1;
    this.abort?.abort();
    clearTimeout(this.reseedTimer);
    this.releaseTrades?.();
    this.releaseTrades = null;
    this.barCallback = null;
  }

  getBars = async (params: DataLoaderGetBarsParams): Promise<void> => {
    const interval = intervalOf(params.period);
    const symbol = params.symbol.ticker.toLowerCase();
    if (!interval) {
      params.callback([], false);
      return;
    }
    if (params.type === 'init') {
      await this.loadFirstPage(symbol, interval, params);
    } else if (params.type === 'forward') {
      await this.loadOlder(symbol, interval, params);
    } else {
      // Newer than the newest bar: the live candle brings those.
      params.callback([], { backward: false });
    }
  };

  subscribeBar = (params: DataLoaderSubscribeBarParams): void => {
    this.barCallback = params.callback;
  };

  unsubscribeBar = (): void => {
    this.barCallback = null;
  };

  private async loadFirstPage(symbol: string, interval: ChartInterval, params: DataLoaderGetBarsParams): Promise<void> {
    const generation = ++this.generation;
    this.abort?.abort();
    clearTimeout(this.reseedTimer);
    const abort = (this.abort = new AbortController());
    this.watchTrades(symbol);
    this.interval = interval;
    this.seeded = false;
    this.live!.reset(interval, this.offsetMinutes);
    this.setState({ loading: true, error: null, count: 0, firstTime: null, last: null });
    let page: KlinePage;
    try {
      page = await this.deps.fetchPage({ symbol, interval, limit: PAGE_SIZE, offsetMinutes: this.offsetMinutes }, abort.signal);
    } catch (error) {
      if (generation !== this.generation) return;
      params.callback([], false);
      this.setState({ ...this.state, loading: false, error });
      return;
    }
    if (generation !== this.generation) return;
    const candles = page.candles.map(fromApiCandle);
    const cut = this.live!.minuteInProgress();
    this.live!.seed(candles.at(-1) ?? null, cut);
    this.seeded = true;
    const changes = this.live!.take();
    if (changes) {
      for (const candle of [...changes.closed, ...(changes.live ? [changes.live] : [])]) upsertTail(candles, candle);
    }
    params.callback(candles.map(toKLineData), { forward: page.hasMore, backward: false });
    this.scheduleReseed(cut);
    this.publish();
  }

  private async loadOlder(symbol: string, interval: ChartInterval, params: DataLoaderGetBarsParams): Promise<void> {
    const generation = this.generation;
    const endTime = params.timestamp;
    if (endTime === null) {
      params.callback([], { forward: false });
      return;
    }
    let page: KlinePage;
    try {
      page = await this.deps.fetchPage(
        { symbol, interval, endTime, limit: PAGE_SIZE, offsetMinutes: this.offsetMinutes },
        this.abort?.signal ?? new AbortController().signal,
      );
    } catch {
      // Leave "more" on: the next scroll to the left edge tries again.
      if (generation === this.generation) params.callback([], { forward: true });
      return;
    }
    if (generation !== this.generation) return;
    params.callback(page.candles.map(fromApiCandle).map(toKLineData), { forward: page.hasMore });
    this.publish();
  }

  /** Subscribes to the trades of `symbol` (once per pair: the kept trades survive interval changes). */
  private watchTrades(symbol: string): void {
    if (this.symbol === symbol && this.live) return;
    this.releaseTrades?.();
    this.symbol = symbol;
    this.live = new LiveCandle(this.interval ?? '1m', this.offsetMinutes, this.now);
    const { feed } = this.deps;
    feed.start();
    const unsubscribe = feed.subscribe('trade', symbol);
    const unlisten = feed.onTrades(symbol, (batch) => this.onTrades(batch));
    this.releaseTrades = () => {
      unlisten();
      unsubscribe();
    };
  }

  private onTrades(batch: TradeBatch): void {
    const live = this.live;
    if (!live) return;
    live.add(batch.trades);
    // A snapshot after the first one follows a reconnect: trades may have been missed meanwhile.
    if (batch.snapshot && this.seeded) this.scheduleReseed(live.minuteInProgress());
    this.scheduleFrame();
  }

  private scheduleFrame(): void {
    if (this.frameScheduled) return;
    this.frameScheduled = true;
    this.frame(() => {
      this.frameScheduled = false;
      this.flush();
    });
  }

  /** Hands the live candle's changes to the chart (once per frame). */
  private flush(): void {
    const changes = this.seeded ? this.live?.take() : null;
    if (!changes || !this.barCallback) return;
    for (const candle of changes.closed) this.barCallback(toKLineData(candle));
    if (changes.live) this.barCallback(toKLineData(changes.live));
    this.publish();
  }

  /** Reads the newest candles again once the minute starting at `cut` has closed and been stored. */
  private scheduleReseed(cut: number): void {
    clearTimeout(this.reseedTimer);
    const live = this.live;
    if (!live) return;
    const delay = Math.max(RESEED_DELAY_MS, cut + 60_000 + RESEED_DELAY_MS - live.serverNow());
    const generation = this.generation;
    this.reseedTimer = setTimeout(() => void this.reseed(generation), delay);
  }

  private async reseed(generation: number): Promise<void> {
    const { symbol, interval, live } = this;
    if (!symbol || !interval || !live || generation !== this.generation) return;
    let page: KlinePage;
    try {
      page = await this.deps.fetchPage(
        { symbol, interval, limit: RESEED_PAGE, offsetMinutes: this.offsetMinutes },
        this.abort?.signal ?? new AbortController().signal,
      );
    } catch {
      return;
    }
    if (generation !== this.generation) return;
    const candles = page.candles.map(fromApiCandle);
    live.seed(candles.at(-1) ?? null, live.minuteInProgress());
    const current = live.current;
    // Bars before the live one that the first read had only in part are corrected in place (the
    // chart's data list is its own array; the update below redraws and recomputes the indicators).
    const bars = this.deps.chart()?.getDataList();
    if (bars) {
      for (const candle of candles) {
        if (current && candle.openTime >= current.openTime) continue;
        const index = bars.findIndex((bar) => bar.timestamp === candle.openTime);
        if (index >= 0) bars[index] = toKLineData(candle);
      }
    }
    const changes = live.take();
    if (this.barCallback) {
      if (changes && (changes.closed.length > 0 || changes.live)) {
        for (const candle of changes.closed) this.barCallback(toKLineData(candle));
        if (changes.live) this.barCallback(toKLineData(changes.live));
      } else if (bars?.length) {
        this.barCallback(bars[bars.length - 1]!);
      }
    }
    this.publish();
  }

  /** Tells React how many bars the chart holds and what the newest is. */
  private publish(): void {
    const bars = this.deps.chart()?.getDataList() ?? [];
    this.setState({
      loading: false,
      error: null,
      count: bars.length,
      firstTime: bars[0]?.timestamp ?? null,
      last: sourceOf(bars[bars.length - 1]),
    });
  }

  private setState(state: ChartState): void {
    this.state = state;
    this.deps.onState(state);
  }
}

/** Puts `candle` at the end of `candles` (oldest first): replacing the bar of its time, or after it. */
export function upsertTail(candles: Candle[], candle: Candle): void {
  for (let i = candles.length - 1; i >= 0; i -= 1) {
    const time = candles[i]!.openTime;
    if (time === candle.openTime) {
      candles[i] = candle;
      return;
    }
    if (time < candle.openTime) {
      candles.splice(i + 1, 0, candle);
      return;
    }
  }
  candles.unshift(candle);
}
