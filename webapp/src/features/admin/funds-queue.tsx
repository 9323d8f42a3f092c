/**
 * The deposit and withdrawal review queues: status tabs (under review, passed, failed, each with its
 * count), the table of records (newest first), pages, and the detail dialog of the record being
 * reviewed. Status and page live in the URL (`?queue=&status=&page=`), like the identity queue.
 *
 * @module
 */

import { Alert, Badge, Button, Flex, Heading, HStack, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ArrowRightIcon } from '../../components/icons';
import { REVIEW_STATUSES, type ReviewStatus, formatTime, parsePage, parseStatus } from './admin-format';
import {
  type AdminDepositRecord,
  type AdminWithdrawalRecord,
  FUNDS_PAGE_SIZE,
  type FundsQueueKind,
  useDepositQueue,
  useFundsStatusCounts,
  useWithdrawalQueue,
} from './funds-api';
import { amountText, shortAddress } from './funds-format';
import { DepositReviewDialog, WithdrawalReviewDialog } from './funds-review-dialog';
import { Pages } from './review-queue';

export function FundsQueue({ kind }: { kind: FundsQueueKind }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const status = parseStatus(search.get('status'));
  const page = parsePage(search.get('page'));
  const deposits = useDepositQueue(status, page, kind === 'deposits');
  const withdrawals = useWithdrawalQueue(status, page, kind === 'withdrawals');
  const list = kind === 'deposits' ? deposits : withdrawals;
  const counts = useFundsStatusCounts(kind);
  const [selected, setSelected] = useState<number | null>(null);

  const total = list.data?.total ?? 0;
  const depositRecords = deposits.data?.records ?? [];
  const withdrawalRecords = withdrawals.data?.records ?? [];
  const openDeposit = kind === 'deposits' ? depositRecords.find((r) => r.id === selected) : undefined;
  const openWithdrawal = kind === 'withdrawals' ? withdrawalRecords.find((r) => r.id === selected) : undefined;

  const go = (next: { status?: ReviewStatus; page?: number }) => {
    const params = new URLSearchParams(search);
    params.set('status', next.status ?? status);
    params.set('page', String(next.page ?? (next.status ? 1 : page)));
    setSearch(params, { replace: true });
  };

  return (
    <Tabs.Root value={status} onValueChange={(details) => go({ status: parseStatus(details.value) })} variant="enclosed" size="sm" lazyMount unmountOnExit>
      <Stack gap="6">
        <Flex justify="space-between" align={{ base: 'flex-start', md: 'flex-end' }} gap="4" wrap="wrap">
          <Stack gap="1.5" maxW="2xl">
            <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
              {t(`funds.admin.${kind}.title`)}
            </Heading>
            <Text color="fg.muted">{t(`funds.admin.${kind}.subtitle`)}</Text>
          </Stack>
          <Tabs.List aria-label={t('funds.admin.filterLabel')} maxW="full" overflowX="auto">
            {REVIEW_STATUSES.map((value) => (
              <Tabs.Trigger key={value} value={value} whiteSpace="nowrap">
                {t(`funds.status.${value}`)}
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
          <Tabs.Content key={value} value={value} p="0">
            {list.isError && !list.data ? (
              <Alert.Root status="error" rounded="xl" role="alert">
                <Alert.Indicator />
                <Alert.Title flex="1">{t('funds.admin.loadFailed')}</Alert.Title>
                <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
                  {t('funds.retry')}
                </Button>
              </Alert.Root>
            ) : (
              <Stack gap="4">
                <Table.ScrollArea borderWidth="1px" rounded="xl" bg="bg.panel" opacity={list.isPlaceholderData ? 0.6 : 1} transition="opacity 0.15s">
                  {kind === 'deposits' ? (
                    <DepositTable records={depositRecords} status={status} loading={list.isLoading} busy={list.isFetching} onOpen={setSelected} />
                  ) : (
                    <WithdrawalTable records={withdrawalRecords} status={status} loading={list.isLoading} busy={list.isFetching} onOpen={setSelected} />
                  )}
                </Table.ScrollArea>
                <Flex justify="space-between" align="center" gap="3" wrap="wrap">
                  <Text fontSize="sm" color="fg.muted" aria-live="polite">
                    {t('funds.admin.total', { count: total })}
                  </Text>
                  {total > FUNDS_PAGE_SIZE && <Pages total={total} page={page} onPage={(next) => go({ page: next })} pageSize={FUNDS_PAGE_SIZE} />}
                </Flex>
              </Stack>
            )}
          </Tabs.Content>
        ))}
      </Stack>

      {openDeposit && <DepositReviewDialog record={openDeposit} onClose={() => setSelected(null)} />}
      {openWithdrawal && <WithdrawalReviewDialog record={openWithdrawal} onClose={() => setSelected(null)} />}
    </Tabs.Root>
  );
}

interface TableProps<R> {
  records: R[];
  status: ReviewStatus;
  loading: boolean;
  busy: boolean;
  onOpen: (id: number) => void;
}

