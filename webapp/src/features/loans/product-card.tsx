/**
 * One loan product as a card: coin, amount range, cycles, daily rate, repayment ways, lending
 * institution, minimum credit score and identity level, the overdue rule; for a member also the most
 * they may borrow now and why they may not apply yet.
 *
 * @module
 */

import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { LoanOffer, LoanProductView } from '../../api/generated/model';
import { blockerKey } from './lib/rules';
import { Row, coinAmount, dayPercent } from './parts';

/** A product's card; `offer` (a member's view) adds the personal limit and blockers, `onApply` the button. */
export function ProductCard({ product, offer, selected, onApply }: { product: LoanProductView; offer?: LoanOffer; selected?: boolean; onApply?: () => void }) {
  const { t } = useTranslation();
  const coin = product.coin.toUpperCase();
  return (
    <Stack
      as="article"
      aria-label={product.name}
      gap="3"
      borderWidth={selected ? '2px' : '1px'}
      borderColor={selected ? 'brand.solid' : undefined}
      rounded="xl"
      bg="bg.panel"
      p="4"
      minW="0"
    >
      <Flex justify="space-between" align="start" gap="2">
        <Text as="h3" fontWeight="semibold" overflowWrap="anywhere">
          {product.name}
        </Text>
        <Text fontSize="xs" fontWeight="semibold" color="fg.muted" whiteSpace="nowrap">
          {coin}
        </Text>
      </Flex>
      <Box as="dl">
        <Row label={t('loans.product.dayRate')} value={dayPercent(product.dayRate)} strong />
        <Row label={t('loans.product.amount')} value={t('loans.product.range', { min: coinAmount(product.minAmount, coin), max: coinAmount(product.maxAmount, coin) })} />
        <Row label={t('loans.product.cycles')} value={product.cycles.map((days) => t('loans.days', { days: days })).join(' · ')} />
        <Row label={t('loans.product.ways')} value={product.repayWays.map((way) => t(`loans.ways.${way}`, { defaultValue: way })).join(' · ')} />
        <Row label={t('loans.product.institution')} value={product.institution} />
        <Row label={t('loans.product.requires')} value={t('loans.product.requirement', { score: product.minCreditScore, level: t(`loans.kyc.${product.kycLevel}`) })} />
        <Row label={t('loans.product.overdue')} value={t('loans.product.overdueRule', { rate: dayPercent(product.penaltyDayRate), days: product.graceDays })} />
        {offer && <Row label={t('loans.product.yourMax')} value={coinAmount(offer.yourMaxAmount, coin)} strong />}
      </Box>
      {offer && !offer.eligible && (
        <Stack gap="0.5" role="note">
          {offer.blockers.map((code) => (
            <Text key={code} fontSize="sm" color="fg.error">
              {t(blockerKey(code))}
            </Text>
          ))}
        </Stack>
      )}
      {onApply && (
        <Button colorPalette="brand" variant={selected ? 'solid' : 'outline'} onClick={onApply} disabled={offer ? !offer.eligible : false}>
          {t('loans.product.apply')}
        </Button>
      )}
    </Stack>
  );
}
