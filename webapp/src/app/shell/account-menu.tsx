/**
 * The top bar's account menu for logged-in users: the avatar and the account's e-mail or phone
 * open a menu with Account centre, My Assets and Log out. Until getInfo answers it shows the record
 * stored at login.
 *
 * @module
 */

import { Avatar, Box, Button, Menu, Portal, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { UserInfo } from '../../api/generated/model';
import { ChevronDownIcon } from '../../components/icons';
import { useCurrentUser } from '../../hooks/use-current-user';
import { useSignOut } from '../../hooks/use-sign-out';
import { readUserInfo } from '../../lib/session';

/** The name an account goes by: its e-mail address, else its phone number. */
export function accountName(info: UserInfo | null | undefined): string {
  return info?.user.email || info?.user.phone || '';
}

export function AccountMenu() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  const info = user ?? readUserInfo<UserInfo>();
  const account = accountName(info);
  const signOut = useSignOut();

  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button
          variant="ghost"
          size="sm"
          px="1.5"
          gap="2"
          flexShrink={1}
          minW="0"
          aria-label={account ? t('auth.menu.labelFor', { account }) : t('auth.menu.label')}
        >
          <Avatar.Root size="2xs" colorPalette="brand" flexShrink={0}>
            <Avatar.Fallback name={account || undefined} />
            {info?.avatar && <Avatar.Image src={info.avatar} alt="" />}
          </Avatar.Root>
          <Text as="span" display={{ base: 'none', md: 'block' }} maxW={{ md: '32', xl: '48' }} truncate fontWeight="medium">
            {account}
          </Text>
          <ChevronDownIcon boxSize="4" color="fg.muted" />
        </Button>
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
                    {t('auth.menu.uid', { id: info.user.userId })}
                  </Text>
                </Box>
                <Menu.Separator />
              </>
            )}
            <Menu.Item value="account-center" asChild>
              <RouterLink to="/account/center">{t('auth.menu.accountCenter')}</RouterLink>
            </Menu.Item>
            <Menu.Item value="assets" asChild>
              <RouterLink to="/assets/index?key=overview">{t('auth.menu.myAssets')}</RouterLink>
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="logout" color="fg.error" _highlighted={{ bg: 'bg.error', color: 'fg.error' }} onSelect={() => void signOut()}>
              {t('auth.menu.logout')}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
