/**
 * Whether a price went up or down since its last different value (a price's tick direction), for
 * the colour of a last price on the trade and market screens.
 *
 * @module
 */

import { useState } from 'react';
import { compareDecimal } from '../lib/decimal';

export type Direction = 'up' | 'down' | 'flat';

export function useTickDirection(value: string | null): Direction {
  const [state, setState] = useState<{ value: string | null; direction: Direction }>({ value, direction: 'flat' });
  if (value !== null && value !== state.value) {
    // Derived from the previous render's value: adjusting state while rendering is React's pattern.
    const order = state.value === null ? 0 : compareDecimal(value, state.value);
    setState({ value, direction: order > 0 ? 'up' : order < 0 ? 'down' : state.direction });
  }
  return state.direction;
}
