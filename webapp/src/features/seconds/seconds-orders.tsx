/**
 * The user's flash contracts under the form: Open (each with its live countdown to the fixed
 * expiry, counted down locally every second) and History (opening price, settlement price, result,
 * profit and the rule's inputs — the opening and settlement ticks). Kept live by the user channel:
 * its `seconds_order` and `SETTLEMENT` messages refetch both lists; a slow refetch backs it up.
 *
 * @module
 */

import { Badge, Box, Table, Tabs, Text } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SecondsOrder } from '../../api/generated/model';
import { useListSecondsOrders } from '../../api/generated/seconds-contracts/seconds-contracts';
import { DataTable, type DataColumn } from '../../components/data-table';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { SILENT } from '../../lib/api-calls';
import { useIsLoggedIn } from '../../lib/session';
import { formatAmount, formatPnl, formatPrice } from '../../lib/wasm';
import { secondsLeft, useNow } from '../../hooks/use-now';

/** Rows per list. */
const PAGE_SIZE = 20;
/** A safety net when the user channel is down. */
const REFRESH_MS = 5_000;

type Scope = 'open' | 'history';

function Direction({ order }: { order: SecondsOrder }) {
  const { t } = useTranslation();
  return (
    <Text as="span" fontWeight="semibold" color={order.direction === 'up' ? 'up' : 'down'}>
      {order.direction === 'up' ? '▲' : '▼'} {t(`seconds.direction.${order.direction}`)}
    </Text>
  );
}

function Countdown({ order }: { order: SecondsOrder }) {
  const { t } = useTranslation();
  const now = useNow();
  const left = secondsLeft(order.closeTime, now);
  return left > 0 ? (
    <Text as="span" fontVariantNumeric="tabular-nums" fontWeight="semibold" role="timer" aria-label={t('seconds.orders.countdownLabel', { seconds: left })}>
      {t('seconds.orders.countdown', { seconds: left })}
    </Text>
  ) : (
    <Text as="span" color="fg.muted">
      {t('seconds.orders.settling')}
    </Text>
  );
}

/** What the tables need of the listed pairs: the display name and the price decimals. */
export interface PairInfo {
  name: (symbol: string) => string;
  pricePrecision: (symbol: string) => number | undefined;
}

function OpenRows({ records, pairs }: { records: SecondsOrder[]; pairs: PairInfo }) {
  const { t } = useTranslation();
  const time = useDateTimeFormatter();
  return (
    <>
      {records.map((order) => (
        <Table.Row key={order.id}>
          <Table.Cell ps="4">{pairs.name(order.symbol)}</Table.Cell>
          <Table.Cell>
            <Direction order={order} />
          </Table.Cell>
          <Table.Cell textAlign="end">{t('seconds.form.periodSeconds', { seconds: order.periodSeconds })}</Table.Cell>
          <Table.Cell textAlign="end">{formatAmount(order.quantity)}</Table.Cell>
          <Table.Cell textAlign="end">{formatPrice(order.openPrice, pairs.pricePrecision(order.symbol))}</Table.Cell>
          <Table.Cell>{time(order.commissTime)}</Table.Cell>
          <Table.Cell pe="4" textAlign="end">
            <Countdown order={order} />
          </Table.Cell>
        </Table.Row>
      ))}
    </>
  );
}

function resultColor(result: SecondsOrder['result']): string {
  if (result === 'win') return 'green';
  if (result === 'loss') return 'red';
  return 'gray';
}

function HistoryRows({ records, pairs }: { records: SecondsOrder[]; pairs: PairInfo }) {
  const { t } = useTranslation();
  const time = useDateTimeFormatter();
  return (
    <>
      {records.map((order) => {
        const profit = order.profit ?? '0';
        const positive = !profit.startsWith('-') && profit !== '0';
        return (
          <Table.Row key={order.id}>
            <Table.Cell ps="4">{pairs.name(order.symbol)}</Table.Cell>
            <Table.Cell>
              <Direction order={order} />
            </Table.Cell>
            <Table.Cell textAlign="end">{formatAmount(order.quantity)}</Table.Cell>
            <Table.Cell textAlign="end">{formatPrice(order.openPrice, pairs.pricePrecision(order.symbol))}</Table.Cell>
            <Table.Cell textAlign="end">{order.closePrice ? formatPrice(order.closePrice, pairs.pricePrecision(order.symbol)) : '--'}</Table.Cell>
            <Table.Cell>
              {order.result && (
                <Badge colorPalette={resultColor(order.result)} variant="subtle">
                  {t(`seconds.result.${order.result}`)}
                </Badge>
              )}
            </Table.Cell>
            <Table.Cell textAlign="end" fontWeight="semibold" color={positive ? 'up' : profit.startsWith('-') ? 'down' : undefined}>
              {positive ? '+' : ''}
              {formatPnl(profit)}
            </Table.Cell>
            <Table.Cell>{time(order.closeTime)}</Table.Cell>
            <Table.Cell pe="4" color="fg.muted" fontSize="xs">
              {t('seconds.orders.ticks', { open: order.openTickSeq, settle: order.settleTickSeq ?? '--' })}
            </Table.Cell>
          </Table.Row>
        );
      })}
    </>
  );
}

