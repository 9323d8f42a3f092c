/**
 * /account/entrust/* (spec section 2): the user's orders by product, one path per tab — spot (the
 * shared spot tables of every pair: open orders with cancel, order history, trade history), and
 * margin-all (cross), margin-fixed (isolated) and future/u (every USDT-M futures list) with the shared
 * futures tables, and future/coin, which says coin-margined futures are not offered. A missing
 * or unknown tab opens spot. Visitors go to the login screen and come back after it.
 *
 * @module
 */

import { Box, Container, Flex, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, Link as RouterLink, useLocation } from 'react-router';
import { SpotOrdersBrowser } from '../../components/spot-orders';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { loginPath, useIsLoggedIn } from '../../lib/session';
import { FuturesOrdersPanel } from './futures-orders-panel';
import { ENTRUST_PATH, ENTRUST_TABS, type EntrustTab, entrustPath, tabOf } from './lib/tabs';

const tabLinkStyles = {
  display: 'inline-flex',
  alignItems: 'center',
  px: '3',
  py: '2.5',
  mb: '-1px',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  whiteSpace: 'nowrap',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  transition: 'color 0.15s, border-color 0.15s',
  _hover: { color: 'fg' },
  _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '-2px', rounded: 'sm' },
  '&[aria-current=page]': { color: 'fg', fontWeight: 'semibold', borderColor: 'brand.solid' },
} as const;

/** The tab row: links that keep the tab in the path, scrolling sideways on narrow screens. */
function EntrustNav({ active }: { active: EntrustTab | undefined }) {
  const { t } = useTranslation();
  return (
    <Box as="nav" aria-label={t('entrust.nav')} borderBottomWidth="1px" overflowX="auto" mb="6" css={{ scrollbarWidth: 'thin' }}>
      <Flex as="ul" listStyleType="none" gap="1" w="max-content">
        {ENTRUST_TABS.map((tab) => (
          <li key={tab.path}>
            <chakra.a asChild {...tabLinkStyles}>
              <RouterLink to={entrustPath(tab)} aria-current={tab === active ? 'page' : undefined}>
                {t(`entrust.tabs.${tab.key}`)}
              </RouterLink>
            </chakra.a>
          </li>
        ))}
      </Flex>
    </Box>
  );
}

export function EntrustPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  const active = tabOf(location.pathname);
  const title = t('screens.accountEntrust');
  useDocumentTitle(active ? `${t(`entrust.tabs.${active.key}`)} · ${title}` : title);

  if (!loggedIn) return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;

  return (
    <Container maxW="1280px" px={{ base: '4', md: '6' }} py={{ base: '6', md: '10' }}>
      <Stack gap="1" mb={{ base: '4', md: '6' }}>
        <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          {title}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t('entrust.description')}
        </Text>
      </Stack>
      <EntrustNav active={active} />
      <Routes>
        <Route path="spot" element={<SpotOrdersBrowser label={t('entrust.spotLists')} />} />
        <Route path="margin-all" element={<FuturesOrdersPanel tab="marginAll" />} />
        <Route path="margin-fixed" element={<FuturesOrdersPanel tab="marginFixed" />} />
        <Route path="future/u" element={<FuturesOrdersPanel tab="futureU" />} />
        <Route path="future/coin" element={<FuturesOrdersPanel tab="futureCoin" />} />
        <Route path="*" element={<Navigate to={`${ENTRUST_PATH}/spot`} replace />} />
      </Routes>
    </Container>
  );
}
