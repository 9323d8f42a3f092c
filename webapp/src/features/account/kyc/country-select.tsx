/**
 * The searchable country select of the basic form: a combobox over getCountryCode's list, names in
 * the interface language (`Intl.DisplayNames`), sorted by that name, filtered by what is typed
 * (accents and case ignored; the ISO code and the dial code match too). Must sit inside a `Field.Root`,
 * whose label and invalid state it takes.
 *
 * @module
 */

import { Combobox, Field, HStack, Portal, Text, createListCollection, useFilter } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName } from './format';

/** One country of the list. */
export interface CountryOption {
  code: string;
  dialCode: string;
  /** The server's (English) name, used when the browser has no name for the code. */
  name: string;
}

interface Item {
  value: string;
  label: string;
  dialCode: string;
}

export function CountrySelect({
  countries,
  loading,
  value,
  onChange,
}: {
  countries: readonly CountryOption[];
  loading: boolean;
  value: string;
  onChange: (code: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const { contains } = useFilter({ sensitivity: 'base' });
  const [query, setQuery] = useState('');

  const items = useMemo<Item[]>(() => {
    const collator = new Intl.Collator(lang);
    return countries
      .map((c) => ({ value: c.code, label: countryName(c.code, lang, c.name), dialCode: c.dialCode }))
      .sort((a, b) => collator.compare(a.label, b.label));
  }, [countries, lang]);

  const collection = useMemo(() => {
    const q = query.trim();
    const visible = q
      ? items.filter((item) => contains(item.label, q) || item.value.toLowerCase() === q.toLowerCase() || item.dialCode.includes(q))
      : items;
    return createListCollection({ items: visible, itemToString: (item) => item.label, itemToValue: (item) => item.value });
  }, [items, query, contains]);

  const selectedLabel = items.find((item) => item.value === value)?.label ?? '';

  return (
    <Combobox.Root
      // Remounted once the list has arrived and on a language change, so that the chosen country
      // (preset on a resubmission) shows its name in the current language.
      key={items.length > 0 ? lang : 'loading'}
      defaultInputValue={selectedLabel}
      collection={collection}
      value={value ? [value] : []}
      onValueChange={(details) => onChange(details.value[0] ?? '')}
      onInputValueChange={(details) => setQuery(details.reason === 'input-change' ? details.inputValue : '')}
      onOpenChange={(details) => {
        if (!details.open) setQuery('');
      }}
      openOnClick
      inputBehavior="autohighlight"
      positioning={{ sameWidth: true }}
      translations={{ triggerLabel: t('kyc.basic.country'), clearTriggerLabel: t('kyc.cancel') }}
    >
      <Field.Label>
        {t('kyc.basic.country')}
        <Field.RequiredIndicator />
      </Field.Label>
      <Combobox.Control>
        <Combobox.Input placeholder={loading ? t('kyc.basic.countryLoading') : t('kyc.basic.countryPlaceholder')} />
        <Combobox.IndicatorGroup>
          <Combobox.Trigger />
        </Combobox.IndicatorGroup>
      </Combobox.Control>
      <Portal>
        <Combobox.Positioner>
          <Combobox.Content maxH="72" overflowY="auto">
            <Combobox.Empty px="3" py="2" color="fg.muted">
              {loading ? t('kyc.basic.countryLoading') : t('kyc.basic.countryEmpty')}
            </Combobox.Empty>
            {collection.items.map((item) => (
              <Combobox.Item key={item.value} item={item}>
                <HStack gap="2.5" minW="0" flex="1">
                  <Combobox.ItemText flex="1" minW="0" truncate>
                    {item.label}
                  </Combobox.ItemText>
                  <Text as="span" aria-hidden="true" fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
                    {item.dialCode}
                  </Text>
                </HStack>
                <Combobox.ItemIndicator />
              </Combobox.Item>
            ))}
          </Combobox.Content>
        </Combobox.Positioner>
      </Portal>
    </Combobox.Root>
  );
}
