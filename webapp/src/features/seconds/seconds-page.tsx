/**
 * /trade/index?type=seconds&symbol= : the flash (seconds) contract screen — the pair header and
 * candlestick chart shared with the spot screen, the bet form (period with its payout, Up / Down,
 * whole-number stake, wasm-core preview) and the user's open bets with their countdown and settled
 * ones with the settlement price and the rule's inputs; a settled bet is toasted (`SETTLEMENT`). When the operator switched the product off
 * (`getSecondsConfig` says `enabled: false`) the screen says so instead; a pair not offered shows
 * a way back to BTC/USDT. On phones (below 768 px) the form leaves the page for a bottom sheet opened
 * by an Up / Down bar stuck to the bottom of the screen.
 *
 * @module
 */

import { Box, Button, Container, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetCoinList } from '../../api/generated/common/common';
import type { CoinListEntry, SecondsOffer } from '../../api/generated/model';
import { useGetSecondsConfig } from '../../api/generated/seconds-contracts/seconds-contracts';
import { KlineChart } from '../../components/kline-chart';
import { PairTickerHeader, tickerStats } from '../../components/pair-ticker-header';
import { TradeSheet } from '../../components/trade-sheet';
import { useCurrentUser } from '../../hooks/use-current-user';
import { useIsPhone } from '../../hooks/use-is-phone';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { pairName } from '../../hooks/use-market-rows';
import { useTickDirection } from '../../hooks/use-tick-direction';
import { useMarketDetail, useTickers, useTrades } from '../../lib/live';
import { toaster } from '../../lib/toaster';
import { useUserPush } from '../../lib/user-push';
import { BetForm } from './bet-form';
import { type PairInfo, SecondsOrders } from './seconds-orders';
import { settlementToast } from './settlement-toast';

/** The pair shown without `?symbol=`. */
export const DEFAULT_SECONDS_SYMBOL = 'btcusdt';

/** The link of a pair's flash contract screen. */
export function secondsPath(symbol: string): string {
  return `/trade/index?type=seconds&symbol=${encodeURIComponent(symbol)}`;
}

/** Height of the chart's price pane. */
const CHART_HEIGHT = { base: 260, lg: 380, xl: 440 };

function Notice({ title, body, action }: { title: string; body: string; action?: { label: string; to: string } }) {
  return (
    <Container maxW="3xl" px={{ base: '3', md: '4' }} py="12">
      <Stack align="center" gap="4" textAlign="center" role="status" borderWidth="1px" rounded="2xl" bg="bg.panel" px="6" py="10">
        <Heading as="h1" size="xl">
          {title}
        </Heading>
        <Text fontSize="md" color="fg.muted" maxW="xl">
          {body}
        </Text>
        {action && (
          <Button asChild colorPalette="brand" variant="outline">
            <RouterLink to={action.to}>{action.label}</RouterLink>
          </Button>
        )}
      </Stack>
    </Container>
  );
}

export function SecondsPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const symbol = (search.get('symbol') || DEFAULT_SECONDS_SYMBOL).trim().toLowerCase();
  const config = useGetSecondsConfig();
  const coinList = useGetCoinList();
  const coin = useMemo(() => coinList.data?.currencyList.find((c) => c.symbol === symbol), [coinList.data, symbol]);
  const offer = config.data;
  const offered = offer?.symbols.some((s) => s.symbol === symbol) ?? false;
  const pair = coin ? pairName(coin) : symbol.toUpperCase();
  useDocumentTitle(coin && offered ? t('seconds.documentTitle', { pair }) : t('seconds.title'));

  if (config.isPending || coinList.isPending) {
    return (
      <Container maxW="3xl" py="12">
        <Box role="status" color="fg.muted" textAlign="center">
          {t('common.loading')}
        </Box>
      </Container>
    );
  }
  if (config.isError) {
    return (
      <Container maxW="3xl" px={{ base: '3', md: '4' }} py="12">
        <Stack align="center" gap="4" textAlign="center" role="alert" borderWidth="1px" rounded="2xl" bg="bg.panel" px="6" py="10">
          <Heading as="h1" size="xl">
            {t('seconds.title')}
          </Heading>
          <Text color="fg.muted">{t('seconds.loadFailed')}</Text>
          <Button colorPalette="brand" variant="outline" onClick={() => void config.refetch()}>
            {t('seconds.retry')}
          </Button>
        </Stack>
      </Container>
    );
  }
  if (offer && !offer.enabled) {
    return (
      <Notice
        title={t('seconds.title')}
        body={t('seconds.disabled')}
        action={{ label: t('seconds.tradeSpot'), to: '/trade/index?type=bb' }}
      />
    );
  }
  if (!offer || !coin || !offered) {
    return (
      <Notice
        title={t('seconds.title')}
        body={t('seconds.unknownPair', { symbol: symbol.toUpperCase() })}
        action={{ label: t('seconds.backToDefault', { pair: 'BTC/USDT' }), to: secondsPath(DEFAULT_SECONDS_SYMBOL) }}
      />
    );
  }
  return <SecondsView key={coin.symbol} coin={coin} pair={pair} offer={offer} coins={coinList.data?.currencyList ?? []} />;
}

