/**
 * The merchant's customers (`GET /api/merchant/customers`, 20 a page, newest first): the masked
 * account, when it registered, its 30-day trading volume (as of the last tier recompute) and the
 * rebates its fees paid the merchant, per coin. A table on wide screens, cards on phones.
 *
 * @module
 */

import { Box, Flex, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMerchantCustomers } from '../../../api/generated/merchant/merchant';
import type { CustomerRecord } from '../../../api/generated/model';
import { CardList, CardListState, ItemCard } from '../../../components/item-cards';
import { useIsPhone } from '../../../hooks/use-is-phone';
import { coinAmountsText } from '../../../lib/referral-format';
import { formatBalance } from '../../../lib/wasm';
import { Pager } from '../components/pager';
import { useDateTimeFormatter } from '../lib/format';

/** Customers a page. */
export const CUSTOMERS_PAGE_SIZE = 20;

function CustomerTable({ rows }: { rows: CustomerRecord[] }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg">
      <Table.Root size="sm" aria-label={t('tiers.merchant.customers')}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader>{t('tiers.merchant.account')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('tiers.merchant.registered')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('tiers.merchant.volume')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('tiers.merchant.earned')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row, index) => (
            <Table.Row key={`${row.account}-${row.registeredAt}-${index}`}>
              <Table.Cell whiteSpace="nowrap">{row.account}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatTime(row.registeredAt)}</Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                {t('tiers.usdt', { amount: formatBalance(row.volumeUsdt) })}
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                {coinAmountsText(row.rebates)}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function CustomerCards({ rows }: { rows: CustomerRecord[] }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  return (
    <Box borderWidth="1px" rounded="lg" bg="bg.subtle">
      <CardList label={t('tiers.merchant.customers')}>
        {rows.map((row, index) => (
          <ItemCard
            key={`${row.account}-${row.registeredAt}-${index}`}
            label={row.account}
            title={<Text fontWeight="semibold">{row.account}</Text>}
            fields={[
              { label: t('tiers.merchant.registered'), value: formatTime(row.registeredAt) },
              { label: t('tiers.merchant.volume'), value: t('tiers.usdt', { amount: formatBalance(row.volumeUsdt) }) },
              { label: t('tiers.merchant.earned'), value: coinAmountsText(row.rebates), wide: true },
            ]}
          />
        ))}
        {rows.length === 0 && <CardListState>{t('tiers.merchant.empty')}</CardListState>}
      </CardList>
    </Box>
  );
}

export function Customers() {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [page, setPage] = useState(1);
  const query = useMerchantCustomers({ page, pageSize: CUSTOMERS_PAGE_SIZE });
  const rows = query.data?.records ?? [];
  const total = query.data?.total ?? 0;
  return (
    <Stack gap="3">
      {query.isPending ? (
        <Flex justify="center" py="6">
          <Spinner aria-label={t('tiers.mine.loading')} />
        </Flex>
      ) : query.isError ? (
        <Text color="fg.error" fontSize="sm" role="alert">
          {t('tiers.merchant.customersFailed')}
        </Text>
      ) : phone ? (
        <CustomerCards rows={rows} />
      ) : rows.length === 0 ? (
        <Text color="fg.muted" fontSize="sm" py="4" textAlign="center">
          {t('tiers.merchant.empty')}
        </Text>
      ) : (
        <CustomerTable rows={rows} />
      )}
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Text fontSize="xs" color="fg.muted">
          {t('tiers.merchant.customersTotal', { count: total })} · {t('tiers.merchant.volumeNote')}
        </Text>
        <Pager count={total} pageSize={CUSTOMERS_PAGE_SIZE} page={page} onPageChange={setPage} />
      </Flex>
    </Stack>
  );
}