function Header({ columns }: { columns: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <Table.Header>
      <Table.Row bg="bg.subtle">
        {columns.map((column, index) => (
          <Table.ColumnHeader
            key={column}
            color="fg.muted"
            fontWeight="medium"
            whiteSpace="nowrap"
            ps={index === 0 ? '5' : undefined}
            textAlign={['amount', 'fee', 'received'].includes(column) ? 'end' : undefined}
          >
            {t(`funds.admin.columns.${column}`)}
          </Table.ColumnHeader>
        ))}
        <Table.ColumnHeader color="fg.muted" fontWeight="medium" textAlign="end" pe="5" whiteSpace="nowrap">
          {t('funds.admin.columns.action')}
        </Table.ColumnHeader>
      </Table.Row>
    </Table.Header>
  );
}

function EmptyRow({ columns, loading }: { columns: number; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <Table.Row>
      <Table.Cell colSpan={columns} textAlign="center" py="14" color="fg.muted">
        {loading ? t('funds.loading') : t('funds.admin.empty')}
      </Table.Cell>
    </Table.Row>
  );
}

function OpenButton({ id, status, onOpen }: { id: number; status: ReviewStatus; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const review = status === 'review';
  return (
    <Button
      size="xs"
      variant={review ? 'solid' : 'outline'}
      colorPalette={review ? 'brand' : 'gray'}
      onClick={() => onOpen(id)}
      aria-label={review ? t('funds.admin.openFor', { id }) : t('funds.admin.detailsFor', { id })}
    >
      {review ? t('funds.admin.open') : t('funds.admin.details')}
      <ArrowRightIcon boxSize="3.5" />
    </Button>
  );
}

function CoinCell({ coin, network }: { coin: string; network: string }) {
  return (
    <HStack gap="1.5" whiteSpace="nowrap">
      <Text fontWeight="semibold">{coin.toUpperCase()}</Text>
      <Badge variant="outline" size="sm">
        {network}
      </Badge>
    </HStack>
  );
}

const DEPOSIT_COLUMNS = ['id', 'user', 'account', 'coin', 'amount', 'submittedAt'] as const;

function DepositTable({ records, status, loading, busy, onOpen }: TableProps<AdminDepositRecord>) {
  const { t } = useTranslation();
  return (
    <Table.Root size="md" interactive aria-label={t('funds.admin.deposits.table')} aria-busy={busy || undefined}>
      <Header columns={DEPOSIT_COLUMNS} />
      <Table.Body>
        {records.map((record) => (
          <Table.Row key={record.id}>
            <Table.Cell ps="5" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
              #{record.id}
            </Table.Cell>
            <Table.Cell fontVariantNumeric="tabular-nums">#{record.userId}</Table.Cell>
            <Table.Cell maxW="14rem" truncate title={record.account}>
              {record.account || '--'}
            </Table.Cell>
            <Table.Cell>
              <CoinCell coin={record.coin} network={record.network} />
            </Table.Cell>
            <Table.Cell textAlign="end" fontWeight="medium" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
              {amountText(record.amount, record.coin)}
            </Table.Cell>
            <Table.Cell fontVariantNumeric="tabular-nums" whiteSpace="nowrap" color="fg.muted" fontSize="sm">
              {formatTime(record.createdAt)}
            </Table.Cell>
            <Table.Cell textAlign="end" pe="5">
              <OpenButton id={record.id} status={status} onOpen={onOpen} />
            </Table.Cell>
          </Table.Row>
        ))}
        {records.length === 0 && <EmptyRow columns={DEPOSIT_COLUMNS.length + 1} loading={loading} />}
      </Table.Body>
    </Table.Root>
  );
}

const WITHDRAWAL_COLUMNS = ['id', 'user', 'account', 'coin', 'address', 'amount', 'fee', 'received', 'submittedAt'] as const;

function WithdrawalTable({ records, status, loading, busy, onOpen }: TableProps<AdminWithdrawalRecord>) {
  const { t } = useTranslation();
  return (
    <Table.Root size="md" interactive aria-label={t('funds.admin.withdrawals.table')} aria-busy={busy || undefined}>
      <Header columns={WITHDRAWAL_COLUMNS} />
      <Table.Body>
        {records.map((record) => (
          <Table.Row key={record.id}>
            <Table.Cell ps="5" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
              #{record.id}
            </Table.Cell>
            <Table.Cell fontVariantNumeric="tabular-nums">#{record.userId}</Table.Cell>
            <Table.Cell maxW="12rem" truncate title={record.account}>
              {record.account || '--'}
            </Table.Cell>
            <Table.Cell>
              <CoinCell coin={record.coin} network={record.network} />
            </Table.Cell>
            <Table.Cell fontFamily="mono" fontSize="xs" whiteSpace="nowrap" title={record.address}>
              {shortAddress(record.address)}
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
              {amountText(record.amount, record.coin)}
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums" whiteSpace="nowrap" color="fg.muted">
              {amountText(record.fee, record.coin)}
            </Table.Cell>
            <Table.Cell textAlign="end" fontWeight="medium" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
              {amountText(record.received, record.coin)}
            </Table.Cell>
            <Table.Cell fontVariantNumeric="tabular-nums" whiteSpace="nowrap" color="fg.muted" fontSize="sm">
              {formatTime(record.createdAt)}
            </Table.Cell>
            <Table.Cell textAlign="end" pe="5">
              <OpenButton id={record.id} status={status} onOpen={onOpen} />
            </Table.Cell>
          </Table.Row>
        ))}
        {records.length === 0 && <EmptyRow columns={WITHDRAWAL_COLUMNS.length + 1} loading={loading} />}
      </Table.Body>
    </Table.Root>
  );
}
