//! The `Idempotency-Key` of an order: one key per intended order. A submission that got no answer
//! (network, timeout) and is sent again unchanged reuses its key, so the server places it at most
//! once; any answer — the order, or a refusal — settles the key, and the next click is a new order.

import { useMemo, useRef } from 'react';

/** Keys for one form: `keyFor(body)` before each send, `settle()` once the server answered. */
export interface IdempotencyKeys {
  keyFor: (body: unknown) => string;
  settle: () => void;
}

export function useIdempotencyKey(): IdempotencyKeys {
  const pending = useRef<{ fingerprint: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor(body: unknown) {
        const fingerprint = JSON.stringify(body);
        if (pending.current?.fingerprint !== fingerprint) pending.current = { fingerprint, key: crypto.randomUUID() };
        return pending.current.key;
      },
      settle() {
        pending.current = null;
      },
    }),
    [],
  );
}

/** The header of a key. */
export function idempotencyHeader(key: string): { 'Idempotency-Key': string } {
  return { 'Idempotency-Key': key };
}
