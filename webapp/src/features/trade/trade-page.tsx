/**
 * /trade/index?type=bb&symbol= (and /exchange/index): the spot trade screen — the pair header, the
 * pair list, the chart with its depth view, the live order book (a level's price fills the form),
 * the recent trades, the order form and the user's orders. `type=usta` (USDT-M futures) is
 * dispatched by the router to the futures screen.
 *
 * Layout (the book and the trades are one column, "side"; the trades list scrolls inside its panel):
 * - phones (below 768 px): one column — chart, book, trades, orders (as cards), markets — and a bar
 *   stuck to the bottom with Buy and Sell, each opening the order form in a bottom sheet;
 * - from 768 px: the chart across, then book + trades | form + markets, then the orders;
 * - from 1024 px: chart | form, then book and trades side by side | markets, then the orders across
 *   (the chart stretches to the form's height);
 * - from 1280 px: one band of the screen's height — chart | book over trades | form over markets —
 *   with the orders under the chart and the book; the chart fills the band, the trades take what the
 *   book leaves, the markets run from under the form down to the end of the orders.
 *
 * @module
 */

import { Box, Button, Container, Flex, Grid, Heading, Stack, Text, type SystemStyleObject } from '@chakra-ui/react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetCoinList } from '../../api/generated/common/common';
import type { CoinListEntry } from '../../api/generated/model';
import { AfterFirstPaint } from '../../components/after-first-paint';
import { OrderBookPanel } from '../../components/order-book';
import { RecentTrades } from '../../components/recent-trades';
import { TradeSheet } from '../../components/trade-sheet';
import { useCurrentUser } from '../../hooks/use-current-user';
import { useIsPhone } from '../../hooks/use-is-phone';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { pairName } from '../../hooks/use-market-rows';
import { useTimeZone } from '../../hooks/use-time-zone';
import { useLastPrice } from '../../lib/live';
import { useUserPush } from '../../lib/user-push';
import { ChartPanel } from './chart-panel';
import { useTickDirection } from '../../hooks/use-tick-direction';
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

/** Height of the top band (chart | book + trades | form + markets) from 1280 px. */
const BAND_HEIGHT = { xl: '780px', '2xl': '840px' };

/** Book and trades rows 20 px high (the shared tables' default is 24 px), as on exchange screens. */
const DENSE_ROWS: SystemStyleObject = { '& td, & th': { lineHeight: '1rem' } };

/**
 * The recent trades scroll inside their panel, under its title and column headers: capped on
 * phones and tablets, filling what the book leaves from 1024 px (the wrapper sizes it there).
 * The title bar is 2.5rem high (border included), so the column headers stick just under it.
 */
const SCROLLING_TRADES: SystemStyleObject = {
  '& section': {
    maxHeight: { base: '320px', md: '360px', lg: 'none' },
    height: { lg: '100%' },
    overflowY: 'auto',
  },
  '& section > div:first-of-type': { position: 'sticky', top: '0', zIndex: '2', bg: 'bg.panel' },
  '& section thead th': { position: 'sticky', top: 'calc(2.5rem - 1px)', zIndex: '1', bg: 'bg.panel' },
};

