/**
 * The articles (spec section 2): `/article/main/index` (the categories with their sections, and the
 * popular articles), `categories/{id}` (a category's sections), `sections/{id}` (a section's
 * articles) and `content/{type}/{id}` (one article, help entry or announcement). Lists come from the
 * cgform calls with the -521 page size (all rows, by position); texts from `/api/content/entry/{id}`
 * in the reader's language or the English fallback, which the page says. Every page but the index
 * shows a breadcrumb, and a language change on those pages returns to the index. Open to visitors.
 *
 * @module
 */

import { Badge, Box, Container, Heading, LinkBox, LinkOverlay, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useCgformGetData, useContentEntry, useContentPopular } from '../../api/generated/content/content';
import type { ContentDetail, ContentRecord } from '../../api/generated/model';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useApiHead } from '../../lib/api-calls';
import { BodySkeleton, ContentBreadcrumb, ContentFailed, ContentHtml, PublishedAt, TextNotes, isNotFound, useLangQuery } from '../../components/content/content-parts';
import { type ArticleRoute, type Trail, articleRouteOf, breadcrumbOf, categoryPath, contentPath, sectionPath } from './lib/breadcrumb';
import { useArticleLanguageRule } from './lib/use-language-rule';

/** All rows of a form (the -521 page size), by position. */
const ALL = { pageSize: -521, column: 'position', order: 'asc' } as const;

function useForm(form: 'article_category' | 'article_section' | 'article', parentId?: number, enabled = true) {
  const head = useApiHead();
  const params = { ...ALL, ...(parentId ? { parentId } : {}) };
  return useCgformGetData(head, form, params, { query: useLangQuery([`/api/${head}/cgform-api/getData/${form}`, params], enabled) });
}

function useEntry(id: number | undefined) {
  return useContentEntry(id ?? 0, { query: useLangQuery([`/api/content/entry/${id ?? 0}`], Boolean(id)) });
}

/** A card linking to a category, section or article. */
function EntryCard({ record, to }: { record: ContentRecord; to: string }) {
  const { t } = useTranslation();
  return (
    <LinkBox as="li" listStyleType="none" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" _hover={{ borderColor: 'brand.emphasized' }} transition="border-color 0.15s">
      <Stack gap="1">
        <LinkOverlay asChild fontWeight="semibold" fontSize="md">
          <RouterLink to={to}>{record.title}</RouterLink>
        </LinkOverlay>
        {record.summary && (
          <Text fontSize="sm" color="fg.muted" lineClamp={3}>
            {record.summary}
          </Text>
        )}
        {record.fallback && (
          <Badge alignSelf="start" size="sm" variant="subtle">
            {t('content.inEnglish')}
          </Badge>
        )}
      </Stack>
    </LinkBox>
  );
}

function CardGrid({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <SimpleGrid as="ul" aria-label={label} columns={{ base: 1, sm: 2, lg: 3 }} gap="3">
      {children}
    </SimpleGrid>
  );
}

function ListSkeleton() {
  return (
    <Box borderWidth="1px" rounded="xl" p="4">
      <BodySkeleton />
    </Box>
  );
}

function IndexPage() {
  const { t } = useTranslation();
  const categories = useForm('article_category');
  const sections = useForm('article_section');
  const popular = useContentPopular({ limit: 6 }, { query: useLangQuery(['/api/content/popular', { limit: 6 }]) });
  return (
    <Stack gap="8">
      {categories.isError ? (
        <ContentFailed notFound={false} onRetry={() => void categories.refetch()} />
      ) : !categories.data ? (
        <ListSkeleton />
      ) : (
        categories.data.records.map((category) => {
          const own = (sections.data?.records ?? []).filter((section) => section.parentId === category.id);
          return (
            <Stack as="section" key={category.id} gap="3" aria-labelledby={`category-${category.id}`}>
              <Heading as="h2" id={`category-${category.id}`} fontSize="lg">
                <RouterLink to={categoryPath(category.id)}>{category.title}</RouterLink>
              </Heading>
              {category.summary && <Text color="fg.muted" fontSize="sm">{category.summary}</Text>}
              <CardGrid label={category.title}>
                {own.map((section) => (
                  <EntryCard key={section.id} record={section} to={sectionPath(section.id)} />
                ))}
              </CardGrid>
            </Stack>
          );
        })
      )}
      {(popular.data?.length ?? 0) > 0 && (
        <Stack as="section" gap="3" aria-labelledby="popular-articles">
          <Heading as="h2" id="popular-articles" fontSize="lg">
            {t('content.articles.popular')}
          </Heading>
          <CardGrid label={t('content.articles.popular')}>
            {popular.data?.map((record) => <EntryCard key={record.id} record={record} to={contentPath(record.kind, record.id)} />)}
          </CardGrid>
        </Stack>
      )}
    </Stack>
  );
}

