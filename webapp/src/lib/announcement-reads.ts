/**
 * Which announcements this browser has read (local storage, the newest 500 ids), shared by the
 * shell's announcement bell and the announcements list, in every open tab.
 *
 * @module
 */

import { useCallback, useSyncExternalStore } from 'react';

/** The storage key of the read ids. */
export const READ_STORAGE_KEY = 'kestrel.announcements.read';
/** At most this many ids are kept (the newest). */
export const MAX_READ = 500;

const listeners = new Set<() => void>();
let cache: ReadonlySet<number> | null = null;

function load(): ReadonlySet<number> {
  if (cache) return cache;
  let ids: number[] = [];
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(READ_STORAGE_KEY) ?? '[]');
    if (Array.isArray(parsed)) ids = parsed.filter((id): id is number => Number.isSafeInteger(id) && id > 0);
  } catch {
    ids = [];
  }
  cache = new Set(ids);
  return cache;
}

function notify() {
  for (const listener of [...listeners]) listener();
}

/** Marks `ids` read (keeping the newest {@link MAX_READ}). */
export function markRead(ids: readonly number[]): void {
  const current = load();
  if (ids.every((id) => current.has(id))) return;
  const next = [...new Set([...current, ...ids])].sort((a, b) => b - a).slice(0, MAX_READ);
  cache = new Set(next);
  try {
    window.localStorage.setItem(READ_STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the read state lasts for this page only.
  }
  notify();
}

/** How many of `ids` are unread. */
export function unreadCount(ids: readonly number[], read: ReadonlySet<number>): number {
  return ids.filter((id) => !read.has(id)).length;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== READ_STORAGE_KEY) return;
    cache = null;
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The read ids, `isRead` and `markRead`, re-rendering on every change. */
export function useReadAnnouncements() {
  const read = useSyncExternalStore(subscribe, load, load);
  const isRead = useCallback((id: number) => read.has(id), [read]);
  return { read, isRead, markRead };
}

/** Forgets the cached ids (tests). */
export function resetReadCache(): void {
  cache = null;
}
