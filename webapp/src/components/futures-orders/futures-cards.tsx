/**
 * The phone form of the futures tables (`./futures-tables.tsx` picks it below 768 px): each open
 * position, order or stop order as a card with the figures its table row shows — for a position the
 * size, entry, mark and liquidation prices, margin, margin ratio, unrealised PnL (coloured) with ROE
 * and TP / SL — and its buttons at touch size. The cards keep the accessible names the table cells
 * give the figures (liquidation price of a pair, its margin …).
 *
 * @module
 */

import { Badge, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { FuturesOrder, FuturesPosition, FuturesStopOrder } from '../../api/generated/model';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { formatBalance, formatPercent, formatPnl, formatPrice, formatQuantity, orDash } from '../../lib/wasm';
import { CardButton, CardList, CardListState, ItemCard } from '../item-cards';
import type { FuturesTableProps, PositionAction } from './futures-tables';

/** `up` / `down` by the sign of a decimal string (nothing for zero). */
function toneOf(value: string | null | undefined): string | undefined {
  if (!value || /^[+-]?0*(\.0*)?$/.test(value)) return undefined;
  return value.startsWith('-') ? 'down' : 'up';
}

function Side({ side }: { side: 'long' | 'short' }) {
  const { t } = useTranslation();
  return (
    <Text as="span" fontWeight="semibold" color={side === 'long' ? 'up' : 'down'}>
      {t(`futures.side.${side}`)}
    </Text>
  );
}

export function PositionCards({
  loggedIn,
  positions,
  name,
  coinOf,
  onAction,
  busy,
}: FuturesTableProps & { positions: FuturesPosition[]; onAction?: (action: PositionAction, position: FuturesPosition) => void }) {
  const { t } = useTranslation();
  return (
    <CardList label={t('futures.positions.table')} busy={busy}>
      {!loggedIn ? (
        <CardListState>{t('futures.account.loginPrompt')}</CardListState>
      ) : positions.length === 0 ? (
        <CardListState>{t('futures.positions.none')}</CardListState>
      ) : (
        positions.map((position) => {
          const precision = coinOf(position.symbol)?.pricePrecision;
          const price = (value?: string) => orDash((v) => formatPrice(v, precision), value);
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
                  <Side side={position.side} />
                  <Badge size="xs" variant="subtle">
                    {t(`futures.marginMode.${position.marginMode}`)} {position.leverage}x
                  </Badge>
                </>
              }
              fields={[
                { label: t('futures.positions.size'), value: formatQuantity(position.openInterest) },
                { label: t('futures.positions.entry'), value: price(position.averOpenPrice) },
                { label: t('futures.positions.mark'), value: price(position.markPrice) },
                {
                  label: t('futures.positions.liquidation'),
                  value: price(position.expectedStrongParity),
                  color: 'orange.fg',
                  valueLabel: t('futures.positions.liquidationOf', { pair }),
                },
                {
                  label: t('futures.positions.pnl'),
                  value: `${orDash(formatPnl, position.unrealisedPnl)} (${formatPercent(position.roe)})`,
                  color: toneOf(position.unrealisedPnl),
                  valueLabel: t('futures.positions.pnlOf', { pair }),
                },
                {
                  label: t('futures.positions.margin'),
                  value: orDash((v) => formatBalance(v), position.positionMargin),
                  valueLabel: t('futures.positions.marginOf', { pair }),
                },
                { label: t('futures.positions.marginRatio'), value: position.guarAssetRatio ? formatPercent(position.guarAssetRatio).replace(/^\+/, '') : '--' },
                {
                  label: t('futures.positions.tpsl'),
                  value: (
                    <>
                      <Text as="span" color="up" aria-label={t('futures.positions.takeProfitOf', { pair })}>
                        {price(position.takeProfitPrice)}
                      </Text>
                      {' / '}
                      <Text as="span" color="down" aria-label={t('futures.positions.stopLossOf', { pair })}>
                        {price(position.stopLossPrice)}
                      </Text>
                    </>
                  ),
                },
              ]}
              actions={
                onAction && (
                  <>
                    <CardButton onClick={() => onAction('tpsl', position)}>{t('futures.positions.setTpSl')}</CardButton>
                    {position.marginMode === 'isolated' && <CardButton onClick={() => onAction('margin', position)}>{t('futures.positions.adjustMargin')}</CardButton>}
                    <CardButton onClick={() => onAction('stop', position)}>{t('futures.positions.stopOrder')}</CardButton>
                    <CardButton colorPalette="red" onClick={() => onAction('close', position)}>
                      {t('futures.positions.close')}
                    </CardButton>
                  </>
                )
              }
            />
          );
        })
      )}
    </CardList>
  );
}

