/**
 * Test fixture: the rules `GET /api/contract/coin/rules` answers for the server's default `[futures]`
 * configuration (futures-math.md's BTCUSDT table; notional floors and caps × ½ for ETHUSDT and × 1/10
 * for other pairs; maker 0.02 %, taker 0.05 %; funding every 8 h, interest 0.01 %, cap 0.75 %).
 *
 * @module
 */

import type { ContractRules } from '../api/generated/model';

/** One tier per row: notional floor, cap, max leverage, MMR (fraction), cum. */
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

/** The default rules of `symbol` (`btcusdt`), as the server publishes them. */
export function contractRules(symbol: string, tickSize = '0.01', stepSize = '0.001'): ContractRules {
  const key = symbol === 'btcusdt' ? 'btc' : symbol === 'ethusdt' ? 'eth' : 'other';
  return {
    symbol,
    tickSize,
    stepSize,
    makerFeeRate: '0.0002',
    takerFeeRate: '0.0005',
    maxLeverage: '125',
    fundingIntervalSecs: 28800,
    fundingCap: '0.0075',
    fundingInterest: '0.0001',
    tiers: TABLES[key].map(([notionalFloor, notionalCap, maxLeverage, mmr, cum]) => ({ notionalFloor, notionalCap, maxLeverage, mmr, cum })),
  };
}
