/**
 * Pieces the loan screens share: the page frame with the loan navigation (products, my loans), a
 * label/value row, a state badge, the loading/failure and login states, and the number and date
 * formats (UTC days, wasm-core's quantity format, a daily rate in percent).
 *
 * @module
 */

import { Badge, Button, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { fractionToPercent } from '../../lib/decimal-math';
import { SectionFrame } from '../../components/section-frame';
import { loginPath } from '../../lib/session';
import { formatQuantity, orDash } from '../../lib/wasm';

const LINKS = [
  { id: 'index', to: '/loan/index' },
  { id: 'order', to: '/loan/order' },
] as const;

/** The page frame: the loan navigation, the title, an introduction and the screen. */
export function LoansFrame({ section, title, intro, children }: { section: 'index' | 'order'; title: string; intro?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const links = LINKS.map((link) => ({ ...link, label: t(`loans.nav.${link.id}`) }));
  return (
    <SectionFrame navLabel={t('loans.nav.label')} links={links} current={section} title={title} intro={intro}>
      {children}
    </SectionFrame>
  );
}

/** One label and value of a description list (`dl`). */
export function Row({ label, value, strong }: { label: ReactNode; value: ReactNode; strong?: boolean }) {
  return (
    <Flex justify="space-between" align="baseline" gap="3" py="0.5">
      <Text as="dt" color="fg.muted" fontSize="sm" minW="min-content" overflowWrap="normal">
        {label}
      </Text>
      <Text as="dd" fontSize="sm" fontWeight={strong ? 'semibold' : 'medium'} fontVariantNumeric="tabular-nums" textAlign="end" overflowWrap="anywhere">
        {value}
      </Text>
    </Flex>
  );
}

const PALETTE: Record<string, string> = {
  pending: 'blue',
  approved: 'green',
  rejected: 'red',
  active: 'green',
  overdue: 'red',
  settled: 'gray',
  paid: 'gray',
};

/** An application's or loan's state; `instalment` words an instalment's (`paid`, `pending`: not yet due, `overdue`). */
export function StateBadge({ status, instalment = false }: { status: string; instalment?: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge colorPalette={PALETTE[status] ?? 'gray'} variant="surface" rounded="full" px="2.5" whiteSpace="nowrap">
      {t(instalment ? `loans.instalment.${status}` : `loans.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}

/** Loading, or a failure with a retry button. */
export function QueryState({ failed, onRetry }: { failed: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  if (!failed) {
    return (
      <Flex role="status" align="center" gap="2" color="fg.muted" py="8" justify="center">
        <Spinner size="sm" />
        {t('loans.loading')}
      </Flex>
    );
  }
  return (
    <Stack role="alert" align="center" gap="3" py="8">
      <Text>{t('loans.loadFailed')}</Text>
      <Button size="sm" variant="outline" onClick={onRetry}>
        {t('loans.retry')}
      </Button>
    </Stack>
  );
}

/** The visitor's prompt to log in (coming back here after). */
export function LoginPrompt() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Stack align="center" gap="3" py="6" px="4" borderWidth="1px" rounded="xl" bg="bg.panel" textAlign="center">
      <Text>{t('loans.loginPrompt')}</Text>
      <Button asChild colorPalette="brand">
        <RouterLink to={loginPath(`${location.pathname}${location.search}`)}>{t('loans.login')}</RouterLink>
      </Button>
    </Stack>
  );
}

/** `amount COIN` in wasm-core's quantity format (`--` when unknown). */
export function coinAmount(amount: string | null | undefined, coin: string): string {
  return `${orDash((v) => formatQuantity(v), amount)} ${coin.toUpperCase()}`;
}

/** A daily rate fraction as a percent (`0.0005` → `0.05%`). */
export function dayPercent(fraction: string): string {
  return `${fractionToPercent(fraction)}%`;
}

/** A moment as its UTC day and time, `2026-01-31 08:00 UTC`. */
export function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A moment as its UTC day, `2026-01-31`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
