/**
 * The language switcher: a labelled select (role combobox, options named by their endonyms) of the
 * 14 languages. Its trigger is compact (globe and language code) below `lg` and shows the language
 * name from `lg` up, so it fits the top bar at every width.
 *
 * @module
 */

import { Box, Portal, Select, createListCollection } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { GlobeIcon } from '../../components/icons';
import { currentLanguage, setLanguage } from '../../i18n';
import { LANGUAGES, toLanguageCode } from '../../i18n/languages';

/** The short form shown in the compact trigger: `EN`, `ZH-TW`. */
function shortCode(code: string): string {
  return code.toUpperCase();
}

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const value = toLanguageCode(i18n.resolvedLanguage) ?? currentLanguage();
  const current = LANGUAGES.find((language) => language.code === value) ?? LANGUAGES[0];
  const collection = useMemo(
    () => createListCollection({ items: LANGUAGES.map((l) => ({ value: l.code, label: l.name })) }),
    [],
  );
  return (
    <Select.Root
      collection={collection}
      value={[value]}
      onValueChange={(details) => {
        const code = toLanguageCode(details.value[0]);
        if (code) void setLanguage(code);
      }}
      size="sm"
      variant="subtle"
      width="auto"
      positioning={{ sameWidth: false, placement: 'bottom-end' }}
    >
      {/* Names the combobox and its listbox (aria-labelledby works with hidden text). */}
      <Select.Label hidden>{t('nav.language')}</Select.Label>
      <Select.Control>
        <Select.Trigger rounded="md" gap={{ base: '1', sm: '1.5' }} ps={{ base: '2', sm: '2.5' }} pe={{ base: '1.5', sm: '2' }} cursor="pointer" whiteSpace="nowrap">
          <GlobeIcon boxSize="4" color="fg.muted" flexShrink={0} />
          <Box as="span" lang={current.code} display={{ base: 'none', lg: 'inline' }}>
            {current.name}
          </Box>
          <Box as="span" lang={current.code} display={{ base: 'inline', lg: 'none' }} fontWeight="medium" fontSize="xs">
            {shortCode(current.code)}
          </Box>
          <Select.Indicator />
        </Select.Trigger>
      </Select.Control>
      <Portal>
        <Select.Positioner>
          <Select.Content minW="44">
            {collection.items.map((item) => (
              <Select.Item key={item.value} item={item} lang={item.value}>
                <Select.ItemText>{item.label}</Select.ItemText>
                <Select.ItemIndicator />
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Positioner>
      </Portal>
    </Select.Root>
  );
}
