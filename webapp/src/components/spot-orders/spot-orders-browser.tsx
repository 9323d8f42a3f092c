/**
 * The user's spot orders of every pair as one screen (the order centre, /account/entrust/spot): open
 * orders, order history and trade history as tabs, a pair filter, the tables' own paging. The tab and
 * the pair live in the URL (`?tab=open|history|trades&symbol=btcusdt`), so a reload or a shared link
 * shows the same list. The user channel stays open while it is shown, so an order that fills or a
 * cancel elsewhere refreshes the lists.
 *
 * @module
 */

import { Flex, NativeSelect, Tabs } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useGetCoinList } from '../../api/generated/common/common';
import { useCurrentUser } from '../../hooks/use-current-user';
import { pairName } from '../../hooks/use-market-rows';
import { useUserPush } from '../../lib/user-push';
import { OpenOrdersTable } from './open-orders';
import { OrderHistoryTable } from './order-history';
import { TradeHistoryTable } from './trade-history';

/** The lists, in tab order (the `tab` query value). */
export const SPOT_ORDER_TABS = ['open', 'history', 'trades'] as const;
export type SpotOrdersTab = (typeof SPOT_ORDER_TABS)[number];

/** The tab of a `tab` query value (open orders when missing or unknown). */
export function parseSpotOrdersTab(value: string | null): SpotOrdersTab {
  return SPOT_ORDER_TABS.find((tab) => tab === value) ?? 'open';
}

/** The pair of a `symbol` query value: a lower-case pair id, or `undefined` (all pairs). */
export function parseSpotSymbol(value: string | null): string | undefined {
  const symbol = value?.trim().toLowerCase();
  return symbol && /^[a-z0-9]{2,32}$/.test(symbol) ? symbol : undefined;
}

export function SpotOrdersBrowser({ label }: { label: string }) {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  useUserPush(user?.user.userId ?? null);
  const [search, setSearch] = useSearchParams();
  const tab = parseSpotOrdersTab(search.get('tab'));
  const symbol = parseSpotSymbol(search.get('symbol'));
  const coinList = useGetCoinList();

  const pairs = useMemo(() => {
    const listed = [...(coinList.data?.currencyList ?? [])]
      .sort((a, b) => a.sort - b.sort || a.symbol.localeCompare(b.symbol))
      .map((coin) => ({ value: coin.symbol, label: pairName(coin) }));
    // A pair no longer listed (a shared link, a delisting) stays choosable: its orders are still shown.
    if (symbol && !listed.some((pair) => pair.value === symbol)) listed.push({ value: symbol, label: symbol.toUpperCase() });
    return listed;
  }, [coinList.data, symbol]);

  const update = (name: 'tab' | 'symbol', value: string | undefined) => {
    const params = new URLSearchParams(search);
    if (value) params.set(name, value);
    else params.delete(name);
    setSearch(params, { replace: true });
  };

  // Each table is remounted per pair, so its paging starts again at page 1.
  const tableKey = symbol ?? '*';
  return (
    <Tabs.Root value={tab} onValueChange={(details) => update('tab', details.value)} variant="line" lazyMount unmountOnExit>
      <Flex align={{ base: 'stretch', sm: 'center' }} justify="space-between" gap="3" direction={{ base: 'column', sm: 'row' }} mb="4">
        <Tabs.List aria-label={label} maxW="full" overflowX="auto">
          {SPOT_ORDER_TABS.map((value) => (
            <Tabs.Trigger key={value} value={value} whiteSpace="nowrap">
              {t(`trade.orders.tabs.${value}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <NativeSelect.Root size="sm" w={{ base: 'full', sm: '48' }} flexShrink={0}>
          <NativeSelect.Field aria-label={t('trade.orders.cols.pair')} value={symbol ?? ''} onChange={(event) => update('symbol', event.currentTarget.value || undefined)}>
            <option value="">{t('trade.orders.allPairs')}</option>
            {pairs.map((pair) => (
              <option key={pair.value} value={pair.value}>
                {pair.label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
      <Tabs.Content value="open" p="0" borderWidth="1px" rounded="xl" bg="bg.panel" overflow="hidden">
        <OpenOrdersTable key={tableKey} symbol={symbol} />
      </Tabs.Content>
      <Tabs.Content value="history" p="0" borderWidth="1px" rounded="xl" bg="bg.panel" overflow="hidden">
        <OrderHistoryTable key={tableKey} symbol={symbol} />
      </Tabs.Content>
      <Tabs.Content value="trades" p="0" borderWidth="1px" rounded="xl" bg="bg.panel" overflow="hidden">
        <TradeHistoryTable key={tableKey} symbol={symbol} />
      </Tabs.Content>
    </Tabs.Root>
  );
}
