/**
 * The parts every content screen shares: a body of the store's sanitised HTML, the fallback and
 * outdated notes, the breadcrumb, a load failure, and the query options that make the store's reads
 * follow the interface language (the `lang` header is not part of orval's keys, so the language is
 * added to each key: a language change reads the texts again).
 *
 * @module
 */

import { Alert, Box, Breadcrumb, Button, Skeleton, Stack, Text } from '@chakra-ui/react';
import { type MouseEvent, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { QueryKey } from '@tanstack/react-query';
import { currentLanguage } from '../../i18n';
import { inertHtml, internalPath } from '../../lib/content-html';

/** The current interface language, re-read on every change. */
export function useLanguage(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? currentLanguage();
}

/** Query options keyed by `key` plus the interface language. */
export function useLangQuery<K extends QueryKey>(key: K, enabled = true) {
  const lang = useLanguage();
  return { queryKey: [...key, lang] as unknown as K, enabled };
}

const prose = {
  fontSize: 'sm',
  lineHeight: 'tall',
  color: 'fg',
  overflowWrap: 'anywhere',
  '& > * + *': { mt: '3' },
  '& h1, & h2': { fontSize: 'lg', fontWeight: 'semibold', mt: '6', letterSpacing: '-0.01em' },
  '& h3, & h4': { fontSize: 'md', fontWeight: 'semibold', mt: '5' },
  '& ul, & ol': { ps: '5' },
  '& ul': { listStyleType: 'disc' },
  '& ol': { listStyleType: 'decimal' },
  '& li + li': { mt: '1.5' },
  '& a': { color: 'brand.fg', textDecoration: 'underline', textUnderlineOffset: '2px' },
  '& code': { fontFamily: 'mono', fontSize: 'xs', bg: 'bg.muted', px: '1', rounded: 'sm' },
  '& pre': { bg: 'bg.muted', p: '3', rounded: 'md', overflowX: 'auto' },
  '& blockquote': { borderStartWidth: '3px', borderColor: 'border.emphasized', ps: '3', color: 'fg.muted' },
  '& table': { display: 'block', overflowX: 'auto', borderCollapse: 'collapse', maxW: '100%' },
  '& th, & td': { borderWidth: '1px', px: '2', py: '1', textAlign: 'start' },
  '& th': { bg: 'bg.muted', fontWeight: 'semibold' },
  '& img': { maxW: '100%', h: 'auto', rounded: 'md' },
  '& hr': { borderColor: 'border' },
} as const;

/**
 * A body from the content store. The server sends it sanitised; {@link inertHtml} drops anything
 * that could run once more before it enters the page. In-app links navigate without a reload.
 */
export function ContentHtml({ html }: { html: string }) {
  const navigate = useNavigate();
  const safe = useMemo(() => inertHtml(html), [html]);
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element).closest('a');
    const path = internalPath(anchor?.getAttribute('href') ?? null);
    if (!path) return;
    event.preventDefault();
    void navigate(path);
  };
  // The HTML is the server's sanitised output, made inert again by inertHtml above.
  return <Box css={prose} onClick={onClick} dangerouslySetInnerHTML={{ __html: safe }} />;
}

/** The notes on a text: the English fallback, a translation lagging behind. */
export function TextNotes({ fallback, outdated }: { fallback: boolean; outdated: boolean }) {
  const { t } = useTranslation();
  if (!fallback && !outdated) return null;
  return (
    <Alert.Root status="info" size="sm" rounded="lg" variant="subtle">
      <Alert.Indicator />
      <Alert.Title fontWeight="normal">{fallback ? t('content.fallback') : t('content.outdated')}</Alert.Title>
    </Alert.Root>
  );
}

/** One step of a breadcrumb: a link, or (the last) the page itself. */
export interface Crumb {
  label: string;
  to?: string;
}

/** The breadcrumb above a non-index article page (none when `crumbs` is empty). */
export function ContentBreadcrumb({ crumbs }: { crumbs: readonly Crumb[] }) {
  const { t } = useTranslation();
  if (crumbs.length === 0) return null;
  return (
    <Breadcrumb.Root aria-label={t('content.breadcrumb')} size="sm" mb="4">
      <Breadcrumb.List flexWrap="wrap">
        {crumbs.map((crumb, index) => (
          <Box key={`${index}-${crumb.label}`} display="contents">
            {index > 0 && <Breadcrumb.Separator />}
            <Breadcrumb.Item minW="0">
              {crumb.to ? (
                <Breadcrumb.Link asChild>
                  <RouterLink to={crumb.to}>{crumb.label}</RouterLink>
                </Breadcrumb.Link>
              ) : (
                <Breadcrumb.CurrentLink>{crumb.label}</Breadcrumb.CurrentLink>
              )}
            </Breadcrumb.Item>
          </Box>
        ))}
      </Breadcrumb.List>
    </Breadcrumb.Root>
  );
}

/** A read of the store that failed: a 404 says the text does not exist, anything else offers a retry. */
export function ContentFailed({ notFound, onRetry }: { notFound: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert.Root status={notFound ? 'warning' : 'error'} rounded="xl" alignItems="center" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{notFound ? t('content.notFound') : t('content.loadFailed')}</Alert.Title>
      </Alert.Content>
      {!notFound && (
        <Button size="sm" variant="outline" onClick={onRetry} flexShrink={0}>
          {t('content.retry')}
        </Button>
      )}
    </Alert.Root>
  );
}

/** Whether a failed read was a 404. */
export function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && (error as { status?: unknown }).status === 404;
}

/** Lines standing in for a body while it loads. */
export function BodySkeleton() {
  return (
    <Stack gap="3" aria-hidden="true">
      <Skeleton h="4" w="90%" />
      <Skeleton h="4" w="75%" />
      <Skeleton h="4" w="82%" />
    </Stack>
  );
}

/** A publication date in the reader's language. */
export function PublishedAt({ at }: { at?: number }) {
  const { t, i18n } = useTranslation();
  if (!at) return null;
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium' }).format(new Date(at));
  return (
    <Text fontSize="xs" color="fg.muted">
      {t('content.published', { date })}
    </Text>
  );
}
