//! The language switcher: a labelled native select (role combobox) of the 14 languages.

import { NativeSelect } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { GlobeIcon } from '../../components/icons';
import { currentLanguage, setLanguage } from '../../i18n';
import { LANGUAGES, toLanguageCode } from '../../i18n/languages';

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const value = toLanguageCode(i18n.resolvedLanguage) ?? currentLanguage();
  return (
    <NativeSelect.Root size="sm" width="auto" variant="subtle">
      <GlobeIcon position="absolute" left="2.5" top="50%" transform="translateY(-50%)" boxSize="4" color="fg.muted" pointerEvents="none" zIndex="1" />
      <NativeSelect.Field
        aria-label={t('nav.language')}
        value={value}
        ps="8"
        rounded="md"
        onChange={(event) => {
          const code = toLanguageCode(event.currentTarget.value);
          if (code) void setLanguage(code);
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