export function OrderCards({
  loggedIn,
  orders,
  name,
  coinOf,
  scope,
  busy,
  onCancel,
}: FuturesTableProps & { orders: FuturesOrder[]; scope: 'current' | 'history'; onCancel: (order: FuturesOrder) => void }) {
  const { t } = useTranslation();
  const time = useDateTimeFormatter();
  return (
    <CardList label={t(scope === 'current' ? 'futures.orders.currentTable' : 'futures.orders.historyTable')} busy={busy}>
      {!loggedIn ? (
        <CardListState>{t('futures.account.loginPrompt')}</CardListState>
      ) : orders.length === 0 ? (
        <CardListState>{t(scope === 'current' ? 'futures.orders.noCurrent' : 'futures.orders.noHistory')}</CardListState>
      ) : (
        orders.map((order) => {
          const precision = coinOf(order.symbol)?.pricePrecision;
          const price = (value?: string) => orDash((v) => formatPrice(v, precision), value);
          const pair = name(order.symbol);
          return (
            <ItemCard
              key={order.id}
              label={t('futures.orders.card', { side: t(`futures.orders.sides.${order.side}`), pair, id: order.id })}
              title={
                <>
                  <Text as="span" fontWeight="semibold">
                    {pair}
                  </Text>
                  <Text as="span" fontWeight="semibold" color={order.side === 'buy' ? 'up' : 'down'}>
                    {t(`futures.orders.sides.${order.side}`)}
                  </Text>
                  {(order.reduceOnly || order.closePosition) && (
                    <Text as="span" fontSize="xs" color="fg.muted">
                      {t('futures.orders.reduce')}
                    </Text>
                  )}
                  <Text as="span" color="fg.muted">
                    {t(`futures.form.${order.orderType}`)}
                    {order.source !== 'user' && ` (${t(`futures.orders.sources.${order.source}`)})`}
                  </Text>
                </>
              }
              aside={time(order.commissTime)}
              fields={[
                { label: t('futures.orders.price'), value: order.orderType === 'market' ? t('futures.form.market') : price(order.commissPrice) },
                { label: t('futures.orders.quantity'), value: formatQuantity(order.commissNum) },
                { label: t('futures.orders.filled'), value: formatQuantity(order.haveDealNum) },
                { label: t('futures.orders.average'), value: price(order.dealAverPrice) },
                ...(scope === 'history'
                  ? [
                      { label: t('futures.orders.fee'), value: orDash(formatPnl, order.serviceCharge) },
                      { label: t('futures.orders.profit'), value: orDash(formatPnl, order.profit), color: toneOf(order.profit) },
                      {
                        label: t('futures.orders.status'),
                        value:
                          t(`futures.orders.statuses.${order.status}`) +
                          (order.cancelReason && order.status === 'cancelled' ? ` · ${t(`futures.orders.reasons.${order.cancelReason}`)}` : ''),
                        wide: true,
                      },
                    ]
                  : []),
              ]}
              actions={
                scope === 'current' && (
                  <CardButton aria-label={t('futures.orders.cancelOne', { id: order.id })} onClick={() => onCancel(order)}>
                    {t('futures.orders.cancel')}
                  </CardButton>
                )
              }
            />
          );
        })
      )}
    </CardList>
  );
}

export function StopCards({ loggedIn, stops, name, coinOf, busy, onCancel }: FuturesTableProps & { stops: FuturesStopOrder[]; onCancel: (stop: FuturesStopOrder) => void }) {
  const { t } = useTranslation();
  const time = useDateTimeFormatter();
  return (
    <CardList label={t('futures.stops.table')} busy={busy}>
      {!loggedIn ? (
        <CardListState>{t('futures.account.loginPrompt')}</CardListState>
      ) : stops.length === 0 ? (
        <CardListState>{t('futures.stops.none')}</CardListState>
      ) : (
        stops.map((stop) => {
          const pair = name(stop.symbol);
          return (
            <ItemCard
              key={stop.id}
              label={t('futures.stops.card', { pair, side: t(`futures.side.${stop.positionSide}`), id: stop.id })}
              title={
                <>
                  <Text as="span" fontWeight="semibold">
                    {pair}
                  </Text>
                  <Side side={stop.positionSide} />
                </>
              }
              aside={time(stop.createTime)}
              fields={[
                {
                  label: t('futures.stops.trigger'),
                  value: t(stop.direction === 'above' ? 'futures.stops.above' : 'futures.stops.below', {
                    price: formatPrice(stop.triggerPrice, coinOf(stop.symbol)?.pricePrecision),
                  }),
                },
                { label: t('futures.orders.quantity'), value: stop.quantity ? formatQuantity(stop.quantity) : t('futures.stops.whole') },
              ]}
              actions={<CardButton onClick={() => onCancel(stop)}>{t('futures.orders.cancel')}</CardButton>}
            />
          );
        })
      )}
    </CardList>
  );
}
