/**
 * /trade/index?type=usta&symbol= and /exchange/full-contract/{type}: the USDT-M perpetual screen —
 * the pair header with the mark and index prices, the funding rate and a live countdown to the next
 * funding (`contract/coin/fundingInfo`), the shared candlestick chart, order book and recent trades,
 * the order form (margin mode, leverage, Open Long / Open Short, wasm-core preview on every
 * keystroke) and the account panel: positions with their TP/SL, margin and close dialogs, current
 * and history orders, stop orders. Kept live by the user channel (`POSITION`, `futuresOrder`,
 * `futuresStop`, `au`). Only pairs listed for contracts (`getCoinList`'s contract list) trade here.
 * On phones (below 768 px) the form leaves the page for a bottom sheet opened by a Long / Short bar
 * stuck to the bottom of the screen, and the account lists are cards.
 *
 * @module
 */

import { Box, Button, Container, Flex, Grid, Heading, Stack, Text, type SystemStyleObject } from '@chakra-ui/react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetCoinList } from '../../api/generated/common/common';
import type { CoinListEntry } from '../../api/generated/model';
import { KlineChart } from '../../components/kline-chart';
import { OrderBookPanel } from '../../components/order-book';
import { RecentTrades } from '../../components/recent-trades';
import { TradeSheet } from '../../components/trade-sheet';
import { useCurrentUser } from '../../hooks/use-current-user';
import { useIsPhone } from '../../hooks/use-is-phone';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { pairName } from '../../hooks/use-market-rows';
import { useTickDirection } from '../../hooks/use-tick-direction';
import { useTimeZone } from '../../hooks/use-time-zone';
import { type AccountValues, useUserPush } from '../../lib/user-push';
import { useLastPrice } from '../../lib/live';
import { FuturesHeader } from './futures-header';
import { FuturesOrderForm, type PickedPrice } from './order-form';
import { AccountPanel } from './account-panel';

/** The pair shown without `?symbol=`. */
export const DEFAULT_FUTURES_SYMBOL = 'btcusdt';

/** The link of a pair's futures screen. */
export function futuresPath(symbol: string): string {
  return `/trade/index?type=usta&symbol=${encodeURIComponent(symbol)}`;
}

/** Height of the chart's price pane on phones and tablets (from 1280 px it fills its cell). */
const CHART_HEIGHT = { base: 260, lg: 380, xl: 460 };

/**
 * From 1280 px the chart's plot (the box holding the canvas, `role="img"`) takes the height its grid
 * cell leaves under the toolbar and legend, so the chart ends where the book and trades do
 * (klinecharts follows its container's size), as on the spot screen.
 */
const FILL_CHART: SystemStyleObject = {
  '& > section': { flex: { xl: '1 1 auto' }, display: { xl: 'flex' }, flexDirection: { xl: 'column' } },
  '& > section > div:has(> [role="img"])': { flex: { xl: '1 1 0' }, height: { xl: 'auto' }, minHeight: { xl: '320px' } },
};

export function FuturesPage({ symbol: fromPath }: { symbol?: string }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const symbol = (fromPath || search.get('symbol') || DEFAULT_FUTURES_SYMBOL).trim().toLowerCase().replace('_', '');
  const coinList = useGetCoinList();
  const contracts = coinList.data?.contractList;
  const coin = useMemo(() => contracts?.find((c) => c.symbol === symbol), [contracts, symbol]);
  const pair = coin ? pairName(coin) : symbol.toUpperCase();
  useDocumentTitle(coin ? t('futures.documentTitle', { pair }) : t('futures.title'));

  if (!coin) {
    return (
      // As tall as a page while the pairs load, as the route's own placeholder: the footer stays
      // below the screen until the trade layout replaces it (no layout shift).
      <Container maxW="3xl" px={{ base: '3', md: '4' }} py="12" minH={coinList.isPending ? '100vh' : undefined}>
        <Stack align="center" gap="4" textAlign="center">
          <Heading as="h1" size="xl">
            {t('futures.title')}
          </Heading>
          {coinList.isPending ? (
            <Box role="status" color="fg.muted">
              {t('common.loading')}
            </Box>
          ) : (
            <Stack role="alert" align="center" gap="4">
              <Text fontSize="lg">{t('futures.unknownPair', { symbol: symbol.toUpperCase() })}</Text>
              <Button asChild colorPalette="brand" variant="outline">
                <RouterLink to={futuresPath(DEFAULT_FUTURES_SYMBOL)}>{t('futures.backToDefault', { pair: 'BTC/USDT' })}</RouterLink>
              </Button>
            </Stack>
          )}
        </Stack>
      </Container>
    );
  }
  return <FuturesView key={coin.symbol} coin={coin} pair={pair} coins={contracts ?? []} />;
}

