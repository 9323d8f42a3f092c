//! The market screen's header: the pair (with a menu of every listed pair), its last price and the
//! 24h statistics from the `ticker` channel, the mark and index prices from `DETAIL`, and the live
//! feed's status, and the star that makes the pair a favourite. Every figure is a decimal string
//! formatted by wasm-core.

import { Box, Button, Flex, Heading, HStack, Menu, Portal, Stack, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { CoinListEntry } from '../../api/generated/model';
import { CoinLogo } from '../../components/coin-logo';
import { FavouriteStar } from '../../components/favourite-star';
import { FeedStatusBadge } from '../../components/feed-status';
import { ChevronDownIcon } from '../../components/icons';
import { favouriteId } from '../../hooks/use-favourites';
import type { MarketRow } from '../../hooks/use-market-rows';
import type { FeedStatus, MarketDetail, Ticker } from '../../lib/live';
import { formatCompact, formatPercent, formatPrice } from '../../lib/wasm';

type Direction = 'up' | 'down' | 'flat';

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

function changeDirection(percent: string | undefined | null): Direction {
  if (!percent || /^[+-]?0*(\.0*)?$/.test(percent)) return 'flat';
  return percent.startsWith('-') ? 'down' : 'up';
}

export function MarketHeader({ coin, pair, rows, ticker, detail, lastPrice, direction, status }: MarketHeaderProps) {
  const { t } = useTranslation();
  const captionId = useId();
  const precision = coin.pricePrecision;
  const price = (value: string | null | undefined) => (value ? formatPrice(value, precision) : '--');
  const base = coin.coin.toUpperCase();
  const quote = coin.baseCoin.toUpperCase();
  const changeDir = changeDirection(ticker?.priceChangePercent);
  const stats: Array<{ key: string; label: string; value: string; color?: string }> = [
    {
      key: 'change',
      label: t('market.stats.change'),
      value: ticker ? `${price(ticker.change)} ${formatPercent(ticker.priceChangePercent)}` : '--',
      color: changeDir === 'flat' ? undefined : changeDir,
    },
    { key: 'high', label: t('market.stats.high'), value: price(ticker?.high) },
    { key: 'low', label: t('market.stats.low'), value: price(ticker?.low) },
    { key: 'volume', label: t('market.stats.volume', { coin: base }), value: ticker ? formatCompact(ticker.volume) : '--' },
    { key: 'turnover', label: t('market.stats.turnover', { coin: quote }), value: ticker ? formatCompact(ticker.quoteVolume) : '--' },
    { key: 'mark', label: t('market.stats.mark'), value: price(detail?.markPrice) },
    { key: 'index', label: t('market.stats.index'), value: price(detail?.indexPrice) },
  ];

  return (
    <Flex
      borderWidth="1px"
      rounded="xl"
      bg="bg.panel"
      px={{ base: '3', md: '4' }}
      py="3"
      gap={{ base: '3', lg: '6' }}
      align={{ base: 'stretch', lg: 'center' }}
      direction={{ base: 'column', lg: 'row' }}
    >
      <HStack gap="3" flexShrink={0} justify="space-between">
        <HStack gap="2.5">
          <CoinLogo src={coin.logo} coin={coin.coin} size="8" />
          <Heading as="h1" fontSize="xl" letterSpacing="-0.01em" whiteSpace="nowrap">
            {pair}
          </Heading>
          <FavouriteStar id={favouriteId('spot', coin.symbol)} pair={pair} />
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
        </HStack>
        <Box display={{ base: 'block', lg: 'none' }}>
          <FeedStatusBadge status={status} compact />
        </Box>
      </HStack>

      <Stack gap="0" flexShrink={0} minW="0">
        <Box
          role="group"
          aria-labelledby={captionId}
          fontSize="2xl"
          fontWeight="bold"
          lineHeight="1.1"
          fontVariantNumeric="tabular-nums"
          color={direction === 'flat' ? 'fg' : direction}
        >
          {price(lastPrice)}
        </Box>
        <Text as="span" id={captionId} fontSize="xs" color="fg.muted">
          {t('market.lastPrice')}
        </Text>
      </Stack>

      <Box
        as="dl"
        display="grid"
        gridTemplateColumns={{ base: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))', xl: 'repeat(7, auto)' }}
        columnGap={{ base: '4', xl: '6' }}
        rowGap="2"
        flex="1"
        minW="0"
      >
        {stats.map((stat) => (
          <Box key={stat.key} minW="0">
            <Text as="dt" fontSize="xs" color="fg.muted" whiteSpace="nowrap" overflow="hidden" textOverflow="ellipsis">
              {stat.label}
            </Text>
            <Text as="dd" fontSize="sm" fontWeight="medium" fontVariantNumeric="tabular-nums" color={stat.color} whiteSpace="nowrap">
              {stat.value}
            </Text>
          </Box>
        ))}
      </Box>
      <Box display={{ base: 'none', lg: 'block' }} flexShrink={0}>
        <FeedStatusBadge status={status} />
      </Box>
    </Flex>
  );
}
