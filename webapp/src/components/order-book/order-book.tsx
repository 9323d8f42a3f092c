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

import { Box, Flex, HStack, NativeSelect, Table, Text, chakra, type SystemStyleObject } from '@chakra-ui/react';
import type { TFunction } from 'i18next';
import { memo, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoinListEntry } from '../../api/generated/model';
import type { Direction } from '../../hooks/use-tick-direction';
import { useMarketDetail, useOrderBook } from '../../lib/live';
import { coreErrorText, formatOrderBook, formatPrice, isCoreError, type OrderBookRow } from '../../lib/wasm';
import { BlankRows, COMPACT_TABLE, CompactHeader } from '../compact-table';
import { decimalsOf, tickChoices } from './ticks';

/** The height of a level whose price is a button: WCAG 2.2's minimum target size (24 px). */
const TARGET_ROW_HEIGHT = '6';

/**
 * A side's table (see `compact-table`): the price column in the side's colour, the total muted, the
 * depth bar behind each level; with `pick`, each price a button and every row (blank ones included)
 * 24 px high, the smallest target WCAG 2.2 allows between neighbours (2.5.8).
 */
function sideTable(color: string, pick: boolean): SystemStyleObject {
  return {
    ...COMPACT_TABLE,
    '& tr[data-level] > td:first-of-type': { color, fontWeight: 'medium', ...(pick ? { py: '0' } : {}) },
    '& tr[data-level] > td:last-of-type': { color: 'fg.muted' },
    ...(pick
      ? {
          '& tbody > tr': { h: TARGET_ROW_HEIGHT },
          '& td > button': {
            font: 'inherit',
            color: 'inherit',
            minH: TARGET_ROW_HEIGHT,
            verticalAlign: 'middle',
            cursor: 'pointer',
            _hover: { textDecoration: 'underline' },
            _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px', rounded: 'sm' },
          },
        }
      : {}),
  };
}

/** The four tables: asks and bids, prices as buttons or not (objects made once: the styles are resolved once). */
const SIDE_TABLES = {
  ask: { plain: sideTable('down', false), pick: sideTable('down', true) },
  bid: { plain: sideTable('up', false), pick: sideTable('up', true) },
};

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
      ) : (
        // Both sides keep `rowCount` rows from the first paint (blank ones while the book loads or
        // runs short), so the panel never grows under what follows it (no layout shift).
        <Box opacity={book?.resyncing ? 0.6 : 1} transition="opacity 0.2s" aria-busy={!book || book.resyncing}>
          <BookSide label={t('market.book.asks')} rows={asks} rowCount={rowCount} pending={!book} side="ask" base={base} quote={quote} onPickPrice={onPickPrice} />
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
            {book ? (
              <Text as="span" fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
                {t('market.book.mark', { price: detail ? formatPrice(detail.markPrice, coin.pricePrecision) : '--' })}
              </Text>
            ) : (
              <Text as="span" role="status" fontSize="xs" color="fg.muted">
                {t('market.book.loading')}
              </Text>
            )}
          </Flex>
          <BookSide label={t('market.book.bids')} rows={bids} rowCount={rowCount} pending={!book} side="bid" base={base} quote={quote} onPickPrice={onPickPrice} />
        </Box>
      )}
    </Box>
  );
}

function BookSide({
  label,
  rows,
  rowCount,
  pending,
  side,
  base,
  quote,
  onPickPrice,
}: {
  label: string;
  rows: OrderBookRow[];
  /** The rows the side always takes (blank ones fill it up). */
  rowCount: number;
  /** The book has not arrived yet: blank rows only. */
  pending: boolean;
  side: 'bid' | 'ask';
  base: string;
  quote: string;
  onPickPrice?: (price: string) => void;
}) {
  const { t } = useTranslation();
  const blanks = rowCount - Math.max(rows.length, pending ? 0 : 1);
  const bar = side === 'bid' ? 'var(--chakra-colors-up-subtle, rgba(3, 135, 90, 0.12))' : 'var(--chakra-colors-down-subtle, rgba(217, 48, 79, 0.12))';
  return (
    <Table.Root size="sm" aria-label={label} variant="line" css={SIDE_TABLES[side][onPickPrice ? 'pick' : 'plain']}>
      <CompactHeader labels={[t('market.book.price', { quote }), t('market.book.amount', { base }), t('market.book.total', { quote })]} srOnly={side === 'bid'} />
      <Table.Body>
        {/* Asks run up from the mid price: their blank rows go on top. */}
        {side === 'ask' && <BlankRows count={blanks} columns={3} />}
        {rows.map((row) => (
          <BookRow key={row.price} price={row.price} quantity={row.quantity} total={row.total} depth={row.depth} bar={bar} t={t} onPickPrice={onPickPrice} />
        ))}
        {rows.length === 0 && !pending && (
          <tr>
            <td colSpan={3} data-note="">
              {t('market.book.empty')}
            </td>
          </tr>
        )}
        {side === 'bid' && <BlankRows count={blanks} columns={3} />}
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
  bar,
  t,
  onPickPrice,
}: {
  price: string;
  quantity: string;
  total: string;
  depth: string;
  bar: string;
  t: TFunction;
  onPickPrice?: (price: string) => void;
}) {
  // Plain elements styled by the side's table (see `compact-table`).
  return (
    <tr data-level="" style={{ backgroundImage: `linear-gradient(to left, ${bar} ${depth}%, transparent ${depth}%)` }}>
      <td>
        {onPickPrice ? (
          <button type="button" aria-label={t('trade.book.usePrice', { price })} onClick={() => onPickPrice(plainPrice(price))}>
            {price}
          </button>
        ) : (
          price
        )}
      </td>
      <td>{quantity}</td>
      <td>{total}</td>
    </tr>
  );
});
