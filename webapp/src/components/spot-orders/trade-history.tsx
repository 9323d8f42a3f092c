//! The user's own trades (fills), newest first: price, quantity, amount, fee and whether the order
//! made or took liquidity.

import { Table } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetEntrustLogCurrency } from '../../api/generated/spot-trading/spot-trading';
import { useIsLoggedIn } from '../../lib/session';
import { SILENT, useApiHead } from './api';
import { useSpotFormat } from './format';
import { Pager, SideText, SpotTable, StateRows } from './parts';

/** Rows per page. */
export const TRADE_HISTORY_PAGE_SIZE = 20;

export function TradeHistoryTable({ symbol, label }: { symbol?: string; label?: string }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const head = useApiHead();
  const format = useSpotFormat();
  const [page, setPage] = useState(1);
  const query = { page, pageSize: TRADE_HISTORY_PAGE_SIZE, ...(symbol ? { symbol } : {}) };
  const fills = useGetEntrustLogCurrency(head, query, { query: { enabled: loggedIn, placeholderData: keepPreviousData }, request: SILENT });
  const records = fills.data?.records ?? [];

  const columns = [
    { key: 'time', label: t('trade.orders.cols.time') },
    { key: 'pair', label: t('trade.orders.cols.pair') },
    { key: 'side', label: t('trade.orders.cols.side') },
    { key: 'role', label: t('trade.orders.cols.role') },
    { key: 'price', label: t('trade.orders.cols.price'), end: true },
    { key: 'quantity', label: t('trade.orders.cols.quantity'), end: true },
    { key: 'total', label: t('trade.orders.cols.total'), end: true },
    { key: 'fee', label: t('trade.orders.cols.fee'), end: true },
  ];

  return (
    <>
      <SpotTable label={label ?? t('trade.orders.tabs.trades')} columns={columns} busy={fills.isFetching}>
        {records.map((fill) => (
          <Table.Row key={fill.id}>
            <Table.Cell ps="4" fontVariantNumeric="tabular-nums" color="fg.muted" fontSize="xs">
              {format.time(fill.time)}
            </Table.Cell>
            <Table.Cell fontWeight="medium">{format.pair(fill.symbol)}</Table.Cell>
            <Table.Cell>
              <SideText side={fill.side} />
            </Table.Cell>
            <Table.Cell color="fg.muted">{t(`trade.orders.role.${fill.role === 'maker' ? 'maker' : 'taker'}`)}</Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {format.price(fill.symbol, fill.price)}
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {`${format.quantity(fill.symbol, fill.quantity)} ${format.base(fill.symbol)}`}
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {`${format.amount(fill.amount)} ${format.quote(fill.symbol)}`}
            </Table.Cell>
            <Table.Cell textAlign="end" pe="4" fontVariantNumeric="tabular-nums">
              {`${format.amount(fill.fee)} ${fill.feeCoin.toUpperCase()}`}
            </Table.Cell>
          </Table.Row>
        ))}
        <StateRows
          colSpan={columns.length}
          isLoading={fills.isPending && loggedIn}
          isError={fills.isError && !fills.data}
          isEmpty={records.length === 0}
          empty={t('trade.orders.empty.trades')}
          onRetry={() => void fills.refetch()}
        />
      </SpotTable>
      <Pager total={fills.data?.total ?? 0} pageSize={TRADE_HISTORY_PAGE_SIZE} page={page} onPage={setPage} />
    </>
  );
}
