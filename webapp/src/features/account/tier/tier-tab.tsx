/**
 * The tier tab (issue 26, `GET /api/tiers/mine`): the user's account tier (basic, starter,
 * advanced, premium) with a progress bar to the next one and what is still missing in USD, the VIP
 * status with the fee discount it brings, the figures the tiers come from (deposits valued in USD,
 * the 30-day trading volume, the assets) and when they were computed, the published table of
 * thresholds and discounts, and the merchant programme's state with the way to apply
 * (`GET /api/merchant/mine`).
 *
 * @module
 */

import { Alert, Badge, Button, Flex, Grid, Progress, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useMyMerchant } from '../../../api/generated/merchant/merchant';
import type { MyTiers } from '../../../api/generated/model';
import { useMyTiers } from '../../../api/generated/tiers/tiers';
import { AccountTierTable, TierFigure, VipRules, tierName } from '../../../components/tiers/tier-table';
import { fractionPercent, isAccountTier, missingToNext, progressValue } from '../../../lib/tiers';
import { formatAmount, formatBalance } from '../../../lib/wasm';
import { TabHeader } from '../account-layout';
import { AwardIcon, StoreIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { useDateTimeFormatter } from '../lib/format';
import { tabPath } from '../lib/tabs';

/** The tier's progress to the next one: the bar, its percent, and what is missing in USD. */
function TierProgress({ tiers }: { tiers: MyTiers }) {
  const { t } = useTranslation();
  const next = tiers.nextTier;
  if (!next) {
    return (
      <Alert.Root status="success" rounded="lg">
        <Alert.Indicator />
        <Alert.Title fontWeight="normal">{t('tiers.mine.top')}</Alert.Title>
      </Alert.Root>
    );
  }
  const missing = missingToNext(tiers.depositsUsd, tiers.nextMinimumUsd) ?? '0.00';
  const nextName = tierName(t, next);
  const reached = missing === '0.00';
  return (
    <Stack gap="2">
      <Flex justify="space-between" align="baseline" gap="3" wrap="wrap">
        <Text fontSize="sm" fontWeight="medium">
          {t('tiers.mine.progressTo', { tier: nextName })}
        </Text>
        <Text fontSize="sm" fontWeight="semibold" fontVariantNumeric="tabular-nums">
          {`${tiers.progressPercent}%`}
        </Text>
      </Flex>
      <Progress.Root value={progressValue(tiers.progressPercent)} size="md" colorPalette="brand">
        {/* The track is the progressbar (Ark): it carries the name, the root does not. */}
        <Progress.Track rounded="full" aria-label={t('tiers.mine.progressTo', { tier: nextName })}>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Flex justify="space-between" gap="3" wrap="wrap" fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
        <Text>{tierName(t, tiers.accountTier)}</Text>
        <Text>{t('tiers.usd', { amount: formatAmount(tiers.nextMinimumUsd ?? '0') })}</Text>
      </Flex>
      <Text fontSize="sm" color={reached ? 'fg' : 'fg.muted'}>
        {reached ? t('tiers.mine.reachedPending', { tier: nextName }) : t('tiers.mine.missing', { amount: formatAmount(missing), tier: nextName })}
      </Text>
    </Stack>
  );
}

/** The user's standing: account tier, VIP status, progress, the figures and their time. */
function Standing({ tiers }: { tiers: MyTiers }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  const vip = tiers.userType === 'vip';
  const minutes = tiers.table.recomputeMinutes;
  return (
    <SectionCard title={t('tiers.mine.standing')} icon={<AwardIcon boxSize="5" />}>
      <Stack gap="5">
        <Grid templateColumns={{ base: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' }} gap="3">
          <Stack gap="1.5" p="4" rounded="lg" borderWidth="1px" minW="0">
            <Text fontSize="sm" color="fg.muted">
              {t('tiers.mine.accountTier')}
            </Text>
            <Text fontSize="2xl" fontWeight="bold" letterSpacing="-0.02em" color="brand.fg">
              {tierName(t, tiers.accountTier)}
            </Text>
          </Stack>
          <Stack gap="1.5" p="4" rounded="lg" borderWidth="1px" minW="0">
            <Text fontSize="sm" color="fg.muted">
              {t('tiers.mine.vipStatus')}
            </Text>
            <Flex align="center" gap="2" wrap="wrap">
              <Badge colorPalette={vip ? 'orange' : 'gray'} variant={vip ? 'solid' : 'surface'} size="lg" rounded="full" px="3">
                {vip ? t('tiers.mine.vip') : t('tiers.mine.normal')}
              </Badge>
              <Text fontSize="sm" color="fg.muted">
                {vip ? t('tiers.mine.discountNow', { percent: fractionPercent(tiers.feeDiscount) }) : t('tiers.mine.noDiscount')}
              </Text>
            </Flex>
          </Stack>
        </Grid>
        <TierProgress tiers={tiers} />
        <Grid templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' }} gap="3">
          <TierFigure label={t('tiers.mine.deposits')} value={t('tiers.usd', { amount: formatBalance(tiers.depositsUsd) })} hint={t('tiers.mine.depositsHint')} />
          <TierFigure label={t('tiers.mine.volume')} value={t('tiers.usdt', { amount: formatBalance(tiers.volumeUsdt) })} hint={t('tiers.mine.volumeHint')} />
          <TierFigure label={t('tiers.mine.assets')} value={t('tiers.usdt', { amount: formatBalance(tiers.assetsUsdt) })} hint={t('tiers.mine.assetsHint')} />
        </Grid>
        <Text fontSize="xs" color="fg.muted">
          {tiers.computedAt == null ? t('tiers.mine.never', { minutes }) : t('tiers.mine.updated', { time: formatTime(tiers.computedAt), minutes })}
        </Text>
      </Stack>
    </SectionCard>
  );
}

/** The merchant programme: the application's state and the way to apply, or to the tools. */
function MerchantProgramme() {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  const mine = useMyMerchant();
  const application = mine.data?.application;
  let text: string;
  let action: string;
  if (mine.data?.isMerchant === 2) {
    text = t('tiers.merchant.approvedShort');
    action = t('tiers.merchant.openTools');
  } else if (application?.status === 'pending') {
    text = t('tiers.merchant.pendingShort', { time: formatTime(application.createdAt) });
    action = t('tiers.merchant.view');
  } else if (application?.status === 'rejected') {
    text = t('tiers.merchant.rejectedShort');
    action = t('tiers.merchant.applyAgain');
  } else {
    text = t('tiers.merchant.none');
    action = t('tiers.merchant.apply');
  }
  return (
    <SectionCard title={t('tiers.merchant.programme')} description={t('tiers.merchant.programmeDescription')} icon={<StoreIcon boxSize="5" />}>
      {mine.isPending ? (
        <Skeleton h="10" rounded="lg" />
      ) : (
        <Flex gap="3" align={{ base: 'stretch', sm: 'center' }} justify="space-between" direction={{ base: 'column', sm: 'row' }}>
          <Text fontSize="sm">{text}</Text>
          <Button asChild colorPalette="brand" variant={mine.data?.isMerchant === 2 ? 'outline' : 'solid'} flexShrink={0}>
            <RouterLink to={tabPath('merchant')}>{action}</RouterLink>
          </Button>
        </Flex>
      )}
    </SectionCard>
  );
}

export function TierTab() {
  const { t } = useTranslation();
  const mine = useMyTiers();
  const tiers = mine.data;
  return (
    <Stack gap="5">
      <TabHeader title={t('account.tabs.tier')} description={t('tiers.mine.description')} />
      {!tiers ? (
        mine.isError ? (
          <Alert.Root status="error" rounded="xl" alignItems="center">
            <Alert.Indicator />
            <Alert.Title flex="1">{t('tiers.mine.loadFailed')}</Alert.Title>
            <Button size="sm" variant="outline" onClick={() => void mine.refetch()}>
              {t('tiers.mine.retry')}
            </Button>
          </Alert.Root>
        ) : (
          <Stack gap="4" role="status" aria-label={t('tiers.mine.loading')}>
            <Skeleton h="72" rounded="xl" />
            <Skeleton h="48" rounded="xl" />
          </Stack>
        )
      ) : (
        <>
          <Standing tiers={tiers} />
          <SectionCard title={t('tiers.mine.tableTitle')} description={t('tiers.mine.tableDescription')}>
            <Stack gap="5">
              <AccountTierTable table={tiers.table} current={isAccountTier(tiers.accountTier) ? tiers.accountTier : undefined} />
              <Stack gap="2">
                <Text fontWeight="semibold" fontSize="sm">
                  {t('tiers.vip.title')}
                </Text>
                <Text fontSize="sm" color="fg.muted">
                  {t('tiers.vip.rule')}
                </Text>
                <VipRules table={tiers.table} />
              </Stack>
            </Stack>
          </SectionCard>
          <MerchantProgramme />
        </>
      )}
    </Stack>
  );
}
