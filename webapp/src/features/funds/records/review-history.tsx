/**
 * Deposit and withdrawal histories (listRecharges, listWithdrawals): a status filter, the records with
 * their state — under review, passed, or failed with the operator's reason — and for withdrawals the
 * address, fee, amount received and the transaction hash with a copy button. Paged, newest first;
 * on phones each record is a card.
 *
 * @module
 */

import { Box, Flex, HStack, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListRecharges } from '../../../api/generated/deposits/deposits';
import { useListWithdrawals } from '../../../api/generated/withdrawals/withdrawals';
import type { DepositRecord, PaymentStatus, WithdrawalRecord } from '../../../api/generated/model';
import { CoinLogo } from '../../../components/coin-logo';
import { CardList, CardListState, ItemCard } from '../../../components/item-cards';
import { useIsPhone } from '../../../hooks/use-is-phone';
import { CopyButton } from '../components/copy-button';
import { LoadFailed } from '../components/load-failed';
import { Pager } from '../components/pager';
import { REVIEW_STATES, ReviewBadge } from '../components/status-badge';
import { coinLogo, coinName, formatCoin, shorten, useDateTimeFormatter } from '../lib/format';

const PAGE_SIZE = 20;
/** Records under review are refetched this often (the decision shows up by itself). */
const REVIEW_POLL_MS = 30_000;

