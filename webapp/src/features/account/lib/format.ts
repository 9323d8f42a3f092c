//! Display helpers of the account centre: dates in the platform's time zone (through wasm-core),
//! a short device description from a user agent, and masked contacts.

import { useMemo } from 'react';
import { useGetAllSetting } from '../../../api/generated/common/common';
import { formatDateTime, timeZones } from '../../../lib/wasm';

/** The spec's default time zone (section 9). */
export const DEFAULT_ZONE_ID = 'America/New_York';
const DEFAULT_OFFSET_MINUTES = -300;

/** UTC offset (minutes) of the platform's time zone: getAllSetting's default zone in the offset table. */
export function useTimeZoneOffset(): number {
  const { data } = useGetAllSetting();
  return useMemo(() => {
    const zoneId = data?.platform.defaultTimeZone || DEFAULT_ZONE_ID;
    const table = data?.system.timeZone?.length ? data.system.timeZone : timeZones();
    return table.find((zone) => zone.zoneId === zoneId)?.offsetMinutes ?? DEFAULT_OFFSET_MINUTES;
  }, [data]);
}

/** A formatter of Unix milliseconds as `MM/DD/YYYY HH:mm:ss` in the platform's time zone. */
export function useDateTimeFormatter(): (epochMs: number) => string {
  const offset = useTimeZoneOffset();
  return useMemo(() => (epochMs: number) => formatDateTime(epochMs, offset), [offset]);
}

/** "Chrome · Windows" from a user agent; the parts it cannot tell are left out (empty when none). */
export function describeUserAgent(userAgent: string): string {
  const ua = userAgent || '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\/|HeadlessChrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : '';
  const system = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Android/.test(ua)
        ? 'Android'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : '';
  return [browser, system].filter(Boolean).join(' · ');
}

/** `j***@example.com` / `+49*****123`: enough to recognise one's own contact on screen. */
export function maskContact(value: string): string {
  const at = value.indexOf('@');
  if (at > 0) {
    const name = value.slice(0, at);
    return `${name.slice(0, Math.min(2, name.length - 1) || 1)}***${value.slice(at)}`;
  }
  if (value.length <= 6) return value;
  return `${value.slice(0, 3)}${'*'.repeat(Math.max(3, value.length - 6))}${value.slice(-3)}`;
}
