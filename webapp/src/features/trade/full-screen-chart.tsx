/**
 * /exchange/full-screen/:type?symbol=: the pair's chart filling the window, under a slim header
 * (pair, last price, 24h figures) with the way back to the trade screen. A perpetual (`usta`)
 * follows the same market, so its chart is the same.
 *
 * @module
 */

import { Box, Button, Container, Stack } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetCoinList } from '../../api/generated/common/common';
import { KlineChart } from '../../components/kline-chart';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { pairName } from '../../hooks/use-market-rows';
import type { CoinListEntry } from '../../api/generated/model';
import { useLastPrice } from '../../lib/live';
import { useTickDirection } from '../../hooks/use-tick-direction';
import { PairHeader } from './pair-header';
import { tradePath } from './pair-list';
import { DEFAULT_SYMBOL } from './trade-page';

/** The chart's price pane fills most of the window. */
const FULL_HEIGHT = { base: 420, lg: 560, xl: 680 };

export function FullScreenChartPage() {
  const [search] = useSearchParams();
  return <SpotFullScreenChart symbol={(search.get('symbol') || DEFAULT_SYMBOL).trim().toLowerCase()} />;
}

function SpotFullScreenChart({ symbol }: { symbol: string }) {
  const { t } = useTranslation();
  const coinList = useGetCoinList();
  const coin = useMemo(() => coinList.data?.currencyList.find((c) => c.symbol === symbol), [coinList.data, symbol]);
  useDocumentTitle(t('screens.exchangeFullScreen'));

  if (!coin) {
    return (
      <Container maxW="3xl" py="12" textAlign="center">
        <Box role={coinList.isPending ? 'status' : 'alert'} color="fg.muted">
          {coinList.isPending ? t('common.loading') : t('trade.unknownPair', { symbol })}
        </Box>
      </Container>
    );
  }
  return <FullScreenView coin={coin} pair={pairName(coin)} />;
}

function FullScreenView({ coin, pair }: { coin: CoinListEntry; pair: string }) {
  const { t } = useTranslation();
  const lastPrice = useLastPrice(coin.symbol, coin.amount ?? null, true);
  const direction = useTickDirection(lastPrice);
  return (
    <Container maxW="full" px={{ base: '2', md: '3' }} py="2">
      <Stack gap="2">
        <PairHeader coin={coin} pair={pair} lastPrice={lastPrice} direction={direction} />
        <Box alignSelf="flex-end">
          <Button asChild size="xs" variant="outline">
            <RouterLink to={tradePath(coin.symbol)}>{t('trade.backToTrade', { pair })}</RouterLink>
          </Button>
        </Box>
        <KlineChart symbol={coin.symbol} pair={pair} pricePrecision={coin.pricePrecision} quantityPrecision={coin.quantityPrecision} height={FULL_HEIGHT} />
      </Stack>
    </Container>
  );
}
