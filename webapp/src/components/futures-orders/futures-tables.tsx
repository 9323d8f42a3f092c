/**
 * The user's futures tables, shared by the futures screen and the order lists of /account/entrust:
 * open positions (with the TP/SL, margin, stop order and close actions where the screen offers them), current
 * orders with cancel, order history, and stop orders (`contract/loss/*`) with cancel. On phones each
 * table is a list of cards instead (`./futures-cards.tsx`).
 *
 * @module
 */

import { Badge, Button, HStack, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useCancelFuturesOrder, useCancelFuturesStop } from '../../api/generated/futures/futures';
import type { CoinListEntry, FuturesOrder, FuturesPosition, FuturesStopOrder } from '../../api/generated/model';
import { useRefreshFutures } from '../../hooks/use-refresh-futures';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { SILENT, failure } from '../../lib/api-calls';
import { toaster } from '../../lib/toaster';
import { formatBalance, formatPercent, formatPnl, formatPrice, formatQuantity, orDash } from '../../lib/wasm';
import { DataTable, type DataColumn } from '../data-table';
import { useIsPhone } from '../../hooks/use-is-phone';
import { OrderCards, PositionCards, StopCards } from './futures-cards';

/** What a position's action button opens. */
export type PositionAction = 'tpsl' | 'margin' | 'stop' | 'close';

/** `up` / `down` by the sign of a decimal string (nothing for zero). */
export function tone(value: string | null | undefined): string | undefined {
  if (!value || /^[+-]?0*(\.0*)?$/.test(value)) return undefined;
  return value.startsWith('-') ? 'down' : 'up';
}

export interface FuturesTableProps {
  loggedIn: boolean;
  name: (symbol: string) => string;
  coinOf: (symbol: string) => CoinListEntry | undefined;
  busy: boolean;
}

function Empty({ text, columns }: { text: string; columns: number }) {
  return (
    <Table.Row>
      <Table.Cell colSpan={columns} textAlign="center" py="8" color="fg.muted">
        {text}
      </Table.Cell>
    </Table.Row>
  );
}

function SideBadge({ side }: { side: 'long' | 'short' }) {
  const { t } = useTranslation();
  return (
    <Text as="span" fontWeight="semibold" color={side === 'long' ? 'up' : 'down'}>
      {t(`futures.side.${side}`)}
    </Text>
  );
}

export function FuturesPositionsTable({ loggedIn, positions, name, coinOf, onAction, busy }: FuturesTableProps & { positions: FuturesPosition[]; onAction?: (action: PositionAction, position: FuturesPosition) => void }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  if (phone) return <PositionCards loggedIn={loggedIn} positions={positions} name={name} coinOf={coinOf} onAction={onAction} busy={busy} />;
  const columns: DataColumn[] = [
    { key: 'pair', label: t('futures.positions.pair') },
    { key: 'size', label: t('futures.positions.size'), end: true },
    { key: 'entry', label: t('futures.positions.entry'), end: true },
    { key: 'mark', label: t('futures.positions.mark'), end: true },
    { key: 'liq', label: t('futures.positions.liquidation'), end: true },
    { key: 'margin', label: t('futures.positions.margin'), end: true },
    { key: 'ratio', label: t('futures.positions.marginRatio'), end: true },
    { key: 'pnl', label: t('futures.positions.pnl'), end: true },
    { key: 'tpsl', label: t('futures.positions.tpsl'), end: true },
    ...(onAction ? [{ key: 'actions', label: t('futures.positions.actions'), end: true }] : []),
  ];
  return (
    <DataTable label={t('futures.positions.table')} columns={columns} busy={busy}>
      {!loggedIn ? (
        <Empty text={t('futures.account.loginPrompt')} columns={columns.length} />
      ) : positions.length === 0 ? (
        <Empty text={t('futures.positions.none')} columns={columns.length} />
      ) : (
        positions.map((position) => {
          const precision = coinOf(position.symbol)?.pricePrecision;
          const price = (value?: string) => orDash((v) => formatPrice(v, precision), value);
          const pair = name(position.symbol);
          return (
            <Table.Row key={position.id} aria-label={t('futures.positions.row', { pair, side: t(`futures.side.${position.side}`) })}>
              <Table.Cell ps="4">
                <Text fontWeight="semibold" whiteSpace="nowrap">
                  {pair}
                </Text>
                <HStack gap="1.5" fontSize="xs" whiteSpace="nowrap">
                  <SideBadge side={position.side} />
                  <Badge size="xs" variant="subtle">
                    {t(`futures.marginMode.${position.marginMode}`)} {position.leverage}x
                  </Badge>
                </HStack>
              </Table.Cell>
              <Table.Cell textAlign="end" data-label="size">
                {formatQuantity(position.openInterest)}
              </Table.Cell>
              <Table.Cell textAlign="end">{price(position.averOpenPrice)}</Table.Cell>
              <Table.Cell textAlign="end">{price(position.markPrice)}</Table.Cell>
              <Table.Cell textAlign="end" fontWeight="semibold" color="orange.fg">
                <Text as="span" aria-label={t('futures.positions.liquidationOf', { pair })}>
                  {price(position.expectedStrongParity)}
                </Text>
              </Table.Cell>
              <Table.Cell textAlign="end">
                <Text as="span" aria-label={t('futures.positions.marginOf', { pair })}>
                  {orDash((v) => formatBalance(v), position.positionMargin)}
                </Text>
              </Table.Cell>
              <Table.Cell textAlign="end">{position.guarAssetRatio ? formatPercent(position.guarAssetRatio).replace(/^\+/, '') : '--'}</Table.Cell>
              <Table.Cell textAlign="end" color={tone(position.unrealisedPnl)} whiteSpace="nowrap">
                {orDash(formatPnl, position.unrealisedPnl)}
                <Text as="span" display="block" fontSize="xs">
                  {formatPercent(position.roe)}
                </Text>
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap" fontSize="xs">
                <Text as="span" display="block" color="up" aria-label={t('futures.positions.takeProfitOf', { pair })}>
                  {price(position.takeProfitPrice)}
                </Text>
                <Text as="span" display="block" color="down" aria-label={t('futures.positions.stopLossOf', { pair })}>
                  {price(position.stopLossPrice)}
                </Text>
              </Table.Cell>
              {onAction && (
              <Table.Cell pe="4" textAlign="end">
                <HStack gap="1" justify="flex-end">
                  <Button size="2xs" variant="outline" onClick={() => onAction('tpsl', position)}>
                    {t('futures.positions.setTpSl')}
                  </Button>
                  {position.marginMode === 'isolated' && (
                    <Button size="2xs" variant="outline" onClick={() => onAction('margin', position)}>
                      {t('futures.positions.adjustMargin')}
                    </Button>
                  )}
                  <Button size="2xs" variant="outline" onClick={() => onAction('stop', position)}>
                    {t('futures.positions.stopOrder')}
                  </Button>
                  <Button size="2xs" variant="outline" colorPalette="red" onClick={() => onAction('close', position)}>
                    {t('futures.positions.close')}
                  </Button>
                </HStack>
              </Table.Cell>
              )}
            </Table.Row>
          );
        })
      )}
    </DataTable>
  );
}

