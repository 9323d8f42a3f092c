/**
 * Display helpers of the funds screens: amounts through wasm-core (money stays a decimal string),
 * coin names and logos, and times in the user's time zone (the shared time-zone hook).
 *
 * @module
 */

import { useMemo } from 'react';
import { useDateTimeFormatter as useSharedFormatter, useTimeZone } from '../../../hooks/use-time-zone';
import { formatBalance, formatPnl, formatPrice, formatQuantity, orDash } from '../../../lib/wasm';

/** A coin's display name (`usdt` → `USDT`). */
export function coinName(coin: string): string {
  return coin.toUpperCase();
}

/** The logo of a coin (the coin list's logos are `/coin-logos/<coin>.svg`; a missing one shows a letter). */
export function coinLogo(coin: string): string {
  return `/coin-logos/${coin.toLowerCase()}.svg`;
}

/** A coin amount with its own decimals and thousands separators (`12,345.678`). */
export function formatCoin(value: string | null | undefined): string {
  return orDash((v) => formatQuantity(v), value);
}

/** A balance or valuation in USDT: thousands separators, 2 decimals, truncated (never shown larger than held). */
export function formatUsdt(value: string | null | undefined): string {
  return orDash((v) => formatBalance(v), value);
}

/** A result in USDT (profit and loss, a fee, funding): 2 decimals, nearest with ties to even. */
export function formatResult(value: string | null | undefined): string {
  return orDash(formatPnl, value);
}

/** A rate or price, decimals by magnitude (`0.00001523`, `67,012.35`). */
export function formatRate(value: string | null | undefined): string {
  return orDash((v) => formatPrice(v), value);
}

/** A value in BTC: 8 decimals. */
export function formatBtc(value: string | null | undefined): string {
  return orDash((v) => formatQuantity(v, 8), value);
}

/** UTC offset (minutes) of the user's time zone (their choice, else the platform's default). */
export function useTimeZoneOffset(): number {
  return useTimeZone().offsetMinutes;
}

/** A formatter of Unix milliseconds as `MM/DD/YYYY HH:mm:ss` in the user's time zone (`--` when absent). */
export function useDateTimeFormatter(): (epochMs: number | null | undefined) => string {
  const format = useSharedFormatter();
  return useMemo(
    () => (epochMs: number | null | undefined) => (epochMs === null || epochMs === undefined || !Number.isFinite(epochMs) ? '--' : format(epochMs)),
    [format],
  );
}

/** `TLa2f6…wYjU7`: the start and end of a long address or hash. */
export function shorten(value: string, head = 8, tail = 6): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}
