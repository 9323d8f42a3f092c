/**
 * One earn product as a card: name, coin (and reward coin), state, the daily and the simple annual
 * rate, the term, the limits per subscription, a progress bar of the quota sold, the quota left,
 * the early-redemption rule, and the subscribe button — disabled, with the reason written under it,
 * when the product cannot be bought now.
 *
 * @module
 */

import { Badge, Box, Button, Flex, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ProductView } from '../../api/generated/model';
import { formatQuantity } from '../../lib/wasm';
import type { BlockReason } from './lib/availability';
import { ratePercents } from './lib/rates';
import { ruleOf, utcDay } from './lib/schedule';
import { Row, StatusBadge } from './parts';

/** `amount COIN` in wasm-core's quantity format. */
export function coinAmount(amount: string | null | undefined, coin: string): string {
  if (amount === null || amount === undefined) return '--';
  let text = amount;
  try {
    text = formatQuantity(amount);
  } catch {
    // An unformattable figure is shown as the server sent it.
  }
  return `${text} ${coin.toUpperCase()}`;
}

/** The words of why `product` cannot be bought. */
export function blockText(t: TFunction, reason: BlockReason, product: ProductView): string {
  return t(`earn.blocked.${reason}`, { date: `${utcDay(product.startTime)} UTC`, count: product.particLimitNum });
}

export function ProductCard({ product, block, href }: { product: ProductView; block: BlockReason | null; href: string }) {
  const { t } = useTranslation();
  const rates = ratePercents(product);
  const coin = product.coin.toUpperCase();
  const reasonId = `earn-product-${product.id}-reason`;
  const progress = Math.min(100, Math.max(0, Number(product.projectProgress) || 0));
  return (
    <Stack as="article" aria-labelledby={`earn-product-${product.id}`} gap="3" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
      <Flex justify="space-between" align="start" gap="2">
        <Stack gap="0.5" minW="0">
          <Text as="h2" id={`earn-product-${product.id}`} fontWeight="semibold" fontSize="md" overflowWrap="anywhere">
            {product.name}
          </Text>
          <HStack gap="1.5" wrap="wrap" fontSize="xs" color="fg.muted">
            <Text as="span">{t('earn.product.stake', { coin })}</Text>
            {product.rewardCoin.toLowerCase() !== product.coin.toLowerCase() && (
              <Text as="span">· {t('earn.product.rewardsIn', { coin: product.rewardCoin.toUpperCase() })}</Text>
            )}
            {product.vipOnly && (
              <Badge colorPalette="yellow" variant="solid" size="xs">
                {t('earn.product.vip')}
              </Badge>
            )}
          </HStack>
        </Stack>
        <StatusBadge status={product.status} />
      </Flex>

      <Flex gap="4" wrap="wrap">
        <Stack gap="0" minW="0">
          <Text fontSize="xs" color="fg.muted">
            {t('earn.product.dailyRate')}
          </Text>
          <Text fontSize="xl" fontWeight="bold" color="up" fontVariantNumeric="tabular-nums">
            {rates.daily}%
          </Text>
        </Stack>
        <Stack gap="0" minW="0">
          <Text fontSize="xs" color="fg.muted">
            {t('earn.product.apr')}
          </Text>
          <Text fontSize="xl" fontWeight="bold" fontVariantNumeric="tabular-nums">
            {rates.annual}%
          </Text>
        </Stack>
        <Stack gap="0" minW="0">
          <Text fontSize="xs" color="fg.muted">
            {t('earn.product.cycle')}
          </Text>
          <Text fontSize="xl" fontWeight="bold">
            {product.flexible ? t('earn.product.flexible') : t('earn.product.days', { days: product.lockDays })}
          </Text>
        </Stack>
      </Flex>

      <Box as="dl">
        <Row label={t('earn.product.limits')} value={t('earn.product.range', { min: formatQuantity(product.particAmount), max: formatQuantity(product.particLimitAmount), coin })} />
        <Row label={t('earn.product.remaining')} value={coinAmount(product.lastAmount, coin)} />
        <Row label={t('earn.product.dailyIncome', { coin })} value={coinAmount(product.averageDayIncome, product.rewardCoin)} />
      </Box>
      {(product.status === 'scheduled' || product.status === 'open') && (
        <Text fontSize="xs" color="fg.muted">
          {product.status === 'scheduled'
            ? t('earn.product.opens', { date: `${utcDay(product.startTime)} UTC` })
            : t('earn.product.closes', { date: `${utcDay(product.endTime)} UTC` })}
        </Text>
      )}

      <Stack gap="1">
        <Progress.Root value={progress} size="sm" colorPalette="brand" aria-label={t('earn.product.progress')}>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
        <Text fontSize="xs" color="fg.muted">
          {t('earn.product.progressValue', { percent: product.projectProgress })}
        </Text>
      </Stack>

      <Text fontSize="xs" color="fg.muted">
        {t(`earn.rule.${ruleOf(product)}`)}
      </Text>

      {block ? (
        <Stack gap="1">
          <Button disabled aria-describedby={reasonId} w="full">
            {t('earn.product.subscribe')}
          </Button>
          <Text id={reasonId} fontSize="xs" color="fg.error">
            {blockText(t, block, product)}
          </Text>
        </Stack>
      ) : (
        <Button asChild colorPalette="brand" w="full">
          <RouterLink to={href}>{t('earn.product.subscribe')}</RouterLink>
        </Button>
      )}
      <Text fontSize="2xs" color="fg.subtle">
        {t('earn.product.aprNote')}
      </Text>
    </Stack>
  );
}
