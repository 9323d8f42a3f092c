//! Light / dark switch.

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
      aria-label={dark ? t('nav.themeToLight') : t('nav.themeToDark')}
      title={dark ? t('nav.themeToLight') : t('nav.themeToDark')}
      variant="ghost"
      size="sm"
      onClick={toggleColorMode}
    >
      {dark ? <SunIcon /> : <MoonIcon />}
    </IconButton>
  );
}
