/**
 * Transfer records: moves between the user's own buckets (getWalletTransfers) and transfers to and
 * from other users (listTransfers), each paged, newest first.
 *
 * @module
 */

import { Badge, Box, Flex, HStack, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListTransfers } from '../../../api/generated/funds/funds';
import { useGetWalletTransfers } from '../../../api/generated/reports/reports';
import { CoinLogo } from '../../../components/coin-logo';
import { CardList, CardListState, ItemCard } from '../../../components/item-cards';
import { useIsPhone } from '../../../hooks/use-is-phone';
import { LoadFailed } from '../components/load-failed';
import { Pager } from '../components/pager';
import { useApiHead } from '../../../lib/api-calls';
import { coinLogo, coinName, formatCoin, useDateTimeFormatter } from '../lib/format';

const PAGE_SIZE = 20;

export function TransferHistory() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'buckets' | 'users'>('buckets');
  return (
    <Tabs.Root value={kind} onValueChange={(details) => setKind(details.value as 'buckets' | 'users')} variant="subtle" size="sm" lazyMount unmountOnExit>
      <Tabs.List aria-label={t('funds.transfer.modeLabel')} maxW="full" overflowX="auto" mb="3">
        <Tabs.Trigger value="buckets" whiteSpace="nowrap">
          {t('funds.transfer.buckets')}
        </Tabs.Trigger>
        <Tabs.Trigger value="users" whiteSpace="nowrap">
          {t('funds.transfer.withUsers')}
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="buckets" p="0">
        <BucketMoves />
      </Tabs.Content>
      <Tabs.Content value="users" p="0">
        <UserTransfers />
      </Tabs.Content>
    </Tabs.Root>
  );
}

