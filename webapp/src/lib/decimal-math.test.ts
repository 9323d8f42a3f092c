import { describe, expect, it } from 'vitest';
import { decimalsOfStep, floorToStep, fractionToPercent, isPositive, isZero, percentOf, quantityFor, sumDecimals } from './decimal-math';

describe('decimal math of the order form', () => {
  it('takes exact shares of a balance', () => {
    expect(percentOf('1000', 25)).toBe('250');
    expect(percentOf('0.5', 50)).toBe('0.25');
    expect(percentOf('0.00000003', 75)).toBe('0.0000000225');
    expect(percentOf('123456789012345678.9', 100)).toBe('123456789012345678.9');
    expect(percentOf('abc', 50)).toBe('0');
  });

  it('rounds down to the step, never up', () => {
    expect(floorToStep('0.25', '0.0001')).toBe('0.25');
    expect(floorToStep('0.00373134', '0.0001')).toBe('0.0037');
    expect(floorToStep('7.99', '0.5')).toBe('7.5');
    expect(floorToStep('123', '10')).toBe('120');
    expect(floorToStep('1', '0')).toBe('0');
  });

  it('computes what a quote amount buys at a price, rounded down to the step', () => {
    // 1,000 / 67,000 = 0.014925… → 0.0149; 250 / 67,000 = 0.003731… → 0.0037.
    expect(quantityFor('1000', '67000', '0.0001')).toBe('0.0149');
    expect(quantityFor('250', '67000', '0.0001')).toBe('0.0037');
    expect(quantityFor('100', '0.000012', '1')).toBe('8333333');
    expect(quantityFor('0.1', '3', '0.01')).toBe('0.03');
    expect(quantityFor('100', '0', '0.01')).toBe('0');
  });

  it('reads steps, rates and signs', () => {
    expect(decimalsOfStep('0.0010')).toBe(3);
    expect(decimalsOfStep('1')).toBe(0);
    expect(fractionToPercent('0.001')).toBe('0.1');
    expect(fractionToPercent('0.02')).toBe('2');
    expect(fractionToPercent('1')).toBe('100');
    expect(isPositive('0.0001')).toBe(true);
    expect(isPositive('0')).toBe(false);
    expect(isPositive('')).toBe(false);
    expect(isZero('0.000')).toBe(true);
    expect(isZero('0.01')).toBe(false);
  });
});

describe('sumDecimals', () => {
  it('adds signed decimals exactly', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['-150', '40.25'])).toBe('-109.75');
    expect(sumDecimals(['+1.5', '-1.5'])).toBe('0');
    expect(sumDecimals([])).toBe('0');
    expect(sumDecimals([null, 'x', '2'])).toBe('2');
  });
});
