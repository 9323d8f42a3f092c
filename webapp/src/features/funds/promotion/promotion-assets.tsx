/**
 * `/assets/index?key=promotion`: the referral rebates in the user's assets — everything earned and
 * today's reward per coin (`GET /api/referral/summary`; the rebates are credited hourly to the
 * funding account) and the statement down to each fill. `?entry=<id>` (a `referral_rebate` bill's
 * link) narrows the statement to the lines that entry paid.
 *
 * @module
 */

import { Button, Flex, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useReferralSummary } from '../../../api/generated/referral/referral';
import { Statement } from '../../../components/referral/statement';
import { coinAmountsText } from '../../../lib/referral-format';
import { promotionHref } from '../lib/screens';
import { Panel } from '../components/panel';

/** The account centre's reward-center tab (invitation code, link, members). */
const REWARD_CENTER = '/account/center/reward-center';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap="1" p="4" rounded="lg" borderWidth="1px" bg="bg.subtle" minW="0">
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="lg" fontWeight="semibold" fontVariantNumeric="tabular-nums" wordBreak="break-word">
        {value}
      </Text>
    </Stack>
  );
}

/** The `entry` parameter when it is a positive whole number. */
export function parseEntry(value: string | null): number | undefined {
  return value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : undefined;
}

export function PromotionAssets() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const entryId = parseEntry(search.get('entry'));
  const summary = useReferralSummary();
  return (
    <Stack gap="5">
      <Panel
        title={t('referral.promotion.title')}
        description={t('referral.promotion.description')}
        actions={
          <Button asChild size="sm" variant="outline">
            <RouterLink to={REWARD_CENTER}>{t('referral.promotion.rewardCenter')}</RouterLink>
          </Button>
        }
      >
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
          <Figure label={t('referral.totalReward')} value={summary.data ? coinAmountsText(summary.data.totalReward) : '--'} />
          <Figure label={t('referral.todayReward')} value={summary.data ? coinAmountsText(summary.data.todayEarnReward) : '--'} />
        </SimpleGrid>
      </Panel>
      <Panel title={entryId != null ? t('referral.promotion.billLines') : t('referral.statement.title')} description={entryId != null ? t('referral.promotion.billHint') : t('referral.statement.description')}>
        <Stack gap="3">
          {entryId != null && (
            <Flex justify="flex-end">
              <Button asChild size="xs" variant="ghost">
                <RouterLink to={promotionHref()}>{t('referral.promotion.openStatement')}</RouterLink>
              </Button>
            </Flex>
          )}
          <Statement key={entryId ?? 0} entryId={entryId} />
        </Stack>
      </Panel>
    </Stack>
  );
}
