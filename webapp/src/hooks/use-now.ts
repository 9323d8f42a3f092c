/**
 * The clock of the countdowns: one shared one-second tick, and the whole seconds left until an
 * order's fixed expiry (`closeTime`), rounded up like the server's `countdown`.
 *
 * @module
 */

import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of [...listeners]) l();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time in epoch milliseconds, updated every second while a component uses it. */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
}

/** Whole seconds from `nowMs` until `closeTimeMs`, rounded up; 0 once past. */
export function secondsLeft(closeTimeMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((closeTimeMs - nowMs) / 1000));
}