/** A category's or section's own text, then its children. */
function ParentPage({ entry, children, childLabel }: { entry: ContentDetail; children: ContentRecord[] | undefined; childLabel: string }) {
  return (
    <Stack gap="6">
      <TextNotes fallback={entry.fallback} outdated={entry.outdated} />
      {entry.html && <ContentHtml html={entry.html} />}
      <Stack as="section" gap="3" aria-label={childLabel}>
        <Heading as="h2" fontSize="lg">
          {childLabel}
        </Heading>
        {children ? (
          <CardGrid label={childLabel}>
            {children.map((child) => (
              <EntryCard key={child.id} record={child} to={child.kind === 'section' ? sectionPath(child.id) : contentPath(child.kind, child.id)} />
            ))}
          </CardGrid>
        ) : (
          <ListSkeleton />
        )}
      </Stack>
    </Stack>
  );
}

/** What the route's entry and its ancestors are, as far as they have loaded. */
function useTrail(route: ArticleRoute) {
  const { t } = useTranslation();
  const id = route.page === 'unknown' || route.page === 'index' ? undefined : route.id;
  const entry = useEntry(id);
  const parent = useEntry(entry.data?.kind === 'article' || entry.data?.kind === 'section' ? entry.data.parentId : undefined);
  const grandParent = useEntry(entry.data?.kind === 'article' && parent.data?.kind === 'section' ? parent.data.parentId : undefined);
  const trail: Trail = { indexLabel: t('content.articles.title') };
  const data = entry.data;
  if (data?.kind === 'category') trail.category = { id: data.id, title: data.title };
  if (data?.kind === 'section') {
    trail.section = { id: data.id, title: data.title };
    if (parent.data) trail.category = { id: parent.data.id, title: parent.data.title };
  }
  if (data && route.page === 'content') {
    trail.article = { id: data.id, type: route.type, title: data.title };
    if (parent.data?.kind === 'section') trail.section = { id: parent.data.id, title: parent.data.title };
    if (grandParent.data) trail.category = { id: grandParent.data.id, title: grandParent.data.title };
  }
  return { entry, trail };
}

export function ArticlesPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const route = articleRouteOf(pathname);
  useArticleLanguageRule();
  const { entry, trail } = useTrail(route);
  const sections = useForm('article_section', route.page === 'category' ? route.id : undefined, route.page === 'category');
  const articles = useForm('article', route.page === 'section' ? route.id : undefined, route.page === 'section');
  const title = route.page === 'index' ? t('content.articles.title') : (entry.data?.title ?? t('content.articles.title'));
  useDocumentTitle(title);
  const crumbs = breadcrumbOf(route, trail);
  const data = entry.data;
  const wrongKind =
    data && ((route.page === 'category' && data.kind !== 'category') || (route.page === 'section' && data.kind !== 'section') || (route.page === 'content' && data.kind !== route.type));

  return (
    <Container maxW="1080px" px={{ base: '4', md: '6' }} py={{ base: '6', md: '10' }}>
      <ContentBreadcrumb crumbs={crumbs} />
      <Stack gap="2" mb="6">
        <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          {title}
        </Heading>
        {route.page === 'index' && <Text color="fg.muted">{t('content.articles.intro')}</Text>}
        {route.page === 'content' && data && <PublishedAt at={data.publishedAt} />}
      </Stack>
      {route.page === 'index' ? (
        <IndexPage />
      ) : route.page === 'unknown' || wrongKind || (entry.isError && isNotFound(entry.error)) ? (
        <ContentFailed notFound onRetry={() => undefined} />
      ) : entry.isError ? (
        <ContentFailed notFound={false} onRetry={() => void entry.refetch()} />
      ) : !data ? (
        <BodySkeleton />
      ) : route.page === 'category' ? (
        <ParentPage entry={data} childLabel={t('content.articles.sections')}>
          {sections.data?.records}
        </ParentPage>
      ) : route.page === 'section' ? (
        <ParentPage entry={data} childLabel={t('content.articles.articles')}>
          {articles.data?.records}
        </ParentPage>
      ) : (
        <Box as="article" aria-label={data.title} borderWidth="1px" rounded="2xl" bg="bg.panel" px={{ base: '4', md: '8' }} py={{ base: '5', md: '8' }}>
          <Stack gap="4">
            <TextNotes fallback={data.fallback} outdated={data.outdated} />
            <ContentHtml html={data.html} />
          </Stack>
        </Box>
      )}
    </Container>
  );
}
