/**
 * The help centre (`/user/index?key=helper`): the entries of `POST /api/helpcenter/list` by
 * category, a search over help entries and articles (`/api/content/search`, title matches first, the
 * reader's language before English fallbacks), and one entry opened below its list
 * (`POST /api/helpCenterInfo/{id}`).
 *
 * @module
 */

import { Badge, Box, Button, Heading, Input, InputGroup, Stack, Tabs, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { helpCenterInfo, helpCenterList, useContentSearch } from '../../api/generated/content/content';
import type { ContentRecord } from '../../api/generated/model';
import { SearchIcon } from '../../components/icons';
import { BodySkeleton, ContentFailed, ContentHtml, TextNotes, isNotFound, useLanguage, useLangQuery } from '../../components/content/content-parts';
import { contentPath } from './lib/breadcrumb';

import { HELP_CATEGORIES } from '../../lib/content-codes';

function EntryList({ records, open, onOpen }: { records: readonly ContentRecord[]; open: number | null; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  if (records.length === 0) return <Text color="fg.muted">{t('content.help.none')}</Text>;
  return (
    <Stack as="ul" listStyleType="none" gap="2">
      {records.map((record) => (
        <Box as="li" key={record.id} borderWidth="1px" rounded="xl" bg="bg.panel">
          <Button
            variant="ghost"
            w="full"
            h="auto"
            py="3"
            px="4"
            justifyContent="flex-start"
            textAlign="start"
            whiteSpace="normal"
            aria-expanded={open === record.id}
            onClick={() => onOpen(record.id)}
          >
            <Stack gap="0.5" align="start">
              <Text fontWeight="semibold">{record.title}</Text>
              {record.summary && (
                <Text fontSize="sm" fontWeight="normal" color="fg.muted">
                  {record.summary}
                </Text>
              )}
              {record.fallback && (
                <Badge size="sm" variant="subtle">
                  {t('content.inEnglish')}
                </Badge>
              )}
            </Stack>
          </Button>
          {open === record.id && (
            <Box px="4" pb="4">
              {record.kind === 'help' ? (
                <HelpEntry id={record.id} />
              ) : (
                <Button asChild size="sm" variant="outline">
                  <RouterLink to={contentPath(record.kind, record.id)}>{t('content.help.readArticle')}</RouterLink>
                </Button>
              )}
            </Box>
          )}
        </Box>
      ))}
    </Stack>
  );
}

function HelpEntry({ id }: { id: number }) {
  const lang = useLanguage();
  const entry = useQuery({ queryKey: ['/api/helpCenterInfo', id, lang], queryFn: ({ signal }) => helpCenterInfo(id, undefined, signal) });
  if (entry.isError) return <ContentFailed notFound={isNotFound(entry.error)} onRetry={() => void entry.refetch()} />;
  if (!entry.data) return <BodySkeleton />;
  return (
    <Stack gap="3">
      <TextNotes fallback={entry.data.fallback} outdated={entry.data.outdated} />
      <ContentHtml html={entry.data.html} />
    </Stack>
  );
}

function CategoryList({ category }: { category: string }) {
  const lang = useLanguage();
  const [open, setOpen] = useState<number | null>(null);
  const body = { category, pageSize: 100 };
  const list = useQuery({ queryKey: ['/api/helpcenter/list', body, lang], queryFn: ({ signal }) => helpCenterList(body, undefined, signal) });
  if (list.isError) return <ContentFailed notFound={false} onRetry={() => void list.refetch()} />;
  if (!list.data) return <BodySkeleton />;
  return <EntryList records={list.data.records} open={open} onOpen={(id) => setOpen((current) => (current === id ? null : id))} />;
}

function SearchResults({ q }: { q: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  const params = { q, pageSize: 50 };
  const results = useContentSearch(params, { query: useLangQuery(['/api/content/search', params]) });
  if (results.isError) return <ContentFailed notFound={false} onRetry={() => void results.refetch()} />;
  if (!results.data) return <BodySkeleton />;
  return (
    <Stack gap="3">
      <Text fontSize="sm" color="fg.muted" role="status">
        {t('content.help.results', { count: results.data.total, q })}
      </Text>
      <EntryList records={results.data.records} open={open} onOpen={(id) => setOpen((current) => (current === id ? null : id))} />
    </Stack>
  );
}

export function HelpCentre() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const [category, setCategory] = useState<string>(HELP_CATEGORIES[0]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQ(draft.trim().slice(0, 100));
  };
  return (
    <Stack gap="5">
      <Stack gap="1">
        <Heading as="h2" fontSize="xl">
          {t('content.help.title')}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t('content.help.intro')}
        </Text>
      </Stack>
      <Box as="form" role="search" onSubmit={submit} display="flex" gap="2">
        <InputGroup flex="1" startElement={<SearchIcon boxSize="4" />}>
          <Input type="search" value={draft} maxLength={100} onChange={(event) => setDraft(event.target.value)} aria-label={t('content.help.search')} placeholder={t('content.help.searchPlaceholder')} />
        </InputGroup>
        <Button type="submit" colorPalette="brand">
          {t('content.help.searchButton')}
        </Button>
      </Box>
      {q ? (
        <Stack gap="3">
          <SearchResults q={q} />
          <Button alignSelf="start" size="sm" variant="ghost" onClick={() => { setQ(''); setDraft(''); }}>
            {t('content.help.clear')}
          </Button>
        </Stack>
      ) : (
        <Tabs.Root value={category} onValueChange={(details) => setCategory(details.value)} variant="enclosed" size="sm" lazyMount>
          <Tabs.List flexWrap="wrap">
            {HELP_CATEGORIES.map((code) => (
              <Tabs.Trigger key={code} value={code}>
                {t(`content.help.categories.${code}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {HELP_CATEGORIES.map((code) => (
            <Tabs.Content key={code} value={code} pt="4">
              <CategoryList category={code} />
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}
    </Stack>
  );
}
