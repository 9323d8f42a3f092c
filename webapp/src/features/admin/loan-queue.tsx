/**
 * The operator's loan applications (`/admin?queue=loanApplications`): pending first, with the
 * applicant, the amount, cycle and way, the three identity images (signed links), the applicant's
 * credit score with its factors and loan history, the status history; approve (the principal is
 * paid from the lending pool) or reject with a reason the user sees
 * (`POST /api/admin/loans/applications/{id}/review`).
 *
 * @module
 */

import { Badge, Box, Button, Flex, Grid, Image, Link, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAdminGetLoanPoolQueryKey, getAdminListLoanApplicationsQueryKey, useAdminListLoanApplications, useAdminReviewLoanApplication } from '../../api/generated/admin-loans/admin-loans';
import type { AdminLoanApplication, ApplicationFilter } from '../../api/generated/model';
import { SILENT, failure } from '../../lib/api-calls';
import { invalidateOperations } from '../../lib/query-keys';
import { toaster } from '../../lib/toaster';
import { formatQuantity } from '../../lib/wasm';

const SIDES = ['front', 'back', 'hold'] as const;

function ApplicationCard({ row }: { row: AdminLoanApplication }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const review = useAdminReviewLoanApplication({ request: SILENT });
  const [reason, setReason] = useState('');
  const app = row.application;
  const decide = async (approve: boolean) => {
    try {
      await review.mutateAsync({ id: app.id, data: approve ? { approve } : { approve, reason: reason.trim() } });
      toaster.create({ type: 'success', title: t(approve ? 'loans.admin.approved' : 'loans.admin.rejected') });
      void invalidateOperations(queryClient, [getAdminListLoanApplicationsQueryKey(), getAdminGetLoanPoolQueryKey()]);
    } catch (caught) {
      toaster.create({ type: 'error', title: failure(caught, t('errors.unknown')).message });
    }
  };
  return (
    <Stack as="article" aria-label={t('loans.order.application', { id: app.id })} gap="3" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
      <Flex justify="space-between" gap="2" wrap="wrap">
        <Text fontWeight="semibold">
          #{app.id} · {row.account} · {formatQuantity(app.amount)} {app.coin.toUpperCase()}
        </Text>
        <Badge>{t(`loans.status.${app.status}`, { defaultValue: app.status })}</Badge>
      </Flex>
      <Text fontSize="sm">
        {t('loans.days', { days: app.cycleDays })} · {t(`loans.ways.${app.repayWay}`, { defaultValue: app.repayWay })} · {t(`loans.kyc.${row.kycLevel}`)} ·{' '}
        {t('loans.admin.documentsFrom', { from: t(`loans.apply.documents.${app.documentsFrom}`) })}
      </Text>
      <Grid templateColumns="repeat(3, minmax(0, 1fr))" gap="2">
        {app.documentUrls.map((url, index) => (
          <Link key={url} href={url} target="_blank" rel="noreferrer" aria-label={t(`loans.apply.documents.${SIDES[index] ?? 'front'}`)}>
            <Image src={url} alt={t(`loans.apply.documents.${SIDES[index] ?? 'front'}`)} maxH="32" objectFit="cover" rounded="md" borderWidth="1px" />
          </Link>
        ))}
      </Grid>
      <Box fontSize="sm">
        <Text fontWeight="medium">{t('loans.admin.credit', { score: row.credit.score, atApplication: app.creditScore })}</Text>
        <Text color="fg.muted">{row.credit.factors.map((f) => `${t(`loans.credit.factors.${f.key}`, { value: f.value, defaultValue: f.key })} ${f.points > 0 ? '+' : ''}${f.points}`).join(' · ')}</Text>
        <Text color="fg.muted">{t('loans.admin.record', { loans: row.record.loans, settled: row.record.settled, overdue: row.record.overdue, rejected: row.record.rejected })}</Text>
      </Box>
      {row.history.length > 0 && (
        <Text fontSize="xs" color="fg.muted">
          {row.history.map((h) => `${t(`loans.status.${h.toStatus}`, { defaultValue: h.toStatus })} ${new Date(h.at).toISOString().slice(0, 16).replace('T', ' ')}`).join(' → ')}
        </Text>
      )}
      {app.status === 'rejected' && app.reason && <Text fontSize="sm">{t('loans.order.reason', { reason: app.reason })}</Text>}
      {app.status === 'pending' && (
        <Stack gap="2">
          <Textarea size="sm" name="reason" aria-label={t('loans.admin.reason')} placeholder={t('loans.admin.reason')} value={reason} onChange={(event) => setReason(event.currentTarget.value)} />
          <Flex gap="2" wrap="wrap">
            <Button size="sm" colorPalette="green" loading={review.isPending} onClick={() => void decide(true)}>
              {t('loans.admin.approve')}
            </Button>
            <Button size="sm" colorPalette="red" variant="outline" disabled={!reason.trim()} loading={review.isPending} onClick={() => void decide(false)}>
              {t('loans.admin.reject')}
            </Button>
          </Flex>
        </Stack>
      )}
    </Stack>
  );
}

/** The loan application queue. */
export function LoanQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<ApplicationFilter>('pending');
  const list = useAdminListLoanApplications({ status, pageSize: 50 });
  return (
    <Stack gap="4">
      <Flex justify="space-between" align="center" gap="2" wrap="wrap">
        <Text as="h2" fontWeight="semibold">
          {t('loans.admin.applications')}
        </Text>
        <NativeSelect.Root size="sm" w="48">
          <NativeSelect.Field aria-label={t('loans.detail.state')} value={status} onChange={(event) => setStatus(event.currentTarget.value as ApplicationFilter)}>
            {(['pending', 'approved', 'rejected'] as const).map((value) => (
              <option key={value} value={value}>
                {t(`loans.tabs.${value}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
      {list.data && list.data.records.length === 0 && <Text color="fg.muted">{t('loans.empty.records')}</Text>}
      <Grid gap="4" templateColumns={{ base: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }}>
        {(list.data?.records ?? []).map((row) => (
          <ApplicationCard key={row.application.id} row={row} />
        ))}
      </Grid>
    </Stack>
  );
}
