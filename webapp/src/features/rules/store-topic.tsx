/**
 * The topics whose text lives in the content store (`GET /api/content/page?modelType=`): the loan
 * rules, the announcement topics, the guides and the legal pages, in the reader's language or the
 * English fallback (which the page says). An announcement topic lists its latest announcements
 * below its text; the new-listings topic adds the pairs open for trading, live from getCoinList.
 *
 * @module
 */

import { Badge, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useGetCoinList } from '../../api/generated/common/common';
import { useContentAnnouncements, useContentPage } from '../../api/generated/content/content';
import { pairName } from '../../hooks/use-market-rows';
import { BodySkeleton, ContentFailed, ContentHtml, TextNotes, isNotFound, useLangQuery } from '../../components/content/content-parts';
import { SPOT_TRADE_PATH } from './links';
import type { Topic, TopicId } from './lib/topics';

/** The announcement topic (slug) of a notices topic. */
export const ANNOUNCEMENT_TOPIC: Partial<Record<TopicId, string>> = {
  newPairs: 'new-pairs',
  delisting: 'delisting',
  maintenance: 'maintenance',
  campaigns: 'campaigns',
  news: 'news',
};

function PairList() {
  const { t } = useTranslation();
  const coinList = useGetCoinList();
  const pairs = useMemo(
    () => [...(coinList.data?.currencyList ?? [])].sort((a, b) => a.sort - b.sort || a.symbol.localeCompare(b.symbol)),
    [coinList.data],
  );
  if (pairs.length === 0) return null;
  return (
    <Stack gap="2">
      <Text fontSize="sm" fontWeight="semibold">
        {t('rules.newPairs.intro', { count: pairs.length })}
      </Text>
      <Flex as="ul" listStyleType="none" wrap="wrap" gap="2">
        {pairs.map((coin) => (
          <li key={coin.symbol}>
            <Badge asChild variant="surface" size="lg" rounded="full" px="3" _hover={{ bg: 'bg.muted' }}>
              <RouterLink to={`${SPOT_TRADE_PATH}&symbol=${coin.symbol}`}>{pairName(coin)}</RouterLink>
            </Badge>
          </li>
        ))}
      </Flex>
    </Stack>
  );
}

function TopicAnnouncements({ topic }: { topic: string }) {
  const { t, i18n } = useTranslation();
  const params = { topic, page: 1, pageSize: 10 };
  const list = useContentAnnouncements(params, { query: useLangQuery(['/api/content/announcements', params]) });
  const records = list.data?.records ?? [];
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium' });
  return (
    <Stack as="section" gap="2" aria-labelledby="topic-announcements">
      <Heading as="h3" id="topic-announcements" fontSize="md">
        {t('rules.announcements')}
      </Heading>
      {records.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          {list.data ? t('rules.noAnnouncements') : '…'}
        </Text>
      ) : (
        <Stack as="ul" listStyleType="none" gap="1.5">
          {records.map((record) => (
            <Flex as="li" key={record.id} gap="3" justify="space-between" fontSize="sm" wrap="wrap">
              <RouterLink to={`/notice/index?id=${record.id}`}>
                <Text as="span" color="brand.fg" fontWeight="medium">
                  {record.title}
                </Text>
              </RouterLink>
              {record.publishedAt && <Text color="fg.muted">{date.format(new Date(record.publishedAt))}</Text>}
            </Flex>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

export function StoreTopic({ topic }: { topic: Topic }) {
  const params = { modelType: topic.modelType };
  const page = useContentPage(params, { query: useLangQuery(['/api/content/page', params]) });
  const announcementTopic = ANNOUNCEMENT_TOPIC[topic.id];
  return (
    <Stack gap="6">
      {page.data ? (
        <Stack gap="4">
          <TextNotes fallback={page.data.fallback} outdated={page.data.outdated} />
          <ContentHtml html={page.data.html} />
        </Stack>
      ) : page.isError ? (
        <ContentFailed notFound={isNotFound(page.error)} onRetry={() => void page.refetch()} />
      ) : (
        <BodySkeleton />
      )}
      {topic.id === 'newPairs' && <PairList />}
      {announcementTopic && <TopicAnnouncements topic={announcementTopic} />}
    </Stack>
  );
}
