/**
 * The user's futures lists under tabs — Positions, Current orders, Order history, Position history
 * (closed positions) and (unless the lists are narrowed to one margin mode) Stop orders —, read
 * through the `contract/{order,position,loss}/list` and `contract/position/history` calls and refetched when the user channel says something
 * changed (a slow refetch backs it up). Used by the futures screen (with the position actions) and by
 * /account/entrust's futures tabs (cross or isolated only, or everything).
 *
 * @module
 */

import { Box, Tabs, Text } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListFuturesOrders, useListFuturesPositionHistory, useListFuturesPositions, useListFuturesStops } from '../../api/generated/futures/futures';
import type { CoinListEntry, FuturesPosition, MarginMode } from '../../api/generated/model';
import { pairName } from '../../hooks/use-market-rows';
import { SILENT } from '../../lib/api-calls';
import { useIsLoggedIn } from '../../lib/session';
import { FuturesOrdersTable, FuturesPositionsTable, FuturesStopsTable, type PositionAction } from './futures-tables';
import { PositionHistoryTable } from './position-history-table';

/** A safety net when the user channel is down. */
export const FUTURES_REFRESH_MS = 5_000;
const PAGE_SIZE = 50;

type Tab = 'positions' | 'current' | 'history' | 'closed' | 'stops';

/** The user's open futures positions (shared by every component that shows them: one request). */
export function useOpenFuturesPositions() {
  const loggedIn = useIsLoggedIn();
  return useListFuturesPositions(
    { scope: 'current' },
    { query: { enabled: loggedIn, placeholderData: keepPreviousData, refetchInterval: FUTURES_REFRESH_MS }, request: SILENT },
  );
}

export function FuturesOrdersBrowser({
  title,
  coins,
  marginMode,
  onAction,
}: {
  /** The accessible name of the section and its tab list. */
  title: string;
  /** The contract pairs (names and price decimals). */
  coins: CoinListEntry[];
  /** Only what is in this margin mode (and no stop orders). */
  marginMode?: MarginMode;
  onAction?: (action: PositionAction, position: FuturesPosition) => void;
}) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const headingId = useId();
  const [tab, setTab] = useState<Tab>('positions');
  const query = { enabled: loggedIn, placeholderData: keepPreviousData, refetchInterval: FUTURES_REFRESH_MS };
  const positions = useOpenFuturesPositions();
  const current = useListFuturesOrders({ scope: 'current', pageSize: PAGE_SIZE }, { query, request: SILENT });
  const history = useListFuturesOrders({ scope: 'history', pageSize: PAGE_SIZE }, { query, request: SILENT });
  const closed = useListFuturesPositionHistory({ pageSize: PAGE_SIZE }, { query, request: SILENT });
  const stops = useListFuturesStops({ scope: 'current' }, { query: { ...query, enabled: loggedIn && !marginMode }, request: SILENT });
  const keep = <T extends { marginMode: MarginMode }>(rows: T[]) => (marginMode ? rows.filter((row) => row.marginMode === marginMode) : rows);
  const open = keep(positions.data ?? []);
  const currentOrders = keep(current.data?.records ?? []);
  const historyOrders = keep(history.data?.records ?? []);
  const closedPositions = keep(closed.data?.records ?? []);
  const coinOf = (symbol: string) => coins.find((c) => c.symbol === symbol);
  const name = (symbol: string) => {
    const listed = coinOf(symbol);
    return listed ? pairName(listed) : symbol.toUpperCase();
  };
  const shared = { loggedIn, name, coinOf };

  return (
    <Box as="section" aria-labelledby={headingId} borderWidth="1px" rounded="xl" bg="bg.panel" minW="0">
      <Text as="h2" id={headingId} srOnly>
        {title}
      </Text>
      <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value as Tab)} variant="line" size="sm">
        <Tabs.List aria-label={title} px="3" overflowX="auto" overflowY="hidden">
          <Tabs.Trigger value="positions" whiteSpace="nowrap" flexShrink={0}>
            {t('futures.account.positions', { count: open.length })}
          </Tabs.Trigger>
          <Tabs.Trigger value="current" whiteSpace="nowrap" flexShrink={0}>
            {t('futures.account.current', { count: currentOrders.length })}
          </Tabs.Trigger>
          <Tabs.Trigger value="history" whiteSpace="nowrap" flexShrink={0}>
            {t('futures.account.history')}
          </Tabs.Trigger>
          <Tabs.Trigger value="closed" whiteSpace="nowrap" flexShrink={0}>
            {t('futures.account.closed')}
          </Tabs.Trigger>
          {!marginMode && (
            <Tabs.Trigger value="stops" whiteSpace="nowrap" flexShrink={0}>
              {t('futures.account.stops', { count: stops.data?.length ?? 0 })}
            </Tabs.Trigger>
          )}
        </Tabs.List>
        <Tabs.Content value="positions" p="0">
          <FuturesPositionsTable {...shared} positions={open} onAction={onAction} busy={positions.isFetching} />
        </Tabs.Content>
        <Tabs.Content value="current" p="0">
          <FuturesOrdersTable {...shared} orders={currentOrders} scope="current" busy={current.isFetching} />
        </Tabs.Content>
        <Tabs.Content value="history" p="0">
          <FuturesOrdersTable {...shared} orders={historyOrders} scope="history" busy={history.isFetching} />
        </Tabs.Content>
        <Tabs.Content value="closed" p="0">
          <PositionHistoryTable {...shared} positions={closedPositions} busy={closed.isFetching} />
        </Tabs.Content>
        {!marginMode && (
          <Tabs.Content value="stops" p="0">
            <FuturesStopsTable {...shared} stops={stops.data ?? []} busy={stops.isFetching} />
          </Tabs.Content>
        )}
      </Tabs.Root>
    </Box>
  );
}
