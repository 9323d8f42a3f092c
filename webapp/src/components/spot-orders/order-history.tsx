/**
 * The user's finished spot orders (filled or cancelled), newest first: what was asked, what filled
 * at which average price, the fee and how the order ended. On phones each order is a card.
 *
 * @module
 */

import { Table, Text } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListSpotOrders } from '../../api/generated/spot-trading/spot-trading';
import { SILENT } from '../../lib/api-calls';
import { useIsLoggedIn } from '../../lib/session';
import { NumberCell } from '../data-table';
import { useSpotFormat } from './format';
import { LeadCells, PagedCards, PagedTable, SideText, StatusBadge, orderedAmount, orderedPrice } from './parts';
import { ItemCard } from '../item-cards';
import { useIsPhone } from '../../hooks/use-is-phone';

/** Rows per page. */
export const ORDER_HISTORY_PAGE_SIZE = 20;

export function OrderHistoryTable({ symbol, label }: { symbol?: string; label?: string }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const phone = useIsPhone();
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

  if (phone) {
    return (
      <PagedCards
        label={label ?? t('trade.orders.tabs.history')}
        query={orders}
        loggedIn={loggedIn}
        empty={t('trade.orders.empty.history')}
        page={page}
        pageSize={ORDER_HISTORY_PAGE_SIZE}
        onPage={setPage}
      >
        {records.map((order) => (
          <ItemCard
            key={order.id}
            label={t('trade.orders.card', { side: t(`trade.orders.side.${order.side === 'buy' ? 'buy' : 'sell'}`), pair: format.pair(order.symbol), id: order.id })}
            title={
              <>
                <Text as="span" fontWeight="semibold">
                  {format.pair(order.symbol)}
                </Text>
                <SideText side={order.side} />
                <Text as="span" color="fg.muted">
                  {t(`trade.orders.type.${order.commissType}`, { defaultValue: order.commissType })}
                </Text>
              </>
            }
            aside={format.time(order.commissTime)}
            fields={[
              { label: t('trade.orders.cols.price'), value: orderedPrice(order, format, t) },
              { label: t('trade.orders.cols.avgPrice'), value: format.price(order.symbol, order.dealAverPrice) },
              { label: t('trade.orders.cols.amount'), value: orderedAmount(order, format) },
              { label: t('trade.orders.cols.filled'), value: format.quantity(order.symbol, order.haveDealNum) },
              { label: t('trade.orders.cols.total'), value: `${format.amount(order.dealAmount)} ${format.quote(order.symbol)}` },
              { label: t('trade.orders.cols.fee'), value: `${format.amount(order.serviceCharge)} ${order.feeCoin.toUpperCase()}` },
              { label: t('trade.orders.cols.status'), value: <StatusBadge status={order.status} cancelReason={order.cancelReason} />, wide: true },
            ]}
          />
        ))}
      </PagedCards>
    );
  }
  return (
    <PagedTable
      label={label ?? t('trade.orders.tabs.history')}
      columns={columns}
      query={orders}
      loggedIn={loggedIn}
      empty={t('trade.orders.empty.history')}
      page={page}
      pageSize={ORDER_HISTORY_PAGE_SIZE}
      onPage={setPage}
    >
      {records.map((order) => (
        <Table.Row key={order.id}>
          <LeadCells format={format} time={order.commissTime} symbol={order.symbol} type={order.commissType} side={order.side} />
          <NumberCell>{format.price(order.symbol, order.dealAverPrice)}</NumberCell>
          <NumberCell>{orderedPrice(order, format, t)}</NumberCell>
          <NumberCell>{format.quantity(order.symbol, order.haveDealNum)}</NumberCell>
          <NumberCell>{orderedAmount(order, format)}</NumberCell>
          <NumberCell>{`${format.amount(order.dealAmount)} ${format.quote(order.symbol)}`}</NumberCell>
          <NumberCell>{`${format.amount(order.serviceCharge)} ${order.feeCoin.toUpperCase()}`}</NumberCell>
          <Table.Cell pe="4">
            <StatusBadge status={order.status} cancelReason={order.cancelReason} />
          </Table.Cell>
        </Table.Row>
      ))}
    </PagedTable>
  );
}
