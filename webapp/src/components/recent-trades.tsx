/**
 * The pair's recent trades from the market channel (`useTrades`), newest first, formatted by
 * wasm-core in one `formatTrades` call per frame: price coloured by the taker's side (with the side
 * also in words for screen readers), amount and time of day in the platform's time zone.
 * Shared by the market and trade screens.
 *
 * @module
 */

import { Box, Flex, Table, Text, chakra } from '@chakra-ui/react';
import { memo, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoinListEntry } from '../api/generated/model';
import { useTrades } from '../lib/live';
import { CompactCell, CompactHeader } from './compact-table';
import { formatTrades, type TradeView } from '../lib/wasm';

/** Trades shown. */
export const TRADE_ROWS = 26;

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
  return (
    // Focusable: the list runs longer than the panel shows, and keyboard users reach it too.
    <Box as="section" aria-labelledby={headingId} borderWidth="1px" rounded="xl" bg="bg.panel" overflow="hidden" minW="0" tabIndex={0} _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing' }}>
      <Flex px="3" py="2" align="center" minH="10" borderBottomWidth="1px">
        <Text as="h2" id={headingId} fontSize="sm" fontWeight="semibold">
          {t('market.trades.title')}
        </Text>
      </Flex>
      {rows.length === 0 ? (
        <Box role="status" p="6" textAlign="center" color="fg.muted" fontSize="sm">
          {t('market.trades.loading')}
        </Box>
      ) : (
        <Table.Root size="sm" aria-labelledby={headingId} css={{ '& td, & th': { borderBottomWidth: 0 } }}>
          <CompactHeader labels={[t('market.book.price', { quote }), t('market.book.amount', { base }), t('market.trades.time')]} />
          <Table.Body>
            {rows.map((row) => (
              <TradeRow key={row.id} price={row.price} quantity={row.quantity} time={row.time} side={row.side} />
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Box>
  );
});

/** One trade (memoised: a new trade renders one row; the others keep theirs, keyed by trade id). */
const TradeRow = memo(function TradeRow({ price, quantity, time, side }: { price: string; quantity: string; time: string; side: 'buy' | 'sell' }) {
  const { t } = useTranslation();
  return (
    <Table.Row bg="transparent">
      <CompactCell fontWeight="medium" color={side === 'buy' ? 'up' : 'down'}>
        {price}
        <chakra.span srOnly> {t(`market.trades.${side}`)}</chakra.span>
      </CompactCell>
      <CompactCell textAlign="end">{quantity}</CompactCell>
      <CompactCell textAlign="end" color="fg.muted">
        {time}
      </CompactCell>
    </Table.Row>
  );
});
