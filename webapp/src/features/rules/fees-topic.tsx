/**
 * modelType 7: fees and the asset security fund — the spot fee rates of every pair (live, from
 * getCoinList), the asset they are charged in, the security fund's share (getAllSetting's
 * `securityFundPercent`) and the withdrawal fee.
 *
 * @module
 */

import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useSecurityFundPercent } from '../../hooks/use-settings';
import { topicById, topicHref } from './lib/topics';
import { PairRulesTable } from './pair-rules-table';
import { Para, Section, TopicLinks } from './topic-parts';

export function FeesTopic() {
  const { t } = useTranslation();
  const percent = useSecurityFundPercent();
  return (
    <Stack gap="7">
      <Section title={t('rules.fees.spotTitle')}>
        <Para>{t('rules.fees.spot')}</Para>
        <PairRulesTable variant="fees" />
      </Section>
      <Section title={t('rules.fees.fundTitle')}>
        <Para>{t('rules.fees.fund', { percent })}</Para>
      </Section>
      <Section title={t('rules.fees.withdrawTitle')}>
        <Para>{t('rules.fees.withdraw')}</Para>
      </Section>
      <TopicLinks links={[{ label: t('rules.topics.spot'), to: topicHref(topicById('spot')) }]} />
    </Stack>
  );
}
