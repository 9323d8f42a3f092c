/**
 * The full coin table of the home page: pair, last price, 24h change and a Trade link.
 *
 * From `md` up the pair, price and change columns have fixed widths that fit their content, so a
 * row's figures sit next to its pair however wide the page is; the Action column takes the rest
 * and keeps the Trade button at the row's end. Below `md` every column is as wide as its content
 * and the table scrolls inside its frame when the screen is narrower.
 *
 * @module
 */

import { Table } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PairCell, PriceChangeCells, TradeCell } from '../../components/market-cells';
import type { MarketRow } from '../../hooks/use-market-rows';

export function CoinTable({ rows, labelledBy, query }: { rows: MarketRow[]; labelledBy: string; query: string }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollArea borderWidth="1px" rounded="xl" bg="bg.panel">
      <Table.Root size="md" interactive aria-labelledby={labelledBy}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader color="fg.muted" fontWeight="medium" ps="5" w={{ md: '16rem' }}>
              {t('home.colPair')}
            </Table.ColumnHeader>
            <Table.ColumnHeader color="fg.muted" fontWeight="medium" textAlign="end" w={{ md: '10rem' }} whiteSpace="nowrap">
              {t('home.colPrice')}
            </Table.ColumnHeader>
            <Table.ColumnHeader color="fg.muted" fontWeight="medium" textAlign="end" w={{ md: '10rem' }} whiteSpace="nowrap">
              {t('home.colChange')}
            </Table.ColumnHeader>
            <Table.ColumnHeader color="fg.muted" fontWeight="medium" textAlign="end" pe="5">
              {t('home.colAction')}
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.coin.symbol}>
              <PairCell row={row} ps="5" />
              <PriceChangeCells row={row} />
              <TradeCell row={row} />
            </Table.Row>
          ))}
          {rows.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={4} textAlign="center" py="10" color="fg.muted">
                {query ? t('home.noResults', { query }) : t('home.noCoins')}
              </Table.Cell>
            </Table.Row>
          )}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
