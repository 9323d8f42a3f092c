import { describe, expect, it } from 'vitest';
import { ACCOUNT_TIERS, ceilCents, fractionPercent, isAccountTier, missingToNext, progressValue, rateFromPercent } from './tiers';

describe('tiers', () => {
  it('lists the account tiers lowest first and recognises them', () => {
    expect(ACCOUNT_TIERS).toEqual(['basic', 'starter', 'advanced', 'premium']);
    expect(isAccountTier('advanced')).toBe(true);
    expect(isAccountTier('vip')).toBe(false);
    expect(isAccountTier(undefined)).toBe(false);
  });

  it('rounds up to the cent', () => {
    expect(ceilCents('12.341')).toBe('12.35');
    expect(ceilCents('12.3400001')).toBe('12.35');
    expect(ceilCents('12.34')).toBe('12.34');
    expect(ceilCents('12.3')).toBe('12.30');
    expect(ceilCents('5')).toBe('5.00');
    expect(ceilCents('0.001')).toBe('0.01');
    expect(ceilCents('0')).toBe('0.00');
    expect(ceilCents('99.999')).toBe('100.00');
    expect(ceilCents('abc')).toBe('0.00');
  });

  it('says what is missing to the next tier, never less than what it takes', () => {
    expect(missingToNext('0', '1000')).toBe('1000.00');
    expect(missingToNext('250.5', '1000')).toBe('749.50');
    // 999.995 deposited: 0.005 is missing; shown as 0.01, not 0.00 (which would read as reached).
    expect(missingToNext('999.995', '1000')).toBe('0.01');
    expect(missingToNext('1000', '1000')).toBe('0.00');
    expect(missingToNext('1500', '1000')).toBe('0.00');
    expect(missingToNext('12345678901234.5678', '100000000000000')).toBe('87654321098765.44');
    expect(missingToNext('200000', undefined)).toBeNull();
    expect(missingToNext('200000', null)).toBeNull();
  });

  it('clamps the progress bar to 0–100', () => {
    expect(progressValue('37.5')).toBe(37.5);
    expect(progressValue('100')).toBe(100);
    expect(progressValue('140')).toBe(100);
    expect(progressValue('-3')).toBe(0);
    expect(progressValue('x')).toBe(0);
    expect(progressValue(undefined)).toBe(0);
  });

  it('shows a fraction as a percent', () => {
    expect(fractionPercent('0.2')).toBe('20%');
    expect(fractionPercent('0.125')).toBe('12.5%');
    expect(fractionPercent('0')).toBe('0%');
  });

  it("reads an operator's rate in percent as a fraction below 1", () => {
    expect(rateFromPercent('30')).toBe('0.3');
    expect(rateFromPercent(' 12.5 ')).toBe('0.125');
    expect(rateFromPercent('0')).toBe('0');
    expect(rateFromPercent('.5')).toBe('0.005');
    expect(rateFromPercent('99.99')).toBe('0.9999');
    expect(rateFromPercent('100')).toBeNull();
    expect(rateFromPercent('150')).toBeNull();
    expect(rateFromPercent('')).toBeNull();
    expect(rateFromPercent('1.2.3')).toBeNull();
    expect(rateFromPercent('-5')).toBeNull();
  });
});
