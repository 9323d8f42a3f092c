/**
 * The position history: the user's closed and liquidated futures positions (`contract/position/history`,
 * the latest closed first) with side, margin mode and leverage, entry and average exit prices, the
 * size closed, realised PnL and fees (results, rounded half to even), and when each opened and closed
 * in the user's time zone. On phones each position is a card ({@link ItemCard}).
 *
 * @module
 */

import { Badge, HStack, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { ClosedPosition } from '../../api/generated/model';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { formatPnl, formatPrice, formatQuantity, orDash } from '../../lib/wasm';
import { DataTable, type DataColumn } from '../data-table';
import { CardList, CardListState, ItemCard } from '../item-cards';
import { useIsPhone } from '../../hooks/use-is-phone';
import { type FuturesTableProps, tone } from './futures-tables';

export function PositionHistoryTable({ loggedIn, positions, name, coinOf, busy }: FuturesTableProps & { positions: ClosedPosition[] }) {
  const { t } = useTranslation();
  const time = useDateTimeFormatter();
  const phone = useIsPhone();
  if (phone) {
    return (
      <CardList label={t('futures.closed.table')} busy={busy}>
        {!loggedIn ? (
          <CardListState>{t('futures.account.loginPrompt')}</CardListState>
        ) : positions.length === 0 ? (
          <CardListState>{t('futures.closed.none')}</CardListState>
        ) : (
          positions.map((position) => {
            const listed = coinOf(position.symbol);
            const price = (value?: string) => orDash((v) => formatPrice(v, listed?.pricePrecision), value);
            const pair = name(position.symbol);
            return (
              <ItemCard
                key={position.id}
                label={t('futures.positions.row', { pair, side: t(`futures.side.${position.side}`) })}
                title={
                  <>
                    <Text as="span" fontWeight="semibold">
                      {pair}
                    </Text>
                    <Text as="span" fontWeight="semibold" color={position.side === 'long' ? 'up' : 'down'}>
                      {t(`futures.side.${position.side}`)}
                    </Text>
                    <Badge size="xs" variant="subtle">
                      {t(`futures.marginMode.${position.marginMode}`)} {position.leverage}x
                    </Badge>
                  </>
                }
                fields={[
                  { label: t('futures.closed.size'), value: formatQuantity(position.size, listed?.quantityPrecision) },
                  { label: t('futures.closed.pnl'), value: orDash(formatPnl, position.realisedPnl), color: tone(position.realisedPnl) },
                  { label: t('futures.positions.entry'), value: price(position.entryPrice) },
                  { label: t('futures.closed.exit'), value: price(position.exitPrice) },
                  { label: t('futures.closed.fees'), value: orDash(formatPnl, position.fees) },
                  { label: t('futures.closed.status'), value: t(`futures.closed.statuses.${position.status}`, { defaultValue: position.status }) },
                  { label: t('futures.closed.openedAt'), value: time(position.openedAt) },
                  { label: t('futures.closed.closedAt'), value: time(position.closedAt) },
                ]}
              />
            );
          })
        )}
      </CardList>
    );
  }
  const columns: DataColumn[] = [
    { key: 'pair', label: t('futures.positions.pair') },
    { key: 'size', label: t('futures.closed.size'), end: true },
    { key: 'entry', label: t('futures.positions.entry'), end: true },
    { key: 'exit', label: t('futures.closed.exit'), end: true },
    { key: 'pnl', label: t('futures.closed.pnl'), end: true },
    { key: 'fees', label: t('futures.closed.fees'), end: true },
    { key: 'status', label: t('futures.closed.status') },
    { key: 'opened', label: t('futures.closed.openedAt') },
    { key: 'closed', label: t('futures.closed.closedAt') },
  ];
  const empty = (text: string) => (
    <Table.Row>
      <Table.Cell colSpan={columns.length} textAlign="center" py="8" color="fg.muted">
        {text}
      </Table.Cell>
    </Table.Row>
  );
  return (
    <DataTable label={t('futures.closed.table')} columns={columns} busy={busy}>
      {!loggedIn
        ? empty(t('futures.account.loginPrompt'))
        : positions.length === 0
          ? empty(t('futures.closed.none'))
          : positions.map((position) => {
              const listed = coinOf(position.symbol);
              const price = (value?: string) => orDash((v) => formatPrice(v, listed?.pricePrecision), value);
              const pair = name(position.symbol);
              return (
                <Table.Row key={position.id} aria-label={t('futures.positions.row', { pair, side: t(`futures.side.${position.side}`) })}>
                  <Table.Cell ps="4">
                    <Text fontWeight="semibold" whiteSpace="nowrap">
                      {pair}
                    </Text>
                    <HStack gap="1.5" fontSize="xs" whiteSpace="nowrap">
                      <Text as="span" fontWeight="semibold" color={position.side === 'long' ? 'up' : 'down'}>
                        {t(`futures.side.${position.side}`)}
                      </Text>
                      <Badge size="xs" variant="subtle">
                        {t(`futures.marginMode.${position.marginMode}`)} {position.leverage}x
                      </Badge>
                    </HStack>
                  </Table.Cell>
                  <Table.Cell textAlign="end">{formatQuantity(position.size, listed?.quantityPrecision)}</Table.Cell>
                  <Table.Cell textAlign="end">{price(position.entryPrice)}</Table.Cell>
                  <Table.Cell textAlign="end">{price(position.exitPrice)}</Table.Cell>
                  <Table.Cell textAlign="end" fontWeight="semibold" color={tone(position.realisedPnl)}>
                    {orDash(formatPnl, position.realisedPnl)}
                  </Table.Cell>
                  <Table.Cell textAlign="end">{orDash(formatPnl, position.fees)}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{t(`futures.closed.statuses.${position.status}`, { defaultValue: position.status })}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap" fontVariantNumeric="tabular-nums" color="fg.muted">
                    {time(position.openedAt)}
                  </Table.Cell>
                  <Table.Cell pe="4" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                    {time(position.closedAt)}
                  </Table.Cell>
                </Table.Row>
              );
            })}
    </DataTable>
  );
}
