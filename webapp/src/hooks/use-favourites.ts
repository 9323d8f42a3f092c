/**
 * Favourite markets, as ids `<market>:<symbol>` (`spot:btcusdt`, `contract:ethusdt`,
 * `flash:solusdt`).
 *
 * - Visitors keep them in local storage (`coin_web-favourites`).
 * - Members keep them on their account (`GET`/`POST /api/market/favourites`). On the first login
 *   with a local list, that list is merged into the account's (`POST /api/market/favourites/merge`)
 *   and then emptied: the favourites have moved to the account, so logging out later does not
 *   bring back ones removed meanwhile.
 *
 * A toggle shows at once (the cached list is updated before the call) and takes the server's answer
 * when it comes; a failed call puts the list back as the server has it.
 *
 * @module
 */

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { getGetFavouritesQueryKey, mergeFavourites, setFavourite, useGetFavourites } from '../api/generated/market/market';
import type { FavouriteEntry, FavouriteMarket } from '../api/generated/model';
import { useIsLoggedIn } from '../lib/session';
import { readStored, writeStored } from '../lib/storage';

const KEY = 'favourites';
const MARKETS: readonly FavouriteMarket[] = ['spot', 'contract', 'flash'];
const listeners = new Set<() => void>();
let cache: { raw: string | null; set: ReadonlySet<string> } = { raw: null, set: new Set() };
/** One merge at a time, whichever component noticed the login first. */
let merging: Promise<unknown> | null = null;

function readLocal(): ReadonlySet<string> {
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

function writeLocal(ids: Iterable<string>): void {
  writeStored(KEY, JSON.stringify([...ids]));
  for (const listener of listeners) listener();
}

function subscribeLocal(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The id of a market. */
export function favouriteId(market: FavouriteMarket, symbol: string): string {
  return `${market}:${symbol.toLowerCase()}`;
}

/** The market and pair of an id, or `null` for one that is not ours. */
export function parseFavouriteId(id: string): FavouriteEntry | null {
  const colon = id.indexOf(':');
  const market = id.slice(0, colon) as FavouriteMarket;
  const symbol = id.slice(colon + 1);
  if (colon < 0 || !MARKETS.includes(market) || !symbol) return null;
  return { market, symbol };
}

function idsOf(entries: readonly FavouriteEntry[] | undefined): ReadonlySet<string> {
  return new Set((entries ?? []).map((e) => favouriteId(e.market, e.symbol)));
}

/** The visitor's list (local storage). */
function useLocalFavourites(): ReadonlySet<string> {
  return useSyncExternalStore(subscribeLocal, readLocal, readLocal);
}

/**
 * The favourite market ids: the account's list for a member (the local one until it has loaded),
 * the local list for a visitor. Merges the local list into the account on the first login.
 */
export function useFavourites(): ReadonlySet<string> {
  const loggedIn = useIsLoggedIn();
  const local = useLocalFavourites();
  const queryClient = useQueryClient();
  const server = useGetFavourites({ query: { enabled: loggedIn, staleTime: 60_000 } });

  useEffect(() => {
    if (!loggedIn) {
      // Another account may log in next: never show it this one's list.
      queryClient.removeQueries({ queryKey: getGetFavouritesQueryKey() });
    }
  }, [loggedIn, queryClient]);

  const pending = loggedIn && server.isSuccess && local.size > 0;
  useEffect(() => {
    if (!pending || merging) return;
    const favourites = [...readLocal()].map(parseFavouriteId).filter((e): e is FavouriteEntry => e !== null);
    merging = mergeFavourites({ favourites }, { silent: true })
      .then((list) => {
        queryClient.setQueryData(getGetFavouritesQueryKey(), list);
        writeLocal([]);
      })
      .catch((error: unknown) => console.warn('Favourites: the local list could not be merged', error))
      .finally(() => {
        merging = null;
      });
  }, [pending, queryClient]);

  const serverIds = useMemo(() => idsOf(server.data), [server.data]);
  if (!loggedIn) return local;
  if (!server.data) return local;
  return local.size > 0 ? new Set([...serverIds, ...local]) : serverIds;
}

/** Adds the market `id` to the favourites or removes it (the account's list for a member). */
export function useToggleFavourite(): (id: string) => void {
  const loggedIn = useIsLoggedIn();
  const queryClient = useQueryClient();
  return useCallback(
    (id: string) => {
      if (!loggedIn) {
        const next = new Set(readLocal());
        if (next.has(id)) next.delete(id);
        else next.add(id);
        writeLocal(next);
        return;
      }
      const entry = parseFavouriteId(id);
      if (!entry) return;
      const key = getGetFavouritesQueryKey();
      const before = queryClient.getQueryData<FavouriteEntry[]>(key) ?? [];
      const favourite = !idsOf(before).has(id) && !readLocal().has(id);
      queryClient.setQueryData<FavouriteEntry[]>(
        key,
        favourite ? [...before, entry] : before.filter((e) => favouriteId(e.market, e.symbol) !== id),
      );
      if (!favourite && readLocal().has(id)) {
        // Not merged yet: take it out of the local list too.
        const next = new Set(readLocal());
        next.delete(id);
        writeLocal(next);
      }
      setFavourite({ symbol: entry.symbol, market: entry.market, favourite })
        .then((list) => queryClient.setQueryData(key, list))
        .catch(() => void queryClient.invalidateQueries({ queryKey: key }));
    },
    [loggedIn, queryClient],
  );
}

/** Adds or removes a visitor's favourite (local storage); members use `useToggleFavourite`. */
export function toggleFavourite(id: string): void {
  const next = new Set(readLocal());
  if (next.has(id)) next.delete(id);
  else next.add(id);
  writeLocal(next);
}
