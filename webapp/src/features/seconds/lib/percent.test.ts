import { describe, expect, it } from 'vitest';
import { rateToPercent } from './percent';
import { secondsLeft } from '../../../hooks/use-now';

describe('rateToPercent', () => {
  it('moves the decimal point two places', () => {
    expect(rateToPercent('0.85')).toBe('85');
    expect(rateToPercent('0.925')).toBe('92.5');
    expect(rateToPercent('1')).toBe('100');
    expect(rateToPercent('0')).toBe('0');
    expect(rateToPercent('x')).toBeNull();
  });
});

describe('secondsLeft', () => {
  it('rounds up and stops at zero', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 20_000)).toBe(0);
  });
});
