/**
 * A seconds countdown (the send-code button's "Resend in 42 s"), measured against the clock so a
 * throttled background tab still ends it on time.
 *
 * @module
 */

import { useCallback, useEffect, useState } from 'react';

/** `[secondsLeft, start(seconds)]`; `secondsLeft` is 0 when no countdown runs. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [deadline, setDeadline] = useState<number | null>(null);
  const [left, setLeft] = useState(0);

  useEffect(() => {
    if (deadline === null) return;
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setLeft(seconds);
      if (seconds === 0) setDeadline(null);
    };
    tick();
    const timer = window.setInterval(tick, 250);
    return () => window.clearInterval(timer);
  }, [deadline]);

  const start = useCallback((seconds: number) => {
    if (seconds > 0) setDeadline(Date.now() + seconds * 1000);
  }, []);

  return [left, start];
}
