/**
 * The language select's trigger as the top bar first draws it: the same element, styles, role and
 * name as the select's (`language-switcher.tsx`), without the select's state machine, which is
 * fetched on first use (`deferred.tsx`). Both use {@link LanguageTriggerContent} and
 * {@link LANGUAGE_SELECT_PROPS}, so the swap moves nothing.
 *
 * @module
 */

import { Box, type HTMLChakraProps, chakra, useSlotRecipe } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon, GlobeIcon } from '../../components/icons';
import { currentLanguage } from '../../i18n';
import { LANGUAGES, toLanguageCode } from '../../i18n/languages';

/** The select's recipe variant. */
export const LANGUAGE_SELECT_PROPS = { size: 'sm', variant: 'subtle' } as const;

/** The trigger's own styles: compact (globe and code) below `lg`, the language's name from `lg`. */
export const LANGUAGE_TRIGGER_STYLES = {
  rounded: 'md',
  gap: { base: '1', sm: '1.5' },
  ps: { base: '2', sm: '2.5' },
  pe: { base: '1.5', sm: '2' },
  cursor: 'pointer',
  whiteSpace: 'nowrap',
} as const;

/** The language shown: the one i18next resolved, else the current one. */
export function useShownLanguage() {
  const { i18n } = useTranslation();
  const value = toLanguageCode(i18n.resolvedLanguage) ?? currentLanguage();
  return LANGUAGES.find((language) => language.code === value) ?? LANGUAGES[0];
}

/** Globe, the language's name (from `lg`) or code (below), before the select's indicator. */
export function LanguageTriggerContent() {
  const current = useShownLanguage();
  return (
    <>
      <GlobeIcon boxSize="4" color="fg.muted" flexShrink={0} />
      <Box as="span" lang={current.code} display={{ base: 'none', lg: 'inline' }}>
        {current.name}
      </Box>
      <Box as="span" lang={current.code} display={{ base: 'inline', lg: 'none' }} fontWeight="medium" fontSize="xs">
        {current.code.toUpperCase()}
      </Box>
    </>
  );
}

/** The closed select as it looks: root, control and trigger styled by the select recipe. */
export function LanguageButton(props: HTMLChakraProps<'button'>) {
  const { t } = useTranslation();
  const styles = useSlotRecipe({ key: 'select' })(LANGUAGE_SELECT_PROPS);
  return (
    <chakra.div css={styles.root} width="auto">
      <chakra.div css={styles.control}>
        <chakra.button type="button" role="combobox" aria-label={t('nav.language')} css={styles.trigger} {...LANGUAGE_TRIGGER_STYLES} {...props}>
          <LanguageTriggerContent />
          <chakra.div css={styles.indicator}>
            <ChevronDownIcon />
          </chakra.div>
        </chakra.button>
      </chakra.div>
    </chakra.div>
  );
}
