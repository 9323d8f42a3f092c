//! Favourite markets, kept in local storage (`coin_web-favourites`).

import { useSyncExternalStore } from 'react';
import { readStored, writeStored } from '../../lib/storage';

const KEY = 'favourites';
const listeners = new Set<() => void>();
let cache: { raw: string | null; set: ReadonlySet<string> } = { raw: null, set: new Set() };

function read(): ReadonlySet<string> {
  const raw = readStored(KEY);
  if (raw !== cache.raw) {
    let list: unknown;
    try {
      list = raw ? JSON.parse(raw) : [];
    } catch {
      list = [];
    }
    cache = { raw, set: new Set(Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : []) };
  }
  return cache.set;
}

/** Adds or removes a market (`spot:btcusdt`, `contract:btcusdt`) from the favourites. */
export function toggleFavourite(id: string): void {
  const next = new Set(read());
  if (next.has(id)) next.delete(id);
  else next.add(id);
  writeStored(KEY, JSON.stringify([...next]));
  for (const listener of listeners) listener();
}

/** The favourite market ids. */
export function useFavourites(): ReadonlySet<string> {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    read,
  );
}
