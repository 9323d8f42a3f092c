import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { coinAmountsText, daysLeft, ratePercent, ratesFromPercents, rebateOutcome } from './referral-format';

const t = ((key: string) => key) as unknown as TFunction;

describe('referral wording', () => {
  it('joins the coins earned and hides the empty ones', () => {
    expect(coinAmountsText([{ coin: 'usdt', amount: '12.5' }, { coin: 'btc', amount: '0' }])).toBe('12.5 USDT');
    expect(coinAmountsText([])).toBe('0');
    expect(coinAmountsText(undefined)).toBe('0');
  });

  it('shows rates as percents', () => {
    expect(ratePercent('0.2')).toBe('20%');
    expect(ratePercent('0.05')).toBe('5%');
    expect(ratePercent('0.125')).toBe('12.5%');
  });

  it('says what a line paid, or why it was withheld', () => {
    expect(rebateOutcome(t, { status: 'paid', amount: '0.018', coin: 'usdt' })).toBe('0.018 USDT');
    expect(rebateOutcome(t, { status: 'withheld', withheldReason: 'same_address', amount: '0', coin: 'usdt' })).toBe('referral.withheld.same_address');
  });

  it('counts the late-bind window in whole days, rounded up', () => {
    expect(daysLeft(10 * 86_400_000, 0)).toBe(10);
    expect(daysLeft(86_400_000 + 1, 0)).toBe(2);
    expect(daysLeft(0, 5)).toBe(0);
  });

  it('reads operator percents back as fractions below 100 % in total', () => {
    expect(ratesFromPercents(['30', '15', '7.5'])).toEqual(['0.3', '0.15', '0.075']);
    expect(ratesFromPercents(['50', '30', '20'])).toBeNull();
    expect(ratesFromPercents(['x', '1', '1'])).toBeNull();
  });
});
