//! The rules of a USDT-M perpetual the API does not publish yet: its maintenance margin tiers (as
//! wasm-core's margin functions take them) and the futures fee rates.
//!
//! The API does not publish a symbol's tier table (only `maxLeverage`, the first tier's, through
//! `contract/position/leverage`), so this is the server's DEFAULT table (backend `FuturesConfig::
//! default_tiers`, futures-math.md's BTCUSDT table): notional floors and caps × 1 for BTCUSDT, × ½ for
//! ETHUSDT and × 1/10 for every other pair, `cum` derived by the rule. A deployment that configures
//! its own `[futures.tiers]` must publish them for the order form's preview to follow; until then the
//! preview matches the server for the default configuration only.

import type { MarginTier } from './wasm';

/** One tier per row: notional floor, cap, max leverage, MMR (fraction), cum — decimal strings. */
type Row = readonly [string, string, string, string, string];

const TABLES: Record<'btc' | 'eth' | 'other', readonly Row[]> = {
  btc: [
    ['0', '50000', '125', '0.004', '0'],
    ['50000', '250000', '100', '0.005', '50'],
    ['250000', '1000000', '50', '0.01', '1300'],
    ['1000000', '10000000', '20', '0.025', '16300'],
    ['10000000', '20000000', '10', '0.05', '266300'],
  ],
  eth: [
    ['0', '25000', '125', '0.004', '0'],
    ['25000', '125000', '100', '0.005', '25'],
    ['125000', '500000', '50', '0.01', '650'],
    ['500000', '5000000', '20', '0.025', '8150'],
    ['5000000', '10000000', '10', '0.05', '133150'],
  ],
  other: [
    ['0', '5000', '125', '0.004', '0'],
    ['5000', '25000', '100', '0.005', '5'],
    ['25000', '100000', '50', '0.01', '130'],
    ['100000', '1000000', '20', '0.025', '1630'],
    ['1000000', '2000000', '10', '0.05', '26630'],
  ],
};

/** The tier table of `symbol` (`btcusdt`). */
export function futuresTiers(symbol: string): MarginTier[] {
  const key = symbol === 'btcusdt' ? 'btc' : symbol === 'ethusdt' ? 'eth' : 'other';
  return TABLES[key].map(([notionalFloor, notionalCap, maxLeverage, mmr, cum]) => ({ notionalFloor, notionalCap, maxLeverage, mmr, cum }));
}

/**
 * The futures fee rates (fractions) of the server's default `[futures]` configuration (README): the
 * coin list carries the spot rates only. Like the tiers, a deployment with other rates must publish them.
 */
export const FUTURES_FEES = { maker: '0.0002', taker: '0.0005' } as const;

/** The funding rule's settings of the default `[futures]` configuration (fractions per interval). */
export const FUNDING_DEFAULTS = { interest: '0.0001', cap: '0.0075' } as const;
