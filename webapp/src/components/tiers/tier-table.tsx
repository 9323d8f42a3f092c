/**
 * The published tier table (`GET /api/tiers/table`), shown to users in the account centre's tier
 * tab and to operators in /admin's read-only tiers view: the account tiers with their minimum
 * deposits in USD (the reader's own tier marked), and the VIP rules — the 30-day volume or the
 * assets that make a user VIP, and the fee discount VIPs get. Texts of the `tiers` area.
 *
 * @module
 */

import { Badge, Box, Flex, Grid, Stack, Table, Text } from '@chakra-ui/react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TierTable } from '../../api/generated/model';
import { fractionPercent, isAccountTier } from '../../lib/tiers';
import { formatAmount } from '../../lib/wasm';

/** The name of an account tier in the reader's language (the raw value for one the webapp does not know). */
export function tierName(t: TFunction, tier: string): string {
  return isAccountTier(tier) ? t(`tiers.names.${tier}`) : tier;
}

/** The account tiers and their minimum deposits; `current` marks the reader's tier. */
export function AccountTierTable({ table, current }: { table: TierTable; current?: string }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg">
      <Table.Root size="sm" aria-label={t('tiers.table.accountTiers')}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader>{t('tiers.table.tier')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('tiers.table.minimumDeposit')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {table.accountTiers.map((row) => {
            const mine = row.tier === current;
            return (
              <Table.Row key={row.tier} bg={mine ? 'brand.subtle' : undefined} aria-current={mine ? 'true' : undefined}>
                <Table.Cell>
                  <Flex align="center" gap="2" wrap="wrap">
                    <Text as="span" fontWeight={mine ? 'semibold' : 'medium'}>
                      {tierName(t, row.tier)}
                    </Text>
                    {mine && (
                      <Badge colorPalette="brand" variant="solid" size="sm" rounded="full">
                        {t('tiers.table.yours')}
                      </Badge>
                    )}
                  </Flex>
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                  {t('tiers.usd', { amount: formatAmount(row.minimumDepositUsd) })}
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** A figure in a box: its label, the value in large tabular digits, and a hint under it. */
export function TierFigure({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <Stack gap="1" p="4" rounded="lg" borderWidth="1px" bg="bg.subtle" minW="0">
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="lg" fontWeight="semibold" fontVariantNumeric="tabular-nums" overflowWrap="anywhere">
        {value}
      </Text>
      <Text fontSize="xs" color="fg.muted">
        {hint}
      </Text>
    </Stack>
  );
}

/** The VIP rules: either threshold makes a user VIP; VIPs pay less for spot and futures trades. */
export function VipRules({ table }: { table: TierTable }) {
  const { t } = useTranslation();
  return (
    <Box role="group" aria-label={t('tiers.vip.title')}>
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' }} gap="3">
        <TierFigure label={t('tiers.vip.volume')} value={t('tiers.usdt', { amount: formatAmount(table.vipVolumeUsdt) })} hint={t('tiers.vip.volumeHint')} />
        <TierFigure label={t('tiers.vip.assets')} value={t('tiers.usdt', { amount: formatAmount(table.vipAssetsUsdt) })} hint={t('tiers.vip.assetsHint')} />
        <TierFigure label={t('tiers.vip.discount')} value={fractionPercent(table.vipFeeDiscount)} hint={t('tiers.vip.discountHint')} />
      </Grid>
    </Box>
  );
}
