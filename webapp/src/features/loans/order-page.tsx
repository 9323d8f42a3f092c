/**
 * /loan/order: the member's applications and loans by state — pending review, review passed, review
 * failed (with the operator's reason), active, overdue, settled (`GET /api/loan/applications`,
 * `GET /api/loan/list`) — as cards; `?loan=` opens a loan's detail.
 *
 * @module
 */

import { Box, Button, Grid, Stack, Tabs, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useGetMyLoanApplications, useGetMyLoans } from '../../api/generated/loans/loans';
import type { LoanApplicationView, LoanView } from '../../api/generated/model';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useIsLoggedIn } from '../../lib/session';
import { LoanDetailPanel } from './loan-detail';
import { LoansFrame, LoginPrompt, QueryState, Row, StateBadge, coinAmount, dayPercent, utcDay, utcTime } from './parts';

/** The tabs, in order (`?state=`): three of applications, three of loans. */
export const ORDER_STATES = ['pending', 'approved', 'rejected', 'active', 'overdue', 'settled'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** `state` from the URL when it is one, else pending review. */
export function parseOrderState(value: string | null): OrderState {
  return (ORDER_STATES as readonly string[]).includes(value ?? '') ? (value as OrderState) : 'pending';
}

const GRID = { base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' };

function ApplicationCard({ application, onOpen }: { application: LoanApplicationView; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <Stack as="article" aria-label={t('loans.order.application', { id: application.id })} gap="2" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
      <Stack direction="row" justify="space-between" align="center">
        <Text fontWeight="semibold">{coinAmount(application.amount, application.coin)}</Text>
        <StateBadge status={application.status} />
      </Stack>
      <Box as="dl">
        <Row label={t('loans.order.cycle')} value={t('loans.days', { days: application.cycleDays })} />
        <Row label={t('loans.order.way')} value={t(`loans.ways.${application.repayWay}`, { defaultValue: application.repayWay })} />
        <Row label={t('loans.order.applied')} value={utcTime(application.createdAt)} />
        {application.reviewedAt != null && <Row label={t('loans.order.reviewed')} value={utcTime(application.reviewedAt)} />}
      </Box>
      {application.status === 'rejected' && (
        <Text fontSize="sm" color="fg.error" role="note">
          {t('loans.order.reason', { reason: application.reason ?? '--' })}
        </Text>
      )}
      {application.loanId != null && (
        <Button size="sm" variant="outline" onClick={() => onOpen(application.loanId ?? application.id)}>
          {t('loans.order.open')}
        </Button>
      )}
    </Stack>
  );
}

function LoanCard({ loan, onOpen }: { loan: LoanView; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <Stack as="article" aria-label={t('loans.order.loan', { id: loan.id })} gap="2" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
      <Stack direction="row" justify="space-between" align="center">
        <Text fontWeight="semibold">{coinAmount(loan.principal, loan.coin)}</Text>
        <StateBadge status={loan.status} />
      </Stack>
      <Box as="dl">
        <Row label={t('loans.product.dayRate')} value={dayPercent(loan.dayRate)} />
        <Row label={t('loans.order.way')} value={t(`loans.ways.${loan.repayWay}`, { defaultValue: loan.repayWay })} />
        <Row label={t('loans.order.end')} value={utcDay(loan.endTime)} />
        {loan.nextDueTime != null && <Row label={t('loans.order.nextDue')} value={`${coinAmount(loan.nextDueAmount, loan.coin)} · ${utcDay(loan.nextDueTime)}`} strong />}
        {loan.status === 'overdue' && <Row label={t('loans.order.penalty')} value={coinAmount(loan.penaltyAccrued, loan.coin)} strong />}
      </Box>
      <Button size="sm" variant="outline" onClick={() => onOpen(loan.id)}>
        {t('loans.order.open')}
      </Button>
    </Stack>
  );
}

function ApplicationsList({ status, onOpen }: { status: 'pending' | 'approved' | 'rejected'; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const list = useGetMyLoanApplications({ status, pageSize: 50 });
  if (!list.data) return <QueryState failed={list.isError} onRetry={() => void list.refetch()} />;
  if (list.data.records.length === 0) return <Text color="fg.muted">{t('loans.empty.records')}</Text>;
  return (
    <Grid gap="4" templateColumns={GRID}>
      {list.data.records.map((application) => (
        <ApplicationCard key={application.id} application={application} onOpen={onOpen} />
      ))}
    </Grid>
  );
}

function LoansList({ status, onOpen }: { status: 'active' | 'overdue' | 'settled'; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const list = useGetMyLoans({ status, pageSize: 50 });
  if (!list.data) return <QueryState failed={list.isError} onRetry={() => void list.refetch()} />;
  if (list.data.records.length === 0) return <Text color="fg.muted">{t('loans.empty.records')}</Text>;
  return (
    <Grid gap="4" templateColumns={GRID}>
      {list.data.records.map((loan) => (
        <LoanCard key={loan.id} loan={loan} onOpen={onOpen} />
      ))}
    </Grid>
  );
}

/** My applications and loans. */
export function OrderPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const [search, setSearch] = useSearchParams();
  const state = parseOrderState(search.get('state'));
  const loanId = Number(search.get('loan'));
  useDocumentTitle(t('loans.titles.order'));
  const open = (id: number) => setSearch({ state, loan: String(id) });
  const close = () => setSearch({ state }, { replace: true });
  return (
    <LoansFrame section="order" title={t('loans.titles.order')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : Number.isInteger(loanId) && loanId > 0 ? (
        <LoanDetailPanel id={loanId} onBack={close} />
      ) : (
        <Tabs.Root value={state} onValueChange={(details) => setSearch({ state: details.value }, { replace: true })} variant="line">
          <Tabs.List maxW="full" overflowX="auto" mb="4">
            {ORDER_STATES.map((id) => (
              <Tabs.Trigger key={id} value={id} whiteSpace="nowrap">
                {t(`loans.tabs.${id}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value={state} p="0">
            {state === 'pending' || state === 'approved' || state === 'rejected' ? (
              <ApplicationsList status={state} onOpen={open} />
            ) : (
              <LoansList status={state} onOpen={open} />
            )}
          </Tabs.Content>
        </Tabs.Root>
      )}
    </LoansFrame>
  );
}
