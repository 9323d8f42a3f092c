/**
 * The market screen's header: the pair (with a menu of every listed pair), its last price and the
 * 24h statistics from the `ticker` channel, the mark and index prices from `DETAIL`, and the live
 * feed's status, and the star that makes the pair a favourite — the shared pair header in its roomy
 * size, with the pair menu beside the star.
 *
 * @module
 */

import { Button, HStack, Menu, Portal, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { CoinListEntry } from '../../api/generated/model';
import { CoinLogo } from '../../components/coin-logo';
import { ChevronDownIcon } from '../../components/icons';
import { PairTickerHeader, pairPrice, tickerStats } from '../../components/pair-ticker-header';
import type { MarketRow } from '../../hooks/use-market-rows';
import type { Direction } from '../../hooks/use-tick-direction';
import type { FeedStatus, MarketDetail, Ticker } from '../../lib/live';

interface MarketHeaderProps {
  coin: CoinListEntry;
  pair: string;
  rows: MarketRow[];
  ticker: Ticker | undefined;
  detail: MarketDetail | null;
  lastPrice: string | null;
  direction: Direction;
  status: FeedStatus;
}

export function MarketHeader({ coin, pair, rows, ticker, detail, lastPrice, direction, status }: MarketHeaderProps) {
  const { t } = useTranslation();
  const stats = [
    ...tickerStats(coin, ticker, {
      change: t('market.stats.change'),
      high: t('market.stats.high'),
      low: t('market.stats.low'),
      volume: t('market.stats.volume', { coin: coin.coin.toUpperCase() }),
      turnover: t('market.stats.turnover', { coin: coin.baseCoin.toUpperCase() }),
    }),
    { key: 'mark', label: t('market.stats.mark'), value: pairPrice(coin, detail?.markPrice) },
    { key: 'index', label: t('market.stats.index'), value: pairPrice(coin, detail?.indexPrice) },
  ];

  return (
    <PairTickerHeader
      size="lg"
      coin={coin}
      pair={pair}
      lastPrice={lastPrice}
      lastPriceLabel={t('market.lastPrice')}
      direction={direction}
      stats={stats}
      status={status}
      beside={<PairMenu coin={coin} rows={rows} />}
    />
  );
}

/** The menu of every listed pair, each a link to its market screen. */
function PairMenu({ coin, rows }: { coin: CoinListEntry; rows: MarketRow[] }) {
  const { t } = useTranslation();
  return (
    <Menu.Root positioning={{ placement: 'bottom-start' }}>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="xs" aria-label={t('market.choosePair')} title={t('market.choosePair')} px="1" minW="0">
          <ChevronDownIcon boxSize="4" />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="64" maxH="80vh" overflowY="auto">
            {rows.map((row) => (
              <Menu.Item key={row.coin.symbol} value={row.coin.symbol} asChild aria-label={row.pair}>
                <RouterLink to={`/market/main?symbol=${encodeURIComponent(row.coin.symbol)}`}>
                  <HStack justify="space-between" w="full" gap="4">
                    <HStack gap="2">
                      <CoinLogo src={row.coin.logo} coin={row.coin.coin} size="5" />
                      <Text as="span" fontWeight={row.coin.symbol === coin.symbol ? 'bold' : 'medium'}>
                        {row.pair}
                      </Text>
                    </HStack>
                    <HStack gap="2" fontVariantNumeric="tabular-nums" fontSize="xs">
                      <Text as="span">{row.view.price}</Text>
                      <Text as="span" color={row.view.direction === 'flat' ? 'fg.muted' : row.view.direction} minW="14" textAlign="end">
                        {row.view.changeText}
                      </Text>
                    </HStack>
                  </HStack>
                </RouterLink>
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