export function FuturesOrdersTable({ loggedIn, orders, name, coinOf, scope, busy }: FuturesTableProps & { orders: FuturesOrder[]; scope: 'current' | 'history' }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const time = useDateTimeFormatter();
  const refresh = useRefreshFutures();
  const cancel = useCancelFuturesOrder({ request: SILENT });
  const columns: DataColumn[] = [
    { key: 'time', label: t('futures.orders.time') },
    { key: 'pair', label: t('futures.orders.pair') },
    { key: 'side', label: t('futures.orders.side') },
    { key: 'type', label: t('futures.orders.type') },
    { key: 'price', label: t('futures.orders.price'), end: true },
    { key: 'quantity', label: t('futures.orders.quantity'), end: true },
    { key: 'filled', label: t('futures.orders.filled'), end: true },
    { key: 'average', label: t('futures.orders.average'), end: true },
    ...(scope === 'history'
      ? [
          { key: 'fee', label: t('futures.orders.fee'), end: true },
          { key: 'profit', label: t('futures.orders.profit'), end: true },
          { key: 'status', label: t('futures.orders.status') },
        ]
      : [{ key: 'actions', label: t('futures.orders.actions'), end: true }]),
  ];
  const onCancel = async (order: FuturesOrder) => {
    try {
      await cancel.mutateAsync({ params: { id: order.id } });
      toaster.create({ type: 'success', title: t('futures.orders.cancelled') });
    } catch (error) {
      toaster.create({ type: 'error', title: failure(error, t('errors.unknown')).message });
    } finally {
      refresh();
    }
  };
  if (phone) return <OrderCards loggedIn={loggedIn} orders={orders} name={name} coinOf={coinOf} scope={scope} busy={busy} onCancel={(order) => void onCancel(order)} />;
  return (
    <DataTable label={t(scope === 'current' ? 'futures.orders.currentTable' : 'futures.orders.historyTable')} columns={columns} busy={busy}>
      {!loggedIn ? (
        <Empty text={t('futures.account.loginPrompt')} columns={columns.length} />
      ) : orders.length === 0 ? (
        <Empty text={t(scope === 'current' ? 'futures.orders.noCurrent' : 'futures.orders.noHistory')} columns={columns.length} />
      ) : (
        orders.map((order) => {
          const listed = coinOf(order.symbol);
          const price = (value?: string) => orDash((v) => formatPrice(v, listed?.pricePrecision), value);
          return (
            <Table.Row key={order.id}>
              <Table.Cell ps="4" whiteSpace="nowrap">
                {time(order.commissTime)}
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{name(order.symbol)}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">
                <Text as="span" fontWeight="semibold" color={order.side === 'buy' ? 'up' : 'down'}>
                  {t(`futures.orders.sides.${order.side}`)}
                </Text>
                {(order.reduceOnly || order.closePosition) && (
                  <Text as="span" fontSize="xs" color="fg.muted" ms="1">
                    {t('futures.orders.reduce')}
                  </Text>
                )}
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">
                {t(`futures.form.${order.orderType}`)}
                {order.source !== 'user' && (
                  <Text as="span" fontSize="xs" color="fg.muted" ms="1">
                    ({t(`futures.orders.sources.${order.source}`)})
                  </Text>
                )}
              </Table.Cell>
              <Table.Cell textAlign="end">{order.orderType === 'market' ? t('futures.form.market') : price(order.commissPrice)}</Table.Cell>
              <Table.Cell textAlign="end">{formatQuantity(order.commissNum)}</Table.Cell>
              <Table.Cell textAlign="end">{formatQuantity(order.haveDealNum)}</Table.Cell>
              <Table.Cell textAlign="end">{price(order.dealAverPrice)}</Table.Cell>
              {scope === 'history' ? (
                <>
                  <Table.Cell textAlign="end">{orDash(formatPnl, order.serviceCharge)}</Table.Cell>
                  <Table.Cell textAlign="end" color={tone(order.profit)}>
                    {orDash(formatPnl, order.profit)}
                  </Table.Cell>
                  <Table.Cell pe="4" whiteSpace="nowrap">
                    {t(`futures.orders.statuses.${order.status}`)}
                    {order.cancelReason && order.status === 'cancelled' && (
                      <Text as="span" display="block" fontSize="xs" color="fg.muted">
                        {t(`futures.orders.reasons.${order.cancelReason}`)}
                      </Text>
                    )}
                  </Table.Cell>
                </>
              ) : (
                <Table.Cell pe="4" textAlign="end">
                  <Button size="2xs" variant="outline" onClick={() => void onCancel(order)} aria-label={t('futures.orders.cancelOne', { id: order.id })}>
                    {t('futures.orders.cancel')}
                  </Button>
                </Table.Cell>
              )}
            </Table.Row>
          );
        })
      )}
    </DataTable>
  );
}

