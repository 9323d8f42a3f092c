//! The UTC offset the market screens show times in: the platform's time zone (getAllSetting's
//! `defaultTimeZone`, America/New_York by default, spec section 9) looked up in the 38-offset table
//! that wasm-core formats dates with. Candles follow the same offset, so days, weeks and months
//! start at the user's midnight.

import { useMemo } from 'react';
import { useGetAllSetting } from '../../api/generated/common/common';
import { timeZones } from '../../lib/wasm';

/** The spec's default time zone. */
export const DEFAULT_ZONE_ID = 'America/New_York';
const DEFAULT_OFFSET_MINUTES = -300;

/** The time zone of the market screens: its id, offset in minutes and `UTC−05:00` label. */
export function useMarketTimeZone(): { zoneId: string; offsetMinutes: number; label: string } {
  const { data } = useGetAllSetting();
  return useMemo(() => {
    const zoneId = data?.platform.defaultTimeZone || DEFAULT_ZONE_ID;
    const table = data?.system.timeZone?.length ? data.system.timeZone : timeZones();
    const zone = table.find((z) => z.zoneId === zoneId);
    const offsetMinutes = zone?.offsetMinutes ?? DEFAULT_OFFSET_MINUTES;
    return { zoneId, offsetMinutes, label: `UTC${zone?.offSetValue ?? '-05:00'}` };
  }, [data]);
}
