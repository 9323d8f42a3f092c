/**
 * modelType 4: the seconds (flash) contract rules, as the backend applies them (docs/api.md
 * "Seconds contracts"): the periods with their payout rates and stake limits (a live table from
 * getSecondsConfig), the published settlement rule — opening tick, fixed expiry, settlement tick,
 * up/down/tie — and what a settlement record shows. When the operator switched the product off,
 * the topic says so.
 *
 * @module
 */

import { Box, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useGetSecondsConfig } from '../../api/generated/seconds-contracts/seconds-contracts';
import { DataTable, NumberCell } from '../../components/data-table';
import { formatQuantity } from '../../lib/wasm';
import { SECONDS_TRADE_PATH } from './links';
import { fractionToPercent } from './lib/percent';
import { Para, Points, Section, TopicLinks } from './topic-parts';

function PeriodsTable() {
  const { t } = useTranslation();
  const config = useGetSecondsConfig();
  const periods = config.data?.periods ?? [];
  const coin = (config.data?.stakeCoin ?? 'usdt').toUpperCase();
  const columns = [
    { key: 'period', label: t('rules.seconds.table.period') },
    { key: 'payout', label: t('rules.seconds.table.payout'), end: true },
    { key: 'min', label: t('rules.seconds.table.minStake', { coin }), end: true },
    { key: 'max', label: t('rules.seconds.table.maxStake', { coin }), end: true },
  ];
  return (
    <Box borderWidth="1px" rounded="xl" overflow="hidden" bg="bg.panel">
      <DataTable label={t('rules.seconds.table.caption')} columns={columns} busy={config.isPending}>
        {periods.map((period) => (
          <Table.Row key={period.seconds}>
            <Table.Cell ps="4">{t('rules.seconds.table.seconds', { seconds: period.seconds })}</Table.Cell>
            <NumberCell>{`${fractionToPercent(period.payoutRate) ?? period.payoutRate}%`}</NumberCell>
            <NumberCell>{formatQuantity(period.minStake, 0)}</NumberCell>
            <NumberCell pe="4">{formatQuantity(period.maxStake, 0)}</NumberCell>
          </Table.Row>
        ))}
        {config.isPending && (
          <Table.Row>
            <Table.Cell colSpan={columns.length} textAlign="center" py="6" color="fg.muted" fontSize="sm" role="status">
              <HStack justify="center">
                <Text as="span">{t('rules.table.loading')}</Text>
              </HStack>
            </Table.Cell>
          </Table.Row>
        )}
      </DataTable>
    </Box>
  );
}

export function SecondsRules() {
  const { t } = useTranslation();
  const config = useGetSecondsConfig();
  if (config.data && !config.data.enabled) {
    return (
      <Stack gap="7">
        <Para>{t('rules.seconds.disabled')}</Para>
      </Stack>
    );
  }
  return (
    <Stack gap="7">
      <Para>{t('rules.seconds.intro')}</Para>
      <Section title={t('rules.seconds.periodsTitle')}>
        <Para>{t('rules.seconds.periodsBody')}</Para>
        <PeriodsTable />
      </Section>
      <Section title={t('rules.seconds.ruleTitle')}>
        <Points
          ordered
          items={[t('rules.seconds.ruleOpen'), t('rules.seconds.ruleExpiry'), t('rules.seconds.ruleSettle'), t('rules.seconds.ruleResult'), t('rules.seconds.rulePayout')]}
        />
        <Para>{t('rules.seconds.ruleFair')}</Para>
      </Section>
      <Section title={t('rules.seconds.recordTitle')}>
        <Para>{t('rules.seconds.recordBody')}</Para>
      </Section>
      <TopicLinks links={[{ label: t('rules.links.tradeSeconds'), to: SECONDS_TRADE_PATH }]} />
    </Stack>
  );
}
