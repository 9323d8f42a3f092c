//! The trade screen's header: the pair (with its favourite star), the last price coloured by its
//! last move, and the 24h change, high, low, volume and turnover of the live ticker, with the feed's
//! status. Every figure is a decimal string formatted by wasm-core.

import { Box, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoinListEntry } from '../../api/generated/model';
import { CoinLogo } from '../../components/coin-logo';
import { FavouriteStar } from '../../components/favourite-star';
import { FeedStatusBadge } from '../../components/feed-status';
import { favouriteId } from '../../hooks/use-favourites';
import type { FeedStatus, Ticker } from '../../lib/live';
import { formatCompact, formatPercent, formatPrice } from '../../lib/wasm';
import type { Direction } from './lib/use-tick-direction';

function changeDirection(percent: string | undefined | null): Direction {
  if (!percent || /^[+-]?0*(\.0*)?$/.test(percent)) return 'flat';
  return percent.startsWith('-') ? 'down' : 'up';
}

/** A wasm-core formatter that shows `--` for a missing or unreadable value. */
function safe(format: (value: string) => string, value: string | null | undefined): string {
  if (!value) return '--';
  try {
    return format(value);
  } catch {
    return '--';
  }
}

export function PairHeader({
  coin,
  pair,
  ticker,
  lastPrice,
  direction,
  status,
}: {
  coin: CoinListEntry;
  pair: string;
  ticker: Ticker | undefined;
  lastPrice: string | null;
  direction: Direction;
  status: FeedStatus;
}) {
  const { t } = useTranslation();
  const captionId = useId();
  const price = (value: string | null | undefined) => safe((v) => formatPrice(v, coin.pricePrecision), value);
  const base = coin.coin.toUpperCase();
  const quote = coin.baseCoin.toUpperCase();
  const changeDir = changeDirection(ticker?.priceChangePercent);
  const stats: Array<{ key: string; label: string; value: string; color?: string }> = [
    {
      key: 'change',
      label: t('trade.header.change'),
      value: ticker ? `${price(ticker.change)} ${formatPercent(ticker.priceChangePercent)}` : '--',
      color: changeDir === 'flat' ? undefined : changeDir,
    },
    { key: 'high', label: t('trade.header.high'), value: price(ticker?.high) },
    { key: 'low', label: t('trade.header.low'), value: price(ticker?.low) },
    { key: 'volume', label: t('trade.header.volume', { coin: base }), value: safe(formatCompact, ticker?.volume) },
    { key: 'turnover', label: t('trade.header.turnover', { coin: quote }), value: safe(formatCompact, ticker?.quoteVolume) },
  ];

  return (
    <Flex
      as="header"
      borderWidth="1px"
      rounded="xl"
      bg="bg.panel"
      px={{ base: '3', md: '4' }}
      py="2.5"
      gap={{ base: '3', lg: '6' }}
      align={{ base: 'stretch', lg: 'center' }}
      direction={{ base: 'column', lg: 'row' }}
    >
      <HStack gap="3" flexShrink={0} justify="space-between">
        <HStack gap="2">
          <CoinLogo src={coin.logo} coin={coin.coin} size="7" />
          <Heading as="h1" fontSize="lg" letterSpacing="-0.01em" whiteSpace="nowrap">
            {pair}
          </Heading>
          <FavouriteStar id={favouriteId('spot', coin.symbol)} pair={pair} />
        </HStack>
        <Box display={{ base: 'block', lg: 'none' }}>
          <FeedStatusBadge status={status} compact />
        </Box>
      </HStack>

      <Stack gap="0" flexShrink={0} minW="0">
        <Box
          role="group"
          aria-labelledby={captionId}
          fontSize="xl"
          fontWeight="bold"
          lineHeight="1.1"
          fontVariantNumeric="tabular-nums"
          color={direction === 'flat' ? 'fg' : direction}
        >
          {price(lastPrice)}
        </Box>
        <Text as="span" id={captionId} fontSize="xs" color="fg.muted">
          {t('trade.header.lastPrice')}
        </Text>
      </Stack>

      <Box
        as="dl"
        display="grid"
        gridTemplateColumns={{ base: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', md: 'repeat(5, auto)' }}
        justifyContent={{ md: 'start' }}
        columnGap={{ base: '4', xl: '8' }}
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
