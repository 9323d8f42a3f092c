/**
 * The time zone every screen shows times in: the user's choice (kept in local storage as
 * `coin_web-timeZone`, like the language and the theme), else the platform's default time zone
 * (getAllSetting's `defaultTimeZone`, America/New_York by default, spec section 9), looked up in
 * the 38-offset table that wasm-core formats dates with. Candles follow the same offset, so days,
 * weeks and months start at the user's midnight.
 *
 * @module
 */

import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useGetAllSetting } from '../api/generated/common/common';
import { readStored, removeStored, writeStored } from '../lib/storage';
import { formatDateTime, timeZones } from '../lib/wasm';

/** The spec's default time zone. */
export const DEFAULT_ZONE_ID = 'America/New_York';
const DEFAULT_OFFSET_MINUTES = -300;
const STORAGE_KEY = 'timeZone';

/** One zone of the table: id, `+08:00`-style offset text and minutes from UTC. */
export interface ZoneOption {
  zoneId: string;
  offSetValue: string;
  offsetMinutes: number;
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function readChoice(): string | null {
  return readStored(STORAGE_KEY);
}

/** Stores the user's zone (`null` goes back to the platform's default) and tells every screen. */
export function setTimeZoneChoice(zoneId: string | null): void {
  if (zoneId) writeStored(STORAGE_KEY, zoneId);
  else removeStored(STORAGE_KEY);
  for (const listener of listeners) listener();
}

/** The time zone in use, the table it comes from, and a way to choose another. */
export function useTimeZone(): {
  zoneId: string;
  offsetMinutes: number;
  /** `UTC−05:00`. */
  label: string;
  zones: ZoneOption[];
  choose: (zoneId: string) => void;
} {
  const { data } = useGetAllSetting();
  const choice = useSyncExternalStore(subscribe, readChoice, readChoice);
  const choose = useCallback((zoneId: string) => setTimeZoneChoice(zoneId), []);
  return useMemo(() => {
    const zones: ZoneOption[] = data?.system.timeZone?.length ? data.system.timeZone : timeZones();
    const platformZone = data?.platform.defaultTimeZone || DEFAULT_ZONE_ID;
    const zone = zones.find((z) => z.zoneId === choice) ?? zones.find((z) => z.zoneId === platformZone);
    return {
      zoneId: zone?.zoneId ?? DEFAULT_ZONE_ID,
      offsetMinutes: zone?.offsetMinutes ?? DEFAULT_OFFSET_MINUTES,
      label: `UTC${zone?.offSetValue ?? '-05:00'}`,
      zones,
      choose,
    };
  }, [data, choice, choose]);
}

/** A formatter of Unix milliseconds as `MM/DD/YYYY HH:mm:ss` in the user's time zone. */
export function useDateTimeFormatter(): (epochMs: number) => string {
  const { offsetMinutes } = useTimeZone();
  return useMemo(() => (epochMs: number) => formatDateTime(epochMs, offsetMinutes), [offsetMinutes]);
}
