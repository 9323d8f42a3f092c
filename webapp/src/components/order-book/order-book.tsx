/**
 * The live order book: asks above (best at the bottom), the last and mark price between, bids below
 * (best at the top), each row with a depth bar of its cumulative size. The book comes from the
 * market channel (`useOrderBook`: snapshot + diffs, resynced on a gap) and is grouped to the
 * chosen tick and formatted by wasm-core in one `formatOrderBook` call per frame.
 *
 * Shared by the market screen and the trade screen; the trade screen passes `onPickPrice`, which
 * makes every level's price a button that hands the level's price (a plain decimal string) over.
 *
 * @module
 */

import { Box, Flex, HStack, NativeSelect, Table, Text, chakra } from '@chakra-ui/react';
import { memo, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoinListEntry } from '../../api/generated/model';
import type { Direction } from '../../hooks/use-tick-direction';
import { useMarketDetail, useOrderBook } from '../../lib/live';
import { coreErrorText, formatOrderBook, formatPrice, isCoreError, type OrderBookRow } from '../../lib/wasm';
import { CompactCell, CompactHeader } from '../compact-table';
import { decimalsOf, tickChoices } from './ticks';

/** Rows shown per side. */
export const BOOK_ROWS = 12;

/** A formatted price (`"67,012.35"`) as the plain decimal it stands for (`"67012.35"`). */
export function plainPrice(formatted: string): string {
  return formatted.replace(/,/g, '');
}

interface OrderBookPanelProps {
  coin: CoinListEntry;
  lastPrice: string | null;
  direction: Direction;
  /** Rows per side (12 by default). */
  rows?: number;
  /** How many grouping choices (the tick ×1, ×10, ×100, …) the selector offers. */
  groupingChoices?: number;
  /** Called with a level's price (plain decimal string) when it is chosen; makes prices buttons. */
  onPickPrice?: (price: string) => void;
}

