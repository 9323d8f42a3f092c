/**
 * Platform settings from getAllSetting (seeded into the cache at startup), with the platform
 * config script's values as fallbacks.
 *
 * @module
 */

import { useGetAllSetting } from '../api/generated/common/common';
import { getPlatformConfig } from '../lib/platform-config';

/** The site name to show. */
export function useSiteName(): string {
  const { data } = useGetAllSetting();
  return data?.platform.siteName || getPlatformConfig().siteName;
}

/** The share of trading fees paid into the asset security fund, in percent (a decimal string). */
export function useSecurityFundPercent(): string {
  const { data } = useGetAllSetting();
  return data?.platform.securityFundPercent || '10';
}

/** The support e-mail address, if configured. */
export function useSupportEmail(): string | undefined {
  const { data } = useGetAllSetting();
  return data?.platform.supportEmail || undefined;
}
