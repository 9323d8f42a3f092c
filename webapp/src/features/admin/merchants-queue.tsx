/**
 * The operator's merchants (`/admin?queue=merchants`, issue 26): the applications of one status —
 * pending first, or approved, rejected, all — most recently changed first
 * (`GET /api/admin/merchants`, 20 a page), each a card with what the applicant sent. A pending one
 * is approved with a rate in percent (empty: the configured default) or rejected with a reason the
 * user reads (`POST /api/admin/merchants/decide`; of two operators deciding at once one wins, the
 * other reads the server's `merchant_decided`); an approved merchant's rate can be changed
 * (`POST /api/admin/merchants/rate`).
 *
 * @module
 */

import { Badge, Box, Button, ButtonGroup, DataList, Field, Flex, Grid, HStack, Heading, Input, Spinner, Stack, Text, Textarea } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAdminListMerchantsQueryKey, useAdminDecideMerchant, useAdminListMerchants, useAdminSetMerchantRate } from '../../api/generated/admin-merchant/admin-merchant';
import type { MerchantRecord } from '../../api/generated/model';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { SILENT, failure } from '../../lib/api-calls';
import { fractionPercent, rateFromPercent } from '../../lib/tiers';
import { toaster } from '../../lib/toaster';

/** The status filters, in display order (`all` sends no status). */
export const MERCHANT_FILTERS = ['pending', 'approved', 'rejected', 'all'] as const;
type Filter = (typeof MERCHANT_FILTERS)[number];

const PAGE_SIZE = 20;

const STATUS_PALETTE: Record<string, string> = { pending: 'orange', approved: 'green', rejected: 'red' };

/** The controls of a pending application: approve with an optional rate, or reject with a reason. */
function Decide({ record, onDone }: { record: MerchantRecord; onDone: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const decide = useAdminDecideMerchant({ request: SILENT });
  const [percent, setPercent] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<{ field: 'rate' | 'reason' | 'form'; message: string } | undefined>();

  const send = async (approve: boolean) => {
    setError(undefined);
    let rebateRate: string | undefined;
    if (approve && percent.trim() !== '') {
      const rate = rateFromPercent(percent);
      if (rate === null) {
        setError({ field: 'rate', message: t('tiers.admin.rateInvalid') });
        return;
      }
      rebateRate = rate;
    }
    if (!approve && reason.trim() === '') {
      setError({ field: 'reason', message: t('tiers.admin.reasonRequired') });
      return;
    }
    try {
      await decide.mutateAsync({
        data: approve ? { userId: record.userId, approve, ...(rebateRate ? { rebateRate } : {}) } : { userId: record.userId, approve, reason: reason.trim() },
      });
      toaster.create({ type: 'success', title: approve ? t('tiers.admin.approvedToast') : t('tiers.admin.rejectedToast') });
      await onDone();
    } catch (caught) {
      const failed = failure(caught, t('tiers.admin.failed'));
      setError({ field: failed.field === 'rebateRate' ? 'rate' : failed.field === 'reason' ? 'reason' : 'form', message: failed.message });
      // Decided meanwhile by another operator: the list shows the decision.
      if (failed.reason === 'merchant_decided') await onDone();
    }
  };

  return (
    <Stack gap="3" pt="3" borderTopWidth="1px">
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }} gap="3">
        <Field.Root invalid={error?.field === 'rate'}>
          <Field.Label>{t('tiers.admin.ratePercent')}</Field.Label>
          <Input inputMode="decimal" value={percent} onChange={(e) => setPercent(e.target.value.replace(/[^\d.]/g, ''))} />
          {error?.field === 'rate' ? <Field.ErrorText>{error.message}</Field.ErrorText> : <Field.HelperText>{t('tiers.admin.rateHint')}</Field.HelperText>}
        </Field.Root>
        <Field.Root invalid={error?.field === 'reason'}>
          <Field.Label>{t('tiers.admin.reason')}</Field.Label>
          <Textarea rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          {error?.field === 'reason' ? <Field.ErrorText>{error.message}</Field.ErrorText> : <Field.HelperText>{t('tiers.admin.reasonHint')}</Field.HelperText>}
        </Field.Root>
      </Grid>
      {error?.field === 'form' && (
        <Text fontSize="sm" color="fg.error" role="alert">
          {error.message}
        </Text>
      )}
      <HStack gap="2" wrap="wrap">
        <Button size="sm" colorPalette="green" loading={decide.isPending && decide.variables?.data.approve === true} onClick={() => void send(true)}>
          {t('tiers.admin.approve')}
        </Button>
        <Button size="sm" variant="outline" colorPalette="red" loading={decide.isPending && decide.variables?.data.approve === false} onClick={() => void send(false)}>
          {t('tiers.admin.reject')}
        </Button>
      </HStack>
    </Stack>
  );
}

/** An approved merchant's rate, changed in percent. */
function ChangeRate({ record, onDone }: { record: MerchantRecord; onDone: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const save = useAdminSetMerchantRate({ request: SILENT });
  const [percent, setPercent] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const rate = rateFromPercent(percent);
    if (rate === null) {
      setError(t('tiers.admin.rateInvalid'));
      return;
    }
    try {
      await save.mutateAsync({ data: { userId: record.userId, rebateRate: rate } });
      toaster.create({ type: 'success', title: t('tiers.admin.rateSaved') });
      setPercent('');
      await onDone();
    } catch (caught) {
      setError(failure(caught, t('tiers.admin.failed')).message);
    }
  };
  return (
    <Box as="form" onSubmit={submit} pt="3" borderTopWidth="1px" aria-label={t('tiers.admin.changeRateFor', { id: record.userId })}>
      <Flex gap="2" align="flex-end" wrap="wrap">
        <Field.Root invalid={Boolean(error)} flex="1" minW="40">
          <Field.Label>{t('tiers.admin.newRate')}</Field.Label>
          <Input size="sm" inputMode="decimal" value={percent} onChange={(e) => setPercent(e.target.value.replace(/[^\d.]/g, ''))} />
        </Field.Root>
        <Button type="submit" size="sm" variant="outline" loading={save.isPending} disabled={!percent}>
          {t('tiers.admin.saveRate')}
        </Button>
      </Flex>
      {error && (
        <Text fontSize="xs" color="fg.error" mt="1" role="alert">
          {error}
        </Text>
      )}
    </Box>
  );
}