export function OrderBookPanel({ coin, lastPrice, direction, rows: rowCount = BOOK_ROWS, groupingChoices, onPickPrice }: OrderBookPanelProps) {
  const { t } = useTranslation();
  const book = useOrderBook(coin.symbol);
  const detail = useMarketDetail(coin.symbol);
  const choices = useMemo(() => tickChoices(coin.tickSize, groupingChoices), [coin.tickSize, groupingChoices]);
  const [tick, setTick] = useState(choices[0] ?? '');
  const headingId = useId();
  const selectId = useId();

  const formatted = useMemo(() => {
    if (!book) return null;
    try {
      const view = formatOrderBook({
        bids: book.bids,
        asks: book.asks,
        tick: tick || null,
        pricePrecision: tick ? Math.min(coin.pricePrecision, decimalsOf(tick)) : coin.pricePrecision,
        quantityPrecision: coin.quantityPrecision,
        limit: rowCount,
      });
      return { view, error: null };
    } catch (error) {
      console.error('formatOrderBook failed', error);
      return { view: null, error };
    }
  }, [book, tick, coin.pricePrecision, coin.quantityPrecision, rowCount]);

  const base = coin.coin.toUpperCase();
  const quote = coin.baseCoin.toUpperCase();
  const asks = formatted?.view ? [...formatted.view.asks].reverse() : [];
  const bids = formatted?.view?.bids ?? [];

  return (
    <Box as="section" aria-labelledby={headingId} borderWidth="1px" rounded="xl" bg="bg.panel" overflow="hidden" minW="0">
      <Flex px="3" py="2" align="center" justify="space-between" gap="2" borderBottomWidth="1px">
        <Text as="h2" id={headingId} fontSize="sm" fontWeight="semibold">
          {t('market.book.title')}
        </Text>
        <HStack gap="1.5">
          <chakra.label htmlFor={selectId} fontSize="xs" color="fg.muted" whiteSpace="nowrap">
            {t('market.book.grouping')}
          </chakra.label>
          <NativeSelect.Root size="xs" width="auto">
            <NativeSelect.Field id={selectId} value={tick} onChange={(event) => setTick(event.currentTarget.value)} fontVariantNumeric="tabular-nums">
              {choices.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </HStack>
      </Flex>
      {formatted?.error != null ? (
        <Box role="alert" p="6" textAlign="center" color="fg.error" fontSize="sm">
          {isCoreError(formatted.error) ? coreErrorText(t, formatted.error) : t('errors.unknown')}
        </Box>
      ) : !book ? (
        <Box role="status" p="6" textAlign="center" color="fg.muted" fontSize="sm">
          {t('market.book.loading')}
        </Box>
      ) : (
        <Box opacity={book.resyncing ? 0.6 : 1} transition="opacity 0.2s" aria-busy={book.resyncing}>
          <BookSide label={t('market.book.asks')} rows={asks} side="ask" base={base} quote={quote} onPickPrice={onPickPrice} />
          <Flex px="3" py="2" align="baseline" justify="space-between" gap="2" borderYWidth="1px" bg="bg.subtle">
            <Text
              as="span"
              fontSize="lg"
              fontWeight="bold"
              fontVariantNumeric="tabular-nums"
              color={direction === 'flat' ? 'fg' : direction}
            >
              {lastPrice ? formatPrice(lastPrice, coin.pricePrecision) : '--'}
              <Box as="span" aria-hidden="true" fontSize="sm" ms="1">
                {direction === 'up' ? '↑' : direction === 'down' ? '↓' : ''}
              </Box>
            </Text>
            <Text as="span" fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
              {t('market.book.mark', { price: detail ? formatPrice(detail.markPrice, coin.pricePrecision) : '--' })}
            </Text>
          </Flex>
          <BookSide label={t('market.book.bids')} rows={bids} side="bid" base={base} quote={quote} onPickPrice={onPickPrice} />
        </Box>
      )}
    </Box>
  );
}

function BookSide({
  label,
  rows,
  side,
  base,
  quote,
  onPickPrice,
}: {
  label: string;
  rows: OrderBookRow[];
  side: 'bid' | 'ask';
  base: string;
  quote: string;
  onPickPrice?: (price: string) => void;
}) {
  const { t } = useTranslation();
  const color = side === 'bid' ? 'up' : 'down';
  const bar = side === 'bid' ? 'var(--chakra-colors-up-subtle, rgba(3, 135, 90, 0.12))' : 'var(--chakra-colors-down-subtle, rgba(217, 48, 79, 0.12))';
  return (
    <Table.Root size="sm" aria-label={label} variant="line" css={{ '& td, & th': { borderBottomWidth: 0 } }}>
      <CompactHeader labels={[t('market.book.price', { quote }), t('market.book.amount', { base }), t('market.book.total', { quote })]} srOnly={side === 'bid'} />
      <Table.Body>
        {rows.map((row) => (
          <BookRow key={row.price} price={row.price} quantity={row.quantity} total={row.total} depth={row.depth} color={color} bar={bar} onPickPrice={onPickPrice} />
        ))}
        {rows.length === 0 && (
          <Table.Row>
            <Table.Cell colSpan={3} textAlign="center" py="3" fontSize="xs" color="fg.muted">
              {t('market.book.empty')}
            </Table.Cell>
          </Table.Row>
        )}
      </Table.Body>
    </Table.Root>
  );
}

/**
 * One level (memoised: a book update re-renders only the levels whose figures changed; the key is
 * the level's formatted price).
 */
const BookRow = memo(function BookRow({
  price,
  quantity,
  total,
  depth,
  color,
  bar,
  onPickPrice,
}: {
  price: string;
  quantity: string;
  total: string;
  depth: string;
  color: string;
  bar: string;
  onPickPrice?: (price: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.Row
      bg="transparent"
      style={{ backgroundImage: `linear-gradient(to left, ${bar} ${depth}%, transparent ${depth}%)` }}
    >
      <CompactCell color={color} fontWeight="medium">
        {onPickPrice ? (
          <chakra.button
            type="button"
            font="inherit"
            color="inherit"
            cursor="pointer"
            _hover={{ textDecoration: 'underline' }}
            _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px', rounded: 'sm' }}
            aria-label={t('trade.book.usePrice', { price })}
            onClick={() => onPickPrice(plainPrice(price))}
          >
            {price}
          </chakra.button>
        ) : (
          price
        )}
      </CompactCell>
      <CompactCell textAlign="end">{quantity}</CompactCell>
      <CompactCell textAlign="end" color="fg.muted">
        {total}
      </CompactCell>
    </Table.Row>
  );
});
