/**
 * Market rows for display: the coin list (getCoinList's `amount` / `open`) overlaid with the live
 * tickers, formatted by wasm-core in ONE `formatTickerRows` call per change.
 *
 * @module
 */

import { useMemo } from 'react';
import { useGetCoinList } from '../api/generated/common/common';
import type { CoinListEntry } from '../api/generated/model';
import { type FeedStatus, useTickers } from '../lib/live';
import { type CoreError, formatTickerRows, isCoreError, type TickerRowInput, type TickerRowView } from '../lib/wasm';

/** What a pair without a price yet shows (the core's own placeholder for an unknown value). */
export const NO_PRICE: Omit<TickerRowView, 'symbol'> = { price: '--', changePercent: null, changeText: '--', direction: 'flat' };

/** Which list of getCoinList to show. */
export type MarketKind = 'spot' | 'contract';

/** One coin with its formatted price and change. */
export interface MarketRow {
  coin: CoinListEntry;
  /** `BTC/USDT`, or `showSymbol` when `customizeFlag` is 2. */
  pair: string;
  view: TickerRowView;
  /** True once a live ticker has replaced the coin list's price. */
  live: boolean;
}

/** The market rows and where they stand. */
export interface MarketRows {
  rows: MarketRow[];
  status: FeedStatus;
  isLoading: boolean;
  /** The coin list failed to load. */
  isError: boolean;
  /** The core rejected a value (translated by the caller). */
  formatError: CoreError | null;
}

/** The display name of a coin list entry. */
export function pairName(coin: CoinListEntry): string {
  if (coin.customizeFlag === 2 && coin.showSymbol) return coin.showSymbol;
  return `${coin.coin.toUpperCase()}/${coin.baseCoin.toUpperCase()}`;
}

/** Sorts by the list's `sort` field, then symbol. */
function bySort(a: CoinListEntry, b: CoinListEntry): number {
  return a.sort - b.sort || a.symbol.localeCompare(b.symbol);
}

/**
 * The rows of one market list, optionally restricted to `symbols` (lower case). All rows are
 * formatted together by a single wasm-core call, memoised on the inputs.
 */
export function useMarketRows(kind: MarketKind = 'spot', symbols?: readonly string[]): MarketRows {
  const coinList = useGetCoinList();
  const { tickers, status } = useTickers();
  const list = kind === 'spot' ? coinList.data?.currencyList : coinList.data?.contractList;
  const filterKey = symbols?.join(',');

  const coins = useMemo(() => {
    const wanted = filterKey === undefined ? null : new Set(filterKey.split(','));
    return [...(list ?? [])].filter((c) => wanted === null || wanted.has(c.symbol)).sort(bySort);
  }, [list, filterKey]);

  const formatted = useMemo((): { rows: MarketRow[]; error: CoreError | null } => {
    if (coins.length === 0) return { rows: [], error: null };
    // A pair has no price until its market source produced one: it shows NO_PRICE meanwhile.
    const inputs: TickerRowInput[] = [];
    for (const coin of coins) {
      const ticker = tickers[coin.symbol];
      const price = ticker?.close ?? coin.amount;
      const open = ticker?.open ?? coin.open;
      if (price !== undefined && open !== undefined) {
        inputs.push({ symbol: coin.symbol, price, open, pricePrecision: coin.pricePrecision });
      }
    }
    try {
      const views = new Map(formatTickerRows(inputs).map((view) => [view.symbol, view]));
      return {
        rows: coins.map((coin) => ({
          coin,
          pair: pairName(coin),
          view: views.get(coin.symbol) ?? { ...NO_PRICE, symbol: coin.symbol },
          live: coin.symbol in tickers,
        })),
        error: null,
      };
    } catch (error) {
      console.error('formatTickerRows failed', error);
      return { rows: [], error: isCoreError(error) ? error : { code: 'unknown', key: 'errors.unknown', params: {} } };
    }
  }, [coins, tickers]);

  return {
    rows: formatted.rows,
    status,
    isLoading: coinList.isPending,
    isError: coinList.isError,
    formatError: formatted.error,
  };
}

/** Rows whose coin, symbol or pair contains `query` (case-insensitive, ignoring `/`, `-`, `_`). */
export function filterRows<R extends MarketRow>(rows: R[], query: string): R[] {
  const q = query.trim().toLowerCase().replace(/[\s/_-]/g, '');
  if (!q) return rows;
  return rows.filter(
    (row) =>
      row.coin.coin.toLowerCase().includes(q) ||
      row.coin.symbol.toLowerCase().includes(q) ||
      row.pair.toLowerCase().replace(/[\s/_-]/g, '').includes(q),
  );
}
