/**
 * The signed PnL the futures close toast shows.
 *
 * @module
 */

import { describe, expect, it } from 'vitest';
import { signedPnl } from './dialogs';

describe('signed PnL', () => {
  it('adds + to gains only, rounded half to even', () => {
    expect(signedPnl('100')).toBe('+100.00');
    expect(signedPnl('-4.105')).toBe('-4.10');
    expect(signedPnl('0')).toBe('0.00');
    expect(signedPnl(undefined)).toBe('--');
  });
});
