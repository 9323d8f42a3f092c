/**
 * The language switcher: a labelled select (role combobox, options named by their endonyms) of the
 * 14 languages. Its trigger is compact (globe and language code) below `lg` and shows the language
 * name from `lg` up, so it fits the top bar at every width. Fetched on first use: the top bar shows
 * {@link LanguageButton} until then (`deferred.tsx`).
 *
 * @module
 */

import { Portal, Select, createListCollection } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon } from '../../components/icons';
import { setLanguage } from '../../i18n';
import { LANGUAGES, toLanguageCode } from '../../i18n/languages';
import { LANGUAGE_SELECT_PROPS, LANGUAGE_TRIGGER_STYLES, LanguageTriggerContent, useShownLanguage } from './language-button';

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const current = useShownLanguage();
  const collection = useMemo(
    () => createListCollection({ items: LANGUAGES.map((l) => ({ value: l.code, label: l.name })) }),
    [],
  );
  return (
    <Select.Root
      collection={collection}
      value={[current.code]}
      onValueChange={(details) => {
        const code = toLanguageCode(details.value[0]);
        if (code) void setLanguage(code);
      }}
      {...LANGUAGE_SELECT_PROPS}
      width="auto"
      positioning={{ sameWidth: false, placement: 'bottom-end' }}
    >
      {/* Names the combobox and its listbox (aria-labelledby works with hidden text). */}
      <Select.Label hidden>{t('nav.language')}</Select.Label>
      <Select.Control>
        <Select.Trigger {...LANGUAGE_TRIGGER_STYLES}>
          <LanguageTriggerContent />
          <Select.Indicator>
            <ChevronDownIcon />
          </Select.Indicator>
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
