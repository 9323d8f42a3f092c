/**
 * Content mounted after the first render of what surrounds it, in a background render.
 *
 * `useDeferredValue(true, false)` answers `false` on the first render and then renders again with
 * `true` at React's deferred priority: that second render is done in slices that yield to the
 * browser (no long task), after the first commit, and a more urgent update (data arriving, a key
 * pressed) goes first. A screen wraps in it what it does not need for its first paint — a panel
 * below or beside the fold whose box is sized without it, so nothing moves when it arrives.
 *
 * @module
 */

import { type ReactNode, useDeferredValue } from 'react';

/** `children` from the background render that follows the first one; `placeholder` until then. */
export function AfterFirstPaint({ children, placeholder = null }: { children: ReactNode; placeholder?: ReactNode }) {
  const ready = useDeferredValue(true, false);
  return ready ? children : placeholder;
}
