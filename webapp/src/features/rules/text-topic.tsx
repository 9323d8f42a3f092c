/**
 * The topics that are text: the rules page of a product not open yet (loans), the announcement topics, the guides and the legal pages. Each is a list of
 * sentences from `rules.<section>.*` — only what is true of this exchange today — plus its links; the
 * new-listings topic adds the pairs open for trading, live from getCoinList.
 *
 * @module
 */

import { Badge, Box, Flex, Stack } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useGetCoinList } from '../../api/generated/common/common';
import { pairName } from '../../hooks/use-market-rows';
import { useSecurityFundPercent, useSiteName, useSupportEmail } from '../../hooks/use-settings';
import { DEPOSIT_PATH, ORDER_CENTRE_PATH, RECORDS_PATH, SECURITY_PATH, SPOT_TRADE_PATH } from './links';
import { type TopicId, topicById, topicHref } from './lib/topics';
import { Para, Points, type TopicLink, TopicLinks } from './topic-parts';

/** The topics rendered here. */
export type TextTopicId = Exclude<TopicId, 'spot' | 'fees' | 'secondsContract' | 'usdtFutures'>;

type LinkId = 'tradeSpot' | 'orderCentre' | 'deposit' | 'records' | 'security' | 'spotRules' | 'newPairs' | 'riskDisclosure';

interface TextTopicSpec {
  /** Keys of the sentences, in order. */
  sentences: readonly string[];
  /** How the sentences show: paragraphs (default), a bulleted list or numbered steps. */
  layout?: 'paragraphs' | 'bullets' | 'steps';
  links?: readonly LinkId[];
  /** The pairs open for trading, after the first sentence. */
  pairs?: boolean;
}

const LATER: TextTopicSpec = { sentences: [], links: ['tradeSpot', 'spotRules'] };

const SPECS: Record<TextTopicId, TextTopicSpec> = {
  loan: { ...LATER, sentences: ['rules.later.loan', 'rules.later.meanwhile'] },
  news: { sentences: ['rules.news.spot', 'rules.news.funds', 'rules.news.later'], links: ['tradeSpot', 'newPairs'] },
  newPairs: { sentences: ['rules.newPairs.intro', 'rules.newPairs.rules'], pairs: true, links: ['tradeSpot', 'spotRules'] },
  delisting: { sentences: ['rules.delisting.none', 'rules.delisting.where'], links: ['newPairs'] },
  maintenance: { sentences: ['rules.maintenance.none', 'rules.maintenance.restart', 'rules.maintenance.busy'] },
  campaigns: { sentences: ['rules.campaigns.none', 'rules.campaigns.where'] },
  beginnerGuide: {
    sentences: ['rules.guide.step1', 'rules.guide.step2', 'rules.guide.step3', 'rules.guide.step4', 'rules.guide.step5', 'rules.guide.step6'],
    layout: 'steps',
    links: ['deposit', 'tradeSpot', 'orderCentre', 'security'],
  },
  helpCentre: { sentences: ['rules.help.contact', 'rules.help.self'], links: ['orderCentre', 'records', 'security'] },
  about: { sentences: ['rules.about.what', 'rules.about.exact', 'rules.about.ledger'] },
  userAgreement: {
    sentences: ['rules.agreement.session', 'rules.agreement.stepUp', 'rules.agreement.orders', 'rules.agreement.risk'],
    layout: 'bullets',
    links: ['riskDisclosure'],
  },
  privacy: { sentences: ['rules.privacy.passwords', 'rules.privacy.documents', 'rules.privacy.storage', 'rules.privacy.devices'], layout: 'bullets', links: ['security'] },
  riskDisclosure: { sentences: ['footer.riskNotice', 'rules.risk.volatility', 'rules.risk.market', 'rules.risk.stop'] },
  compliance: { sentences: ['rules.compliance.identity', 'rules.compliance.review', 'rules.compliance.ledger'], layout: 'bullets' },
  aml: { sentences: ['rules.aml.deposits', 'rules.aml.withdrawals', 'rules.aml.report'], layout: 'bullets' },
  regulatoryRequests: { sentences: ['rules.regulatory.contact', 'rules.regulatory.details'] },
};

function PairList() {
  const coinList = useGetCoinList();
  const pairs = useMemo(
    () => [...(coinList.data?.currencyList ?? [])].sort((a, b) => a.sort - b.sort || a.symbol.localeCompare(b.symbol)),
    [coinList.data],
  );
  if (pairs.length === 0) return null;
  return (
    <Flex as="ul" listStyleType="none" wrap="wrap" gap="2">
      {pairs.map((coin) => (
        <li key={coin.symbol}>
          <Badge asChild variant="surface" size="lg" rounded="full" px="3" _hover={{ bg: 'bg.muted' }}>
            <RouterLink to={`${SPOT_TRADE_PATH}&symbol=${coin.symbol}`}>{pairName(coin)}</RouterLink>
          </Badge>
        </li>
      ))}
    </Flex>
  );
}

export function TextTopic({ id }: { id: TextTopicId }) {
  const { t } = useTranslation();
  const siteName = useSiteName();
  const percent = useSecurityFundPercent();
  const email = useSupportEmail();
  const coinList = useGetCoinList();
  const spec = SPECS[id];
  const values = { siteName, percent, email: email ?? t('rules.supportFallback'), count: coinList.data?.currencyList.length ?? 0 };
  const sentences = spec.sentences.map((key) => t(key, values));
  const linkTo: Record<LinkId, TopicLink> = {
    tradeSpot: { label: t('rules.links.tradeSpot'), to: SPOT_TRADE_PATH },
    orderCentre: { label: t('rules.links.orderCentre'), to: ORDER_CENTRE_PATH },
    deposit: { label: t('rules.links.deposit'), to: DEPOSIT_PATH },
    records: { label: t('rules.links.records'), to: RECORDS_PATH },
    security: { label: t('rules.links.security'), to: SECURITY_PATH },
    spotRules: { label: t('rules.topics.spot'), to: topicHref(topicById('spot')) },
    newPairs: { label: t('rules.topics.newPairs'), to: topicHref(topicById('newPairs')) },
    riskDisclosure: { label: t('rules.topics.riskDisclosure'), to: topicHref(topicById('riskDisclosure')) },
  };
  const layout = spec.layout ?? 'paragraphs';
  return (
    <Stack gap="4">
      {layout === 'paragraphs' ? (
        sentences.map((sentence, index) => (
          <Box key={index} display="contents">
            <Para>{sentence}</Para>
            {spec.pairs && index === 0 && <PairList />}
          </Box>
        ))
      ) : (
        <Points items={sentences} ordered={layout === 'steps'} />
      )}
      <TopicLinks links={(spec.links ?? []).map((link) => linkTo[link])} />
    </Stack>
  );
}
