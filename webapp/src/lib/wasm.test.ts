/**
 * Formats through the real wasm-core Node.js build (../wasm-core/pkg-node).
 *
 * @module
 */

import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import {
  coreErrorText,
  formatAmount,
  formatBalance,
  formatCompact,
  formatDateTime,
  formatPercent,
  formatPnl,
  formatPrice,
  formatTickerRows,
  isCoreError,
  priceChangePercent,
  timeZones,
} from './wasm';

describe('wasm-core through lib/wasm', () => {
  it('formats a ticker table in one call', () => {
    const rows = formatTickerRows([
      { symbol: 'btcusdt', price: '67012.35', open: '65890.12', pricePrecision: 2 },
      { symbol: 'ethusdt', price: '3100', open: '3200', pricePrecision: 2 },
      { symbol: 'dogeusdt', price: '0.15', open: '0.15' },
    ]);
    expect(rows).toEqual([
      { symbol: 'btcusdt', price: '67,012.35', changePercent: '1.70', changeText: '+1.70%', direction: 'up' },
      { symbol: 'ethusdt', price: '3,100.00', changePercent: '-3.13', changeText: '-3.13%', direction: 'down' },
      expect.objectContaining({ symbol: 'dogeusdt', changePercent: '0.00', changeText: '0.00%', direction: 'flat' }),
    ]);
  });

  it('exposes the single-value formatters', () => {
    expect(priceChangePercent('101.5', '100')).toBe('1.50');
    expect(priceChangePercent('1', '0')).toBeUndefined();
    expect(formatPercent('1.5')).toBe('+1.50%');
    expect(formatPercent(undefined)).toBe('--');
    expect(formatAmount('1234567.891')).toBe('1,234,567.89');
    expect(formatCompact('1230000')).toBe('1.23M');
    expect(formatPrice('0.5', 4)).toBe('0.5000');
    expect(formatDateTime(0, 0)).toBe('01/01/1970 00:00:00');
    expect(timeZones()).toHaveLength(38);
  });

  it('shows a balance truncated and a result rounded half to even', () => {
    expect(formatBalance('298.88579145')).toBe('298.88');
    expect(formatBalance('602.85863428')).toBe('602.85');
    expect(formatBalance('0.123456789', 8)).toBe('0.12345678');
    expect(formatPnl('298.88579145')).toBe('298.89');
    expect(formatPnl('1.005')).toBe('1.00');
    expect(formatPnl('1.015')).toBe('1.02');
  });

  it('throws {code, key, params} that the webapp translates', () => {
    let thrown: unknown;
    try {
      formatTickerRows([{ symbol: 'x', price: 'abc', open: '1' }]);
    } catch (error) {
      thrown = error;
    }
    expect(isCoreError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'invalid_decimal', key: 'errors.invalidNumber', params: { value: 'abc' } });
    expect(coreErrorText(i18n.t, thrown)).toBe('“abc” is not a valid number.');
    expect(coreErrorText(i18n.t, new Error('other'))).toBe('Unknown error');
  });
});
