/**
 * The toast of a settled seconds bet.
 *
 * @module
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '../../i18n';

// German's bundle loads on first use; the interface stays English.
beforeAll(async () => {
  await setLanguage('de', { persist: false });
  await setLanguage('en', { persist: false });
});
import { settlementToast } from './settlement-toast';

describe('settlement toast', () => {
  it('says won, lost or tie with the amount, in the interface language', () => {
    const en = i18n.getFixedT('en');
    expect(settlementToast(en, { result: 'win', profit: '8.5', quantity: '10' }, 'BTC/USDT')).toEqual({
      type: 'success',
      title: 'BTC/USDT bet settled: won 8.50 USDT',
    });
    expect(settlementToast(en, { result: 'loss', profit: '-10', quantity: '10' }, 'BTC/USDT')).toEqual({
      type: 'error',
      title: 'BTC/USDT bet settled: lost 10.00 USDT',
    });
    expect(settlementToast(i18n.getFixedT('de'), { result: 'tie', profit: '0', quantity: '10' }, 'BTC/USDT').title).toBe(
      'BTC/USDT-Wette abgerechnet: Unentschieden, Einsatz zurück',
    );
  });
});
