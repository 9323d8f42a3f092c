/**
 * /about/index (spec section 2, "Company"): the company page from the content store
 * (`/api/content/company`) in the reader's language or the English fallback. Open to visitors.
 *
 * @module
 */

import { Box, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useContentCompany } from '../../api/generated/content/content';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { BodySkeleton, ContentFailed, ContentHtml, TextNotes, isNotFound, useLangQuery } from '../../components/content/content-parts';

export function AboutPage() {
  const { t } = useTranslation();
  const company = useContentCompany({ query: useLangQuery(['/api/content/company']) });
  const data = company.data;
  useDocumentTitle(data?.title ?? t('screens.about'));
  return (
    <Container maxW="880px" px={{ base: '4', md: '6' }} py={{ base: '6', md: '10' }}>
      <Stack gap="2" mb="6">
        <Text fontSize="xs" fontWeight="semibold" color="brand.fg" textTransform="uppercase" letterSpacing="0.04em">
          {t('screens.about')}
        </Text>
        <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          {data?.title ?? t('screens.about')}
        </Heading>
        {data?.summary && <Text color="fg.muted">{data.summary}</Text>}
      </Stack>
      <Box as="article" aria-label={data?.title ?? t('screens.about')} borderWidth="1px" rounded="2xl" bg="bg.panel" px={{ base: '4', md: '8' }} py={{ base: '5', md: '8' }}>
        {data ? (
          <Stack gap="4">
            <TextNotes fallback={data.fallback} outdated={data.outdated} />
            <ContentHtml html={data.html} />
          </Stack>
        ) : company.isError ? (
          <ContentFailed notFound={isNotFound(company.error)} onRetry={() => void company.refetch()} />
        ) : (
          <BodySkeleton />
        )}
      </Box>
    </Container>
  );
}