export function FuturesStopsTable({ loggedIn, stops, name, coinOf, busy }: FuturesTableProps & { stops: FuturesStopOrder[] }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const time = useDateTimeFormatter();
  const refresh = useRefreshFutures();
  const cancel = useCancelFuturesStop({ request: SILENT });
  const columns: DataColumn[] = [
    { key: 'time', label: t('futures.orders.time') },
    { key: 'pair', label: t('futures.orders.pair') },
    { key: 'side', label: t('futures.stops.position') },
    { key: 'trigger', label: t('futures.stops.trigger'), end: true },
    { key: 'quantity', label: t('futures.orders.quantity'), end: true },
    { key: 'actions', label: t('futures.orders.actions'), end: true },
  ];
  const onCancel = async (stop: FuturesStopOrder) => {
    try {
      await cancel.mutateAsync({ params: { id: stop.id } });
      toaster.create({ type: 'success', title: t('futures.stops.cancelled') });
    } catch (error) {
      toaster.create({ type: 'error', title: failure(error, t('errors.unknown')).message });
    } finally {
      refresh();
    }
  };
  if (phone) return <StopCards loggedIn={loggedIn} stops={stops} name={name} coinOf={coinOf} busy={busy} onCancel={(stop) => void onCancel(stop)} />;
  return (
    <DataTable label={t('futures.stops.table')} columns={columns} busy={busy}>
      {!loggedIn ? (
        <Empty text={t('futures.account.loginPrompt')} columns={columns.length} />
      ) : stops.length === 0 ? (
        <Empty text={t('futures.stops.none')} columns={columns.length} />
      ) : (
        stops.map((stop) => (
          <Table.Row key={stop.id}>
            <Table.Cell ps="4" whiteSpace="nowrap">
              {time(stop.createTime)}
            </Table.Cell>
            <Table.Cell>{name(stop.symbol)}</Table.Cell>
            <Table.Cell>
              <SideBadge side={stop.positionSide} />
            </Table.Cell>
            <Table.Cell textAlign="end" whiteSpace="nowrap">
              {t(stop.direction === 'above' ? 'futures.stops.above' : 'futures.stops.below', {
                price: formatPrice(stop.triggerPrice, coinOf(stop.symbol)?.pricePrecision),
              })}
            </Table.Cell>
            <Table.Cell textAlign="end">{stop.quantity ? formatQuantity(stop.quantity) : t('futures.stops.whole')}</Table.Cell>
            <Table.Cell pe="4" textAlign="end">
              <Button size="2xs" variant="outline" onClick={() => void onCancel(stop)}>
                {t('futures.orders.cancel')}
              </Button>
            </Table.Cell>
          </Table.Row>
        ))
      )}
    </DataTable>
  );
}
