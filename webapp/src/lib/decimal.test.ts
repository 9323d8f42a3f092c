import { describe, expect, it } from 'vitest';
import { compareDecimal } from './decimal';

describe('compareDecimal', () => {
  it('orders decimal strings exactly, signs and thousands separators included', () => {
    const values = ['67,012.35', '-0.50', '0.000012', '1.5', '-12', '0', '1.50000001', '999'];
    expect([...values].sort(compareDecimal)).toEqual(['-12', '-0.50', '0', '0.000012', '1.5', '1.50000001', '999', '67,012.35']);
    expect(compareDecimal('1.10', '1.1')).toBe(0);
    expect(compareDecimal('-0', '0')).toBe(0);
  });

  it('puts values that are not numbers first', () => {
    expect(compareDecimal(null, '1')).toBe(-1);
    expect(compareDecimal('--', '-5')).toBe(-1);
    expect(compareDecimal('3', undefined)).toBe(1);
  });
});
