/**
 * The pair's recent trades from the market channel (`useTrades`), newest first, formatted by
 * wasm-core in one `formatTrades` call per frame: price coloured by the taker's side (with the side
 * also in words for screen readers), amount and time of day in the platform's time zone.
 * Shared by the market and trade screens.
 *
 * @module
 */

import { Box, Flex, Table, Text, type SystemStyleObject } from '@chakra-ui/react';
import { memo, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoinListEntry } from '../api/generated/model';
import { useTrades } from '../lib/live';
import { BlankRows, COMPACT_TABLE, CompactHeader } from './compact-table';
import { formatTrades, type TradeView } from '../lib/wasm';

/** Trades shown. */
export const TRADE_ROWS = 26;

/** The table (see `compact-table`): the price in the taker's side's colour, the time muted. */
const TRADES_TABLE: SystemStyleObject = {
  ...COMPACT_TABLE,
  '& tr[data-side] > td:first-of-type': { fontWeight: 'medium' },
  '& tr[data-side="buy"] > td:first-of-type': { color: 'up' },
  '& tr[data-side="sell"] > td:first-of-type': { color: 'down' },
  '& tr[data-side] > td:last-of-type': { color: 'fg.muted' },
};

export const RecentTrades = memo(function RecentTrades({ coin, offsetMinutes, rows: rowCount = TRADE_ROWS }: { coin: CoinListEntry; offsetMinutes: number; rows?: number }) {
  const { t } = useTranslation();
  const trades = useTrades(coin.symbol);
  const headingId = useId();
  const rows = useMemo((): Array<TradeView & { id: number; side: 'buy' | 'sell' }> => {
    const shown = trades.slice(0, rowCount);
    try {
      const views = formatTrades(
        shown.map((trade) => ({ price: trade.price, quantity: trade.quantity, time: trade.ts, side: trade.side })),
        { pricePrecision: coin.pricePrecision, quantityPrecision: coin.quantityPrecision },
        offsetMinutes,
      );
      return views.map((view, index) => ({ ...view, id: shown[index]!.id, side: shown[index]!.side }));
    } catch (error) {
      console.error('formatTrades failed', error);
      return [];
    }
  }, [trades, coin.pricePrecision, coin.quantityPrecision, offsetMinutes, rowCount]);

  const base = coin.coin.toUpperCase();
  const quote = coin.baseCoin.toUpperCase();
  const buyText = t('market.trades.buy');
  const sellText = t('market.trades.sell');
  return (
    // Focusable: the list runs longer than the panel shows, and keyboard users reach it too.
    <Box as="section" aria-labelledby={headingId} borderWidth="1px" rounded="xl" bg="bg.panel" overflow="hidden" minW="0" tabIndex={0} _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing' }}>
      <Flex px="3" py="2" align="center" minH="10" borderBottomWidth="1px">
        <Text as="h2" id={headingId} fontSize="sm" fontWeight="semibold">
          {t('market.trades.title')}
        </Text>
      </Flex>
      {/* The table keeps `rowCount` rows from the first paint (blank ones until the trades arrive),
          so the panel never grows under what follows it (no layout shift). */}
      <Table.Root size="sm" aria-labelledby={headingId} aria-busy={rows.length === 0} css={TRADES_TABLE}>
        <CompactHeader labels={[t('market.book.price', { quote }), t('market.book.amount', { base }), t('market.trades.time')]} />
        <Table.Body>
          {rows.length === 0 && (
            <tr>
              <td colSpan={3} data-note="">
                <span role="status">{t('market.trades.loading')}</span>
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <TradeRow key={row.id} price={row.price} quantity={row.quantity} time={row.time} side={row.side} sideText={row.side === 'buy' ? buyText : sellText} />
          ))}
          <BlankRows count={rowCount - Math.max(rows.length, 1)} columns={3} />
        </Table.Body>
      </Table.Root>
    </Box>
  );
});

/**
 * One trade (memoised: a new trade renders one row; the others keep theirs, keyed by trade id). Plain
 * elements styled by the table (see `compact-table`); the side in words for screen readers.
 */
const TradeRow = memo(function TradeRow({ price, quantity, time, side, sideText }: { price: string; quantity: string; time: string; side: 'buy' | 'sell'; sideText: string }) {
  return (
    <tr data-side={side}>
      <td>
        {price}
        <span data-sr-only=""> {sideText}</span>
      </td>
      <td>{quantity}</td>
      <td>{time}</td>
    </tr>
  );
});
