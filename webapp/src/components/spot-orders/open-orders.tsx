/**
 * The user's open spot orders (waiting for their trigger, on the book, partly filled), newest first,
 * each with a Cancel button, and "Cancel all" for the orders shown. A cancel unfreezes the order's
 * rest at once on the server; the table, the fills and the balances are refetched right after (and
 * again by the user channel's `order` message). On phones the orders are cards (pair, side, type,
 * price, amount, filled, time) with a full-size Cancel button.
 *
 * @module
 */

import { Button, Flex, HStack, Table, Text } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SpotOrder } from '../../api/generated/model';
import { cancelSpotOrder, useCancelSpotOrder, useListSpotOrders } from '../../api/generated/spot-trading/spot-trading';
import { NumberCell } from '../data-table';
import { CardButton, ItemCard } from '../item-cards';
import { useIsPhone } from '../../hooks/use-is-phone';
import { SILENT, failure } from '../../lib/api-calls';
import { useIsLoggedIn } from '../../lib/session';
import { toaster } from '../../lib/toaster';
import { useRefreshSpot } from './api';
import { useSpotFormat } from './format';
import { LeadCells, PagedCards, PagedTable, SideText, StatusBadge, orderedAmount, orderedPrice } from './parts';

/** Rows per page. */
export const OPEN_ORDERS_PAGE_SIZE = 20;
/** A safety net when the user channel is down: open orders are refetched this often. */
const OPEN_ORDERS_REFRESH_MS = 15_000;