function CoinCell({ coin }: { coin: string }) {
  return (
    <HStack gap="2">
      <CoinLogo src={coinLogo(coin)} coin={coin} size="5" />
      <Text fontWeight="medium">{coinName(coin)}</Text>
    </HStack>
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

function BucketMoves() {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const head = useApiHead();
  const formatTime = useDateTimeFormatter();
  const [page, setPage] = useState(1);
  const list = useGetWalletTransfers(head, { page, pageSize: PAGE_SIZE }, { query: { placeholderData: (previous) => previous } });
  if (list.isError && !list.data) return <LoadFailed onRetry={() => void list.refetch()} />;
  const records = list.data?.records ?? [];
  const bucket = (name: string) => t(`funds.buckets.${name}`, { defaultValue: name });
  if (phone) {
    return (
      <Stack gap="4">
        <Box borderWidth="1px" rounded="xl" bg="bg.subtle">
          <CardList label={t('funds.transfer.buckets')}>
            {records.map((move) => (
              <ItemCard
                key={move.entryId}
                label={`${coinName(move.coin)} ${bucket(move.from)} → ${bucket(move.to)} ${formatTime(move.createdAt)}`}
                title={<CoinCell coin={move.coin} />}
                aside={formatTime(move.createdAt)}
                fields={[
                  { label: t('funds.transfer.from'), value: bucket(move.from) },
                  { label: t('funds.transfer.to'), value: bucket(move.to) },
                  { label: t('funds.columns.amount'), value: formatCoin(move.amount), wide: true },
                ]}
              />
            ))}
            {records.length === 0 && <CardListState>{list.isLoading ? t('funds.loading') : t('funds.records.empty')}</CardListState>}
          </CardList>
        </Box>
        <Footer total={list.data?.total ?? 0} page={page} onPage={setPage} />
      </Stack>
    );
  }
  return (
    <Stack gap="4">
      <Table.ScrollArea borderWidth="1px" rounded="xl" bg="bg.panel">
        <Table.Root size="sm" aria-label={t('funds.transfer.buckets')}>
          <Table.Header>
            <Table.Row bg="bg.subtle">
              <Table.ColumnHeader ps="4">{t('funds.columns.time')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('funds.columns.coin')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('funds.transfer.from')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('funds.transfer.to')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end" pe="4">
                {t('funds.columns.amount')}
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {records.map((move) => (
              <Table.Row key={move.entryId}>
                <Table.Cell ps="4" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" color="fg.muted">
                  {formatTime(move.createdAt)}
                </Table.Cell>
                <Table.Cell>
                  <CoinCell coin={move.coin} />
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{bucket(move.from)}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">{bucket(move.to)}</Table.Cell>
                <Table.Cell textAlign="end" pe="4" fontVariantNumeric="tabular-nums" fontWeight="semibold" whiteSpace="nowrap">
                  {formatCoin(move.amount)}
                </Table.Cell>
              </Table.Row>
            ))}
            {records.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={5} textAlign="center" py="12" color="fg.muted">
                  {list.isLoading ? t('funds.loading') : t('funds.records.empty')}
                </Table.Cell>
              </Table.Row>
            )}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <Footer total={list.data?.total ?? 0} page={page} onPage={setPage} />
    </Stack>
  );
}

function UserTransfers() {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const formatTime = useDateTimeFormatter();
  const [page, setPage] = useState(1);
  const list = useListTransfers({ page, pageSize: PAGE_SIZE }, { query: { placeholderData: (previous) => previous } });
  if (list.isError && !list.data) return <LoadFailed onRetry={() => void list.refetch()} />;
  const records = list.data?.records ?? [];
  if (phone) {
    return (
      <Stack gap="4">
        <Box borderWidth="1px" rounded="xl" bg="bg.subtle">
          <CardList label={t('funds.transfer.withUsers')}>
            {records.map((record) => {
              const out = record.direction === 'out';
              const direction = out ? t('funds.transfer.sent') : t('funds.transfer.received');
              return (
                <ItemCard
                  key={record.id}
                  label={`${direction} ${coinName(record.coin)} #${record.counterpartId} ${formatTime(record.createdAt)}`}
                  title={
                    <>
                      <CoinCell coin={record.coin} />
                      <Badge variant="subtle" colorPalette={out ? 'orange' : 'green'}>
                        {direction}
                      </Badge>
                    </>
                  }
                  aside={formatTime(record.createdAt)}
                  fields={[
                    { label: t('funds.columns.amount'), value: `${out ? '-' : '+'}${formatCoin(record.amount)}`, color: out ? 'down' : 'up' },
                    { label: t('funds.columns.counterparty'), value: `#${record.counterpartId}` },
                  ]}
                />
              );
            })}
            {records.length === 0 && <CardListState>{list.isLoading ? t('funds.loading') : t('funds.records.empty')}</CardListState>}
          </CardList>
        </Box>
        <Footer total={list.data?.total ?? 0} page={page} onPage={setPage} />
      </Stack>
    );
  }
  return (
    <Stack gap="4">
      <Table.ScrollArea borderWidth="1px" rounded="xl" bg="bg.panel">
        <Table.Root size="sm" aria-label={t('funds.transfer.withUsers')}>
          <Table.Header>
            <Table.Row bg="bg.subtle">
              <Table.ColumnHeader ps="4">{t('funds.columns.time')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('funds.columns.direction')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('funds.columns.counterparty')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('funds.columns.coin')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end" pe="4">
                {t('funds.columns.amount')}
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {records.map((record) => {
              const out = record.direction === 'out';
              return (
                <Table.Row key={record.id}>
                  <Table.Cell ps="4" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" color="fg.muted">
                    {formatTime(record.createdAt)}
                  </Table.Cell>
                  <Table.Cell>
                    <Badge variant="subtle" colorPalette={out ? 'orange' : 'green'}>
                      {out ? t('funds.transfer.sent') : t('funds.transfer.received')}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell fontVariantNumeric="tabular-nums">#{record.counterpartId}</Table.Cell>
                  <Table.Cell>
                    <CoinCell coin={record.coin} />
                  </Table.Cell>
                  <Table.Cell textAlign="end" pe="4" fontVariantNumeric="tabular-nums" fontWeight="semibold" whiteSpace="nowrap" color={out ? 'down' : 'up'}>
                    {out ? '-' : '+'}
                    {formatCoin(record.amount)}
                  </Table.Cell>
                </Table.Row>
              );
            })}
            {records.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={5} textAlign="center" py="12" color="fg.muted">
                  {list.isLoading ? t('funds.loading') : t('funds.records.empty')}
                </Table.Cell>
              </Table.Row>
            )}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <Footer total={list.data?.total ?? 0} page={page} onPage={setPage} />
    </Stack>
  );
}
