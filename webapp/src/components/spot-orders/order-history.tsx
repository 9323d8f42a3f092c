//! The user's finished spot orders (filled or cancelled), newest first: what was asked, what filled
//! at which average price, the fee and how the order ended.

import { Table } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListSpotOrders } from '../../api/generated/spot-trading/spot-trading';
import { useIsLoggedIn } from '../../lib/session';
import { SILENT } from './api';
import { useSpotFormat } from './format';
import { orderedAmount } from './open-orders';
import { Pager, SideText, SpotTable, StateRows, StatusBadge } from './parts';

/** Rows per page. */
export const ORDER_HISTORY_PAGE_SIZE = 20;

export function OrderHistoryTable({ symbol, label }: { symbol?: string; label?: string }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const format = useSpotFormat();
  const [page, setPage] = useState(1);
  const params = { scope: 'history' as const, page, pageSize: ORDER_HISTORY_PAGE_SIZE, ...(symbol ? { symbol } : {}) };
  const orders = useListSpotOrders(params, { query: { enabled: loggedIn, placeholderData: keepPreviousData }, request: SILENT });
  const records = orders.data?.records ?? [];

  const columns = [
    { key: 'time', label: t('trade.orders.cols.time') },
    { key: 'pair', label: t('trade.orders.cols.pair') },
    { key: 'type', label: t('trade.orders.cols.type') },
    { key: 'side', label: t('trade.orders.cols.side') },
    { key: 'avg', label: t('trade.orders.cols.avgPrice'), end: true },
    { key: 'price', label: t('trade.orders.cols.price'), end: true },
    { key: 'filled', label: t('trade.orders.cols.filled'), end: true },
    { key: 'amount', label: t('trade.orders.cols.amount'), end: true },
    { key: 'total', label: t('trade.orders.cols.total'), end: true },
    { key: 'fee', label: t('trade.orders.cols.fee'), end: true },
    { key: 'status', label: t('trade.orders.cols.status') },
  ];

  return (
    <>
      <SpotTable label={label ?? t('trade.orders.tabs.history')} columns={columns} busy={orders.isFetching}>
        {records.map((order) => (
          <Table.Row key={order.id}>
            <Table.Cell ps="4" fontVariantNumeric="tabular-nums" color="fg.muted" fontSize="xs">
              {format.time(order.commissTime)}
            </Table.Cell>
            <Table.Cell fontWeight="medium">{format.pair(order.symbol)}</Table.Cell>
            <Table.Cell>{t(`trade.orders.type.${order.commissType}`, { defaultValue: order.commissType })}</Table.Cell>
            <Table.Cell>
              <SideText side={order.side} />
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {format.price(order.symbol, order.dealAverPrice)}
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {order.commissPrice ? format.price(order.symbol, order.commissPrice) : t('trade.orders.marketPrice')}
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {format.quantity(order.symbol, order.haveDealNum)}
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {orderedAmount(order, format)}
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {`${format.amount(order.dealAmount)} ${format.quote(order.symbol)}`}
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {`${format.amount(order.serviceCharge)} ${order.feeCoin.toUpperCase()}`}
            </Table.Cell>
            <Table.Cell pe="4">
              <StatusBadge status={order.status} cancelReason={order.cancelReason} />
            </Table.Cell>
          </Table.Row>
        ))}
        <StateRows
          colSpan={columns.length}
          isLoading={orders.isPending && loggedIn}
          isError={orders.isError && !orders.data}
          isEmpty={records.length === 0}
          empty={t('trade.orders.empty.history')}
          onRetry={() => void orders.refetch()}
        />
      </SpotTable>
      <Pager total={orders.data?.total ?? 0} pageSize={ORDER_HISTORY_PAGE_SIZE} page={page} onPage={setPage} />
    </>
  );
}
