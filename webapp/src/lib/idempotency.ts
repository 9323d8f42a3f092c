/**
 * The `Idempotency-Key` of a call that must happen at most once (an order, a money-moving
 * operation): one key per intended operation. A submission that got no answer (network, timeout)
 * and is sent again with the same body reuses its key, so the server applies it at most once; any
 * answer — the result, or a refusal — settles the key, and a changed body or the next click gets a
 * new one.
 *
 * @module
 */

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
