/**
 * The review queue: status tabs (under review, passed, failed, each with its count), the table of
 * submissions (newest first), pages, and the detail dialog of the submission being reviewed. The
 * status and page live in the URL (`?status=&page=`), so a reload or a shared link shows the same
 * queue.
 *
 * @module
 */

import { Alert, Badge, Button, ButtonGroup, Flex, Heading, IconButton, Pagination, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ArrowRightIcon } from '../../components/icons';
import { type AdminIdentityRecord, PAGE_SIZE, useStatusCounts, useSubmissions } from './admin-api';
import { REVIEW_STATUSES, type ReviewStatus, countryName, formatTime, parsePage, parseStatus } from './admin-format';
import { ReviewDialog } from './review-dialog';

/** The table's columns before the action. */
const COLUMNS = ['user', 'account', 'level', 'name', 'idCard', 'country', 'cardType', 'submittedAt'] as const;

export function ReviewQueue() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const status = parseStatus(search.get('status'));
  const page = parsePage(search.get('page'));
  const list = useSubmissions(status, page);
  const counts = useStatusCounts();
  const [selected, setSelected] = useState<AdminIdentityRecord | null>(null);

  const records = list.data?.records ?? [];
  const total = list.data?.total ?? 0;
  // The open dialog follows the list's refetches (fresh photo links) while its row is there.
  const current = selected ? (records.find((r) => r.id === selected.id) ?? selected) : null;

  const go = (next: { status?: ReviewStatus; page?: number }) => {
    const params = new URLSearchParams(search);
    params.set('status', next.status ?? status);
    params.set('page', String(next.page ?? (next.status ? 1 : page)));
    setSearch(params, { replace: true });
  };

  const panel =
    list.isError && !list.data ? (
      <Alert.Root status="error" rounded="xl" role="alert">
        <Alert.Indicator />
        <Alert.Title flex="1">{t('kyc.admin.loadFailed')}</Alert.Title>
        <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
          {t('kyc.retry')}
        </Button>
      </Alert.Root>
    ) : (
      <Stack gap="4">
        <QueueTable
          records={records}
          status={status}
          loading={list.isLoading}
          stale={list.isPlaceholderData}
          busy={list.isFetching}
          onOpen={setSelected}
        />
        <Flex justify="space-between" align="center" gap="3" wrap="wrap">
          <Text fontSize="sm" color="fg.muted" aria-live="polite">
            {t('kyc.admin.total', { count: total })}
          </Text>
          {total > PAGE_SIZE && <Pages total={total} page={page} onPage={(next) => go({ page: next })} />}
        </Flex>
      </Stack>
    );

  return (
    <Tabs.Root value={status} onValueChange={(details) => go({ status: parseStatus(details.value) })} variant="enclosed" size="sm" lazyMount unmountOnExit>
      <Stack gap="6">
        <Flex justify="space-between" align={{ base: 'flex-start', md: 'flex-end' }} gap="4" wrap="wrap">
          <Stack gap="1.5" maxW="2xl">
            <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
              {t('kyc.admin.title')}
            </Heading>
            <Text color="fg.muted">{t('kyc.admin.subtitle')}</Text>
          </Stack>
          <Tabs.List aria-label={t('kyc.admin.filterLabel')} maxW="full" overflowX="auto">
            {REVIEW_STATUSES.map((value) => (
              <Tabs.Trigger key={value} value={value} whiteSpace="nowrap">
                {t(`kyc.status.${value}`)}
                {counts[value] !== undefined && (
                  <Badge
                    size="xs"
                    variant={value === 'review' && counts[value] ? 'solid' : 'subtle'}
                    colorPalette={value === 'review' && counts[value] ? 'orange' : 'gray'}
                    rounded="full"
                    fontVariantNumeric="tabular-nums"
                  >
                    {counts[value]}
                  </Badge>
                )}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Flex>

        {REVIEW_STATUSES.map((value) => (
          // Every panel lists the selected status: only the selected one holds it, so a panel on
          // its way out does not show the next status's rows beside it.
          <Tabs.Content key={value} value={value} p="0">
            {value === status && panel}
          </Tabs.Content>
        ))}
      </Stack>

      {current && <ReviewDialog record={current} onClose={() => setSelected(null)} />}
    </Tabs.Root>
  );
}

/** The submissions of one page. */
function QueueTable({
  records,
  status,
  loading,
  stale,
  busy,
  onOpen,
}: {
  records: AdminIdentityRecord[];
  status: ReviewStatus;
  loading: boolean;
  stale: boolean;
  busy: boolean;
  onOpen: (record: AdminIdentityRecord) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return (
    <Table.ScrollArea borderWidth="1px" rounded="xl" bg="bg.panel" opacity={stale ? 0.6 : 1} transition="opacity 0.15s">
      <Table.Root size="md" interactive aria-label={t('kyc.admin.queueLabel')} aria-busy={busy || undefined}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            {COLUMNS.map((column, index) => (
              <Table.ColumnHeader key={column} color="fg.muted" fontWeight="medium" whiteSpace="nowrap" ps={index === 0 ? '5' : undefined}>
                {t(`kyc.admin.columns.${column}`)}
              </Table.ColumnHeader>
            ))}
            <Table.ColumnHeader color="fg.muted" fontWeight="medium" textAlign="end" pe="5" whiteSpace="nowrap">
              {t('kyc.admin.columns.action')}
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {records.map((record) => (
            <Table.Row key={record.id}>
              <Table.Cell ps="5" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
                #{record.userId}
              </Table.Cell>
              <Table.Cell maxW="14rem" truncate title={record.account}>
                {record.account || '--'}
              </Table.Cell>
              <Table.Cell>
                <Badge variant="outline" colorPalette={record.level === 'advanced' ? 'purple' : 'blue'} size="sm">
                  {t(`kyc.admin.levels.${record.level}`)}
                </Badge>
              </Table.Cell>
              <Table.Cell fontWeight="medium" maxW="14rem" truncate title={record.name}>
                {record.name}
              </Table.Cell>
              <Table.Cell fontFamily="mono" fontSize="sm" whiteSpace="nowrap">
                {record.idCard}
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{countryName(record.country, lang)}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{t(`kyc.cardType.${record.cardType}`)}</Table.Cell>
              <Table.Cell fontVariantNumeric="tabular-nums" whiteSpace="nowrap" color="fg.muted" fontSize="sm">
                {formatTime(record.createdAt)}
              </Table.Cell>
              <Table.Cell textAlign="end" pe="5">
                <Button
                  size="xs"
                  variant={status === 'review' ? 'solid' : 'outline'}
                  colorPalette={status === 'review' ? 'brand' : 'gray'}
                  onClick={() => onOpen(record)}
                  aria-label={status === 'review' ? t('kyc.admin.openFor', { id: record.id }) : t('kyc.admin.detailsFor', { id: record.id })}
                >
                  {status === 'review' ? t('kyc.admin.open') : t('kyc.admin.details')}
                  <ArrowRightIcon boxSize="3.5" />
                </Button>
              </Table.Cell>
            </Table.Row>
          ))}
          {records.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={COLUMNS.length + 1} textAlign="center" py="14" color="fg.muted">
                {loading ? t('common.loading') : t('kyc.admin.empty')}
              </Table.Cell>
            </Table.Row>
          )}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** Page links under a table (the identity queue's, and the deposit and withdrawal queues'). */
export function Pages({ total, page, onPage, pageSize = PAGE_SIZE }: { total: number; page: number; onPage: (page: number) => void; pageSize?: number }) {
  const { t } = useTranslation();
  return (
    <Pagination.Root
      count={total}
      pageSize={pageSize}
      page={page}
      onPageChange={(details) => onPage(details.page)}
      translations={{
        rootLabel: t('kyc.admin.pagination'),
        prevTriggerLabel: t('kyc.admin.prevPage'),
        nextTriggerLabel: t('kyc.admin.nextPage'),
        itemLabel: ({ page: number }) => t('kyc.admin.page', { page: number }),
      }}
    >
      <ButtonGroup variant="ghost" size="sm" attached={false} gap="1">
        <Pagination.PrevTrigger asChild>
          <IconButton>
            <ArrowRightIcon transform="scaleX(-1)" />
          </IconButton>
        </Pagination.PrevTrigger>
        <Pagination.Items render={(item) => <IconButton variant={{ base: 'ghost', _selected: 'outline' }}>{item.value}</IconButton>} />
        <Pagination.NextTrigger asChild>
          <IconButton>
            <ArrowRightIcon />
          </IconButton>
        </Pagination.NextTrigger>
      </ButtonGroup>
    </Pagination.Root>
  );
}
