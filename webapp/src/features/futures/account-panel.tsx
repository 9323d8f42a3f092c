//! The futures account panel under the chart: Positions (size, entry, mark, liquidation price,
//! margin, margin ratio, unrealised PnL and ROE, TP/SL, with the TP/SL, margin and close dialogs),
//! Current orders (cancel), Order history and Stop orders (`contract/loss/*`, cancel). The lists
//! are refetched when the user channel says a position, order or stop order changed; a slow
//! refetch backs it up.

import { Badge, Box, Button, HStack, Table, Tabs, Text } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCancelFuturesOrder,
  useCancelFuturesStop,
  useListFuturesOrders,
  useListFuturesPositions,
  useListFuturesStops,
} from '../../api/generated/futures/futures';
import type { CoinListEntry, FuturesOrder, FuturesPosition, FuturesStopOrder } from '../../api/generated/model';
import { DataTable, type DataColumn } from '../../components/data-table';
import { pairName } from '../../hooks/use-market-rows';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { SILENT, failure } from '../../lib/api-calls';
import { useIsLoggedIn } from '../../lib/session';
import { toaster } from '../../lib/toaster';
import { formatAmount, formatPercent, formatPrice, formatQuantity, orDash } from '../../lib/wasm';
import { ClosePositionDialog, MarginDialog, TpSlDialog } from './dialogs';
import { useRefreshFutures } from './lib/refresh';

/** A safety net when the user channel is down. */
const REFRESH_MS = 5_000;
const PAGE_SIZE = 20;

type Tab = 'positions' | 'current' | 'history' | 'stops';
type DialogState = { kind: 'tpsl' | 'margin' | 'close'; position: FuturesPosition } | null;

function tone(value: string | null | undefined): string | undefined {
  if (!value || /^[+-]?0*(\.0*)?$/.test(value)) return undefined;
  return value.startsWith('-') ? 'down' : 'up';
}


export function AccountPanel({ coin, coins }: { coin: CoinListEntry; coins: CoinListEntry[] }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const [tab, setTab] = useState<Tab>('positions');
  const [dialog, setDialog] = useState<DialogState>(null);
  const query = { enabled: loggedIn, placeholderData: keepPreviousData, refetchInterval: REFRESH_MS };
  const positions = useListFuturesPositions({ scope: 'current' }, { query, request: SILENT });
  const current = useListFuturesOrders({ scope: 'current', pageSize: PAGE_SIZE }, { query, request: SILENT });
  const history = useListFuturesOrders({ scope: 'history', pageSize: PAGE_SIZE }, { query, request: SILENT });
  const stops = useListFuturesStops({ scope: 'current' }, { query, request: SILENT });
  const coinOf = (symbol: string) => coins.find((c) => c.symbol === symbol) ?? (symbol === coin.symbol ? coin : undefined);
  const name = (symbol: string) => {
    const listed = coinOf(symbol);
    return listed ? pairName(listed) : symbol.toUpperCase();
  };
  const open = positions.data ?? [];
  const dialogCoin = dialog ? (coinOf(dialog.position.symbol) ?? coin) : coin;
  // The dialog shows the live position (the list refetches), not the one it was opened with.
  const live = dialog ? (open.find((p) => p.id === dialog.position.id) ?? dialog.position) : null;

  return (
    <Box as="section" aria-labelledby="futures-account-heading" borderWidth="1px" rounded="xl" bg="bg.panel" minW="0">
      <Text as="h2" id="futures-account-heading" srOnly>
        {t('futures.account.title')}
      </Text>
      <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value as Tab)} variant="line" size="sm">
        <Tabs.List aria-label={t('futures.account.title')} px="3" overflowX="auto">
          <Tabs.Trigger value="positions">{t('futures.account.positions', { count: open.length })}</Tabs.Trigger>
          <Tabs.Trigger value="current">{t('futures.account.current', { count: current.data?.total ?? 0 })}</Tabs.Trigger>
          <Tabs.Trigger value="history">{t('futures.account.history')}</Tabs.Trigger>
          <Tabs.Trigger value="stops">{t('futures.account.stops', { count: stops.data?.length ?? 0 })}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="positions" p="0">
          <PositionsTable loggedIn={loggedIn} positions={open} name={name} coinOf={coinOf} onAction={setDialog} busy={positions.isFetching} />
        </Tabs.Content>
        <Tabs.Content value="current" p="0">
          <OrdersTable loggedIn={loggedIn} orders={current.data?.records ?? []} name={name} coinOf={coinOf} scope="current" busy={current.isFetching} />
        </Tabs.Content>
        <Tabs.Content value="history" p="0">
          <OrdersTable loggedIn={loggedIn} orders={history.data?.records ?? []} name={name} coinOf={coinOf} scope="history" busy={history.isFetching} />
        </Tabs.Content>
        <Tabs.Content value="stops" p="0">
          <StopsTable loggedIn={loggedIn} stops={stops.data ?? []} name={name} coinOf={coinOf} busy={stops.isFetching} />
        </Tabs.Content>
      </Tabs.Root>
      {dialog && live && dialog.kind === 'tpsl' && <TpSlDialog position={live} coin={dialogCoin} pair={name(live.symbol)} onClose={() => setDialog(null)} />}
      {dialog && live && dialog.kind === 'margin' && <MarginDialog position={live} coin={dialogCoin} pair={name(live.symbol)} onClose={() => setDialog(null)} />}
      {dialog && live && dialog.kind === 'close' && <ClosePositionDialog position={live} coin={dialogCoin} pair={name(live.symbol)} onClose={() => setDialog(null)} />}
    </Box>
  );
}

