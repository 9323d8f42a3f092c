/**
 * /home/index: hero with the site name and a coin search, hot coins, and the full coin table with
 * live prices (one wasm-core `formatTickerRows` call per update, see `useMarketRows`).
 *
 * @module
 */

import { Box, Button, Container, Flex, Grid, Heading, HStack, Input, InputGroup, Stack, Text } from '@chakra-ui/react';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FeedStatusBadge } from '../../components/feed-status';
import { ArrowRightIcon, SearchIcon } from '../../components/icons';
import { filterRows, useMarketRows } from '../../hooks/use-market-rows';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useSiteName } from '../../hooks/use-settings';
import { useIsLoggedIn } from '../../lib/session';
import { coreErrorText } from '../../lib/wasm';
import { CoinTable } from './coin-table';
import { HotCoins } from './hot-coins';

export function HomePage() {
  const { t } = useTranslation();
  const siteName = useSiteName();
  const loggedIn = useIsLoggedIn();
  const { rows, status, isLoading, isError, formatError } = useMarketRows('spot');
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const visible = useMemo(() => filterRows(rows, deferredQuery), [rows, deferredQuery]);
  const hot = useMemo(() => rows.filter((row) => row.coin.hot), [rows]);
  const heroId = useId();
  useDocumentTitle(siteName);
  const marketsId = useId();

  return (
    <>
      <Box
        as="section"
        aria-labelledby={heroId}
        position="relative"
        overflow="hidden"
        borderBottomWidth="1px"
        bgGradient="to-b"
        gradientFrom={{ base: 'brand.50', _dark: '#151019' }}
        gradientTo="bg"
      >
        <Box
          aria-hidden="true"
          position="absolute"
          top="-40%"
          right="-10%"
          w="60%"
          h="160%"
          bgImage="radial-gradient(closest-side, rgba(247,108,21,0.18), transparent)"
          pointerEvents="none"
        />
        <Container maxW="1440px" px={{ base: '4', md: '6' }} py={{ base: '12', md: '20' }} position="relative">
          <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1.05fr) minmax(0, 0.95fr)' }} gap={{ base: '10', lg: '16' }} alignItems="center">
            <Stack gap="6">
              <Heading as="h1" id={heroId} fontSize={{ base: '4xl', md: '6xl' }} lineHeight="1.05" letterSpacing="-0.03em" fontWeight="800">
                {siteName}
              </Heading>
              <Text fontSize={{ base: 'lg', md: 'xl' }} color="fg.muted" maxW="xl">
                {t('home.tagline')}
              </Text>
              <form
                role="search"
                aria-label={t('home.searchLabel')}
                onSubmit={(event) => {
                  event.preventDefault();
                  document.getElementById(marketsId)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                }}
              >
                <InputGroup startElement={<SearchIcon boxSize="5" color="fg.muted" />} maxW="lg">
                  <Input
                    type="search"
                    size="xl"
                    rounded="xl"
                    bg="bg.panel"
                    aria-label={t('home.searchLabel')}
                    placeholder={t('home.searchPlaceholder')}
                    value={query}
                    onChange={(event) => setQuery(event.currentTarget.value)}
                    autoComplete="off"
                    spellCheck={false}
                  />
                </InputGroup>
              </form>
              <HStack gap="3" flexWrap="wrap">
                {!loggedIn && (
                  <Button asChild size="lg" colorPalette="brand" rounded="lg">
                    <RouterLink to="/user/register">{t('home.ctaRegister')}</RouterLink>
                  </Button>
                )}
                <Button asChild size="lg" variant="outline" rounded="lg">
                  <RouterLink to="/trade/index?type=bb">
                    {t('home.ctaTrade')}
                    <ArrowRightIcon boxSize="4" />
                  </RouterLink>
                </Button>
              </HStack>
            </Stack>
            <HotCoins rows={hot} />
          </Grid>
        </Container>
      </Box>

      <Container as="section" aria-labelledby={marketsId} maxW="1440px" px={{ base: '4', md: '6' }} pt="12">
        <Flex align={{ base: 'flex-start', sm: 'center' }} justify="space-between" gap="4" mb="5" direction={{ base: 'column', sm: 'row' }}>
          <Stack gap="1">
            <Heading as="h2" id={marketsId} fontSize="2xl" letterSpacing="-0.02em" scrollMarginTop="24">
              {t('home.marketsTitle')}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {t('home.marketsSubtitle')}
            </Text>
          </Stack>
          <HStack gap="3">
            <FeedStatusBadge status={status} />
            <Button asChild variant="ghost" size="sm">
              <RouterLink to="/quotes/index">
                {t('home.viewAllMarkets')}
                <ArrowRightIcon boxSize="4" />
              </RouterLink>
            </Button>
          </HStack>
        </Flex>
        {isError && rows.length === 0 ? (
          <Box role="alert" borderWidth="1px" rounded="xl" p="8" textAlign="center" color="fg.muted">
            {t('home.loadFailed')}
          </Box>
        ) : formatError ? (
          <Box role="alert" borderWidth="1px" rounded="xl" p="8" textAlign="center" color="fg.error">
            {coreErrorText(t, formatError)}
          </Box>
        ) : isLoading ? (
          <Box role="status" borderWidth="1px" rounded="xl" p="8" textAlign="center" color="fg.muted">
            {t('common.loading')}
          </Box>
        ) : (
          <CoinTable rows={visible} labelledBy={marketsId} query={deferredQuery.trim()} />
        )}
      </Container>
    </>
  );
}
