/**
 * The security tab: the security level, the list of settings (state and action each), the linked
 * Ethereum wallet, a link to device management, the API keys and the login log.
 *
 * @module
 */

import { Box, Button, Flex, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { UserInfo } from '../../../api/generated/model';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { TabHeader } from '../account-layout';
import { AuthenticatorIcon, ChevronRightIcon, DevicesIcon, FishIcon, LockIcon, KeyIcon, MailIcon, PhoneIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { StatusBadge } from '../components/status-badge';
import { maskContact } from '../lib/format';
import { tabPath } from '../lib/tabs';
import { ApiKeysSection } from './api-keys';
import { LoginLogSection } from './login-log';
import { type SecurityItem, securityItems, securityLevel } from './security-items';
import { WalletSection } from './wallet-section';

const ICONS: Record<SecurityItem['id'], ReactNode> = {
  loginPwd: <LockIcon boxSize="5" />,
  tradePwd: <KeyIcon boxSize="5" />,
  email: <MailIcon boxSize="5" />,
  phone: <PhoneIcon boxSize="5" />,
  google: <AuthenticatorIcon boxSize="5" />,
  antiCode: <FishIcon boxSize="5" />,
};

function SecurityRow({ item }: { item: SecurityItem }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Flex
      as="li"
      aria-labelledby={titleId}
      gap={{ base: '3', md: '4' }}
      py="4"
      px={{ base: '4', md: '6' }}
      align={{ base: 'flex-start', md: 'center' }}
      direction={{ base: 'column', md: 'row' }}
      borderTopWidth="1px"
      _first={{ borderTopWidth: '0' }}
    >
      <Flex gap="3" flex="1" minW="0" align="flex-start">
        <Box display="inline-flex" alignItems="center" justifyContent="center" boxSize="10" rounded="lg" bg="bg.muted" color="fg.muted" flexShrink={0}>
          {ICONS[item.id]}
        </Box>
        <Stack gap="0.5" minW="0">
          <HStack gap="2" flexWrap="wrap">
            <Text id={titleId} fontWeight="semibold">
              {t(`account.security.items.${item.id}.title`)}
            </Text>
            <StatusBadge on={item.on} label={t(item.statusKey)} />
          </HStack>
          <Text fontSize="sm" color="fg.muted">
            {t(`account.security.items.${item.id}.description`)}
          </Text>
          {item.detail && (
            <Text fontSize="sm" color="fg" truncate>
              {maskContact(item.detail)}
            </Text>
          )}
        </Stack>
      </Flex>
      <Button asChild size="sm" variant={item.on ? 'outline' : 'solid'} colorPalette={item.on ? 'gray' : 'brand'} minW="24" flexShrink={0} ms={{ base: '52px', md: '0' }}>
        <RouterLink to={item.to}>{t(item.actionKey)}</RouterLink>
      </Button>
    </Flex>
  );
}

function SecurityLevel({ items }: { items: readonly SecurityItem[] }) {
  const { t } = useTranslation();
  const level = securityLevel(items);
  const on = items.filter((i) => i.on).length;
  const palette = level === 'high' ? 'green' : level === 'medium' ? 'orange' : 'red';
  return (
    <Stack gap="2" px={{ base: '4', md: '6' }} pb="4">
      <Flex justify="space-between" align="baseline" gap="3" flexWrap="wrap">
        <Text fontSize="sm" color="fg.muted">
          {t('account.security.level')}{' '}
          <Text as="strong" color={`${palette}.fg`} fontWeight="semibold">
            {t(`account.security.levels.${level}`)}
          </Text>
        </Text>
        <Text fontSize="sm" color="fg.muted">
          {t('account.security.enabledCount', { on, total: items.length })}
        </Text>
      </Flex>
      <Progress.Root value={on} max={items.length} size="xs" colorPalette={palette} aria-label={t('account.security.level')}>
        <Progress.Track rounded="full">
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      {!items.find((i) => i.id === 'google')?.on && (
        <Text fontSize="sm" color="fg.muted">
          {t('account.security.recommendTotp')}
        </Text>
      )}
    </Stack>
  );
}

function SettingsList({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const items = securityItems(user);
  const headingId = useId();
  return (
    <Box as="section" aria-labelledby={headingId} borderWidth="1px" rounded="xl" bg="bg.panel" overflow="hidden">
      <Box px={{ base: '4', md: '6' }} pt="5" pb="3">
        <Text as="h3" id={headingId} fontWeight="semibold" fontSize="md">
          {t('account.security.settingsTitle')}
        </Text>
      </Box>
      <SecurityLevel items={items} />
      <Box as="ul" listStyleType="none" borderTopWidth="1px" aria-labelledby={headingId}>
        {items.map((item) => (
          <SecurityRow key={item.id} item={item} />
        ))}
      </Box>
    </Box>
  );
}

export function SecurityTab() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  if (!user) return null;
  return (
    <Stack gap="5">
      <TabHeader title={t('account.tabs.security')} description={t('account.security.description')} />
      <SettingsList user={user} />
      <WalletSection user={user} />
      <SectionCard
        headingLevel="h3"
        title={t('account.security.devicesTitle')}
        description={t('account.security.devicesDescription')}
        icon={<DevicesIcon boxSize="5" />}
        actions={
          <Button asChild size="sm" variant="outline">
            <RouterLink to={tabPath('device-management')}>
              {t('account.security.manageDevices')}
              <ChevronRightIcon boxSize="4" />
            </RouterLink>
          </Button>
        }
      />
      <ApiKeysSection />
      <LoginLogSection />
    </Stack>
  );
}
