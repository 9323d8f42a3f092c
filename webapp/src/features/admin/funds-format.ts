/**
 * Display helpers of the deposit and withdrawal queues: coin amounts through wasm-core.
 *
 * @module
 */

import { formatQuantity } from '../../lib/wasm';

/** `1,234.5 USDT`: an amount as the core formats it, with its coin. */
export function amountText(value: string, coin: string): string {
  try {
    return `${formatQuantity(value)} ${coin.toUpperCase()}`;
  } catch {
    return `${value} ${coin.toUpperCase()}`;
  }
}

/** `TLa2f6VPqD…wYjU7`: the start and end of a long address. */
export function shortAddress(value: string): string {
  return value.length <= 20 ? value : `${value.slice(0, 10)}…${value.slice(-6)}`;
}
