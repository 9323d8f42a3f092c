/**
 * The user's own trades (fills), newest first: price, quantity, amount, fee and whether the order
 * made or took liquidity. On phones each fill is a card.
 *
 * @module
 */

import { Table, Text } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetEntrustLogCurrency } from '../../api/generated/spot-trading/spot-trading';
import { SILENT, useApiHead } from '../../lib/api-calls';
import { useIsLoggedIn } from '../../lib/session';
import { NumberCell } from '../data-table';
import { useSpotFormat } from './format';
import { LeadCells, PagedCards, PagedTable, SideText } from './parts';
import { ItemCard } from '../item-cards';
import { useIsPhone } from '../../hooks/use-is-phone';

/** Rows per page. */
export const TRADE_HISTORY_PAGE_SIZE = 20;

export function TradeHistoryTable({ symbol, label }: { symbol?: string; label?: string }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const phone = useIsPhone();
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

  if (phone) {
    return (
      <PagedCards
        label={label ?? t('trade.orders.tabs.trades')}
        query={fills}
        loggedIn={loggedIn}
        empty={t('trade.orders.empty.trades')}
        page={page}
        pageSize={TRADE_HISTORY_PAGE_SIZE}
        onPage={setPage}
      >
        {records.map((fill) => (
          <ItemCard
            key={fill.id}
            label={t('trade.orders.fillCard', { side: t(`trade.orders.side.${fill.side === 'buy' ? 'buy' : 'sell'}`), pair: format.pair(fill.symbol), id: fill.id })}
            title={
              <>
                <Text as="span" fontWeight="semibold">
                  {format.pair(fill.symbol)}
                </Text>
                <SideText side={fill.side} />
                <Text as="span" color="fg.muted">
                  {t(`trade.orders.role.${fill.role === 'maker' ? 'maker' : 'taker'}`)}
                </Text>
              </>
            }
            aside={format.time(fill.time)}
            fields={[
              { label: t('trade.orders.cols.price'), value: format.price(fill.symbol, fill.price) },
              { label: t('trade.orders.cols.quantity'), value: `${format.quantity(fill.symbol, fill.quantity)} ${format.base(fill.symbol)}` },
              { label: t('trade.orders.cols.total'), value: `${format.amount(fill.amount)} ${format.quote(fill.symbol)}` },
              { label: t('trade.orders.cols.fee'), value: `${format.amount(fill.fee)} ${fill.feeCoin.toUpperCase()}` },
            ]}
          />
        ))}
      </PagedCards>
    );
  }
  return (
    <PagedTable
      label={label ?? t('trade.orders.tabs.trades')}
      columns={columns}
      query={fills}
      loggedIn={loggedIn}
      empty={t('trade.orders.empty.trades')}
      page={page}
      pageSize={TRADE_HISTORY_PAGE_SIZE}
      onPage={setPage}
    >
      {records.map((fill) => (
        <Table.Row key={fill.id}>
          <LeadCells format={format} time={fill.time} symbol={fill.symbol} side={fill.side} />
          <Table.Cell color="fg.muted">{t(`trade.orders.role.${fill.role === 'maker' ? 'maker' : 'taker'}`)}</Table.Cell>
          <NumberCell>{format.price(fill.symbol, fill.price)}</NumberCell>
          <NumberCell>{`${format.quantity(fill.symbol, fill.quantity)} ${format.base(fill.symbol)}`}</NumberCell>
          <NumberCell>{`${format.amount(fill.amount)} ${format.quote(fill.symbol)}`}</NumberCell>
          <NumberCell pe="4">{`${format.amount(fill.fee)} ${fill.feeCoin.toUpperCase()}`}</NumberCell>
        </Table.Row>
      ))}
    </PagedTable>
  );
}