function StatusFilter({ value, onChange }: { value: PaymentStatus | ''; onChange: (value: PaymentStatus | '') => void }) {
  const { t } = useTranslation();
  return (
    <NativeSelect.Root size="sm" w={{ base: 'full', sm: '48' }}>
      <NativeSelect.Field aria-label={t('funds.records.statusFilter')} value={value} onChange={(e) => onChange(e.currentTarget.value as PaymentStatus | '')}>
        <option value="">{t('funds.records.allStatuses')}</option>
        {REVIEW_STATES.map((status) => (
          <option key={status} value={status}>
            {t(`funds.status.${status}`)}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

function CoinCell({ coin, network }: { coin: string; network: string }) {
  return (
    <HStack gap="2">
      <CoinLogo src={coinLogo(coin)} coin={coin} size="5" />
      <Box lineHeight="1.2">
        <Text fontWeight="medium">{coinName(coin)}</Text>
        <Text fontSize="xs" color="fg.muted">
          {network}
        </Text>
      </Box>
    </HStack>
  );
}

/** The state, with the reason under a failed one. */
function StateCell({ status, reason }: { status: string; reason?: string | null }) {
  const { t } = useTranslation();
  return (
    <Stack gap="1" align="flex-start" maxW="16rem">
      <ReviewBadge status={status} />
      {status === 'failed' && (
        <Text fontSize="xs" color="red.fg" overflowWrap="anywhere">
          {reason ? t('funds.records.reason', { reason }) : t('funds.records.noReason')}
        </Text>
      )}
    </Stack>
  );
}

function Footer({ total, page, onPage }: { total: number; page: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  return (
    <Flex justify="space-between" align="center" gap="3" wrap="wrap">
      <Text fontSize="sm" color="fg.muted" aria-live="polite">
        {t('funds.records.total', { count: total })}
      </Text>
      <Pager count={total} pageSize={PAGE_SIZE} page={page} onPageChange={onPage} />
    </Flex>
  );
}

function EmptyRow({ columns, loading }: { columns: number; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <Table.Row>
      <Table.Cell colSpan={columns} textAlign="center" py="12" color="fg.muted">
        {loading ? t('funds.loading') : t('funds.records.empty')}
      </Table.Cell>
    </Table.Row>
  );
}

/** The records as cards (phones): `children` cards, or the loading / empty line. */
function RecordCards({ label, loading, dimmed, busy, children }: { label: string; loading: boolean; dimmed: boolean; busy: boolean; children: ReactNode[] }) {
  const { t } = useTranslation();
  return (
    <Box borderWidth="1px" rounded="xl" bg="bg.subtle" opacity={dimmed ? 0.6 : 1}>
      <CardList label={label} busy={busy}>
        {children}
        {children.length === 0 && <CardListState>{loading ? t('funds.loading') : t('funds.records.empty')}</CardListState>}
      </CardList>
    </Box>
  );
}

/** A hash or address shortened, with its copy button. */
function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <HStack gap="1">
      <Text as="span" fontFamily="mono" fontSize="xs" title={value} whiteSpace="nowrap">
        {shorten(value)}
      </Text>
      <CopyButton value={value} label={label} />
    </HStack>
  );
}

const pollWhileReviewed = (records: readonly { status: string }[] | undefined) => (records?.some((r) => r.status === 'review') ? REVIEW_POLL_MS : false);

export function DepositHistory() {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const formatTime = useDateTimeFormatter();
  const [status, setStatus] = useState<PaymentStatus | ''>('');
  const [page, setPage] = useState(1);
  const list = useListRecharges(
    { page, pageSize: PAGE_SIZE, ...(status ? { status } : {}) },
    { query: { placeholderData: (previous) => previous, refetchInterval: (q) => pollWhileReviewed(q.state.data?.records) } },
  );
  const records: DepositRecord[] = list.data?.records ?? [];
  return (
    <Stack gap="4">
      <StatusFilter
        value={status}
        onChange={(value) => {
          setStatus(value);
          setPage(1);
        }}
      />
      {list.isError && !list.data ? (
        <LoadFailed onRetry={() => void list.refetch()} />
      ) : phone ? (
        <RecordCards label={t('funds.records.deposits')} loading={list.isLoading} dimmed={list.isPlaceholderData} busy={list.isFetching}>
          {records.map((record) => (
            <ItemCard
              key={record.id}
              label={`${coinName(record.coin)} ${formatCoin(record.amount)} ${formatTime(record.createdAt)}`}
              title={<CoinCell coin={record.coin} network={record.network} />}
              aside={formatTime(record.createdAt)}
              fields={[
                { label: t('funds.columns.amount'), value: formatCoin(record.amount) },
                { label: t('funds.columns.status'), value: <StateCell status={record.status} reason={record.reason} /> },
              ]}
            />
          ))}
        </RecordCards>
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="xl" bg="bg.panel" opacity={list.isPlaceholderData ? 0.6 : 1}>
          <Table.Root size="sm" aria-label={t('funds.records.deposits')} aria-busy={list.isFetching || undefined}>
            <Table.Header>
              <Table.Row bg="bg.subtle">
                <Table.ColumnHeader ps="4">{t('funds.columns.time')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('funds.columns.coin')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('funds.columns.amount')}</Table.ColumnHeader>
                <Table.ColumnHeader pe="4">{t('funds.columns.status')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {records.map((record) => (
                <Table.Row key={record.id}>
                  <Table.Cell ps="4" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" color="fg.muted">
                    {formatTime(record.createdAt)}
                  </Table.Cell>
                  <Table.Cell>
                    <CoinCell coin={record.coin} network={record.network} />
                  </Table.Cell>
                  <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" fontWeight="semibold">
                    {formatCoin(record.amount)}
                  </Table.Cell>
                  <Table.Cell pe="4">
                    <StateCell status={record.status} reason={record.reason} />
                  </Table.Cell>
                </Table.Row>
              ))}
              {records.length === 0 && <EmptyRow columns={4} loading={list.isLoading} />}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
      <Footer total={list.data?.total ?? 0} page={page} onPage={setPage} />
    </Stack>
  );
}

export function WithdrawalHistory() {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const formatTime = useDateTimeFormatter();
  const [status, setStatus] = useState<PaymentStatus | ''>('');
  const [page, setPage] = useState(1);
  const list = useListWithdrawals(
    { page, pageSize: PAGE_SIZE, ...(status ? { status } : {}) },
    { query: { placeholderData: (previous) => previous, refetchInterval: (q) => pollWhileReviewed(q.state.data?.records) } },
  );
  const records: WithdrawalRecord[] = list.data?.records ?? [];
  return (
    <Stack gap="4">
      <StatusFilter
        value={status}
        onChange={(value) => {
          setStatus(value);
          setPage(1);
        }}
      />
      {list.isError && !list.data ? (
        <LoadFailed onRetry={() => void list.refetch()} />
      ) : phone ? (
        <RecordCards label={t('funds.records.withdrawals')} loading={list.isLoading} dimmed={list.isPlaceholderData} busy={list.isFetching}>
          {records.map((record) => (
            <ItemCard
              key={record.id}
              label={`${coinName(record.coin)} ${formatCoin(record.amount)} ${formatTime(record.createdAt)}`}
              title={<CoinCell coin={record.coin} network={record.network} />}
              aside={formatTime(record.createdAt)}
              fields={[
                { label: t('funds.columns.amount'), value: formatCoin(record.amount) },
                { label: t('funds.columns.fee'), value: formatCoin(record.fee) },
                { label: t('funds.columns.received'), value: formatCoin(record.received) },
                { label: t('funds.columns.status'), value: <StateCell status={record.status} reason={record.reason} /> },
                { label: t('funds.columns.address'), value: <Copyable value={record.address} label={t('funds.records.copyAddress')} />, wide: true },
                {
                  label: t('funds.columns.txHash'),
                  value: record.txHash ? <Copyable value={record.txHash} label={t('funds.records.copyTxHash')} /> : '--',
                  wide: true,
                },
              ]}
            />
          ))}
        </RecordCards>
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="xl" bg="bg.panel" opacity={list.isPlaceholderData ? 0.6 : 1}>
          <Table.Root size="sm" aria-label={t('funds.records.withdrawals')} aria-busy={list.isFetching || undefined}>
            <Table.Header>
              <Table.Row bg="bg.subtle">
                <Table.ColumnHeader ps="4">{t('funds.columns.time')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('funds.columns.coin')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('funds.columns.address')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('funds.columns.amount')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('funds.columns.fee')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('funds.columns.received')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('funds.columns.status')}</Table.ColumnHeader>
                <Table.ColumnHeader pe="4">{t('funds.columns.txHash')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {records.map((record) => (
                <Table.Row key={record.id}>
                  <Table.Cell ps="4" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" color="fg.muted">
                    {formatTime(record.createdAt)}
                  </Table.Cell>
                  <Table.Cell>
                    <CoinCell coin={record.coin} network={record.network} />
                  </Table.Cell>
                  <Table.Cell>
                    <HStack gap="1">
                      <Text fontFamily="mono" fontSize="xs" title={record.address} whiteSpace="nowrap">
                        {shorten(record.address)}
                      </Text>
                      <CopyButton value={record.address} label={t('funds.records.copyAddress')} />
                    </HStack>
                  </Table.Cell>
                  <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" fontWeight="semibold">
                    {formatCoin(record.amount)}
                  </Table.Cell>
                  <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" color="fg.muted">
                    {formatCoin(record.fee)}
                  </Table.Cell>
                  <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                    {formatCoin(record.received)}
                  </Table.Cell>
                  <Table.Cell>
                    <StateCell status={record.status} reason={record.reason} />
                  </Table.Cell>
                  <Table.Cell pe="4">
                    {record.txHash ? (
                      <HStack gap="1">
                        <Text fontFamily="mono" fontSize="xs" title={record.txHash} whiteSpace="nowrap">
                          {shorten(record.txHash)}
                        </Text>
                        <CopyButton value={record.txHash} label={t('funds.records.copyTxHash')} />
                      </HStack>
                    ) : (
                      <Text color="fg.muted">--</Text>
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
              {records.length === 0 && <EmptyRow columns={8} loading={list.isLoading} />}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
      <Footer total={list.data?.total ?? 0} page={page} onPage={setPage} />
    </Stack>
  );
}
