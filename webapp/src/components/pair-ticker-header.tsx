/**
 * The header of a pair's screen (trade, market): the pair's logo, name and favourite star (and what
 * the screen puts beside them), the last price coloured by its last move, the live ticker's figures
 * as a description list, and the feed's status. Every figure is a decimal string formatted by
 * wasm-core; the screen names the figures in its own words.
 *
 * @module
 */

import { Box, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useId } from 'react';
import type { CoinListEntry } from '../api/generated/model';
import { favouriteId } from '../hooks/use-favourites';
import type { Direction } from '../hooks/use-tick-direction';
import type { FeedStatus, Ticker } from '../lib/live';
import { formatCompact, formatPercent, formatPrice, orDash } from '../lib/wasm';
import { CoinLogo } from './coin-logo';
import { FavouriteStar } from './favourite-star';
import { FeedStatusBadge } from './feed-status';

/** One figure of the header. */
export interface HeaderStat {
  key: string;
  label: string;
  value: string;
  /** `up` / `down` for a figure coloured by its sign. */
  color?: string;
}

/** A price of `coin` with its decimals; `--` for a missing or unreadable value. */
export function pairPrice(coin: CoinListEntry, value: string | null | undefined): string {
  return orDash((v) => formatPrice(v, coin.pricePrecision), value);
}

function changeDirection(percent: string | undefined | null): Direction {
  if (!percent || /^[+-]?0*(\.0*)?$/.test(percent)) return 'flat';
  return percent.startsWith('-') ? 'down' : 'up';
}

/** What the screen calls the 24h figures (volume in the base asset, turnover in the quote asset). */
export interface TickerLabels {
  change: string;
  high: string;
  low: string;
  volume: string;
  turnover: string;
}

/** The 24h change (coloured by its sign), high, low, volume and turnover of `ticker`. */
export function tickerStats(coin: CoinListEntry, ticker: Ticker | undefined, labels: TickerLabels): HeaderStat[] {
  const change = changeDirection(ticker?.priceChangePercent);
  return [
    {
      key: 'change',
      label: labels.change,
      value: ticker ? `${pairPrice(coin, ticker.change)} ${formatPercent(ticker.priceChangePercent)}` : '--',
      color: change === 'flat' ? undefined : change,
    },
    { key: 'high', label: labels.high, value: pairPrice(coin, ticker?.high) },
    { key: 'low', label: labels.low, value: pairPrice(coin, ticker?.low) },
    { key: 'volume', label: labels.volume, value: orDash(formatCompact, ticker?.volume) },
    { key: 'turnover', label: labels.turnover, value: orDash(formatCompact, ticker?.quoteVolume) },
  ];
}

/** `md`: the trade page's dense band of five figures; `lg`: the market page's roomier seven. */
const SIZES = {
  md: {
    py: '2.5',
    nameGap: '2',
    logo: '7',
    name: 'lg',
    price: 'xl',
    grid: { base: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', md: 'repeat(5, auto)' },
    justify: { md: 'start' },
    columnGap: { base: '4', xl: '8' },
  },
  lg: {
    py: '3',
    nameGap: '2.5',
    logo: '8',
    name: 'xl',
    price: '2xl',
    grid: { base: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))', xl: 'repeat(7, auto)' },
    justify: undefined,
    columnGap: { base: '4', xl: '6' },
  },
} as const;

export function PairTickerHeader({
  coin,
  pair,
  lastPrice,
  lastPriceLabel,
  direction,
  stats,
  status,
  size,
  as,
  beside,
}: {
  coin: CoinListEntry;
  pair: string;
  lastPrice: string | null;
  lastPriceLabel: string;
  direction: Direction;
  stats: HeaderStat[];
  status: FeedStatus;
  size: keyof typeof SIZES;
  /** `header` where the band is the screen's header element. */
  as?: 'header';
  /** Shown after the favourite star (the market page's pair menu). */
  beside?: ReactNode;
}) {
  const captionId = useId();
  const look = SIZES[size];
  return (
    <Flex
      as={as}
      borderWidth="1px"
      rounded="xl"
      bg="bg.panel"
      px={{ base: '3', md: '4' }}
      py={look.py}
      gap={{ base: '3', lg: '6' }}
      align={{ base: 'stretch', lg: 'center' }}
      direction={{ base: 'column', lg: 'row' }}
    >
      <HStack gap="3" flexShrink={0} justify="space-between">
        <HStack gap={look.nameGap}>
          <CoinLogo src={coin.logo} coin={coin.coin} size={look.logo} />
          <Heading as="h1" fontSize={look.name} letterSpacing="-0.01em" whiteSpace="nowrap">
            {pair}
          </Heading>
          <FavouriteStar id={favouriteId('spot', coin.symbol)} pair={pair} />
          {beside}
        </HStack>
        <Box display={{ base: 'block', lg: 'none' }}>
          <FeedStatusBadge status={status} compact />
        </Box>
      </HStack>

      <Stack gap="0" flexShrink={0} minW="0">
        <Box
          role="group"
          aria-labelledby={captionId}
          fontSize={look.price}
          fontWeight="bold"
          lineHeight="1.1"
          fontVariantNumeric="tabular-nums"
          color={direction === 'flat' ? 'fg' : direction}
        >
          {pairPrice(coin, lastPrice)}
        </Box>
        <Text as="span" id={captionId} fontSize="xs" color="fg.muted">
          {lastPriceLabel}
        </Text>
      </Stack>

      <Box
        as="dl"
        display="grid"
        gridTemplateColumns={look.grid}
        justifyContent={look.justify}
        columnGap={look.columnGap}
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
