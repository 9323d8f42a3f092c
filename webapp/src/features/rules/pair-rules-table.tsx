/**
 * The live table of every spot pair's order rules, straight from getCoinList's `currencyList`: price
 * tick, quantity step and minimum order value (the rules the order form and the server check), and
 * the maker and taker fee rates. `fees` shows the fee columns only.
 *
 * @module
 */

import { Box, Button, HStack, Table, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetCoinList } from '../../api/generated/common/common';
import { DataTable, NumberCell } from '../../components/data-table';
import { pairName } from '../../hooks/use-market-rows';
import { fractionToPercent } from './lib/percent';

/** A rate as `0.1%` (the raw value when it is no decimal). */
function percent(rate: string): string {
  const value = fractionToPercent(rate);
  return value === null ? rate : `${value}%`;
}

export function PairRulesTable({ variant = 'rules' }: { variant?: 'rules' | 'fees' }) {
  const { t } = useTranslation();
  const coinList = useGetCoinList();
  const pairs = useMemo(
    () => [...(coinList.data?.currencyList ?? [])].sort((a, b) => a.sort - b.sort || a.symbol.localeCompare(b.symbol)),
    [coinList.data],
  );
  const rules = variant === 'rules';
  const columns = [
    { key: 'pair', label: t('rules.table.pair') },
    ...(rules
      ? [
          { key: 'tick', label: t('rules.table.tick'), end: true },
          { key: 'step', label: t('rules.table.step'), end: true },
          { key: 'min', label: t('rules.table.minNotional'), end: true },
        ]
      : []),
    { key: 'maker', label: t('rules.table.maker'), end: true },
    { key: 'taker', label: t('rules.table.taker'), end: true },
  ];
  const message = (text: string, role?: 'status' | 'alert', retry = false) => (
    <Table.Row>
      <Table.Cell colSpan={columns.length} textAlign="center" py="6" color="fg.muted" fontSize="sm" role={role}>
        <HStack justify="center" gap="3">
          <Text as="span">{text}</Text>
          {retry && (
            <Button size="xs" variant="outline" onClick={() => void coinList.refetch()}>
              {t('rules.table.retry')}
            </Button>
          )}
        </HStack>
      </Table.Cell>
    </Table.Row>
  );

  return (
    <Box borderWidth="1px" rounded="xl" overflow="hidden" bg="bg.panel">
      <DataTable label={t(rules ? 'rules.table.caption' : 'rules.table.feesCaption')} columns={columns}>
        {pairs.map((coin) => {
          const base = coin.coin.toUpperCase();
          const quote = coin.baseCoin.toUpperCase();
          return (
            <Table.Row key={coin.symbol}>
              <Table.Cell ps="4" fontWeight="medium">
                {pairName(coin)}
              </Table.Cell>
              {rules && (
                <>
                  <NumberCell>{`${coin.tickSize} ${quote}`}</NumberCell>
                  <NumberCell>{`${coin.stepSize} ${base}`}</NumberCell>
                  <NumberCell>{`${coin.minNotional} ${quote}`}</NumberCell>
                </>
              )}
              <NumberCell>{percent(coin.makerFeeRate)}</NumberCell>
              <NumberCell pe="4">{percent(coin.takerFeeRate)}</NumberCell>
            </Table.Row>
          );
        })}
        {pairs.length === 0 &&
          (coinList.isPending
            ? message(t('rules.table.loading'), 'status')
            : coinList.isError
              ? message(t('rules.table.failed'), 'alert', true)
              : message(t('rules.table.empty')))}
      </DataTable>
    </Box>
  );
}
