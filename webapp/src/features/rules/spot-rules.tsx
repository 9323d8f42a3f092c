/**
 * modelType 6: the spot trading rules, as the backend applies them (docs/api.md "Spot trading"):
 * matching, order types, the per-pair price tick, quantity step and minimum order value (a live table
 * from getCoinList), fees in the asset received with the security fund's share, self-trade
 * prevention and held funds.
 *
 * @module
 */

import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useSecurityFundPercent, useSiteName } from '../../hooks/use-settings';
import { ORDER_CENTRE_PATH, SPOT_TRADE_PATH } from './links';
import { PairRulesTable } from './pair-rules-table';
import { Para, Points, Section, TopicLinks } from './topic-parts';

export function SpotRules() {
  const { t } = useTranslation();
  const siteName = useSiteName();
  const percent = useSecurityFundPercent();
  return (
    <Stack gap="7">
      <Para>{t('rules.spot.intro', { siteName })}</Para>
      <Section title={t('rules.spot.typesTitle')}>
        <Points
          items={[
            t('rules.spot.limit'),
            t('rules.spot.gtc'),
            t('rules.spot.ioc'),
            t('rules.spot.fok'),
            t('rules.spot.postOnly'),
            t('rules.spot.market'),
            t('rules.spot.stopLimit'),
          ]}
        />
      </Section>
      <Section title={t('rules.spot.rulesTitle')}>
        <Para>{t('rules.spot.rulesBody')}</Para>
        <PairRulesTable />
      </Section>
      <Section title={t('rules.spot.feesTitle')}>
        <Para>{t('rules.spot.feesBody')}</Para>
        <Para>{t('rules.spot.feesFund', { percent })}</Para>
      </Section>
      <Section title={t('rules.spot.stpTitle')}>
        <Para>{t('rules.spot.stpBody')}</Para>
      </Section>
      <Section title={t('rules.spot.holdTitle')}>
        <Para>{t('rules.spot.holdBody')}</Para>
        <Para>{t('rules.spot.holdRelease')}</Para>
      </Section>
      <TopicLinks
        links={[
          { label: t('rules.links.tradeSpot'), to: SPOT_TRADE_PATH },
          { label: t('rules.links.orderCentre'), to: ORDER_CENTRE_PATH },
        ]}
      />
    </Stack>
  );
}
