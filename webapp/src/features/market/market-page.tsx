/**
 * /market/main: one pair's market at a glance — header with the last price and 24h statistics, the
 * candlestick chart, the live order book and the recent trades. The pair comes from `?symbol=`
 * (BTC/USDT by default) and is chosen from the coin list in the header's menu. On narrow screens
 * the order book and trades stack below the chart.
 *
 * @module
 */

import { Box, Button, Container, Grid, Stack, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetCoinList } from '../../api/generated/common/common';
import type { CoinListEntry } from '../../api/generated/model';
import { KlineChart } from '../../components/kline-chart';
import { useTimeZone } from '../../hooks/use-time-zone';
import { type MarketRow, pairName, useMarketRows } from '../../hooks/use-market-rows';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useTickDirection } from '../../hooks/use-tick-direction';
import { useMarketDetail, useTickers, useTrades } from '../../lib/live';
import { MarketHeader } from './market-header';
import { OrderBookPanel } from '../../components/order-book';
import { RecentTrades } from '../../components/recent-trades';

/** The pair shown without `?symbol=`. */
export const DEFAULT_SYMBOL = 'btcusdt';

export function MarketPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const symbol = (search.get('symbol') || DEFAULT_SYMBOL).trim().toLowerCase();
  const coinList = useGetCoinList();
  const { rows } = useMarketRows('spot');
  const coin = useMemo(
    () => coinList.data?.currencyList.find((c) => c.symbol === symbol) ?? coinList.data?.contractList.find((c) => c.symbol === symbol),
    [coinList.data, symbol],
  );
  const pair = coin ? pairName(coin) : symbol.toUpperCase();
  useDocumentTitle(coin ? t('market.documentTitle', { pair }) : t('screens.market'));

  if (!coin) {
    return (
      <Container maxW="1600px" px={{ base: '3', md: '4' }} py="10">
        {coinList.isPending ? (
          <Box role="status" textAlign="center" color="fg.muted">
            {t('common.loading')}
          </Box>
        ) : (
          <Stack role="alert" align="center" gap="4" textAlign="center">
            <Text fontSize="lg">{t('market.unknownPair', { symbol })}</Text>
            <Button asChild colorPalette="brand" variant="outline">
              <RouterLink to={`/market/main?symbol=${DEFAULT_SYMBOL}`}>{t('market.backToDefault', { pair: 'BTC/USDT' })}</RouterLink>
            </Button>
          </Stack>
        )}
      </Container>
    );
  }
  return <MarketView key={coin.symbol} coin={coin} pair={pair} rows={rows} />;
}

function MarketView({ coin, pair, rows }: { coin: CoinListEntry; pair: string; rows: MarketRow[] }) {
  const { tickers, status } = useTickers();
  const ticker = tickers[coin.symbol];
  const detail = useMarketDetail(coin.symbol);
  const trades = useTrades(coin.symbol);
  const { offsetMinutes } = useTimeZone();
  // The newest trade is the freshest last price; the ticker (every 250 ms) and the coin list back it up.
  const lastPrice = trades[0]?.price ?? detail?.lastPrice ?? ticker?.close ?? coin.amount ?? null;
  const direction = useTickDirection(lastPrice);

  return (
    <Container maxW="1600px" px={{ base: '2', md: '4' }} py={{ base: '3', md: '4' }}>
      <Stack gap="3">
        <MarketHeader coin={coin} pair={pair} rows={rows} ticker={ticker} detail={detail} lastPrice={lastPrice} direction={direction} status={status} />
        <Grid
          templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', xl: 'minmax(0, 1fr) 320px 300px' }}
          gap="3"
          alignItems="start"
        >
          <Box gridColumn={{ base: 'auto', md: 'span 2', xl: 'auto' }} minW="0">
            <KlineChart symbol={coin.symbol} pair={pair} pricePrecision={coin.pricePrecision} quantityPrecision={coin.quantityPrecision} />
          </Box>
          <OrderBookPanel coin={coin} lastPrice={lastPrice} direction={direction} />
          <RecentTrades coin={coin} offsetMinutes={offsetMinutes} />
        </Grid>
      </Stack>
    </Container>
  );
}
