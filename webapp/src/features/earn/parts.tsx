/**
 * Pieces every earn screen shares: the earn navigation (staking, DeFi, wealth, my orders), the page
 * frame with its title and introduction, a product's status badge, a label/value row, the loading,
 * failure and login states.
 *
 * @module
 */

import { Badge, Box, Button, Container, Flex, Heading, Spinner, Stack, Text, chakra } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { loginPath } from '../../lib/session';

/** The earn screens the navigation links to. */
export const EARN_LINKS = [
  { id: 'pledge', to: '/pledge/index' },
  { id: 'defi', to: '/defis/index' },
  { id: 'finance', to: '/finance/investment' },
  { id: 'orders', to: '/pledge/order' },
] as const;
export type EarnSection = (typeof EARN_LINKS)[number]['id'];

const linkStyles = {
  display: 'inline-flex',
  alignItems: 'center',
  px: '3',
  py: '1.5',
  rounded: 'lg',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  whiteSpace: 'nowrap',
  _hover: { bg: 'bg.muted', color: 'fg' },
  _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px' },
  '&[aria-current=page]': { bg: 'brand.subtle', color: 'brand.fg', fontWeight: 'semibold' },
} as const;

/** The page frame: the earn navigation, the title, an introduction and the screen. */
export function EarnFrame({ section, title, intro, children }: { section: EarnSection; title: string; intro?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Container maxW="1200px" px={{ base: '3', md: '6' }} py={{ base: '3', md: '6' }}>
      <Stack gap="4">
        <Box as="nav" aria-label={t('earn.nav.label')} overflowX="auto" borderBottomWidth="1px" pb="2">
          <Flex as="ul" listStyleType="none" gap="1" w="max-content">
            {EARN_LINKS.map((link) => (
              <li key={link.id}>
                <chakra.a asChild {...linkStyles}>
                  <RouterLink to={link.to} aria-current={link.id === section ? 'page' : undefined}>
                    {t(`earn.nav.${link.id}`)}
                  </RouterLink>
                </chakra.a>
              </li>
            ))}
          </Flex>
        </Box>
        <Stack gap="1">
          <Heading as="h1" size={{ base: 'lg', md: 'xl' }}>
            {title}
          </Heading>
          {intro && (
            <Text color="fg.muted" fontSize="sm" maxW="70ch">
              {intro}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Container>
  );
}

const STATUS_PALETTE = { scheduled: 'blue', open: 'green', paused: 'orange', ended: 'gray' } as const;

/** A product's state: upcoming, open, paused or ended. */
export function StatusBadge({ status }: { status: keyof typeof STATUS_PALETTE }) {
  const { t } = useTranslation();
  return (
    <Badge colorPalette={STATUS_PALETTE[status]} variant="surface" rounded="full" px="2.5" whiteSpace="nowrap">
      {t(`earn.status.${status}`)}
    </Badge>
  );
}

/** One label and value of a description list (`dl`); long labels wrap, values keep together. */
export function Row({ label, value, strong }: { label: ReactNode; value: ReactNode; strong?: boolean }) {
  return (
    <Flex justify="space-between" align="baseline" gap="3" py="0.5">
      <Text as="dt" color="fg.muted" fontSize="sm" minW="0">
        {label}
      </Text>
      <Text as="dd" fontSize="sm" fontWeight={strong ? 'semibold' : 'medium'} fontVariantNumeric="tabular-nums" textAlign="end">
        {value}
      </Text>
    </Flex>
  );
}

/** Loading, or a failure with a retry button. */
export function QueryState({ failed, onRetry }: { failed: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  if (!failed) {
    return (
      <Flex role="status" align="center" gap="2" color="fg.muted" py="8" justify="center">
        <Spinner size="sm" />
        {t('earn.loading')}
      </Flex>
    );
  }
  return (
    <Stack role="alert" align="center" gap="3" py="8">
      <Text>{t('earn.loadFailed')}</Text>
      <Button size="sm" variant="outline" onClick={onRetry}>
        {t('earn.retry')}
      </Button>
    </Stack>
  );
}

/** The visitor's prompt to log in (coming back here after). */
export function LoginPrompt() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Stack align="center" gap="3" py="8" borderWidth="1px" rounded="xl" bg="bg.panel">
      <Text>{t('earn.loginPrompt')}</Text>
      <Button asChild colorPalette="brand">
        <RouterLink to={loginPath(`${location.pathname}${location.search}`)}>{t('earn.login')}</RouterLink>
      </Button>
    </Stack>
  );
}
