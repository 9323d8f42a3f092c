/**
 * The cells every market table shares: the pair (a row header with the coin's logo), the last
 * price, the 24h change and the Trade action. One place, so the home table and the markets page
 * show a pair the same way.
 *
 * @module
 */

import { Button, HStack, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { MarketRow } from '../hooks/use-market-rows';
import { ChangePill, PairLabel } from './change-pill';
import { CoinLogo } from './coin-logo';

/** The row header: the coin's logo and the pair's name. */
export function PairCell({ row, ps }: { row: MarketRow; ps?: string }) {
  return (
    <Table.Cell as="th" scope="row" ps={ps} fontWeight="inherit" textAlign="start">
      <HStack gap="3">
        <CoinLogo src={row.coin.logo} coin={row.coin.coin} />
        <Text as="span" fontWeight="semibold">
          <PairLabel pair={row.pair} />
        </Text>
      </HStack>
    </Table.Cell>
  );
}

/** The last price and the 24h change, both formatted by wasm-core. */
export function PriceChangeCells({ row }: { row: MarketRow }) {
  return (
    <>
      <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums" fontWeight="medium">
        {row.view.price}
      </Table.Cell>
      <Table.Cell textAlign="end">
        <ChangePill view={row.view} />
      </Table.Cell>
    </>
  );
}

/** The Trade action, leading to the pair's trade page (`type` bb for spot, usta for futures). */
export function TradeCell({ row, type = 'bb' }: { row: MarketRow; type?: 'bb' | 'usta' | 'seconds' }) {
  const { t } = useTranslation();
  return (
    <Table.Cell textAlign="end" pe="5">
      <Button asChild size="xs" variant="outline" colorPalette="brand">
        <RouterLink
          to={`/trade/index?type=${type}&symbol=${encodeURIComponent(row.coin.symbol)}`}
          aria-label={t('home.tradePair', { pair: row.pair })}
        >
          {t('home.trade')}
        </RouterLink>
      </Button>
    </Table.Cell>
  );
}