export function TradePage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const symbol = (search.get('symbol') || DEFAULT_SYMBOL).trim().toLowerCase();
  const coinList = useGetCoinList();
  const coin = useMemo(() => coinList.data?.currencyList.find((c) => c.symbol === symbol), [coinList.data, symbol]);
  const pair = coin ? pairName(coin) : symbol.toUpperCase();
  useDocumentTitle(coin ? t('trade.documentTitle', { pair }) : t('screens.trade'));

  if (!coin) {
    return (
      // As tall as a page while the pairs load, as the route's own placeholder: the footer stays
      // below the screen until the trade layout replaces it (no layout shift).
      <Container maxW="3xl" px={{ base: '3', md: '4' }} py="12" minH={coinList.isPending ? '100vh' : undefined}>
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
  const { t } = useTranslation();
  const phone = useIsPhone();
  const { offsetMinutes } = useTimeZone();
  const { user } = useCurrentUser();
  useUserPush(user?.user.userId ?? null);
  // The newest trade is the freshest last price; the ticker and the coin list back it up. The page
  // re-renders when that price changes, never per book, trade or ticker message: each panel
  // listens to its own channel, and the panels that do not show the price are memoised.
  const lastPrice = useLastPrice(coin.symbol, coin.amount ?? null, true);
  const direction = useTickDirection(lastPrice);
  const [picked, setPicked] = useState<PickedPrice | null>(null);
  const pick = useCallback((price: string) => setPicked((current) => ({ price, n: (current?.n ?? 0) + 1 })), []);

  return (
    <Container maxW="1920px" px={{ base: '2', md: '3' }} py={{ base: '2', md: '3' }}>
      <Stack gap="3">
        <PairHeader coin={coin} pair={pair} lastPrice={lastPrice} direction={direction} />
        <Grid
          gap="3"
          templateColumns={{
            base: 'minmax(0, 1fr)',
            md: 'repeat(2, minmax(0, 1fr))',
            lg: 'minmax(0, 1fr) 288px',
            xl: 'minmax(0, 1fr) 288px 312px',
            '2xl': 'minmax(0, 1fr) 320px 340px',
          }}
          // The flexible row takes what the side column (or the band) leaves under the form, so the
          // markets panel below the form ends where its neighbours do.
          templateRows={{ md: 'auto auto minmax(0, 1fr) auto', lg: 'auto auto auto', xl: 'auto minmax(0, 1fr) auto' }}
          templateAreas={{
            base: phone ? `"chart" "side" "orders" "pairs"` : `"chart" "form" "side" "orders" "pairs"`,
            md: `"chart chart" "side form" "side pairs" "orders orders"`,
            lg: `"chart form" "side pairs" "orders orders"`,
            xl: `"chart side form" "chart side pairs" "orders orders pairs"`,
          }}
        >
          <Box gridArea="chart" minW="0" minH={BAND_HEIGHT}>
            <ChartPanel coin={coin} pair={pair} />
          </Box>
          <Flex gridArea="side" minW="0" minH={BAND_HEIGHT} direction={{ base: 'column', lg: 'row', xl: 'column' }} gap="3" css={DENSE_ROWS}>
            <Box minW="0" flex={{ lg: '1 1 0', xl: 'none' }}>
              <OrderBookPanel coin={coin} lastPrice={lastPrice} direction={direction} rows={BOOK_ROWS} groupingChoices={GROUPING_CHOICES} onPickPrice={pick} />
            </Box>
            {/* From 1024 px the trades panel fills its box without sizing it (the book does). */}
            <Box minW="0" position="relative" flex={{ lg: '1 1 0' }} minH={{ xl: '48' }} css={SCROLLING_TRADES}>
              <Box position={{ lg: 'absolute' }} inset={{ lg: '0' }}>
                <RecentTrades coin={coin} offsetMinutes={offsetMinutes} rows={TRADE_ROWS} />
              </Box>
            </Box>
          </Flex>
          {!phone && (
            <Box gridArea="form" minW="0">
              <OrderForm coin={coin} picked={picked} />
            </Box>
          )}
          <Box gridArea="orders" minW="0">
            <OrdersPanel symbol={coin.symbol} />
          </Box>
          {/* From 768 px the markets fill the space their neighbours leave (at least 240 px). They
              are not needed for the first paint: the list mounts in the render after it (its box
              is sized by its neighbours, and on phones it is the last panel, so nothing moves). */}
          <Box gridArea="pairs" minW="0" position="relative" minH={{ md: '60' }}>
            <Box position={{ md: 'absolute' }} inset={{ md: '0' }}>
              <AfterFirstPaint>
                <PairList current={coin.symbol} />
              </AfterFirstPaint>
            </Box>
          </Box>
        </Grid>
      </Stack>
      {phone && (
        <TradeSheet
          title={t('trade.sheet.title', { pair })}
          barLabel={t('trade.sheet.bar')}
          up={{ side: 'buy', label: t('trade.form.buy') }}
          down={{ side: 'sell', label: t('trade.form.sell') }}
          form={(side, close) => <OrderForm coin={coin} picked={picked} initialSide={side} onPlaced={close} />}
        />
      )}
    </Container>
  );
}
