/**
 * The frames of the account centre: the tabbed layout (page heading, tab list, routed tab) and the
 * settings layout (no tabs; a link back to the security tab).
 *
 * @module
 */

import { Alert, Box, Button, Flex, Grid, Heading, Skeleton, Stack, Text, chakra } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, Link as RouterLink, useLocation } from 'react-router';
import { useCurrentUser } from '../../hooks/use-current-user';
import {
  AwardIcon,
  ChevronLeftIcon,
  DevicesIcon,
  GiftIcon,
  IdCardIcon,
  ShieldCheckIcon,
  StoreIcon,
  UserIcon,
  UsersIcon,
} from './components/icons';
import { type AccountTab, tabPath, visibleTabs } from './lib/tabs';

const TAB_ICONS: Record<string, (props: { boxSize?: string }) => ReactNode> = {
  info: UserIcon,
  security: ShieldCheckIcon,
  'device-management': DevicesIcon,
  kyc: IdCardIcon,
  tier: AwardIcon,
  'reward-center': GiftIcon,
  'contractAgents/agentManagement': UsersIcon,
  merchant: StoreIcon,
};

const navItemStyles = {
    display: 'flex',
    alignItems: 'center',
    gap: '3',
    px: '3',
    py: '2.5',
    rounded: 'lg',
    fontSize: 'sm',
    fontWeight: 'medium',
    color: 'fg.muted',
    lineHeight: '1.3',
    transition: 'background 0.15s, color 0.15s',
    _hover: { bg: 'bg.muted', color: 'fg' },
    _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px' },
    '&[aria-current=page]': { bg: 'brand.subtle', color: 'brand.fg', fontWeight: 'semibold' },
} as const;

/** Whether `pathname` is the tab at `to` or one of its screens. */
function isActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** The tab list: a side list from `lg`, a horizontally scrolling row below. */
export function AccountNav({ tabs }: { tabs: readonly AccountTab[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Box
      as="nav"
      aria-label={t('account.nav')}
      position={{ lg: 'sticky' }}
      top={{ lg: '6' }}
      borderWidth={{ lg: '1px' }}
      rounded={{ lg: 'xl' }}
      bg={{ lg: 'bg.panel' }}
      p={{ lg: '2' }}
      mx={{ base: '-4', md: '0' }}
      px={{ base: '4', md: '0', lg: '2' }}
      overflowX={{ base: 'auto', lg: 'visible' }}
      borderBottomWidth={{ base: '1px', lg: '1px' }}
      pb={{ base: '2', lg: '2' }}
      css={{ scrollbarWidth: 'thin' }}
    >
      <Flex as="ul" listStyleType="none" direction={{ base: 'row', lg: 'column' }} gap={{ base: '1', lg: '0.5' }} w={{ base: 'max-content', lg: 'auto' }}>
        {tabs.map((tab) => {
          const Icon = TAB_ICONS[tab.path] ?? UserIcon;
          const to = tabPath(tab.path);
          return (
            <li key={tab.path}>
              <chakra.a asChild {...navItemStyles} whiteSpace={{ base: 'nowrap', lg: 'normal' }}>
                <RouterLink to={to} aria-current={isActive(pathname, to) ? 'page' : undefined}>
                  <Box as="span" display="inline-flex" flexShrink={0} aria-hidden="true">
                    <Icon boxSize="4.5" />
                  </Box>
                  {t(tab.labelKey)}
                </RouterLink>
              </chakra.a>
            </li>
          );
        })}
      </Flex>
    </Box>
  );
}

/** The heading of a tab or settings screen with a line under it. */
export function TabHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <Flex gap="4" align={{ base: 'flex-start', md: 'flex-end' }} justify="space-between" direction={{ base: 'column', md: 'row' }}>
      <Stack gap="1" minW="0">
        <Heading as="h2" fontSize={{ base: 'xl', md: '2xl' }} letterSpacing="-0.02em">
          {title}
        </Heading>
        {description && (
          <Text color="fg.muted" fontSize="sm" maxW="2xl">
            {description}
          </Text>
        )}
      </Stack>
      {actions}
    </Flex>
  );
}

/** Placeholder blocks while the user record loads. */
export function LoadingBlocks({ count = 2 }: { count?: number }) {
  const { t } = useTranslation();
  return (
    <Stack gap="4" role="status" aria-label={t('account.loading')}>
      {Array.from({ length: count }, (_, i) => (
        <Skeleton key={i} h="36" rounded="xl" />
      ))}
    </Stack>
  );
}

/** The user record could not be loaded (other than a 401, which logs out). */
function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert.Root status="error" rounded="xl" alignItems="center">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('account.loadFailed')}</Alert.Title>
      </Alert.Content>
      <Button size="sm" variant="outline" onClick={onRetry}>
        {t('account.retry')}
      </Button>
    </Alert.Root>
  );
}

function PageHeading() {
  const { t } = useTranslation();
  return (
    <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em" mb={{ base: '4', md: '6' }}>
      {t('account.title')}
    </Heading>
  );
}

/** The tabbed layout: page heading, tab list, and the routed tab. */
export function AccountLayout() {
  const { user, isLoading, refetch } = useCurrentUser();
  return (
    <>
      <PageHeading />
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: '240px minmax(0, 1fr)' }} gap={{ base: '5', lg: '8' }} alignItems="start">
        <AccountNav tabs={visibleTabs(user?.is_merchant)} />
        <Box minW="0">{user ? <Outlet /> : isLoading ? <LoadingBlocks /> : <LoadFailed onRetry={refetch} />}</Box>
      </Grid>
    </>
  );
}

/** A security settings screen: no tabs; a link back to the security tab. */
export function SettingsLayout() {
  const { t } = useTranslation();
  const { user, isLoading, refetch } = useCurrentUser();
  return (
    <>
      <PageHeading />
      <Stack gap="5" maxW="2xl">
        <Button asChild variant="ghost" size="sm" alignSelf="flex-start" ms="-3" color="fg.muted">
          <RouterLink to={tabPath('security')}>
            <ChevronLeftIcon boxSize="4" />
            {t('account.settings.back')}
          </RouterLink>
        </Button>
        {user ? <Outlet /> : isLoading ? <LoadingBlocks /> : <LoadFailed onRetry={refetch} />}
      </Stack>
    </>
  );
}