function SecondsView({ coin, pair, offer, coins }: { coin: CoinListEntry; pair: string; offer: SecondsOffer; coins: CoinListEntry[] }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const { tickers, status } = useTickers();
  const ticker = tickers[coin.symbol];
  const detail = useMarketDetail(coin.symbol);
  const trades = useTrades(coin.symbol);
  const { user } = useCurrentUser();
  useUserPush(user?.user.userId ?? null, (message) => {
    if (message.type !== 'SETTLEMENT') return;
    const listed = coins.find((c) => c.symbol === message.data.symbol);
    toaster.create(settlementToast(t, message.data, listed ? pairName(listed) : message.data.symbol.toUpperCase()));
  });
  const lastPrice = trades[0]?.price ?? detail?.lastPrice ?? ticker?.close ?? coin.amount ?? null;
  const direction = useTickDirection(lastPrice);
  const stats = tickerStats(coin, ticker, {
    change: t('seconds.header.change'),
    high: t('seconds.header.high'),
    low: t('seconds.header.low'),
    volume: t('seconds.header.volume', { coin: coin.coin.toUpperCase() }),
    turnover: t('seconds.header.turnover', { coin: coin.baseCoin.toUpperCase() }),
  });
  const pairs = useMemo<PairInfo>(
    () => ({
      name: (symbol) => {
        const listed = coins.find((c) => c.symbol === symbol);
        return listed ? pairName(listed) : symbol.toUpperCase();
      },
      pricePrecision: (symbol) => coins.find((c) => c.symbol === symbol)?.pricePrecision,
    }),
    [coins],
  );

  return (
    <Container maxW="1920px" px={{ base: '2', md: '3' }} py={{ base: '2', md: '3' }}>
      <Stack gap="3">
        <PairTickerHeader
          as="header"
          size="md"
          coin={coin}
          pair={pair}
          lastPrice={lastPrice}
          lastPriceLabel={t('seconds.header.lastPrice')}
          direction={direction}
          stats={stats}
          status={status}
          beside={
            <Text as="span" fontSize="xs" fontWeight="semibold" color="brand.fg" bg="brand.subtle" px="2" py="0.5" rounded="md" whiteSpace="nowrap">
              {t('seconds.badge')}
            </Text>
          }
        />
        <Grid gap="3" templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 340px', '2xl': 'minmax(0, 1fr) 380px' }}>
          <Box as="section" aria-label={t('seconds.chart', { pair })} minW="0">
            <KlineChart symbol={coin.symbol} pair={pair} pricePrecision={coin.pricePrecision} quantityPrecision={coin.quantityPrecision} height={CHART_HEIGHT} />
          </Box>
          {!phone && <BetForm coin={coin} pair={pair} offer={offer} />}
        </Grid>
        <SecondsOrders pairs={pairs} />
      </Stack>
      {phone && (
        <TradeSheet
          title={t('seconds.sheet.title', { pair })}
          barLabel={t('seconds.sheet.bar')}
          up={{ side: 'up', label: `▲ ${t('seconds.direction.up')}` }}
          down={{ side: 'down', label: `▼ ${t('seconds.direction.down')}` }}
          form={(direction, close) => <BetForm coin={coin} pair={pair} offer={offer} direction={direction} onPlaced={close} />}
        />
      )}
    </Container>
  );
}
