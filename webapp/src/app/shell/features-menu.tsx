/**
 * The top bar's Features menu (spot, futures, flash contracts), fetched on first use: the top bar
 * shows {@link FeaturesButton} until then (`deferred.tsx`).
 *
 * @module
 */

import { Menu, Portal } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FEATURE_LINKS, FeaturesButton } from './top-bar';

export function FeaturesMenu() {
  const { t } = useTranslation();
  return (
    <Menu.Root positioning={{ placement: 'bottom-start' }}>
      <Menu.Trigger asChild>
        <FeaturesButton />
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="56">
            {FEATURE_LINKS.map((link) => (
              <Menu.Item key={link.value} value={link.value} asChild>
                <RouterLink to={link.to}>{t(link.key)}</RouterLink>
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
