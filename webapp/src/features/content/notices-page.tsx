/**
 * /notice/index: the announcements, pinned first, then newest first, filtered by topic, each marked
 * unread until opened in this browser. `?id=` opens one (`/api/content/announcements/{id}`) and marks
 * it read; "Mark all as read" marks the page's. Open to visitors; new ones arrive live through the
 * bell's listener, which refetches this list.
 *
 * @module
 */

import { Badge, Box, Button, Container, Flex, Heading, Stack, Tabs, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useContentAnnouncement, useContentAnnouncements } from '../../api/generated/content/content';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { BodySkeleton, ContentFailed, ContentHtml, PublishedAt, TextNotes, isNotFound, useLangQuery } from '../../components/content/content-parts';
import { useReadAnnouncements } from '../../lib/announcement-reads';

import { ANNOUNCEMENT_TOPICS } from '../../lib/content-codes';
const PAGE_SIZE = 20;

function Detail({ id }: { id: number }) {
  const { t } = useTranslation();
  const { markRead } = useReadAnnouncements();
  const entry = useContentAnnouncement(id, { query: useLangQuery([`/api/content/announcements/${id}`]) });
  useEffect(() => {
    if (entry.data) markRead([entry.data.id]);
  }, [entry.data, markRead]);
  return (
    <Box as="article" aria-label={entry.data?.title ?? t('content.notices.title')} borderWidth="1px" rounded="2xl" bg="bg.panel" px={{ base: '4', md: '8' }} py={{ base: '5', md: '6' }}>
      {entry.isError ? (
        <ContentFailed notFound={isNotFound(entry.error)} onRetry={() => void entry.refetch()} />
      ) : !entry.data ? (
        <BodySkeleton />
      ) : (
        <Stack gap="4">
          <Stack gap="1">
            <Heading as="h2" fontSize="xl">
              {entry.data.title}
            </Heading>
            <PublishedAt at={entry.data.publishedAt} />
          </Stack>
          <TextNotes fallback={entry.data.fallback} outdated={entry.data.outdated} />
          <ContentHtml html={entry.data.html} />
        </Stack>
      )}
      <Button asChild size="sm" variant="ghost" mt="4">
        <RouterLink to="/notice/index">{t('content.notices.back')}</RouterLink>
      </Button>
    </Box>
  );
}

function List({ topic }: { topic: string }) {
  const { t, i18n } = useTranslation();
  const { isRead, markRead } = useReadAnnouncements();
  const [page, setPage] = useState(1);
  const params = { page, pageSize: PAGE_SIZE, ...(topic === 'all' ? {} : { topic }) };
  const list = useContentAnnouncements(params, { query: useLangQuery(['/api/content/announcements', params]) });
  if (list.isError) return <ContentFailed notFound={false} onRetry={() => void list.refetch()} />;
  if (!list.data) return <BodySkeleton />;
  const records = list.data.records;
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium' });
  return (
    <Stack gap="3">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Text fontSize="sm" color="fg.muted">
          {t('content.notices.count', { count: list.data.total })}
        </Text>
        <Button size="xs" variant="outline" disabled={records.every((record) => isRead(record.id))} onClick={() => markRead(records.map((record) => record.id))}>
          {t('content.notices.markAll')}
        </Button>
      </Flex>
      {records.length === 0 ? (
        <Text color="fg.muted">{t('content.notices.empty')}</Text>
      ) : (
        <Stack as="ul" aria-label={t('content.notices.title')} listStyleType="none" gap="2">
          {records.map((record) => {
            const unread = !isRead(record.id);
            return (
              <Box as="li" key={record.id} borderWidth="1px" rounded="xl" bg="bg.panel" _hover={{ borderColor: 'brand.emphasized' }}>
                <RouterLink to={`/notice/index?id=${record.id}`}>
                  <Stack gap="1" px="4" py="3">
                    <Flex gap="2" align="center" wrap="wrap">
                      {unread && <Badge colorPalette="red" size="sm">{t('content.notices.unread')}</Badge>}
                      {record.pinned && <Badge colorPalette="brand" variant="subtle" size="sm">{t('content.notices.pinned')}</Badge>}
                      <Text fontWeight={unread ? 'bold' : 'medium'}>{record.title}</Text>
                    </Flex>
                    {record.summary && (
                      <Text fontSize="sm" color="fg.muted" lineClamp={2}>
                        {record.summary}
                      </Text>
                    )}
                    {record.publishedAt && (
                      <Text fontSize="xs" color="fg.subtle">
                        {date.format(new Date(record.publishedAt))}
                      </Text>
                    )}
                  </Stack>
                </RouterLink>
              </Box>
            );
          })}
        </Stack>
      )}
      {list.data.pages > 1 && (
        <Flex gap="2" justify="center">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {t('content.previous')}
          </Button>
          <Button size="sm" variant="outline" disabled={page >= list.data.pages} onClick={() => setPage((p) => p + 1)}>
            {t('content.next')}
          </Button>
        </Flex>
      )}
    </Stack>
  );
}

export function NoticesPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const idText = search.get('id') ?? '';
  const id = /^[1-9]\d{0,15}$/.test(idText) ? Number(idText) : null;
  const [topic, setTopic] = useState<string>('all');
  useDocumentTitle(t('content.notices.title'));
  return (
    <Container maxW="960px" px={{ base: '4', md: '6' }} py={{ base: '6', md: '10' }}>
      <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em" mb="6">
        {t('content.notices.title')}
      </Heading>
      {id ? (
        <Detail key={id} id={id} />
      ) : (
        <Tabs.Root value={topic} onValueChange={(details) => setTopic(details.value)} variant="line" size="sm" lazyMount unmountOnExit>
          <Tabs.List overflowX="auto" css={{ scrollbarWidth: 'thin' }}>
            {ANNOUNCEMENT_TOPICS.map((code) => (
              <Tabs.Trigger key={code} value={code} flexShrink={0}>
                {t(`content.notices.topics.${code}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {ANNOUNCEMENT_TOPICS.map((code) => (
            <Tabs.Content key={code} value={code} pt="4">
              <List topic={code} />
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}
    </Container>
  );
}
