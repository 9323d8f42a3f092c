/**
 * Bill details worded in the reader's language from the server's structured fields, never the
 * journal's English note — every kind in English and German; and the one rounding rule of balances
 * and results on the funds screens.
 *
 * @module
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '../../../i18n';
import type { Bill } from '../../../api/generated/model';

// German's bundle loads on first use; the interface stays English.
beforeAll(async () => {
  await setLanguage('de', { persist: false });
  await setLanguage('en', { persist: false });
});
import { formatResult, formatUsdt } from '../lib/format';
import { billDetailText } from './bill-detail';

const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** A bill of `kind` with `detail` and the journal's English `memo`, which must never show. */
function bill(kind: string, detail: Bill['detail'], memo = `${kind} memo in English`): Pick<Bill, 'kind' | 'detail' | 'memo'> {
  return { kind, detail, memo };
}

const fill = bill('futures_fill', { symbol: 'btcusdt', side: 'sell', quantity: '0.005', price: '96899.46' }, 'btcusdt sell 0.005 @ 96899.46');

/** Every kind with details, and its wording in English and German. */
const KINDS: [Pick<Bill, 'kind' | 'detail' | 'memo'>, string, string][] = [
  [bill('deposit', { network: 'TRC20' }), 'Deposit via TRC20', 'Einzahlung über TRC20'],
  [
    bill('referral_rebate', { rebatedUntil: Date.UTC(2026, 10, 29, 5) }),
    'Referral rebates for fills before 2026-11-29 05:00 UTC',
    'Empfehlungs-Rückvergütungen für Ausführungen vor 2026-11-29 05:00 UTC',
  ],
  [
    bill('withdrawal', { stage: 'held', network: 'TRC20', address: TRON }),
    `Held for a withdrawal to ${TRON} (TRC20)`,
    `Reserviert für eine Auszahlung an ${TRON} (TRC20)`,
  ],
  [bill('withdrawal', { stage: 'sent', network: 'TRC20', address: TRON }), `Sent to ${TRON} (TRC20)`, `Gesendet an ${TRON} (TRC20)`],
  // A payout written before its memo named the network.
  [bill('withdrawal', { stage: 'sent', address: TRON }), `Sent to ${TRON}`, `Gesendet an ${TRON}`],
  [bill('fee', { feeOf: 'withdrawal', network: 'TRC20' }), 'Withdrawal fee (TRC20)', 'Auszahlungsgebühr (TRC20)'],
  [bill('fee', { feeOf: 'withdrawal' }), 'Withdrawal fee', 'Auszahlungsgebühr'],
  [
    bill('withdrawal_refund', { network: 'TRC20', address: TRON }),
    `Withdrawal to ${TRON} (TRC20) failed, amount returned`,
    `Auszahlung an ${TRON} (TRC20) fehlgeschlagen, Betrag zurückgebucht`,
  ],
  [bill('withdrawal_refund', {}), 'Withdrawal failed, amount returned', 'Auszahlung fehlgeschlagen, Betrag zurückgebucht'],
  [bill('bucket_transfer', { fromBucket: 'funding', toBucket: 'trading' }), 'From Funding to Trading', 'Von Finanzierungskonto zu Handelskonto'],
  [bill('user_transfer', { direction: 'sent', counterparty: 42 }), 'Sent to user 42', 'An Benutzer 42 gesendet'],
  [bill('user_transfer', { direction: 'received', counterparty: 7 }), 'Received from user 7', 'Von Benutzer 7 erhalten'],
  [
    bill('exchange', { fromCoin: 'usdt', fromAmount: '25', toCoin: 'btc', toAmount: '0.00025' }),
    'Converted 25 USDT to 0.00025 BTC',
    '25 USDT in 0.00025 BTC umgetauscht',
  ],
  [bill('spot_trade', { symbol: 'btcusdt' }, 'btcusdt'), 'BTCUSDT trade', 'BTCUSDT-Handel'],
  [bill('spot_freeze', { symbol: 'ethusdt', orderId: 17 }), 'Hold for ETHUSDT order 17', 'Reservierung für ETHUSDT-Order 17'],
  // A hold written before its memo named the pair: the order only.
  [bill('spot_freeze', { orderId: 17 }, ''), 'Hold for spot order 17', 'Reservierung für Spot-Order 17'],
  [bill('spot_release', { symbol: 'ethusdt', orderId: 17 }), 'ETHUSDT order 17: hold released', 'ETHUSDT-Order 17: Reservierung freigegeben'],
  [bill('spot_release', { orderId: 17 }, ''), 'Spot order 17: hold released', 'Spot-Order 17: Reservierung freigegeben'],
  [
    bill('seconds_stake', { symbol: 'btcusdt', direction: 'up', periodSeconds: 60, price: '96000.5' }),
    'BTCUSDT Up, 60 s, opened at 96,000.50',
    'BTCUSDT Steigt, 60 s, eröffnet zu 96,000.50',
  ],
  [
    bill('seconds_settle', { symbol: 'btcusdt', direction: 'down', periodSeconds: 30, price: '95900', openPrice: '96000.5', orderId: 9, result: 'win' }),
    'BTCUSDT Down, 30 s: Win, 96,000.50 → 95,900.00',
    'BTCUSDT Fällt, 30 s: Gewonnen, 96,000.50 → 95,900.00',
  ],
  [
    bill('futures_margin', { symbol: 'ethusdt', direction: 'remove' }),
    'Margin removed from ETHUSDT',
    'Margin von ETHUSDT entnommen',
  ],
  [bill('futures_liquidation', { symbol: 'btcusdt', price: '50000' }), 'BTCUSDT liquidated at 50,000.00', 'BTCUSDT liquidiert zu 50,000.00'],
  [
    bill('futures_release', { symbol: 'btcusdt', orderId: 7, reason: 'user' }),
    'BTCUSDT order 7: hold released',
    'BTCUSDT-Order 7: Reservierung freigegeben',
  ],
  [bill('futures_hold', { symbol: 'btcusdt' }), 'Hold for a BTCUSDT limit order', 'Reservierung für eine BTCUSDT-Limit-Order'],
  [bill('futures_funding', { symbol: 'btcusdt', rate: '-0.0001' }), 'BTCUSDT, funding rate -0.0001', 'BTCUSDT, Finanzierungssatz -0.0001'],
  [bill('loan_disburse', { loanId: 3, principal: '1000' }), 'Loan #3 paid out: 1,000 borrowed', 'Kredit #3 ausgezahlt: 1,000 geliehen'],
  [
    bill('loan_repay', { loanId: 3, stage: 'early', principal: '1000', interest: '2.5', penalty: '0', firstInstalment: 1, lastInstalment: 1 }),
    'Loan #3 repaid early: principal 1,000, interest 2.5, penalty 0',
    'Kredit #3 vorzeitig zurückgezahlt: Kapital 1,000, Zinsen 2.5, Strafe 0',
  ],
  [
    bill('loan_repay', { loanId: 4, stage: 'auto', principal: '500', interest: '15', penalty: '1.2', firstInstalment: 1, lastInstalment: 2 }),
    'Loan #4, instalments 1–2 deducted automatically: principal 500, interest 15, penalty 1.2',
    'Kredit #4, Raten 1–2 automatisch abgebucht: Kapital 500, Zinsen 15, Strafe 1.2',
  ],
];