function Application({ record, onDone }: { record: MerchantRecord; onDone: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  return (
    <Stack as="li" gap="3" p="4" borderWidth="1px" rounded="xl" bg="bg.panel" aria-label={t('tiers.admin.applicationOf', { name: record.businessName, id: record.userId })}>
      <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
        <Stack gap="0.5" minW="0">
          <Text fontWeight="semibold" overflowWrap="anywhere">
            {record.businessName}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            {t('tiers.admin.user', { id: record.userId })} · {t('tiers.admin.applied', { time: formatTime(record.createdAt) })}
          </Text>
        </Stack>
        <Badge colorPalette={STATUS_PALETTE[record.status] ?? 'gray'} variant="surface" rounded="full">
          {t(`tiers.admin.status.${record.status}`, { defaultValue: record.status })}
        </Badge>
      </Flex>
      <DataList.Root orientation="vertical" gap="2" size="sm">
        <DataList.Item>
          <DataList.ItemLabel>{t('tiers.merchant.fields.contact')}</DataList.ItemLabel>
          <DataList.ItemValue overflowWrap="anywhere">{record.contact}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t('tiers.merchant.fields.business')}</DataList.ItemLabel>
          <DataList.ItemValue whiteSpace="pre-wrap" overflowWrap="anywhere">
            {record.business}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t('tiers.merchant.fields.countries')}</DataList.ItemLabel>
          <DataList.ItemValue overflowWrap="anywhere">{record.countries}</DataList.ItemValue>
        </DataList.Item>
        {record.status === 'approved' && record.rebateRate && (
          <DataList.Item>
            <DataList.ItemLabel>{t('tiers.merchant.rate')}</DataList.ItemLabel>
            <DataList.ItemValue fontWeight="semibold">{fractionPercent(record.rebateRate)}</DataList.ItemValue>
          </DataList.Item>
        )}
        {record.status === 'rejected' && record.reason && (
          <DataList.Item>
            <DataList.ItemLabel>{t('tiers.admin.reasonGiven')}</DataList.ItemLabel>
            <DataList.ItemValue whiteSpace="pre-wrap" overflowWrap="anywhere">
              {record.reason}
            </DataList.ItemValue>
          </DataList.Item>
        )}
        {record.decidedAt != null && (
          <DataList.Item>
            <DataList.ItemLabel>{t('tiers.admin.decided')}</DataList.ItemLabel>
            <DataList.ItemValue>{formatTime(record.decidedAt)}</DataList.ItemValue>
          </DataList.Item>
        )}
      </DataList.Root>
      {record.status === 'pending' && <Decide record={record} onDone={onDone} />}
      {record.status === 'approved' && <ChangeRate record={record} onDone={onDone} />}
    </Stack>
  );
}

export function MerchantsQueue() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>('pending');
  const [page, setPage] = useState(1);
  const list = useAdminListMerchants({ page, pageSize: PAGE_SIZE, ...(filter === 'all' ? {} : { status: filter }) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: getAdminListMerchantsQueryKey() });
  const records = list.data?.records ?? [];
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <Stack gap="5">
      <Stack gap="1">
        <Heading as="h2" size="lg">
          {t('tiers.admin.merchantsTitle')}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t('tiers.admin.merchantsDescription')}
        </Text>
      </Stack>
      <ButtonGroup size="sm" variant="outline" attached role="group" aria-label={t('tiers.admin.filter')} flexWrap="wrap">
        {MERCHANT_FILTERS.map((id) => (
          <Button
            key={id}
            aria-pressed={filter === id}
            variant={filter === id ? 'solid' : 'outline'}
            onClick={() => {
              setFilter(id);
              setPage(1);
            }}
          >
            {t(`tiers.admin.filters.${id}`)}
          </Button>
        ))}
      </ButtonGroup>
      {list.isPending ? (
        <Flex justify="center" py="6">
          <Spinner />
        </Flex>
      ) : list.isError ? (
        <Text color="fg.error" role="alert">
          {t('tiers.admin.loadFailed')}
        </Text>
      ) : records.length === 0 ? (
        <Text color="fg.muted">{t('tiers.admin.empty')}</Text>
      ) : (
        <Grid as="ul" listStyleType="none" aria-label={t('tiers.admin.merchantsTitle')} templateColumns={{ base: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }} gap="4" alignItems="start">
          {records.map((record) => (
            <Application key={`${record.userId}-${record.status}-${record.decidedAt ?? record.createdAt}`} record={record} onDone={refresh} />
          ))}
        </Grid>
      )}
      {pages > 1 && (
        <HStack gap="2" justify="flex-end">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('tiers.admin.previous')}
          </Button>
          <Text fontSize="sm" color="fg.muted">
            {t('tiers.admin.page', { page, pages })}
          </Text>
          <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('tiers.admin.next')}
          </Button>
        </HStack>
      )}
    </Stack>
  );
}
