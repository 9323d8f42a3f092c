/**
 * The cumulative depth of the live book: bids as a rising area to the left of the spread, asks to
 * the right, each step a price level. wasm-core formats the book and its cumulative sizes; the
 * strings become JS numbers only here, to place the SVG points (the drawing boundary).
 *
 * @module
 */

import { Box, Flex, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoinListEntry } from '../../api/generated/model';
import { plainPrice } from '../../components/order-book';
import { useOrderBook } from '../../lib/live';
import { formatOrderBook, type OrderBookRow } from '../../lib/wasm';

/** Levels drawn per side. */
export const DEPTH_LEVELS = 60;
const WIDTH = 600;
const HEIGHT = 260;

interface Point {
  price: number;
  cumulative: number;
}

/** The drawable points of one side (best first), or `[]` for a side the core could not read. */
function points(rows: readonly OrderBookRow[]): Point[] {
  return rows
    .map((row) => ({ price: Number(plainPrice(row.price)), cumulative: Number(plainPrice(row.cumulative)) }))
    .filter((p) => Number.isFinite(p.price) && Number.isFinite(p.cumulative));
}

/** The closed step-area path of one side, best level at the spread, outwards from there. */
function areaPath(side: Point[], x: (price: number) => number, y: (size: number) => number): string {
  if (side.length === 0) return '';
  const first = side[0]!;
  let d = `M${x(first.price).toFixed(2)},${HEIGHT} L${x(first.price).toFixed(2)},${y(first.cumulative).toFixed(2)}`;
  for (let i = 1; i < side.length; i += 1) {
    const point = side[i]!;
    d += ` L${x(point.price).toFixed(2)},${y(side[i - 1]!.cumulative).toFixed(2)} L${x(point.price).toFixed(2)},${y(point.cumulative).toFixed(2)}`;
  }
  const last = side[side.length - 1]!;
  return `${d} L${x(last.price).toFixed(2)},${HEIGHT} Z`;
}

export function DepthChart({ coin, pair }: { coin: CoinListEntry; pair: string }) {
  const { t } = useTranslation();
  const book = useOrderBook(coin.symbol);
  const view = useMemo(() => {
    if (!book) return null;
    try {
      return formatOrderBook({
        bids: book.bids,
        asks: book.asks,
        tick: null,
        pricePrecision: coin.pricePrecision,
        quantityPrecision: coin.quantityPrecision,
        limit: DEPTH_LEVELS,
      });
    } catch (error) {
      console.error('formatOrderBook failed', error);
      return null;
    }
  }, [book, coin.pricePrecision, coin.quantityPrecision]);

  const base = coin.coin.toUpperCase();
  if (!view || (view.bids.length === 0 && view.asks.length === 0)) {
    return (
      <Flex role="status" flex="1" minH={`${HEIGHT}px`} align="center" justify="center" color="fg.muted" fontSize="sm">
        {t('trade.depth.empty')}
      </Flex>
    );
  }

  const bids = points(view.bids);
  const asks = points(view.asks);
  const prices = [...bids, ...asks].map((p) => p.price);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const top = Math.max(...bids.map((p) => p.cumulative), ...asks.map((p) => p.cumulative), 0) * 1.08 || 1;
  const span = high - low || 1;
  const x = (price: number) => ((price - low) / span) * WIDTH;
  const y = (size: number) => HEIGHT - (size / top) * HEIGHT;
  const maxBids = view.bids.at(-1)?.cumulative ?? '0';
  const maxAsks = view.asks.at(-1)?.cumulative ?? '0';
  const lowText = view.bids.at(-1)?.price ?? view.asks[0]?.price ?? '';
  const highText = view.asks.at(-1)?.price ?? view.bids[0]?.price ?? '';

  return (
    <Box px="3" py="2" flex="1" display="flex" flexDirection="column">
      {/* At least HEIGHT px high; taller when the panel around it is (the trade screen's band). */}
      <Box position="relative" flex="1" minH={`${HEIGHT}px`}>
        <svg
          role="img"
          aria-label={t('trade.depth.label', { pair, bids: maxBids, asks: maxAsks, base })}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          width="100%"
          height="100%"
          style={{ display: 'block', position: 'absolute', inset: 0 }}
        >
          <path d={areaPath(bids, x, y)} fill="var(--chakra-colors-up-subtle, rgba(3, 135, 90, 0.15))" stroke="var(--chakra-colors-up, #03875a)" strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
          <path d={areaPath(asks, x, y)} fill="var(--chakra-colors-down-subtle, rgba(217, 48, 79, 0.15))" stroke="var(--chakra-colors-down, #d9304f)" strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
        </svg>
        <Text position="absolute" top="1" left="1" fontSize="2xs" color="fg.muted" fontVariantNumeric="tabular-nums" aria-hidden="true">
          {t('trade.depth.bids')} {maxBids} {base}
        </Text>
        <Text position="absolute" top="1" right="1" fontSize="2xs" color="fg.muted" fontVariantNumeric="tabular-nums" aria-hidden="true">
          {t('trade.depth.asks')} {maxAsks} {base}
        </Text>
      </Box>
      <Flex justify="space-between" fontSize="2xs" color="fg.muted" fontVariantNumeric="tabular-nums" pt="1" aria-hidden="true">
        <Text as="span">{lowText}</Text>
        <Text as="span">
          {view.bids[0] && view.asks[0] ? t('trade.depth.spread', { bid: view.bids[0].price, ask: view.asks[0].price }) : ''}
        </Text>
        <Text as="span">{highText}</Text>
      </Flex>
    </Box>
  );
}