function FuturesView({ coin, pair, coins }: { coin: CoinListEntry; pair: string; coins: CoinListEntry[] }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const { offsetMinutes } = useTimeZone();
  const { user } = useCurrentUser();
  const [account, setAccount] = useState<AccountValues | null>(null);
  useUserPush(user?.user.userId ?? null, (message) => {
    if (message.type === 'au') setAccount(message.data);
  });
  // Re-renders when the last price changes, never per book, trade or ticker message: each panel
  // listens to its own channel, and the panels that do not show the price are memoised.
  const lastPrice = useLastPrice(coin.symbol, coin.amount ?? null);
  const direction = useTickDirection(lastPrice);
  const [picked, setPicked] = useState<PickedPrice | null>(null);
  const pick = useCallback((price: string) => setPicked((current) => ({ price, n: (current?.n ?? 0) + 1 })), []);

  return (
    <Container maxW="1920px" px={{ base: '2', md: '3' }} py={{ base: '2', md: '3' }}>
      <Stack gap="3">
        <FuturesHeader coin={coin} pair={pair} lastPrice={lastPrice} direction={direction} />
        <Grid
          gap="3"
          templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', lg: 'minmax(0, 1fr) 300px', xl: 'minmax(0, 1fr) 288px 340px' }}
          templateAreas={{
            base: phone ? `"chart" "side" "account"` : `"chart" "form" "side" "account"`,
            md: `"chart chart" "side form" "account account"`,
            lg: `"chart form" "side form" "account account"`,
            xl: `"chart side form" "account account form"`,
          }}
        >
          <Box as="section" gridArea="chart" minW="0" aria-label={t('futures.chart', { pair })} display="flex" flexDirection="column" css={FILL_CHART}>
            <KlineChart symbol={coin.symbol} pair={pair} pricePrecision={coin.pricePrecision} quantityPrecision={coin.quantityPrecision} height={CHART_HEIGHT} />
          </Box>
          <Flex gridArea="side" minW="0" direction={{ base: 'column', lg: 'row', xl: 'column' }} gap="3">
            <Box minW="0" flex={{ lg: '1 1 0', xl: 'none' }}>
              <OrderBookPanel coin={coin} lastPrice={lastPrice} direction={direction} rows={8} groupingChoices={3} onPickPrice={pick} />
            </Box>
            <Box minW="0" flex={{ lg: '1 1 0', xl: 'none' }}>
              <RecentTrades coin={coin} offsetMinutes={offsetMinutes} rows={10} />
            </Box>
          </Flex>
          {!phone && (
            <Box gridArea="form" minW="0">
              <FuturesOrderForm coin={coin} pair={pair} picked={picked} account={account} />
            </Box>
          )}
          <Box gridArea="account" minW="0">
            <AccountPanel coin={coin} coins={coins} />
          </Box>
        </Grid>
      </Stack>
      {phone && (
        <TradeSheet
          title={t('futures.sheet.title', { pair })}
          barLabel={t('futures.sheet.bar')}
          up={{ side: 'long', label: t('futures.form.openLong') }}
          down={{ side: 'short', label: t('futures.form.openShort') }}
          form={(side, close) => <FuturesOrderForm coin={coin} pair={pair} picked={picked} account={account} side={side} onPlaced={close} />}
        />
      )}
    </Container>
  );
}