export function OpenOrdersTable({ symbol, label }: { symbol?: string; label?: string }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const phone = useIsPhone();
  const format = useSpotFormat();
  const refresh = useRefreshSpot();
  const [page, setPage] = useState(1);
  const [cancelling, setCancelling] = useState<ReadonlySet<number>>(new Set());
  const [cancellingAll, setCancellingAll] = useState(false);
  const params = { scope: 'current' as const, page, pageSize: OPEN_ORDERS_PAGE_SIZE, ...(symbol ? { symbol } : {}) };
  const orders = useListSpotOrders(params, {
    query: { enabled: loggedIn, placeholderData: keepPreviousData, refetchInterval: OPEN_ORDERS_REFRESH_MS },
    request: SILENT,
  });
  const cancel = useCancelSpotOrder({ request: SILENT });
  const records = orders.data?.records ?? [];

  const mark = (id: number, on: boolean) =>
    setCancelling((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const onCancel = async (order: SpotOrder) => {
    mark(order.id, true);
    try {
      await cancel.mutateAsync({ params: { id: order.id } });
      toaster.create({ type: 'success', title: t('trade.orders.cancelled', { pair: format.pair(order.symbol) }) });
    } catch (error) {
      toaster.create({ type: 'error', title: failure(error, t('errors.unknown')).message });
    } finally {
      mark(order.id, false);
      refresh();
    }
  };

  const onCancelAll = async () => {
    setCancellingAll(true);
    const results = await Promise.allSettled(records.map((order) => cancelSpotOrder({ id: order.id }, SILENT)));
    setCancellingAll(false);
    const done = results.filter((r) => r.status === 'fulfilled').length;
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (done > 0) toaster.create({ type: 'success', title: t('trade.orders.cancelledAll', { count: done }) });
    if (failed) toaster.create({ type: 'error', title: failure(failed.reason, t('errors.unknown')).message });
    refresh();
  };

  const columns = [
    { key: 'time', label: t('trade.orders.cols.time') },
    { key: 'pair', label: t('trade.orders.cols.pair') },
    { key: 'type', label: t('trade.orders.cols.type') },
    { key: 'side', label: t('trade.orders.cols.side') },
    { key: 'price', label: t('trade.orders.cols.price'), end: true },
    { key: 'trigger', label: t('trade.orders.cols.trigger'), end: true },
    { key: 'amount', label: t('trade.orders.cols.amount'), end: true },
    { key: 'filled', label: t('trade.orders.cols.filled'), end: true },
    { key: 'value', label: t('trade.orders.cols.value'), end: true },
    { key: 'status', label: t('trade.orders.cols.status') },
    { key: 'action', label: t('trade.orders.cols.action'), end: true },
  ];

  return (
    <>
      {records.length > 1 && (
        <Flex justify="flex-end" px="4" py="2" borderBottomWidth="1px">
          <Button size={phone ? 'sm' : 'xs'} minH={phone ? '44px' : undefined} variant="outline" colorPalette="red" loading={cancellingAll} onClick={() => void onCancelAll()}>
            {t('trade.orders.cancelAll')}
          </Button>
        </Flex>
      )}
      {phone ? (
        <PagedCards
          label={label ?? t('trade.orders.tabs.open')}
          query={orders}
          loggedIn={loggedIn}
          empty={t('trade.orders.empty.open')}
          page={page}
          pageSize={OPEN_ORDERS_PAGE_SIZE}
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
                { label: t('trade.orders.cols.amount'), value: orderedAmount(order, format) },
                { label: t('trade.orders.cols.filled'), value: format.quantity(order.symbol, order.haveDealNum) },
                ...(order.triggerPrice ? [{ label: t('trade.orders.cols.trigger'), value: format.price(order.symbol, order.triggerPrice) }] : []),
                { label: t('trade.orders.cols.value'), value: order.entrustedValue ? `${format.amount(order.entrustedValue)} ${format.quote(order.symbol)}` : '--' },
                { label: t('trade.orders.cols.status'), value: <StatusBadge status={order.status} /> },
              ]}
              actions={
                <CardButton
                  aria-label={t('trade.orders.cancelOrder', { id: order.id, pair: format.pair(order.symbol) })}
                  loading={cancelling.has(order.id)}
                  disabled={cancellingAll}
                  onClick={() => void onCancel(order)}
                >
                  {t('trade.orders.cancel')}
                </CardButton>
              }
            />
          ))}
        </PagedCards>
      ) : (
        <PagedTable
          label={label ?? t('trade.orders.tabs.open')}
          columns={columns}
          query={orders}
          loggedIn={loggedIn}
          empty={t('trade.orders.empty.open')}
          page={page}
          pageSize={OPEN_ORDERS_PAGE_SIZE}
          onPage={setPage}
        >
          {records.map((order) => (
            <Table.Row key={order.id}>
              <LeadCells format={format} time={order.commissTime} symbol={order.symbol} type={order.commissType} side={order.side} />
              <NumberCell>{orderedPrice(order, format, t)}</NumberCell>
              <NumberCell>{format.price(order.symbol, order.triggerPrice)}</NumberCell>
              <NumberCell>{orderedAmount(order, format)}</NumberCell>
              <NumberCell>{format.quantity(order.symbol, order.haveDealNum)}</NumberCell>
              <NumberCell>{order.entrustedValue ? `${format.amount(order.entrustedValue)} ${format.quote(order.symbol)}` : '--'}</NumberCell>
              <Table.Cell>
                <StatusBadge status={order.status} />
              </Table.Cell>
              <Table.Cell textAlign="end" pe="4">
                <Button
                  size="xs"
                  variant="outline"
                  aria-label={t('trade.orders.cancelOrder', { id: order.id, pair: format.pair(order.symbol) })}
                  loading={cancelling.has(order.id)}
                  disabled={cancellingAll}
                  onClick={() => void onCancel(order)}
                >
                  {t('trade.orders.cancel')}
                </Button>
              </Table.Cell>
            </Table.Row>
          ))}
        </PagedTable>
      )}
      {!loggedIn && (
        <HStack justify="center" py="4">
          <Text fontSize="sm" color="fg.muted">
            {t('trade.orders.loginPrompt')}
          </Text>
        </HStack>
      )}
    </>
  );
}