describe('bill details', () => {
  it('words a futures fill in English and in German from its fields', () => {
    expect(billDetailText(i18n.getFixedT('en'), fill)).toBe('Sell 0.005 BTCUSDT at 96,899.46');
    expect(billDetailText(i18n.getFixedT('de'), fill)).toBe('Verkauf 0.005 BTCUSDT zu 96,899.46');
    expect(billDetailText(i18n.getFixedT('de'), fill)).not.toContain('sell');
  });

  it.each(KINDS.map(([row, english, german]) => ({ kind: row.kind, row, english, german })))(
    'words $kind in English and German, never its memo',
    ({ row, english, german }) => {
    expect(billDetailText(i18n.getFixedT('en'), row)).toBe(english);
    expect(billDetailText(i18n.getFixedT('de'), row)).toBe(german);
      if (row.memo) expect(billDetailText(i18n.getFixedT('de'), row)).not.toContain(row.memo);
    },
  );

  it('says the kind, not the English memo, of a bill without details; -- only for an unknown kind', () => {
    const en = i18n.getFixedT('en');
    const de = i18n.getFixedT('de');
    expect(billDetailText(en, bill('deposit', undefined, 'deposit 10 USDT (TRC20)'))).toBe('Deposit');
    expect(billDetailText(de, bill('deposit', undefined, 'deposit 10 USDT (TRC20)'))).toBe('Einzahlung');
    expect(billDetailText(de, bill('earn_income', undefined))).toBe('Earn-Ertrag');
    // Details that say nothing of their kind read as the kind.
    expect(billDetailText(en, bill('user_transfer', {}))).toBe('Transfer with a user');
    expect(billDetailText(en, bill('mystery', undefined))).toBe('--');
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
