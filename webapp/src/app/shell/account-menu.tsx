/**
 * The top bar's account menu for logged-in users: its trigger ({@link AccountButton}) opens a menu
 * with the account and its UID, Account centre, My Assets and Log out. Fetched on first use: the
 * top bar shows the trigger alone until then (`deferred.tsx`).
 *
 * @module
 */

import { Box, Menu, Portal, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSignOut } from '../../hooks/use-sign-out';
import { AccountButton, accountName, useAccountInfo } from './account-button';

export function AccountMenu() {
  const { t } = useTranslation();
  const info = useAccountInfo();
  const account = accountName(info);
  const signOut = useSignOut();

  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <AccountButton />
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="64">
            {info && (
              <>
                <Box px="2" py="2">
                  <Text fontWeight="semibold" fontSize="sm" truncate>
                    {account}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {t('nav.accountMenu.uid', { id: info.user.userId })}
                  </Text>
                </Box>
                <Menu.Separator />
              </>
            )}
            <Menu.Item value="account-center" asChild>
              <RouterLink to="/account/center">{t('nav.accountMenu.accountCenter')}</RouterLink>
            </Menu.Item>
            <Menu.Item value="assets" asChild>
              <RouterLink to="/assets/index?key=overview">{t('nav.accountMenu.myAssets')}</RouterLink>
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="logout" color="fg.error" _highlighted={{ bg: 'bg.error', color: 'fg.error' }} onSelect={() => void signOut()}>
              {t('nav.accountMenu.logout')}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
