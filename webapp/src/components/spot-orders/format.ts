/**
 * Display of spot orders and fills: each pair's name and precisions from the coin list, prices and
 * quantities through wasm-core (money stays a decimal string), times in the user's time zone.
 *
 * @module
 */

import { useMemo } from 'react';
import { useGetCoinList } from '../../api/generated/common/common';
import type { CoinListEntry } from '../../api/generated/model';
import { pairName } from '../../hooks/use-market-rows';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { formatPrice, formatQuantity, orDash } from '../../lib/wasm';

/** What a table needs to show a row of any pair. */
export interface SpotFormat {
  /** `BTC/USDT` (the symbol upper-cased for a pair no longer listed). */
  pair: (symbol: string) => string;
  /** The base asset of a pair, upper case. */
  base: (symbol: string) => string;
  /** The quote asset of a pair, upper case. */
  quote: (symbol: string) => string;
  /** A price with the pair's decimals; `--` for none. */
  price: (symbol: string, value: string | null | undefined) => string;
  /** A base quantity with the pair's decimals; `--` for none. */
  quantity: (symbol: string, value: string | null | undefined) => string;
  /** An amount with its own decimals (fees, quote totals); `--` for none. */
  amount: (value: string | null | undefined) => string;
  /** `MM/DD/YYYY HH:mm:ss` in the user's time zone. */
  time: (epochMs: number) => string;
}

/** The formatting of spot rows, from the coin list and the time zone. */
export function useSpotFormat(): SpotFormat {
  const coinList = useGetCoinList();
  const time = useDateTimeFormatter();
  return useMemo(() => {
    const bySymbol = new Map<string, CoinListEntry>((coinList.data?.currencyList ?? []).map((coin) => [coin.symbol, coin]));
    const coin = (symbol: string) => bySymbol.get(symbol.toLowerCase());
    return {
      pair: (symbol) => {
        const entry = coin(symbol);
        return entry ? pairName(entry) : symbol.toUpperCase();
      },
      base: (symbol) => (coin(symbol)?.coin ?? symbol.replace(/usdt$/i, '')).toUpperCase(),
      quote: (symbol) => (coin(symbol)?.baseCoin ?? 'usdt').toUpperCase(),
      price: (symbol, value) => orDash((v) => formatPrice(v, coin(symbol)?.pricePrecision), value),
      quantity: (symbol, value) => orDash((v) => formatQuantity(v, coin(symbol)?.quantityPrecision), value),
      amount: (value) => orDash((v) => formatQuantity(v), value),
      time,
    };
  }, [coinList.data, time]);
}
