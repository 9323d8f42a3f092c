/**
 * Light / dark switch: a toggle button named "Dark theme", pressed while the dark theme is on (its
 * tooltip says what a press does).
 *
 * @module
 */

import { IconButton } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { MoonIcon, SunIcon } from '../../components/icons';
import { useColorMode } from '../../hooks/use-color-mode';

export function ThemeSwitch() {
  const { t } = useTranslation();
  const { colorMode, toggleColorMode } = useColorMode();
  const dark = colorMode === 'dark';
  return (
    <IconButton
      aria-label={t('nav.darkTheme')}
      aria-pressed={dark}
      title={dark ? t('nav.themeToLight') : t('nav.themeToDark')}
      variant="ghost"
      size="sm"
      flexShrink={0}
      onClick={toggleColorMode}
    >
      {dark ? <SunIcon /> : <MoonIcon />}
    </IconButton>
  );
}
