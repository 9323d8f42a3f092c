//! /trade/index?type=bb&symbol= (and /exchange/index): the spot trade screen — the pair header, the
//! pair list, the chart with its depth view, the live order book (a level's price fills the form),
//! the recent trades, the order form and the user's orders. `type=usta` (USDT-M futures) shows the
//! designed "coming soon" panel until futures trading exists.
//!
//! Layout: one column on phones (chart, form, book, trades, orders, pairs); two from 768 px; from
//! 1024 px the chart with the book and trades beside it and the form on the right; from 1536 px the
//! pair list takes its own column on the left.

import { Box, Button, Container, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetCoinList } from '../../api/generated/common/common';
import type { CoinListEntry } from '../../api/generated/model';
import { OrderBookPanel } from '../../components/order-book';
import { RecentTrades } from '../../components/recent-trades';
import { useCurrentUser } from '../../hooks/use-current-user';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { pairName } from '../../hooks/use-market-rows';
import { useTimeZone } from '../../hooks/use-time-zone';
import { useMarketDetail, useTickers, useTrades } from '../../lib/live';
import { useUserPush } from '../../lib/user-push';
import { ChartPanel } from './chart-panel';
import { FuturesComingSoon } from './futures-coming-soon';
import { useTickDirection } from './lib/use-tick-direction';
import { OrderForm, type PickedPrice } from './order-form/order-form';
import { OrdersPanel } from './orders-panel';
import { PairHeader } from './pair-header';
import { PairList, tradePath } from './pair-list';

/** The pair shown without `?symbol=`. */
export const DEFAULT_SYMBOL = 'btcusdt';

/** Book rows per side on the trade screen, and its grouping choices (the tick ×1, ×10, ×100). */
const BOOK_ROWS = 10;
const GROUPING_CHOICES = 3;
/** Recent trades shown. */
const TRADE_ROWS = 20;

export function TradePage() {
  const [search] = useSearchParams();
  const type = (search.get('type') || 'bb').toLowerCase();
  if (type === 'usta') return <FuturesComingSoon symbol={search.get('symbol')} />;
  return <SpotTradePage />;
}

function SpotTradePage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const symbol = (search.get('symbol') || DEFAULT_SYMBOL).trim().toLowerCase();
  const coinList = useGetCoinList();
  const coin = useMemo(() => coinList.data?.currencyList.find((c) => c.symbol === symbol), [coinList.data, symbol]);
  const pair = coin ? pairName(coin) : symbol.toUpperCase();
  useDocumentTitle(coin ? t('trade.documentTitle', { pair }) : t('screens.trade'));

  if (!coin) {
    return (
      <Container maxW="3xl" px={{ base: '3', md: '4' }} py="12">
        <Stack align="center" gap="4" textAlign="center">
          <Heading as="h1" size="xl">
            {t('screens.trade')}
          </Heading>
          {coinList.isPending ? (
            <Box role="status" color="fg.muted">
              {t('common.loading')}
            </Box>
          ) : (
            <Stack role="alert" align="center" gap="4">
              <Text fontSize="lg">{t('trade.unknownPair', { symbol })}</Text>
              <Button asChild colorPalette="brand" variant="outline">
                <RouterLink to={tradePath(DEFAULT_SYMBOL)}>{t('trade.backToDefault', { pair: 'BTC/USDT' })}</RouterLink>
              </Button>
            </Stack>
          )}
        </Stack>
      </Container>
    );
  }
  return <SpotTradeView key={coin.symbol} coin={coin} pair={pair} />;
}

function SpotTradeView({ coin, pair }: { coin: CoinListEntry; pair: string }) {
  const { tickers, status } = useTickers();
  const ticker = tickers[coin.symbol];
  const detail = useMarketDetail(coin.symbol);
  const trades = useTrades(coin.symbol);
  const { offsetMinutes } = useTimeZone();
  const { user } = useCurrentUser();
  useUserPush(user?.user.userId ?? null);
  // The newest trade is the freshest last price; the ticker and the coin list back it up.
  const lastPrice = trades[0]?.price ?? detail?.lastPrice ?? ticker?.close ?? coin.amount ?? null;
  const direction = useTickDirection(lastPrice);
  const [picked, setPicked] = useState<PickedPrice | null>(null);
  const pick = useCallback((price: string) => setPicked((current) => ({ price, n: (current?.n ?? 0) + 1 })), []);

  return (
    <Container maxW="1920px" px={{ base: '2', md: '3' }} py={{ base: '2', md: '3' }}>
      <Stack gap="3">
        <PairHeader coin={coin} pair={pair} ticker={ticker} lastPrice={lastPrice} direction={direction} status={status} />
        <Grid
          gap="3"
          alignItems="start"
          templateColumns={{
            base: 'minmax(0, 1fr)',
            md: 'repeat(2, minmax(0, 1fr))',
            lg: 'minmax(0, 1fr) 260px 300px',
            '2xl': '260px minmax(0, 1fr) 280px 320px',
          }}
          templateAreas={{
            base: `"chart" "form" "book" "trades" "orders" "pairs"`,
            md: `"chart chart" "book form" "trades form" "orders orders" "pairs pairs"`,
            lg: `"chart book form" "chart trades form" "orders orders pairs"`,
            '2xl': `"pairs chart book form" "pairs chart trades form" "pairs orders orders orders"`,
          }}
        >
          <Box gridArea="chart" minW="0">
            <ChartPanel coin={coin} pair={pair} />
          </Box>
          <Box gridArea="book" minW="0">
            <OrderBookPanel coin={coin} lastPrice={lastPrice} direction={direction} rows={BOOK_ROWS} groupingChoices={GROUPING_CHOICES} onPickPrice={pick} />
          </Box>
          <Box gridArea="trades" minW="0">
            <RecentTrades coin={coin} offsetMinutes={offsetMinutes} rows={TRADE_ROWS} />
          </Box>
          <Box gridArea="form" minW="0">
            <OrderForm coin={coin} lastPrice={lastPrice} picked={picked} />
          </Box>
          <Box gridArea="orders" minW="0">
            <OrdersPanel symbol={coin.symbol} />
          </Box>
          <Box gridArea="pairs" minW="0">
            <PairList current={coin.symbol} />
          </Box>
        </Grid>
      </Stack>
    </Container>
  );
}
