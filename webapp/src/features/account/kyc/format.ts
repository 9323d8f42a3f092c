/**
 * Display helpers of the identity tab: times in the user's time zone (through the wasm core), country names in the
 * interface language.
 *
 * @module
 */

import { useMemo } from 'react';
import { useDateTimeFormatter } from '../../../hooks/use-time-zone';

/**
 * A formatter of Unix milliseconds as `MM/DD/YYYY HH:mm:ss` in the user's time zone (their choice,
 * else the platform's default, as on every other screen), `--` when absent.
 */
export function useTimeFormatter(): (epochMs: number | null | undefined) => string {
  const format = useDateTimeFormatter();
  return useMemo(
    () => (epochMs: number | null | undefined) => (epochMs === null || epochMs === undefined || !Number.isFinite(epochMs) ? '--' : format(epochMs)),
    [format],
  );
}

const displayNames = new Map<string, Intl.DisplayNames | null>();

function regionNames(lang: string): Intl.DisplayNames | null {
  let names = displayNames.get(lang);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([lang], { type: 'region' });
    } catch {
      names = null;
    }
    displayNames.set(lang, names);
  }
  return names;
}

/**
 * The name of country `code` (ISO 3166 alpha-2) in `lang`, else `fallback`, else the value as it
 * is (older submissions may carry a name instead of a code).
 */
export function countryName(code: string | null | undefined, lang: string, fallback?: string): string {
  if (!code) return fallback ?? '--';
  if (/^[A-Za-z]{2}$/.test(code)) {
    try {
      const name = regionNames(lang)?.of(code.toUpperCase());
      if (name && name.toUpperCase() !== code.toUpperCase()) return name;
    } catch {
      // An unknown region code: fall through to the server's name.
    }
  }
  return fallback ?? code;
}
