import { describe, expect, it } from 'vitest';
import { emptyLoanDraft, fractionToPercentText, loanDraftOf, loanFormOf, percentToFraction } from './loan-form';

describe('loan product form', () => {
  it('turns percents per day into fractions and back', () => {
    expect(percentToFraction('0.05')).toBe('0.0005');
    expect(percentToFraction('1')).toBe('0.01');
    expect(percentToFraction('12.5')).toBe('0.125');
    expect(fractionToPercentText('0.0005')).toBe('0.05');
    expect(fractionToPercentText('0.125')).toBe('12.5');
    expect(fractionToPercentText('1')).toBe('100');
  });

  it('sends the typed fields as the API form, keeping other languages’ names', () => {
    const draft = { ...emptyLoanDraft(), coin: ' USDT ', minAmount: '100', maxAmount: '5000', cycles: '7, 30;90', institution: 'Kestrel Lending', name: 'USDT loan' };
    expect(loanFormOf(draft, { de: 'USDT-Kredit', en: 'old' })).toEqual({
      coin: 'usdt',
      scale: 2,
      minAmount: '100',
      maxAmount: '5000',
      cycles: [7, 30, 90],
      dayRate: '0.0005',
      repayWays: ['maturity'],
      institution: 'Kestrel Lending',
      penaltyDayRate: '0.001',
      graceDays: 3,
      minCreditScore: 50,
      kycLevel: 2,
      names: { de: 'USDT-Kredit', en: 'USDT loan' },
      enabled: true,
    });
  });

  it('reads an existing product back into the same form', () => {
    const form = loanFormOf({ ...emptyLoanDraft(), minAmount: '10', maxAmount: '20', institution: 'X', name: 'N' });
    const draft = loanDraftOf({ id: 1, settings: form, createdAt: 0, updatedAt: 0 });
    expect(loanFormOf(draft)).toEqual(form);
  });

  it('leaves what is not a whole number for the server to refuse', () => {
    expect(loanFormOf({ ...emptyLoanDraft(), cycles: '7, x' }).cycles).toEqual([7, Number.NaN]);
  });
});
