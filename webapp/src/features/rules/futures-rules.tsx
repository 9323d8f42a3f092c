/**
 * modelType 8: the USDT-M futures rules, as the backend applies them (docs/api.md "USDT-M futures"):
 * what a perpetual is here (one-way positions, the house as counterparty, USDT margin), the
 * maintenance margin tiers of each contract with their maximum leverage and rate, the fees, the
 * mark price, the funding rule with the live rate, interval and next funding of the chosen contract
 * (`contract/coin/fundingInfo`), and the liquidation rule. The tier tables and fee rates are the
 * default configuration's (`lib/futures-rules.ts`: the API does not publish them).
 *
 * @module
 */

import { Box, Field, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetCoinList } from '../../api/generated/common/common';
import { useGetFuturesFundingInfo } from '../../api/generated/futures/futures';
import { DataTable, NumberCell } from '../../components/data-table';
import { pairName } from '../../hooks/use-market-rows';
import { useSecurityFundPercent } from '../../hooks/use-settings';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { SILENT } from '../../lib/api-calls';
import { marginTiers, useContractRules } from '../../hooks/use-contract-rules';
import { formatQuantity } from '../../lib/wasm';
import { FUTURES_TRADE_PATH } from './links';
import { fractionToPercent } from './lib/percent';
import { Para, Points, Section, TopicLinks } from './topic-parts';

function percent(rate: string): string {
  const value = fractionToPercent(rate.replace(/^-/, ''));
  return value === null ? rate : `${rate.startsWith('-') ? '-' : ''}${value}%`;
}

function TiersTable({ symbol, pair }: { symbol: string; pair: string }) {
  const { t } = useTranslation();
  const rules = useContractRules(symbol);
  const tiers = useMemo(() => marginTiers(rules), [rules]);
  const columns = [
    { key: 'tier', label: t('rules.futures.table.tier') },
    { key: 'notional', label: t('rules.futures.table.notional'), end: true },
    { key: 'leverage', label: t('rules.futures.table.maxLeverage'), end: true },
    { key: 'mmr', label: t('rules.futures.table.mmr'), end: true },
    { key: 'cum', label: t('rules.futures.table.cum'), end: true },
  ];
  return (
    <Box borderWidth="1px" rounded="xl" overflow="hidden" bg="bg.panel">
      <DataTable label={t('rules.futures.table.caption', { pair })} columns={columns}>
        {tiers.map((tier, index) => (
          <Table.Row key={tier.notionalFloor}>
            <Table.Cell ps="4">{index + 1}</Table.Cell>
            <NumberCell whiteSpace="nowrap">{`${formatQuantity(tier.notionalFloor, 0)} – ${formatQuantity(tier.notionalCap, 0)}`}</NumberCell>
            <NumberCell>{`${tier.maxLeverage}x`}</NumberCell>
            <NumberCell>{percent(tier.mmr)}</NumberCell>
            <NumberCell pe="4">{formatQuantity(tier.cum, 0)}</NumberCell>
          </Table.Row>
        ))}
      </DataTable>
    </Box>
  );
}

function FundingNow({ symbol, pair }: { symbol: string; pair: string }) {
  const { t } = useTranslation();
  const time = useDateTimeFormatter();
  const info = useGetFuturesFundingInfo({ symbol }, { request: SILENT }).data;
  if (!info) return null;
  return (
    <Text fontSize="sm" role="status">
      {t('rules.futures.fundingNow', {
        pair,
        rate: percent(info.fundingRate),
        hours: info.intervalSecs / 3600,
        next: time(info.nextFundingTime),
      })}
    </Text>
  );
}

export function FuturesRules() {
  const { t } = useTranslation();
  const fund = useSecurityFundPercent();
  const contracts = useGetCoinList().data?.contractList ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const symbol = chosen ?? contracts[0]?.symbol ?? 'btcusdt';
  const coin = contracts.find((c) => c.symbol === symbol);
  const pair = coin ? pairName(coin) : symbol.toUpperCase();
  const rules = useContractRules(symbol);
  return (
    <Stack gap="7">
      <Para>{t('rules.futures.intro')}</Para>
      <Section title={t('rules.futures.tiersTitle')}>
        <Para>{t('rules.futures.tiersBody')}</Para>
        {contracts.length > 0 && (
          <Field.Root maxW="xs">
            <Field.Label fontSize="sm">{t('rules.futures.contract')}</Field.Label>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field value={symbol} onChange={(event) => setChosen(event.currentTarget.value)}>
                {contracts.map((c) => (
                  <option key={c.symbol} value={c.symbol}>
                    {pairName(c)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        )}
        <TiersTable symbol={symbol} pair={pair} />
      </Section>
      <Section title={t('rules.futures.feesTitle')}>
        {rules && <Para>{t('rules.futures.fees', { maker: percent(rules.makerFeeRate), taker: percent(rules.takerFeeRate), fund })}</Para>}
      </Section>
      <Section title={t('rules.futures.markTitle')}>
        <Para>{t('rules.futures.mark')}</Para>
      </Section>
      <Section title={t('rules.futures.fundingTitle')}>
        {rules && <Para>{t('rules.futures.funding', { interest: percent(rules.fundingInterest), cap: percent(rules.fundingCap) })}</Para>}
        <FundingNow symbol={symbol} pair={pair} />
      </Section>
      <Section title={t('rules.futures.liquidationTitle')}>
        <Points items={[t('rules.futures.liquidationWhen'), t('rules.futures.liquidationIsolated'), t('rules.futures.liquidationCross'), t('rules.futures.liquidationFund')]} />
      </Section>
      <Section title={t('rules.futures.ordersTitle')}>
        <Points items={[t('rules.futures.ordersMarket'), t('rules.futures.ordersLimit'), t('rules.futures.ordersTriggers'), t('rules.futures.ordersModes')]} />
      </Section>
      <TopicLinks links={[{ label: t('rules.links.tradeFutures'), to: FUTURES_TRADE_PATH }]} />
    </Stack>
  );
}