interface TableProps {
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

function PositionsTable({ loggedIn, positions, name, coinOf, onAction, busy }: TableProps & { positions: FuturesPosition[]; onAction: (state: DialogState) => void }) {
  const { t } = useTranslation();
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
    { key: 'actions', label: t('futures.positions.actions'), end: true },
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
                  {orDash(formatAmount, position.positionMargin)}
                </Text>
              </Table.Cell>
              <Table.Cell textAlign="end">{position.guarAssetRatio ? formatPercent(position.guarAssetRatio).replace(/^\+/, '') : '--'}</Table.Cell>
              <Table.Cell textAlign="end" color={tone(position.unrealisedPnl)} whiteSpace="nowrap">
                {orDash(formatAmount, position.unrealisedPnl)}
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
              <Table.Cell pe="4" textAlign="end">
                <HStack gap="1" justify="flex-end">
                  <Button size="2xs" variant="outline" onClick={() => onAction({ kind: 'tpsl', position })}>
                    {t('futures.positions.setTpSl')}
                  </Button>
                  {position.marginMode === 'isolated' && (
                    <Button size="2xs" variant="outline" onClick={() => onAction({ kind: 'margin', position })}>
                      {t('futures.positions.adjustMargin')}
                    </Button>
                  )}
                  <Button size="2xs" variant="outline" colorPalette="red" onClick={() => onAction({ kind: 'close', position })}>
                    {t('futures.positions.close')}
                  </Button>
                </HStack>
              </Table.Cell>
            </Table.Row>
          );
        })
      )}
    </DataTable>
  );
}

function OrdersTable({ loggedIn, orders, name, coinOf, scope, busy }: TableProps & { orders: FuturesOrder[]; scope: 'current' | 'history' }) {
  const { t } = useTranslation();
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
                  <Table.Cell textAlign="end">{orDash(formatAmount, order.serviceCharge)}</Table.Cell>
                  <Table.Cell textAlign="end" color={tone(order.profit)}>
                    {orDash(formatAmount, order.profit)}
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

function StopsTable({ loggedIn, stops, name, coinOf, busy }: TableProps & { stops: FuturesStopOrder[] }) {
  const { t } = useTranslation();
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
