/**
 * Light / dark theme (next-themes under Chakra UI v3), persisted as `coin_web-theme`; light is default.
 *
 * @module
 */

import { useTheme } from 'next-themes';

/** Storage key of the theme (the full key; next-themes does not add the prefix). */
export const THEME_STORAGE_KEY = 'coin_web-theme';

export type ColorMode = 'light' | 'dark';

/** The current colour mode and a toggle. */
export function useColorMode(): { colorMode: ColorMode; setColorMode: (mode: ColorMode) => void; toggleColorMode: () => void } {
  const { resolvedTheme, setTheme } = useTheme();
  const colorMode: ColorMode = resolvedTheme === 'dark' ? 'dark' : 'light';
  return {
    colorMode,
    setColorMode: setTheme,
    toggleColorMode: () => setTheme(colorMode === 'dark' ? 'light' : 'dark'),
  };
}
