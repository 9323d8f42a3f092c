//! The pair's recent trades from the market channel (`useTrades`), newest first, formatted by
//! wasm-core in one `formatTrades` call per frame: price coloured by the taker's side (with the side
//! also in words for screen readers), amount and time of day in the platform's time zone.
//! Shared by the market and trade screens.

import { Box, Flex, Table, Text, chakra } from '@chakra-ui/react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoinListEntry } from '../api/generated/model';
import { useTrades } from '../lib/live';
import { formatTrades, type TradeView } from '../lib/wasm';

/** Trades shown. */
export const TRADE_ROWS = 26;

export function RecentTrades({ coin, offsetMinutes, rows: rowCount = TRADE_ROWS }: { coin: CoinListEntry; offsetMinutes: number; rows?: number }) {
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
    <Box as="section" aria-labelledby={headingId} borderWidth="1px" rounded="xl" bg="bg.panel" overflow="hidden" minW="0">
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
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader fontSize="2xs" color="fg.muted" fontWeight="medium" py="1.5" px="3">
                {t('market.book.price', { quote })}
              </Table.ColumnHeader>
              <Table.ColumnHeader fontSize="2xs" color="fg.muted" fontWeight="medium" py="1.5" px="3" textAlign="end">
                {t('market.book.amount', { base })}
              </Table.ColumnHeader>
              <Table.ColumnHeader fontSize="2xs" color="fg.muted" fontWeight="medium" py="1.5" px="3" textAlign="end">
                {t('market.trades.time')}
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => (
              <Table.Row key={row.id} bg="transparent">
                <Table.Cell py="0.5" px="3" fontSize="xs" fontVariantNumeric="tabular-nums" fontWeight="medium" color={row.side === 'buy' ? 'up' : 'down'}>
                  {row.price}
                  <chakra.span srOnly> {t(`market.trades.${row.side}`)}</chakra.span>
                </Table.Cell>
                <Table.Cell py="0.5" px="3" fontSize="xs" fontVariantNumeric="tabular-nums" textAlign="end">
                  {row.quantity}
                </Table.Cell>
                <Table.Cell py="0.5" px="3" fontSize="xs" fontVariantNumeric="tabular-nums" textAlign="end" color="fg.muted">
                  {row.time}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Box>
  );
}
