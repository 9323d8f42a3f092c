/**
 * Pieces every earn screen shares: the earn navigation (staking, DeFi, wealth, my orders), the page
 * frame with its title and introduction, a product's status badge, a label/value row, the loading,
 * failure and login states.
 *
 * @module
 */

import { Badge, Button, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { SectionFrame } from '../../components/section-frame';
import { loginPath } from '../../lib/session';

/** The earn screens the navigation links to. */
export const EARN_LINKS = [
  { id: 'pledge', to: '/pledge/index' },
  { id: 'defi', to: '/defis/index' },
  { id: 'finance', to: '/finance/investment' },
  { id: 'orders', to: '/pledge/order' },
] as const;
export type EarnSection = (typeof EARN_LINKS)[number]['id'];

/** The page frame: the earn navigation, the title, an introduction and the screen. */
export function EarnFrame({ section, title, intro, children }: { section: EarnSection; title: string; intro?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const links = EARN_LINKS.map((link) => ({ ...link, label: t(`earn.nav.${link.id}`) }));
  return (
    <SectionFrame navLabel={t('earn.nav.label')} links={links} current={section} title={title} intro={intro}>
      {children}
    </SectionFrame>
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
