/**
 * Startup data: getAllSetting (platform + system config) and getCoinList, fetched through the
 * generated functions before the app mounts and seeded into react-query's cache.
 *
 * @module
 */

import type { QueryClient } from '@tanstack/react-query';
import { getAllSetting, getCoinList, getGetAllSettingQueryKey, getGetCoinListQueryKey } from '../api/generated/common/common';

/** Fetches the startup data into `queryClient`. A failed coin list is only logged. */
export async function seedStartupData(queryClient: QueryClient): Promise<void> {
  const [settings, coins] = await Promise.allSettled([getAllSetting(), getCoinList(undefined, { silent: true })]);
  if (settings.status === 'fulfilled') {
    queryClient.setQueryData(getGetAllSettingQueryKey(), settings.value);
  } else {
    console.error('getAllSetting failed at startup', settings.reason);
  }
  if (coins.status === 'fulfilled') {
    queryClient.setQueryData(getGetCoinListQueryKey(), coins.value);
  } else {
    console.error('getCoinList failed at startup', coins.reason);
  }
}