export function SecondsOrders({ pairs }: { pairs: PairInfo }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const [scope, setScope] = useState<Scope>('open');
  const open = useListSecondsOrders(
    { scope: 'open', pageSize: PAGE_SIZE },
    { query: { enabled: loggedIn, placeholderData: keepPreviousData, refetchInterval: REFRESH_MS }, request: SILENT },
  );
  const history = useListSecondsOrders(
    { scope: 'history', pageSize: PAGE_SIZE },
    { query: { enabled: loggedIn, placeholderData: keepPreviousData, refetchInterval: REFRESH_MS }, request: SILENT },
  );
  const openColumns: DataColumn[] = [
    { key: 'pair', label: t('seconds.orders.pair') },
    { key: 'direction', label: t('seconds.orders.direction') },
    { key: 'period', label: t('seconds.orders.period'), end: true },
    { key: 'stake', label: t('seconds.orders.stake'), end: true },
    { key: 'openPrice', label: t('seconds.orders.openPrice'), end: true },
    { key: 'time', label: t('seconds.orders.time') },
    { key: 'countdown', label: t('seconds.orders.countdownColumn'), end: true },
  ];
  const historyColumns: DataColumn[] = [
    { key: 'pair', label: t('seconds.orders.pair') },
    { key: 'direction', label: t('seconds.orders.direction') },
    { key: 'stake', label: t('seconds.orders.stake'), end: true },
    { key: 'openPrice', label: t('seconds.orders.openPrice'), end: true },
    { key: 'closePrice', label: t('seconds.orders.closePrice'), end: true },
    { key: 'result', label: t('seconds.orders.result') },
    { key: 'profit', label: t('seconds.orders.profit'), end: true },
    { key: 'closeTime', label: t('seconds.orders.closeTime') },
    { key: 'ticks', label: t('seconds.orders.ruleInputs') },
  ];
  const openRecords = open.data?.records ?? [];
  const historyRecords = history.data?.records ?? [];
  const empty = (text: string, columns: number) => (
    <Table.Row>
      <Table.Cell colSpan={columns} textAlign="center" py="8" color="fg.muted">
        {text}
      </Table.Cell>
    </Table.Row>
  );

  return (
    <Box as="section" aria-labelledby="seconds-orders-heading" borderWidth="1px" rounded="xl" bg="bg.panel" minW="0">
      <Text as="h2" id="seconds-orders-heading" srOnly>
        {t('seconds.orders.title')}
      </Text>
      <Tabs.Root value={scope} onValueChange={(details) => setScope(details.value as Scope)} variant="line" size="sm">
        <Tabs.List aria-label={t('seconds.orders.title')} px="3">
          <Tabs.Trigger value="open">{t('seconds.orders.open', { count: open.data?.total ?? 0 })}</Tabs.Trigger>
          <Tabs.Trigger value="history">{t('seconds.orders.history')}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="open" p="0">
          <DataTable label={t('seconds.orders.openTable')} columns={openColumns} busy={open.isFetching}>
            {!loggedIn
              ? empty(t('seconds.orders.loginPrompt'), openColumns.length)
              : openRecords.length === 0
                ? empty(t('seconds.orders.noOpen'), openColumns.length)
                : <OpenRows records={openRecords} pairs={pairs} />}
          </DataTable>
        </Tabs.Content>
        <Tabs.Content value="history" p="0">
          <DataTable label={t('seconds.orders.historyTable')} columns={historyColumns} busy={history.isFetching}>
            {!loggedIn
              ? empty(t('seconds.orders.loginPrompt'), historyColumns.length)
              : historyRecords.length === 0
                ? empty(t('seconds.orders.noHistory'), historyColumns.length)
                : <HistoryRows records={historyRecords} pairs={pairs} />}
          </DataTable>
          <Text px="4" py="2" fontSize="2xs" color="fg.subtle">
            {t('seconds.orders.ruleNote')}
          </Text>
        </Tabs.Content>
      </Tabs.Root>
    </Box>
  );
}
