import { describe, expect, it } from 'vitest';
import { decimalsOf, tickChoices } from './ticks';

describe('tickChoices', () => {
  it('multiplies the tick by powers of ten in the string', () => {
    expect(tickChoices('0.01')).toEqual(['0.01', '0.1', '1', '10', '100']);
    expect(tickChoices('0.00001', 3)).toEqual(['0.00001', '0.0001', '0.001']);
    expect(tickChoices('0.0500', 3)).toEqual(['0.05', '0.5', '5']);
    expect(tickChoices('1', 3)).toEqual(['1', '10', '100']);
  });

  it('offers nothing for a tick that is not a positive decimal', () => {
    expect(tickChoices('')).toEqual([]);
    expect(tickChoices('0')).toEqual([]);
    expect(tickChoices('-1')).toEqual([]);
  });

  it('counts decimals', () => {
    expect(decimalsOf('0.010')).toBe(2);
    expect(decimalsOf('10')).toBe(0);
    expect(decimalsOf('0.00001')).toBe(5);
  });
});
