/**
 * The account menu's trigger in the top bar: the avatar and the account's e-mail or phone. It is
 * the placeholder of the menu until the menu's code has arrived (`account-menu.tsx`,
 * `deferred.tsx`). Until getInfo answers it shows the record stored at login.
 *
 * @module
 */

import { Avatar, Button, type ButtonProps, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../api/generated/model';
import { ChevronDownIcon } from '../../components/icons';
import { useCurrentUser } from '../../hooks/use-current-user';
import { readUserInfo } from '../../lib/session';

/** The name an account goes by: its e-mail address, else its phone number. */
export function accountName(info: UserInfo | null | undefined): string {
  return info?.user.email || info?.user.phone || '';
}

/** The signed-in account: what getInfo answered, else the record stored at login. */
export function useAccountInfo(): UserInfo | null {
  const { user } = useCurrentUser();
  return user ?? readUserInfo<UserInfo>();
}

/** The trigger: avatar, account name and chevron, named "Account menu, <account>". */
export function AccountButton(props: ButtonProps) {
  const { t } = useTranslation();
  const info = useAccountInfo();
  const account = accountName(info);
  return (
    <Button
      variant="ghost"
      size="sm"
      px="1.5"
      gap="2"
      flexShrink={1}
      minW="0"
      aria-label={account ? t('nav.accountMenu.labelFor', { account }) : t('nav.accountMenu.label')}
      {...props}
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
  );
}
