/**
 * Bill details worded in the reader's language from the server's structured fields, never the
 * journal's English note; and the one rounding rule of balances and results on the funds screens.
 *
 * @module
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '../../../i18n';

// German's bundle loads on first use; the interface stays English.
beforeAll(async () => {
  await setLanguage('de', { persist: false });
  await setLanguage('en', { persist: false });
});
import { formatResult, formatUsdt } from '../lib/format';
import { billDetailText } from './bill-detail';

const fill = {
  kind: 'futures_fill',
  memo: 'btcusdt sell 0.005 @ 96899.46',
  detail: { symbol: 'btcusdt', side: 'sell', quantity: '0.005', price: '96899.46' },
};

describe('bill details', () => {
  it('words a futures fill in English and in German from its fields', () => {
    expect(billDetailText(i18n.getFixedT('en'), fill)).toBe('Sell 0.005 BTCUSDT at 96,899.46');
    expect(billDetailText(i18n.getFixedT('de'), fill)).toBe('Verkauf 0.005 BTCUSDT zu 96,899.46');
    expect(billDetailText(i18n.getFixedT('de'), fill)).not.toContain('sell');
  });

  it('words the other futures kinds', () => {
    const de = i18n.getFixedT('de');
    expect(billDetailText(de, { kind: 'futures_margin', memo: '', detail: { symbol: 'ethusdt', direction: 'remove' } })).toBe('Margin von ETHUSDT entnommen');
    expect(billDetailText(de, { kind: 'futures_liquidation', memo: '', detail: { symbol: 'btcusdt', price: '50000' } })).toBe('BTCUSDT liquidiert zu 50,000.00');
    expect(billDetailText(de, { kind: 'futures_release', memo: '', detail: { symbol: 'btcusdt', orderId: 7, reason: 'user' } })).toBe(
      'BTCUSDT-Order 7: Reservierung freigegeben',
    );
  });

  it('keeps the note of kinds without details, and says -- when there is none', () => {
    expect(billDetailText(i18n.getFixedT('en'), { kind: 'deposit', memo: 'deposit 10 USDT (TRC20)' })).toBe('deposit 10 USDT (TRC20)');
    expect(billDetailText(i18n.getFixedT('en'), { kind: 'fee', memo: '' })).toBe('--');
  });
});

describe('money on the funds screens', () => {
  it('shows a balance truncated and a result rounded, the same everywhere', () => {
    expect(formatUsdt('298.88579145')).toBe('298.88');
    expect(formatUsdt('602.85863428')).toBe('602.85');
    expect(formatResult('298.88579145')).toBe('298.89');
    expect(formatUsdt(null)).toBe('--');
  });
});
